// The charts page's History view (issue 27): one series (metric and its params) of each chosen scenario
// over its campaigns, a chart per testbed, as the scenario page's History section draws it and from
// the same procedure (scenarios.history). The chart links to that section for the same series.
import { formatParams } from "@cnibench/analysis/format";
import { metricCatalogue } from "@cnibench/schema";
import { TRPCError } from "@trpc/server";
import { EmptyState } from "~/app/_ui/empty-state";
import { TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { Muted } from "~/app/_ui/text";
import { historyView } from "~/server/chart-views";
import { historyByTestbed, historyScenarios } from "~/server/history-charts";
import type { HistoryView as SeriesHistoryView } from "~/server/routers/history.types";
import { api } from "~/trpc/server";
import { exploreHref } from "../_explore/params";
import { seriesKey } from "../scenarios/[id]/history-params";
import { HistorySeries } from "../scenarios/[id]/history-series";
import { type loadChartParams, parseWhere } from "./params";

type ChartParams = Awaited<ReturnType<typeof loadChartParams>>;
type Params = Record<string, string | number | boolean>;

/** The scenario page's History section following this series: `/scenarios/<id>?history=…#history-heading`. */
const scenarioHistoryHref = (scenarioId: string, metric: string, params: Params): string =>
  `/scenarios/${encodeURIComponent(scenarioId)}?${new URLSearchParams({ history: seriesKey(metric, params) })}#history-heading`;

export async function HistoryView({ params }: { params: ChartParams }) {
  const metric = params.metric;
  const seriesParams = parseWhere(params.where);
  const definition = metricCatalogue.find((m) => m.key === metric);
  const metricLabel = definition?.label ?? metric;
  const series = `${metricLabel} · ${formatParams(seriesParams, { empty: "no params" })}`;
  const { ids, more } = historyScenarios(params.scenario);
  if (ids.length === 0) {
    return (
      <EmptyState title="No scenario chosen">
        The history view follows one series over the campaigns of chosen scenarios (at most {historyView.maxScenarios}):
        add <code>scenario=</code> to the address, or{" "}
        <TextLink href={exploreHref("/", params)}>choose them in Explore</TextLink>.
      </EmptyState>
    );
  }
  const trpc = await api();
  const answers = await Promise.all(
    ids.map(async (scenarioId) => ({
      scenarioId,
      view: await trpc.scenarios.history({ scenarioId, metric, params: seriesParams }).catch((e: unknown) => {
        if (e instanceof TRPCError && e.code === "NOT_FOUND") return null;
        throw e;
      }),
    })),
  );
  const { testbeds, missing } = historyByTestbed(answers);
  const labelOf = (view: SeriesHistoryView, id: string) => view.testbed.scenarios.find((s) => s.id === id)?.label ?? id;

  return (
    <div className="space-y-3">
      <Muted>
        <span className="font-medium text-zinc-900 dark:text-zinc-100">{series}</span> over time: each campaign’s median
        with the min–max of its runs, across every scenario of the chosen scenario’s testbed (each CNI version, kernel,
        node image or Kubernetes version it ran on), one chart per testbed.
      </Muted>
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
        {testbeds.map(({ scenarioIds, view }) => {
          const [first = ""] = scenarioIds;
          // Two chosen scenarios of one testbed often share a label (an upgrade keeps it): say it once.
          const name = [...new Set(scenarioIds.map((id) => labelOf(view, id)))].join(", ");
          const href = scenarioHistoryHref(first, metric, seriesParams);
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
                    {name} has no campaign of {series}
                    {view.testbed.scenarios.length > 1 ? ", nor any scenario of its testbed" : ""}.
                  </EmptyState>
                </>
              ) : (
                <HistorySeries
                  view={view}
                  title={name}
                  yLabel={metricLabel}
                  unit={definition?.unit ?? ""}
                  filename={`history-${metric}-${first}`}
                />
              )}
              <p className="text-sm">
                <TextLink href={href}>
                  {view.campaigns.length === 0 ? "Its series" : "This history"} on the scenario page
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
    </div>
  );
}
