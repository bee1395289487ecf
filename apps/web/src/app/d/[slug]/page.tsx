import type { Metadata } from "next";
import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { cache } from "react";
import { Button } from "~/app/_ui/button";
import { Notice } from "~/app/_ui/notice";
import { Muted, PageHeader } from "~/app/_ui/text";
import { webEnv } from "~/env";
import { cardMetadata } from "~/server/cards/card-meta";
import { marginsSchema } from "~/server/routers/compare.types";
import { loadAllRows } from "~/server/views/rows-per-metric";
import { api, orNotFound } from "~/trpc/server";
import { compareHref, marginItems } from "../../compare/params";
import { CompareReport } from "../../compare/report";
import { publishAction, revokeAction } from "./actions";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<SearchParams> };

const load = cache(async (slug: string) => orNotFound((await api()).compare.permalink({ slug })));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const link = await load((await params).slug);
  const [baseline, ...others] = link.comparison.labels;
  const title = `${others.join(", ")} vs ${baseline}`;
  const description = link.comparison.summaries.join(". ");
  const card = cardMetadata(`/card/d/${encodeURIComponent(link.slug)}.png`, `${title}: the most significant verdicts`);
  return {
    title,
    description,
    ...card,
    openGraph: { ...card.openGraph, title, description, type: "article" },
    twitter: { ...card.twitter, title, description },
  };
}

export default async function PermalinkPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const { all } = await loadAllRows(searchParams);
  const link = await load(slug);
  // The live comparison keeps the margins the link was shared with, so its verdicts mean the same.
  const margins = marginsSchema.safeParse(link.view.margins ?? {}).data ?? {};
  const live = compareHref("/compare", { s: link.scenarioIds, margin: marginItems(margins) });
  return (
    <div className="space-y-6">
      <PageHeader title={`${link.comparison.labels.slice(1).join(", ")} vs ${link.comparison.labels[0]}`}>
        Shared comparison, pinned on {link.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC to the{" "}
        {link.pins.length} bundles current then. Permalink:{" "}
        <code className="select-all rounded bg-zinc-100 px-1 dark:bg-zinc-800">/d/{link.slug}</code>
      </PageHeader>
      {link.approvals.length > 0 ? (
        <section aria-label="Publication" className="space-y-2 text-sm">
          <p>
            {link.published
              ? "Public: anyone with the link sees these pinned bundles, and nothing else of the workspaces."
              : "Private: only readers of every workspace it pins can open it. It becomes public once an owner of each private workspace agrees."}
          </p>
          <ul className="flex flex-wrap gap-2">
            {link.approvals.map((a) => (
              <li key={a.slug} className="rounded border border-zinc-300 px-2 py-0.5 dark:border-zinc-700">
                {a.name}: {a.agreed ? "agreed" : "not agreed"}
              </li>
            ))}
          </ul>
          {link.canPublish ? (
            <div className="flex flex-wrap gap-2">
              <form action={publishAction}>
                <input type="hidden" name="slug" value={link.slug} />
                <input type="hidden" name="published" value={link.approvedByVisitor ? "false" : "true"} />
                <Button type="submit" look="small">
                  {link.approvedByVisitor ? "Withdraw my workspaces' agreement" : "Agree to publish for my workspaces"}
                </Button>
              </form>
              <form action={revokeAction}>
                <input type="hidden" name="slug" value={link.slug} />
                <Button type="submit" look="small">
                  Delete this permalink
                </Button>
              </form>
            </div>
          ) : null}
        </section>
      ) : null}
      {link.pinnedOnly ? (
        <Muted role="note">Published from private workspaces: this page shows the pinned bundles only.</Muted>
      ) : null}
      {link.newer.length > 0 ? (
        <Notice tone="info" role="status">
          {link.newer.length} newer {link.newer.length === 1 ? "bundle has" : "bundles have"} been uploaded for these
          scenarios since; this page keeps the pinned numbers.{" "}
          <Link href={live} className="font-medium underline">
            See the live comparison
          </Link>
          .
        </Notice>
      ) : null}
      {link.missing.length > 0 ? (
        <Notice tone="warning" as="div" role="alert">
          {link.missing.length === 1 ? "A pinned bundle was" : `${link.missing.length} pinned bundles were`} deleted;
          what remains is shown:
          <ul className="mt-1 list-disc pl-5">
            {link.missing.map((m) => (
              <li key={m.bundleId}>
                {m.label} <span className="font-mono text-xs">({m.bundleId})</span>
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <CompareReport
        data={link.comparison}
        apiUrl={webEnv().publicApiUrl}
        allRowsHref={all ? null : `/d/${encodeURIComponent(slug)}?all=true`}
        csvHref={`/d/${encodeURIComponent(slug)}/evidence.csv`}
      />
    </div>
  );
}
