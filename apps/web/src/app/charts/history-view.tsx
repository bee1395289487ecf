// The charts page's History view (issue 27): one series (metric and its params) of each chosen scenario
// over its campaigns, a chart per testbed, as the scenario page's History section draws it and from
// the same procedure (scenarios.history). The chart links to that section for the same series; its
// embed (/embed/charts?view=history…) draws the same charts from loadHistory.
import { formatParams } from "@cnibench/format";
import { metricCatalogue, type Params } from "@cnibench/schema";
import { TRPCError } from "@trpc/server";
import { EmptyState } from "~/app/_ui/empty-state";
import { TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { Muted } from "~/app/_ui/text";
import type { HistoryView as SeriesHistoryView } from "~/server/routers/history.types";
import { historyView } from "~/server/views/chart-views";
import { historyByTestbed, historyScenarios } from "~/server/views/history-charts";
import { api } from "~/trpc/server";
import { exploreHref } from "../_explore/params";
import { chosen, seriesKey, seriesOf } from "../scenarios/[id]/history-params";
import { HistorySeries } from "../scenarios/[id]/history-series";
import { EmbedSnippets, historyEmbedHeight, seriesBadgePath } from "./embed-snippets";
import { chartsHref, type loadChartParams, parseWhere, whereEntries } from "./params";

type ChartParams = Awaited<ReturnType<typeof loadChartParams>>;
type Caller = Awaited<ReturnType<typeof api>>;

/** The scenario page's History section following this series: `/scenarios/<id>?history=…#history-heading`. */
const scenarioHistoryHref = (scenarioId: string, metric: string, params: Params): string =>
  `/scenarios/${encodeURIComponent(scenarioId)}?${new URLSearchParams({ history: seriesKey(metric, params) })}#history-heading`;

/** The series the address follows: its metric and params, and how they read. */
export type HistorySeriesChoice = { metric: string; params: Params; metricLabel: string; unit: string; words: string };

/** A testbed's history and the chosen scenarios it stands for (historyByTestbed). */
export type TestbedHistoryView = { scenarioIds: string[]; view: SeriesHistoryView };

/**
 * The chosen scenarios' histories of the address' series, one view per testbed, from scenarios.history;
 * a scenario that does not exist or may not be read is `missing`. The charts page and its embed both
 * draw from this, so they show the same numbers.
 */
export async function loadHistory(trpc: Caller, params: ChartParams) {
  const metric = params.metric;
  const seriesParams = parseWhere(params.where);
  const definition = metricCatalogue.find((m) => m.key === metric);
  const metricLabel = definition?.label ?? metric;
  const series: HistorySeriesChoice = {
    metric,
    params: seriesParams,
    metricLabel,
    unit: definition?.unit ?? "",
    words: `${metricLabel} · ${formatParams(seriesParams, { empty: "no params" })}`,
  };
  const { ids, more } = historyScenarios(params.scenario);
  const answers = await Promise.all(
    ids.map(async (scenarioId) => ({
      scenarioId,
      view: await trpc.scenarios.history({ scenarioId, metric, params: seriesParams }).catch((e: unknown) => {
        if (e instanceof TRPCError && e.code === "NOT_FOUND") return null;
        throw e;
      }),
    })),
  );
  return { series, ids, more, ...historyByTestbed(answers) };
}

/** A testbed's name: its chosen scenarios' labels, each once (an upgrade often keeps the label). */
export function testbedName({ scenarioIds, view }: TestbedHistoryView): string {
  const labelOf = (id: string) => view.testbed.scenarios.find((s) => s.id === id)?.label ?? id;
  return [...new Set(scenarioIds.map(labelOf))].join(", ");
}

/** A testbed's history chart and its change points in words (the scenario page's HistorySeries). */
export function TestbedHistory({ testbed, series }: { testbed: TestbedHistoryView; series: HistorySeriesChoice }) {
  return (
    <HistorySeries
      view={testbed.view}
      title={testbedName(testbed)}
      yLabel={series.metricLabel}
      unit={series.unit}
      filename={`history-${series.metric}-${testbed.scenarioIds[0] ?? ""}`}
    />
  );
}

export async function HistoryView({ params }: { params: ChartParams }) {
  if (historyScenarios(params.scenario).ids.length === 0) {
    return (
      <EmptyState title="No scenario chosen">
        The history view follows one series over the campaigns of chosen scenarios (at most {historyView.maxScenarios}):
        add <code>scenario=</code> to the address, or{" "}
        <TextLink href={exploreHref("/", params)}>choose them in Explore</TextLink>.
      </EmptyState>
    );
  }
  const trpc = await api();
  let { series, ids, more, testbeds, missing } = await loadHistory(trpc, params);
  // No chosen scenario has a campaign of the address' series, and that series is the crossover's default
  // (short-connection RPS), not one the reader chose: follow the first scenario's series with the most
  // campaigns instead, as its page does, and say so. A series the reader chose stays, with its empty state.
  let replaced: string | null = null;
  const defaults = params.metric === "http.rps" && params.where.join("&") === "connection=short";
  if (defaults && testbeds.length > 0 && testbeds.every((t) => t.view.campaigns.length === 0) && ids[0]) {
    const own = await trpc.scenarios.byId({ id: ids[0] }).catch(() => null);
    const best = own ? chosen(seriesOf(own.groups), null) : undefined;
    if (best && best.key !== seriesKey(series.metric, series.params)) {
      replaced = series.words;
      ({ series, ids, more, testbeds, missing } = await loadHistory(trpc, {
        ...params,
        metric: best.metric,
        where: whereEntries(best.params),
      }));
    }
  }
  // The badge follows the first drawn chart's series from its first chosen scenario.
  const badgeFrom = testbeds.find((t) => t.view.campaigns.length > 0)?.scenarioIds[0];

  return (
    <div className="space-y-3">
      <Muted>
        <span className="font-medium text-zinc-900 dark:text-zinc-100">{series.words}</span> over time: each campaign’s
        median with the min–max of its runs, across every scenario of the chosen scenario’s testbed (each CNI version,
        kernel, node image or Kubernetes version it ran on), one chart per testbed.
      </Muted>
      {replaced ? (
        <Notice tone="warning" role="note">
          No chosen scenario has a campaign of {replaced}: showing {series.words}, the series with the most campaigns of
          the first one.
        </Notice>
      ) : null}
      {more > 0 ? (
        <Notice tone="warning" role="note">
          Showing the first {historyView.maxScenarios} of {ids.length + more} chosen scenarios; {more} more are not
          drawn. Narrow the choice in <TextLink href={exploreHref("/", params)}>Explore</TextLink>.
        </Notice>
      ) : null}
      {missing.length > 0 ? (
        <Notice tone="warning" role="note">
          No scenario {missing.join(", ")} here, or you may not read it.
        </Notice>
      ) : null}
      <div className="grid gap-5 xl:grid-cols-2">
        {testbeds.map((testbed) => {
          const { scenarioIds, view } = testbed;
          const [first = ""] = scenarioIds;
          const name = testbedName(testbed);
          // With no campaign of this series (the address' metric and params, perhaps the crossover's
          // defaults rather than the reader's choice), the scenario page's History picks a series it has.
          const href =
            view.campaigns.length === 0
              ? `/scenarios/${encodeURIComponent(first)}#history-heading`
              : scenarioHistoryHref(first, series.metric, series.params);
          return (
            <section
              key={first}
              aria-label={`History of ${name}`}
              className="min-w-0 space-y-2"
              data-testid="history-testbed"
            >
              {view.campaigns.length === 0 ? (
                <>
                  <h3 className="font-semibold">{name}</h3>
                  <EmptyState>
                    {name} has no campaign of {series.words}
                    {view.testbed.scenarios.length > 1 ? ", nor any scenario of its testbed" : ""}.
                  </EmptyState>
                </>
              ) : (
                <TestbedHistory testbed={testbed} series={series} />
              )}
              <p className="text-sm">
                <TextLink href={href}>
                  {view.campaigns.length === 0 ? "The series it has, on its page" : "This history on the scenario page"}
                </TextLink>
                {view.testbed.scenarios.length > 1 ? (
                  <span className="text-zinc-600 dark:text-zinc-400">
                    {" "}
                    · testbed of {view.testbed.scenarios.length} scenarios
                  </span>
                ) : null}
              </p>
            </section>
          );
        })}
      </div>
      {badgeFrom ? (
        <EmbedSnippets
          path={chartsHref("/charts", params)}
          title={`${series.words} over time`}
          height={historyEmbedHeight}
          badge={seriesBadgePath(badgeFrom, series.metric, series.params)}
        />
      ) : null}
    </div>
  );
}
