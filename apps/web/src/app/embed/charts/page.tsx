import { resolveBetter } from "@cnibench/analysis";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { GroupedBarChart, LineSeriesChart } from "~/app/_charts/deferred";
import {
  type BarView,
  barChartFilename,
  barViews,
  crossoverAxisWords,
  crossoverValueLabel,
  drawsChanges,
} from "~/server/views/chart-views";
import { api, orNotFound } from "~/trpc/server";
import { loadHistory, TestbedHistory, testbedName } from "../../charts/history-view";
import { type ChartParams, chartScope, chartsHref, crossoverInput, loadChartParams } from "../../charts/params";
import { EmbedFrame, embedMetadata, themeOf } from "../frame";

export const metadata: Metadata = { ...embedMetadata, title: "Charts (embed)" };

type Caller = Awaited<ReturnType<typeof api>>;

/**
 * /embed/charts?<the charts page's address>[&theme=dark|light]: the view's chart(s), drawn by the
 * same components from the same procedures as /charts, without its controls (the history view's
 * testbeds without a campaign of the series are left out). The procedures show
 * each visitor what they may read; a chart with nothing to draw (nothing matches, or the scenarios
 * are private to someone else) is a 404, so an embed never tells a stranger more than that.
 */
export default async function EmbedChartsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const search = await searchParams;
  const params = await loadChartParams(search);
  const trpc = await api();
  const chart =
    params.view === "crossover"
      ? await crossover(trpc, params)
      : params.view === "history"
        ? await history(trpc, params)
        : await bars(trpc, params);
  if (!chart) notFound();
  return (
    <EmbedFrame theme={themeOf(search)} href={chartsHref("/charts", params)}>
      {chart}
    </EmbedFrame>
  );
}

async function crossover(trpc: Caller, params: ChartParams) {
  // A request the page would refuse (BAD_REQUEST: too many scenarios, too long a value) is a 404 here.
  const data = await orNotFound(trpc.charts.crossover(crossoverInput(params)));
  if (data.series.length === 0) return null;
  const names = new Map(data.scenarios.map((s) => [s.id, s.label]));
  const degradation = params.y === "degradation";
  return (
    <LineSeriesChart
      title={`${data.title} by ${crossoverAxisWords(data.xParam)}`}
      summary={
        data.sentences.length > 0 ? (
          <ul className="text-sm">
            {data.sentences.map((s) => (
              <li key={s}>{s}.</li>
            ))}
          </ul>
        ) : undefined
      }
      series={data.series.map(({ points, scenarioId, ...line }) => ({
        ...line,
        scenario: { id: scenarioId, name: names.get(scenarioId) ?? line.label },
        points: points.map(({ summary, scenarioId: of, ...point }) => ({
          ...point,
          n: summary?.n,
          links: [{ label: "scenario", href: `/scenarios/${of}` }],
        })),
      }))}
      markers={data.markers}
      xLabel={`${crossoverAxisWords(data.xParam)} (count)`}
      yLabel={crossoverValueLabel(params.y, data)}
      unit={data.unit}
      better={resolveBetter(data.metric)}
      xScale={params.scale}
      filename={`cnibench-${data.metric}-by-${data.xParam}${degradation ? "-degradation" : ""}`}
    />
  );
}

/** The history view: the series' chart for each chosen scenario's testbed that has a campaign of it. */
async function history(trpc: Caller, params: ChartParams) {
  const { series, testbeds } = await orNotFound(loadHistory(trpc, params));
  const drawn = testbeds.filter((t) => t.view.campaigns.length > 0);
  if (drawn.length === 0) return null;
  return (
    <div className="space-y-3">
      <h2 className="font-semibold">{series.words} over time</h2>
      {/* One testbed takes the whole frame; several go side by side where there is room. */}
      <div className={drawn.length > 1 ? "grid gap-5 xl:grid-cols-2" : "grid"}>
        {drawn.map((testbed) => (
          <section
            key={testbed.scenarioIds[0]}
            aria-label={`History of ${testbedName(testbed)}`}
            className="min-w-0 space-y-2"
            data-testid="history-testbed"
          >
            <TestbedHistory testbed={testbed} series={series} />
          </section>
        ))}
      </div>
    </div>
  );
}

/** The bar views (throughput, latency…): the views drawn with bars, not the crossover's or another's lines. */
const isBarView = (view: string): view is BarView => Object.hasOwn(barViews, view);

async function bars(trpc: Caller, params: ChartParams) {
  const view: string = params.view;
  if (!isBarView(view)) return null;
  const charts = await orNotFound(trpc.charts.bars({ ...chartScope(params), view, percentile: params.percentile }));
  if (charts.length === 0) return null;
  return (
    <div className="grid gap-3">
      {charts.map((c) => (
        <GroupedBarChart
          // Overheads draw several charts of one metric (Hubble's cost and encryption's on TCP).
          key={c.key ?? c.metric}
          title={view === "latency" && c.metric !== "pod.rtt" ? `${c.title}, ${params.percentile}` : c.title}
          series={c.series}
          better={view === "overheads" ? "lower" : resolveBetter(c.metric)}
          data={c.data.map(({ values, ...group }) => ({
            ...group,
            values: Object.fromEntries(Object.entries(values).map(([id, v]) => [id, v && { ...v, n: v.summary?.n }])),
          }))}
          categoryLabel={barViews[view].groups}
          yLabel={c.unit}
          unit={c.unit}
          references={c.references}
          filename={barChartFilename(view, c)}
          changes={drawsChanges(view)}
        />
      ))}
    </div>
  );
}
