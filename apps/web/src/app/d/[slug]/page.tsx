import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { cache } from "react";
import { webEnv } from "~/env";
import { loadAllRows } from "~/server/fold";
import { marginsSchema } from "~/server/routers/compare.types";
import { api } from "~/trpc/server";
import { compareHref, marginItems } from "../../compare/params";
import { CompareReport } from "../../compare/report";
import { publishAction, revokeAction } from "./actions";

const button = "rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<SearchParams> };

const load = cache(async (slug: string) => {
  try {
    return await (await api()).compare.permalink({ slug });
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const link = await load((await params).slug);
  const [baseline, ...others] = link.comparison.labels;
  const title = `${others.join(", ")} vs ${baseline}`;
  const description = link.comparison.summaries.join(". ");
  return { title, description, openGraph: { title, description, type: "article" } };
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
      <header>
        <h1 className="text-xl font-semibold">
          {link.comparison.labels.slice(1).join(", ")} vs {link.comparison.labels[0]}
        </h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Shared comparison, pinned on {link.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC to the{" "}
          {link.pins.length} bundles current then. Permalink:{" "}
          <code className="select-all rounded bg-zinc-100 px-1 dark:bg-zinc-800">/d/{link.slug}</code>
        </p>
      </header>
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
                <button type="submit" className={button}>
                  {link.approvedByVisitor ? "Withdraw my workspaces' agreement" : "Agree to publish for my workspaces"}
                </button>
              </form>
              <form action={revokeAction}>
                <input type="hidden" name="slug" value={link.slug} />
                <button type="submit" className={button}>
                  Delete this permalink
                </button>
              </form>
            </div>
          ) : null}
        </section>
      ) : null}
      {link.pinnedOnly ? (
        <p role="note" className="text-sm text-zinc-600 dark:text-zinc-400">
          Published from private workspaces: this page shows the pinned bundles only.
        </p>
      ) : null}
      {link.newer.length > 0 ? (
        <p
          role="status"
          className="rounded border border-blue-300 bg-blue-50 p-2 text-sm text-blue-900 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-200"
        >
          {link.newer.length} newer {link.newer.length === 1 ? "bundle has" : "bundles have"} been uploaded for these
          scenarios since; this page keeps the pinned numbers.{" "}
          <Link href={live} className="font-medium underline">
            See the live comparison
          </Link>
          .
        </p>
      ) : null}
      {link.missing.length > 0 ? (
        <div
          role="alert"
          className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
        >
          {link.missing.length === 1 ? "A pinned bundle was" : `${link.missing.length} pinned bundles were`} deleted;
          what remains is shown:
          <ul className="mt-1 list-disc pl-5">
            {link.missing.map((m) => (
              <li key={m.bundleId}>
                {m.label} <span className="font-mono text-xs">({m.bundleId})</span>
              </li>
            ))}
          </ul>
        </div>
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
