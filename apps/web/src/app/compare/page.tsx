import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { Button } from "~/app/_ui/button";
import { Card } from "~/app/_ui/card";
import { TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { Muted, PageHeader } from "~/app/_ui/text";
import { currentUserId } from "~/auth";
import { webEnv } from "~/env";
import { cardMetadata } from "~/server/cards/card-meta";
import { api } from "~/trpc/server";
import { shareComparison } from "./actions";
import { compareHref, loadCompareParams, marginItems, readMargins } from "./params";
import { CompareReport } from "./report";

/** With 2 to 4 scenarios, the comparison's link card (its verdicts), from the same address. */
export async function generateMetadata({ searchParams }: { searchParams: Promise<SearchParams> }): Promise<Metadata> {
  const { s, margin } = await loadCompareParams(searchParams);
  const chosen = [...new Set(s ?? [])];
  if (chosen.length < 2 || chosen.length > 4) return { title: "Compare" };
  return {
    title: "Compare",
    ...cardMetadata(
      compareHref("/card/compare.png", { s: chosen, margin }),
      "The comparison's most significant verdicts",
    ),
  };
}

export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { s, margin, all } = await loadCompareParams(searchParams);
  const chosen = [...new Set(s ?? [])];
  const { margins, ignored } = readMargins(margin);
  // Every link of the page keeps the valid margins.
  const href = (scenarioIds: string[], more: { all?: boolean } = {}, path = "/compare") =>
    compareHref(path, { s: scenarioIds, margin: marginItems(margins), ...more });
  const trpc = await api();
  const problem =
    chosen.length === 0
      ? null
      : chosen.length < 2
        ? "Choose at least 2 scenarios."
        : chosen.length > 4
          ? "Choose at most 4 scenarios."
          : null;
  let data: Awaited<ReturnType<typeof trpc.compare.view>> | null = null;
  if (!problem && chosen.length >= 2) {
    try {
      data = await trpc.compare.view({ scenarioIds: chosen, margins });
    } catch (error) {
      if (!(error instanceof TRPCError && error.code === "BAD_REQUEST")) throw error;
    }
  }

  return (
    <div className="space-y-6">
      <PageHeader title="Compare">
        2 to 4 scenarios side by side; the first is the baseline the others are measured against.
      </PageHeader>
      {problem ? (
        <Notice tone="warning" role="alert">
          {problem}
        </Notice>
      ) : null}
      {ignored.length > 0 ? (
        <Notice tone="warning" role="alert">
          Margins left out: {ignored.join(", ")}. Write one as margin=metric:percent, for a catalogue metric with a
          winner or an x. metric, above 0 and at most 100 (e.g. margin=tcp.throughput:3).
        </Notice>
      ) : null}
      {data && data.unknownIds.length > 0 ? (
        <Notice tone="warning" role="alert">
          No scenario {data.unknownIds.join(", ")}: left out.
        </Notice>
      ) : null}
      {data && data.scenarios.length >= 2 ? (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            {data.scenarios.map((sc, i) => (
              <span
                key={sc.id}
                className="inline-flex items-center gap-1 rounded-full border border-zinc-300 px-2 py-0.5 dark:border-zinc-700"
              >
                <Link href={`/scenarios/${sc.id}`} className="hover:underline">
                  {data.labels[i]}
                </Link>
                {i === 0 ? (
                  <span className="text-xs text-zinc-500">baseline</span>
                ) : (
                  <TextLink className="text-xs" href={href([sc.id, ...chosen.filter((x) => x !== sc.id)])}>
                    make baseline
                  </TextLink>
                )}
                <Link
                  aria-label={`Remove ${data.labels[i]}`}
                  className="text-xs text-zinc-500 hover:text-zinc-900 dark:hover:text-zinc-100"
                  href={href(chosen.filter((x) => x !== sc.id))}
                >
                  ✕
                </Link>
              </span>
            ))}
            {(await currentUserId()) ? (
              <form action={shareComparison} className="ml-auto">
                {data.scenarios.map((sc) => (
                  <input key={sc.id} type="hidden" name="s" value={sc.id} />
                ))}
                <MarginInputs margins={margins} />
                <Button type="submit" look="secondary">
                  Share a permalink
                </Button>
              </form>
            ) : (
              <Muted className="ml-auto">Sign in to share a permalink.</Muted>
            )}
          </div>
          <CompareReport
            data={data}
            apiUrl={webEnv().publicApiUrl}
            allRowsHref={all ? null : href(chosen, { all: true })}
            csvHref={href(chosen, {}, "/compare/evidence.csv")}
          />
        </>
      ) : (
        <Picker chosen={chosen} margins={margins} />
      )}
    </div>
  );
}

/** Scenarios the picker lists; past that, the explorer's filters are the way to find them. */
const pickable = 60;

/** Choose scenarios with a plain form: works with the keyboard and without scripts. */
async function Picker({ chosen, margins }: { chosen: string[]; margins: Record<string, number> }) {
  const { scenarios: all } = await (await api()).scenarios.explore({});
  // The ones already chosen stay ticked even when they are not among the first listed.
  const scenarios = [
    ...all.filter((sc) => chosen.includes(sc.id)),
    ...all.filter((sc) => !chosen.includes(sc.id)),
  ].slice(0, Math.max(pickable, chosen.length));
  return (
    <form action="/compare" method="get" className="space-y-3">
      {all.length > scenarios.length ? (
        <Muted>
          {scenarios.length} of {all.length} scenarios listed. <TextLink href="/">Filter them in Explore</TextLink> and
          tick the ones to compare there.
        </Muted>
      ) : null}
      <Card as="fieldset">
        <legend className="px-1 text-sm font-semibold">Scenarios (the first ticked is the baseline)</legend>
        <ul className="grid gap-1 sm:grid-cols-2">
          {scenarios.map((sc) => (
            <li key={sc.id}>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="s"
                  value={sc.id}
                  defaultChecked={chosen.includes(sc.id)}
                  className="accent-blue-600"
                />
                <span>
                  {sc.label}{" "}
                  <span className="text-xs text-zinc-500">
                    {sc.provider} · {sc.sku}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </Card>
      <MarginInputs margins={margins} />
      <Button type="submit" look="secondary">
        Compare
      </Button>
    </form>
  );
}

/** The margins of the address, kept by a form's submission. */
function MarginInputs({ margins }: { margins: Record<string, number> }) {
  return marginItems(margins).map((m) => <input key={m} type="hidden" name="margin" value={m} />);
}
