import { facetDefinitions, facetKeys, resolveBetter } from "@cnibench/analysis";
import { barScores, rankByScore } from "@cnibench/charts/top";
import type { PlottedFigure } from "@cnibench/db/read-models";
import { metricCatalogue } from "@cnibench/schema";
import type { Metadata } from "next";
import Link from "next/link";
import type { Nullable, SearchParams } from "nuqs/server";
import { GroupedBarChart, LineSeriesChart } from "~/app/_charts/deferred";
import { EmptyState } from "~/app/_ui/empty-state";
import { TextLink } from "~/app/_ui/link";
import { PageHeader } from "~/app/_ui/text";
import { webEnv } from "~/env";
import { cardMetadata } from "~/server/cards/card-meta";
import type { AxisChoice } from "~/server/views/chart-data/crossover";
import {
  type BarView,
  barChartFilename,
  barViews,
  chartViews,
  crossoverAxisWords,
  crossoverValueLabel,
  drawsChanges,
  viewTitle,
} from "~/server/views/chart-views";
import { pageApi } from "~/trpc/server";
import { exploreHref } from "../_explore/params";
import { ChartControls, type Choice, type Control } from "./controls";
import { EmbedSnippets, seriesBadgePath } from "./embed-snippets";
import { HistoryView } from "./history-view";
import { chartScope, chartsHref, crossoverInput, loadChartParams, whereEntries } from "./params";
import { ShowAllScope } from "./show-all";

/** The view's link card: its chart, from the same address. */
export async function generateMetadata({ searchParams }: { searchParams: Promise<SearchParams> }): Promise<Metadata> {
  const params = await loadChartParams(searchParams);
  return {
    title: "Charts",
    ...cardMetadata(chartsHref("/card/charts.png", { ...params, all: null }), `${viewTitle(params.view)} chart`),
  };
}

/** What a point's links are made of: its bundle and that bundle's source. */
type PointSource = Pick<PlottedFigure, "bundleId" | "sourceTitle" | "sourceUrl">;

type LinkRef = { label: string; href: string };
type ChartParams = Awaited<ReturnType<typeof loadChartParams>>;

/**
 * The current view's controls, each choice with the address that shows it; the crossover's axes are
 * those its metric's figures have (≥2 setups sharing ≥2 values), the chosen one kept when it has none.
 */
function controlsOf(params: ChartParams, axes: readonly AxisChoice[] = []): Control[] {
  const choice = (value: string, label: string, change: Partial<Nullable<ChartParams>>): Choice => ({
    value,
    label,
    href: chartsHref("/charts", { ...params, ...change }),
  });
  if (params.view === "latency") {
    const percentiles = ["p50", "p90", "p99"] as const;
    return [
      {
        kind: "toggle",
        label: "Percentile",
        value: params.percentile,
        choices: percentiles.map((p) => choice(p, p, { percentile: p })),
      },
    ];
  }
  if (params.view !== "crossover") return [];
  return [
    {
      kind: "select",
      label: "Metric",
      value: params.metric,
      // Conditions on params belong to a metric: back to the default for RPS, none for the others.
      choices: metricCatalogue.map((m) =>
        choice(m.key, `${m.label} (${m.unit})`, { metric: m.key, where: m.key === "http.rps" ? null : [] }),
      ),
    },
    {
      kind: "select",
      label: "against",
      value: params.x,
      choices: [
        ...(axes.some((a) => a.param === params.x) ? [] : [choice(params.x, crossoverAxisWords(params.x), {})]),
        ...axes.map((a) =>
          choice(
            a.param,
            `${a.words}${a.kind === "category" ? " (category)" : ""} · ${a.setups} setups`,
            // A log axis of streams or message sizes spaces 1, 8 and 16 (or 64 B … 64 KiB) as they are picked.
            {
              x: a.param,
              // The conditions kept (but one on the new axis), and those that draw each setup once along it.
              where: [...params.where.filter((w) => !w.startsWith(`${a.param}=`)), ...whereEntries(a.where)],
              ...(a.kind === "category" ? { scale: "log" as const } : {}),
            },
          ),
        ),
      ],
    },
    {
      kind: "toggle",
      label: "Values",
      value: params.y,
      choices: [
        choice("absolute", "absolute", { y: "absolute" }),
        choice("degradation", "degradation %", { y: "degradation" }),
      ],
    },
    {
      kind: "toggle",
      label: "x axis",
      value: params.scale,
      choices: [choice("linear", "linear", { scale: "linear" }), choice("log", "log", { scale: "log" })],
    },
  ];
}

/**
 * "Compare with": the scenario whose points every other point's tooltip is judged against, among the
 * drawn ones; none (the default) when fewer than two are drawn or none is chosen.
 */
function compareWith(params: ChartParams, drawn: readonly { id: string; label: string }[]): Control[] {
  if (drawn.length < 2) return [];
  const choice = (value: string, label: string): Choice => ({
    value,
    label,
    href: chartsHref("/charts", { ...params, baseline: value || null }),
  });
  return [
    {
      kind: "select",
      label: "Compare with",
      value: drawn.some((s) => s.id === params.baseline) ? (params.baseline ?? "") : "",
      choices: [choice("", "no baseline"), ...drawn.map((s) => choice(s.id, s.label))],
    },
  ];
}

export default async function ChartsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await loadChartParams(searchParams);
  const scope = chartScope(params);
  const trpc = await pageApi();
  const apiUrl = webEnv().publicApiUrl;
  const linksOf = (p: PointSource): LinkRef[] => [
    { label: "bundle", href: `${apiUrl}/v1/bundles/${p.bundleId}` },
    ...(p.sourceUrl ? [{ label: p.sourceTitle ?? "source", href: p.sourceUrl }] : []),
  ];
  // One testbed at a time (cloud, instance type, NIC), the others one choice away; "all" mixes them.
  const testbeds = params.view === "history" ? null : await trpc.charts.testbeds(scope);
  const testbedControls: Control[] =
    testbeds && testbeds.testbeds.length > 1
      ? [
          {
            kind: "select",
            label: "Testbed",
            value: testbeds.chosen,
            choices: [
              ...testbeds.testbeds.map((t) => ({
                value: t.key,
                label: `${t.label} (${t.scenarios})`,
                href: chartsHref("/charts", { ...params, testbed: t.key, baseline: null }),
              })),
              {
                value: "all",
                label: `All ${testbeds.testbeds.length} testbeds, mixed`,
                href: chartsHref("/charts", { ...params, testbed: "all", baseline: null }),
              },
            ],
          },
        ]
      : [];
  const testbedWords =
    testbeds && testbeds.testbeds.length > 1
      ? testbeds.chosen === "all"
        ? ` All ${testbeds.testbeds.length} testbeds drawn together: compare bars only within one NIC.`
        : ` Drawn: ${testbeds.testbeds.find((t) => t.key === testbeds.chosen)?.label ?? testbeds.chosen}; ${testbeds.testbeds.length - 1} other testbed${testbeds.testbeds.length > 2 ? "s" : ""} one choice away.`
      : "";
  const scopeWords = [
    ...facetKeys.flatMap((k) => (params[k]?.length ? [`${facetDefinitions[k].title}: ${params[k].join(", ")}`] : [])),
  ];
  const chosen = params.scenario?.length ?? 0;
  const chosenWords = chosen > 0 ? `${chosen} chosen scenario${chosen === 1 ? "" : "s"}` : "";

  return (
    <div className="space-y-5">
      <PageHeader title="Charts">
        {scopeWords.length > 0
          ? `Scenarios where ${scopeWords.join(" · ")}${chosenWords ? `, of ${chosenWords}` : ""}.`
          : chosenWords
            ? `The ${chosenWords}.`
            : "All scenarios."}
        {testbedWords} <TextLink href={exploreHref("/", params)}>Change in Explore</TextLink>
      </PageHeader>
      <nav aria-label="Chart views" className="border-b border-zinc-200 dark:border-zinc-800">
        <ul className="-mb-px flex flex-wrap gap-1">
          {chartViews.map((v) => (
            <li key={v}>
              <Link
                href={chartsHref("/charts", { ...params, view: v })}
                aria-current={v === params.view ? "page" : undefined}
                className={`inline-block border-b-2 px-3 py-2 text-sm ${v === params.view ? "border-blue-600 font-medium text-blue-800 dark:text-blue-300" : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"}`}
              >
                {viewTitle(v)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ShowAllScope
        all={params.all === "1"}
        allHref={chartsHref("/charts", { ...params, all: "1" })}
        topHref={chartsHref("/charts", { ...params, all: null })}
      >
        {params.view === "crossover" ? (
          <Crossover params={params} scope={scope} linksOf={linksOf} />
        ) : params.view === "history" ? (
          <HistoryView params={params} />
        ) : (
          <Bars params={params} view={params.view} percentile={params.percentile} scope={scope} linksOf={linksOf} />
        )}
      </ShowAllScope>
    </div>
  );

  async function Crossover(props: {
    params: typeof params;
    scope: typeof scope;
    linksOf: (p: PointSource) => LinkRef[];
  }) {
    const data = await trpc.charts.crossover(crossoverInput(props.params));
    const xLabel = data.joined ? `${crossoverAxisWords(data.xParam)} (count)` : crossoverAxisWords(data.xParam);
    // The embed's badge: the first line's last measured point, a series whose latest campaign it shows.
    const lastPoint = data.series[0]?.points.at(-1);
    // "where=" (no condition, as the axis links write it) reads as an empty entry: no chip for it.
    const conditions = props.params.where.filter((w) => w.includes("="));
    const whereChips = conditions.map((w) => (
      <Link
        key={w}
        href={chartsHref("/charts", { ...props.params, where: props.params.where.filter((x) => x !== w) })}
        className="rounded-full border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        title="Remove this condition"
      >
        {w.replace("=", " = ")} ✕
      </Link>
    ));
    if (data.series.length === 0) {
      return (
        <>
          <ChartControls controls={[...testbedControls, ...controlsOf(props.params, data.axes)]} />
          <EmptyState>
            <div className="space-y-2">
              {data.notice ? <p>{data.notice}</p> : null}
              <p>
                No scenario here measured {data.title} at two or more values of “{data.xParam}”
                {conditions.length > 0 ? " with these conditions: " : "."} {whereChips}
              </p>
              <p>
                A crossover needs a figure measured by at least two setups at two or more shared values of a numeric
                param: a scale (Services, pods, target QPS) is drawn as lines and crossed; a category (streams, message
                size) as points at each value.
              </p>
              {data.elsewhere.length > 0 ? (
                <>
                  <p>What these scenarios can be drawn along:</p>
                  <ul className="space-y-0.5">
                    {data.elsewhere.map((a) => (
                      <li key={`${a.metric} ${a.param}`}>
                        <TextLink
                          href={chartsHref("/charts", {
                            ...props.params,
                            metric: a.metric,
                            x: a.param,
                            where: whereEntries(a.where),
                            baseline: null,
                            ...(a.kind === "category" ? { scale: "log" as const } : {}),
                          })}
                        >
                          {a.title} by {a.words}
                        </TextLink>{" "}
                        ({a.kind === "category" ? "category, " : ""}
                        {a.setups} setups)
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <p>None of these scenarios has such a figure.</p>
              )}
            </div>
          </EmptyState>
        </>
      );
    }
    const summary = (
      <div className="space-y-1">
        {data.notice ? <p role="note">{data.notice}</p> : null}
        {!data.joined ? null : data.sentences.length > 0 ? (
          <ul>
            {data.sentences.map((s) => (
              <li key={s} className="font-medium">
                {s}.
              </li>
            ))}
          </ul>
        ) : (
          <p>
            {data.withinNoise.length > 0
              ? "No line clearly overtakes another: where the medians cross, the order is within noise on a side."
              : "No line overtakes another within the measured range."}
          </p>
        )}
        {data.withinNoise.length > 0 ? (
          <ul className="text-zinc-600 dark:text-zinc-400">
            {data.withinNoise.map((s) => (
              <li key={s}>{s}.</li>
            ))}
          </ul>
        ) : null}
        {data.oneLine && Object.keys(data.oneLine).length > 0 ? (
          <p role="note">
            A setup has several lines here.{" "}
            <TextLink
              href={chartsHref("/charts", { ...props.params, where: [...conditions, ...whereEntries(data.oneLine)] })}
            >
              One line per setup: {whereEntries(data.oneLine).join(" · ").replaceAll("=", " = ")}
            </TextLink>
          </p>
        ) : null}
        {data.hiddenLines > 0 ? (
          <p role="note" className="text-amber-800 dark:text-amber-300">
            Showing the first {data.series.length} lines; {data.hiddenLines} more match. Narrow the scenarios in{" "}
            <Link className="underline" href={exploreHref("/", props.params)}>
              Explore
            </Link>{" "}
            to see them.
          </p>
        ) : null}
        {data.undecided.map((s) => (
          <p key={s} className="text-amber-800 dark:text-amber-300">
            {s}.
          </p>
        ))}
        {data.joined ? (
          <p className="text-xs text-zinc-500">
            Crossovers are interpolated linearly between measured steps on the absolute values; nothing is extrapolated.
            One is said only where, on each side, a measured step decides the order (a better/worse verdict: runs, or a
            single value beyond the metric&apos;s margin); the whiskers and the shaded band show the noise the verdicts
            weigh.
            {props.params.y === "degradation" ? " Degradation is each line's change against its own first step." : ""}
          </p>
        ) : null}
        {whereChips.length > 0 ? (
          <div className="flex flex-wrap items-center gap-1 text-xs">Only figures with {whereChips}</div>
        ) : null}
      </div>
    );
    return (
      <>
        <ChartControls
          controls={[
            ...testbedControls,
            ...controlsOf(props.params, data.axes),
            ...compareWith(props.params, data.scenarios),
          ]}
        />
        <BaselineNote params={props.params} drawn={data.scenarios} />
        {/* Above the chart, not in its caption: a chart streams as a part of its own, which React reveals
            no sooner than 300 ms after the first paint; the summary, the view's largest text, paints first. */}
        <div data-testid="crossover-summary" className="text-sm text-zinc-700 dark:text-zinc-300">
          {summary}
        </div>
        <LineSeriesChart
          title={`${data.title} by ${crossoverAxisWords(data.xParam)}`}
          series={data.series.map((s) => ({
            id: s.id,
            label: s.label,
            scenario: { id: s.scenarioId, name: data.scenarios.find((x) => x.id === s.scenarioId)?.label ?? s.label },
            points: s.points.map((p) => ({
              x: p.x,
              y: p.y,
              qualifier: p.qualifier,
              low: p.low,
              high: p.high,
              n: p.summary?.n,
              whisker: p.whisker,
              band: p.band,
              params: p.params,
              versus: p.versus,
              links: [{ label: "scenario", href: `/scenarios/${p.scenarioId}` }, ...props.linksOf(p)],
            })),
          }))}
          markers={data.markers}
          joined={data.joined}
          band={data.band?.words}
          xLabel={xLabel}
          yLabel={crossoverValueLabel(props.params.y, data)}
          unit={data.unit}
          better={resolveBetter(data.metric)}
          xScale={props.params.scale}
          filename={`cnibench-${data.metric}-by-${data.xParam}${props.params.y === "degradation" ? "-degradation" : ""}`}
        />
        <EmbedSnippets
          path={chartsHref("/charts", props.params)}
          title={`${data.title} by ${crossoverAxisWords(data.xParam)}`}
          badge={lastPoint && seriesBadgePath(lastPoint.scenarioId, data.metric, lastPoint.params)}
        />
      </>
    );
  }

  async function Bars(props: {
    params: typeof params;
    view: BarView;
    percentile: string;
    scope: typeof scope;
    linksOf: (p: PointSource) => LinkRef[];
  }) {
    const charts = await trpc.charts.bars({ ...props.scope, view: props.view, percentile: props.percentile });
    const controls = [...testbedControls, ...controlsOf(props.params)];
    if (charts.length === 0) {
      return (
        <>
          <ChartControls controls={controls} />
          <EmptyState>None of these scenarios has {viewTitle(props.view).toLowerCase()} figures.</EmptyState>
        </>
      );
    }
    const everySeries = [...new Map(charts.flatMap((c) => c.series).map((s) => [s.id, s] as const)).values()];
    // An overhead is a cost: lower is better, whatever the metric it is of.
    const betterOf = (metric: string) => (props.view === "overheads" ? "lower" : resolveBetter(metric));
    // One scenario, one colour on every chart of the view; the best on the first chart (the view's
    // headline figure) take the palette's first, most distinct colours, which the top series show.
    const [first] = charts;
    const colorIndex = new Map(
      rankByScore(
        everySeries.map((s) => s.id),
        first ? barScores(first.data, betterOf(first.metric)) : new Map(),
        "lower",
      ).map((id, i) => [id, i]),
    );
    // Overheads are differences of two figures: nothing to judge against a baseline.
    const drawn = props.view === "overheads" ? [] : everySeries;
    return (
      <>
        <ChartControls controls={[...controls, ...compareWith(props.params, drawn)]} />
        <BaselineNote params={props.params} drawn={drawn} />
        {/* Two charts a row on wide screens, but resources' many groups of two dozen setups take the width. */}
        <div className={`grid gap-5 ${props.view === "resources" ? "" : "xl:grid-cols-2"}`}>
          {charts.map((c) => (
            <GroupedBarChart
              key={c.key ?? c.metric}
              title={props.view === "latency" && c.metric !== "pod.rtt" ? `${c.title}, ${props.percentile}` : c.title}
              summary={
                c.note ? (
                  <p className="text-xs text-zinc-500">{c.note}</p>
                ) : props.view === "overheads" ? (
                  <p className="text-xs text-zinc-500">
                    (RPS without the feature − RPS with it) ÷ RPS without it, from the raw figures; positive means the
                    feature costs.
                  </p>
                ) : undefined
              }
              series={c.series.map((s) => ({ ...s, colorIndex: colorIndex.get(s.id) }))}
              better={betterOf(c.metric)}
              // The group as the server made it (category, reference…); only the bars get their links.
              data={c.data.map((d) => ({
                ...d,
                values: Object.fromEntries(
                  Object.entries(d.values).map(([id, v]) => [
                    id,
                    v && { ...v, n: v.summary?.n, links: props.linksOf(v) },
                  ]),
                ),
              }))}
              categoryLabel={barViews[props.view].groups}
              changes={drawsChanges(props.view)}
              yLabel={`${c.unit}`}
              unit={c.unit}
              references={c.references}
              filename={barChartFilename(props.view, c)}
            />
          ))}
        </div>
        <EmbedSnippets path={chartsHref("/charts", props.params)} title={viewTitle(props.view)} />
      </>
    );
  }
}

/** Says what the tooltips judge against, and how, once a baseline is chosen. */
function BaselineNote(props: { params: ChartParams; drawn: readonly { id: string; label: string }[] }) {
  const baseline = props.drawn.find((s) => s.id === props.params.baseline);
  if (!baseline) return null;
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400">
      A point's tooltip (hover, or keyboard focus) says its verdict against {baseline.label} at the same params: the
      compare table's test against the metric's margin δ, on the runs shown here, p adjusted over this view's figures.
    </p>
  );
}
