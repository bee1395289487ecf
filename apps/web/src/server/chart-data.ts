// Shapes current figures into what the chart components draw: series per scenario, bars per params.
// Pure, so it is tested with seed figures; the crossover arithmetic itself is @cnibench/analysis's.
import {
  type ComparisonRow,
  compareMeasurementSets,
  degradation,
  featureOverheads,
  figureKey,
  findCrossovers,
  formatCrossover,
  formatUndecidedCrossing,
  readAt,
  resolveBetter,
  type Series,
  type VerdictEvidence,
} from "@cnibench/analysis";
import { formatNumber, formatParams, formatRatio, natural } from "@cnibench/analysis/format";
import type { ChartPoint as DrawnPoint } from "@cnibench/charts/types";
import type { chartView, ScenarioSummary } from "@cnibench/db";
import type { ChartPoint, CrossoverPoint } from "@cnibench/db/read-models";
import { findMetric, isReferenceCni } from "@cnibench/schema";
import { type BarView, barViews, crossoverAxisWords, crossoverView } from "./chart-views";
import { summaryOf, whiskerOf } from "./figure-summary";

/** A current figure as chartView and compareView return it. */
export type Figure = Awaited<ReturnType<typeof chartView>>["figures"][number];

export type SeriesInfo = { id: string; label: string };
type Params = Figure["params"];

/**
 * Legend labels: the scenario's label, with what tells it apart from another scenario of the same
 * label (cloud, instance type, kernel, settings) when several share one.
 */
export function seriesLabels(scenarios: readonly ScenarioSummary[]): Map<string, string> {
  const byLabel = new Map<string, ScenarioSummary[]>();
  for (const s of scenarios) byLabel.set(s.label, [...(byLabel.get(s.label) ?? []), s]);
  const out = new Map<string, string>();
  for (const [label, group] of byLabel) {
    if (group.length === 1) {
      out.set(group[0]?.id ?? "", label);
      continue;
    }
    const distinguishers: ((s: ScenarioSummary) => string)[] = [
      (s) => s.provider,
      (s) => s.sku,
      (s) => s.kernel,
      (s) => s.kubernetesVersion,
      (s) =>
        Object.entries(s.cni.settings)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(" "),
    ];
    const useful = distinguishers.filter((d) => new Set(group.map(d)).size > 1);
    for (const s of group) {
      const extra = useful.map((d) => d(s)).filter(Boolean);
      out.set(s.id, extra.length > 0 ? `${label} (${extra.join(", ")})` : `${label} (${s.id.slice(-6)})`);
    }
  }
  return out;
}

const withoutKeys = (params: Params, keys: readonly string[]): Params =>
  Object.fromEntries(Object.entries(params).filter(([k]) => !keys.includes(k)));

/** A group's or a line's params, less those the view fixes: "path pod-pod · streams 8". */
const paramsLabel = (params: Params, omit: readonly string[] = []): string =>
  formatParams(params, { omit, empty: "(no other params)" });

/** A point against the chart's baseline: verdict, change and what the verdict rests on. */
export type Versus = NonNullable<DrawnPoint["versus"]>;

/**
 * Whom a chart's points are judged against: the baseline scenario (the compare page's first, or the
 * charts page's "Compare with"), with the margins δ of the comparison overriding the catalogue's.
 */
export type Against = { baseline?: string | null; margins?: Readonly<Record<string, number>> };

/** What a verdict rests on, short enough for a tooltip; the compare table's evidence says it in full. */
function evidenceWords(e: VerdictEvidence, runs: { baseline: number; candidate: number }): string {
  switch (e.method) {
    case "interval":
      return `${e.baselineRuns} vs ${e.candidateRuns} runs, 95 % ${formatRatio(e.low)}–${formatRatio(e.high)}`;
    case "noise-band":
      return runs.baseline === 1 && runs.candidate === 1
        ? "one run a side, indicative"
        : `${runs.baseline} vs ${runs.candidate} runs, indicative`;
    case "bounds":
    case "none":
      return e.reason;
    case "missing":
      return "";
  }
}

/**
 * Each figure against the baseline's figure of the same metric and params (so the same x on a line,
 * the same group of bars), or undefined. The comparison is the compare table's own
 * (compareMeasurementSets over all the figures given, with the same margins): its p-values are
 * adjusted over the same figures, so a tooltip never says other than the table. Each scenario is
 * compared once, when a point of it first asks.
 */
function versusOf(
  scenarios: readonly ScenarioSummary[],
  figures: readonly Figure[],
  against: Against,
  label: (id: string) => string,
): (f: Figure) => Versus | undefined {
  const id = against.baseline;
  if (!id || !scenarios.some((s) => s.id === id)) return () => undefined;
  const baseline = label(id);
  const base = figures.filter((f) => f.scenarioId === id);
  const compared = new Map<string, Map<string, ComparisonRow>>();
  const rowsOf = (scenarioId: string) => {
    let rows = compared.get(scenarioId);
    if (!rows) {
      const own = figures.filter((f) => f.scenarioId === scenarioId);
      rows = new Map(compareMeasurementSets(base, own, { margins: against.margins }).map((r) => [r.key, r]));
      compared.set(scenarioId, rows);
    }
    return rows;
  };
  return (f) => {
    if (f.scenarioId === id) return undefined;
    const row = rowsOf(f.scenarioId).get(figureKey(f.metric, f.params));
    if (!row?.baseline || row.result.verdict === "missing") return undefined;
    const e = row.result.evidence;
    return {
      baseline,
      verdict: row.result.verdict,
      indicative: e.method === "noise-band",
      percent: row.result.delta?.percent ?? null,
      words: evidenceWords(e, { baseline: (row.baseline as Figure).n, candidate: f.n }),
    };
  };
}

/** A bar: a plotted figure (its shape is declared with the read models, @cnibench/db/read-models). */
export type BarValue = ChartPoint & { versus?: Versus };

const barValue = (f: Figure, versus?: Versus): BarValue => {
  const summary = summaryOf(f);
  return {
    ...(versus ? { versus } : {}),
    y: f.value,
    qualifier: f.qualifier,
    low: f.low,
    high: f.high,
    params: f.params,
    bundleId: f.bundleId,
    sourceTitle: f.sourceTitle,
    sourceUrl: f.sourceUrl,
    summary,
    whisker: whiskerOf(summary),
  };
};

export type BarsData = {
  metric: string;
  title: string;
  unit: string;
  series: SeriesInfo[];
  data: {
    category: string;
    values: Record<string, BarValue | undefined>;
    /** The reference scenarios' figure for this group: no datapath, so a line to read bars against, never a bar. */
    reference?: { y: number; label: string } | null;
  }[];
};

/**
 * One bar chart of a metric: a group per distinct params (less the keys already fixed by the view,
 * e.g. the chosen percentile), a bar per scenario. Empty when no scenario measured it.
 */
export function barsOf(
  metric: string,
  scenarios: readonly ScenarioSummary[],
  figures: readonly Figure[],
  options: {
    fixed?: Params;
    hideKeys?: readonly string[];
    /** Each bar against the baseline (versusOf); none without. */
    versus?: (f: Figure) => Versus | undefined;
  } = {},
): BarsData | null {
  const def = findMetric(metric);
  const fixed = options.fixed ?? {};
  const hide = [...Object.keys(fixed), ...(options.hideKeys ?? [])];
  // A figure without a fixed key is kept: e.g. pod RTT published as a mean has no percentile.
  const selected = figures.filter(
    (f) =>
      f.metric === metric && Object.entries(fixed).every(([k, v]) => f.params[k] === undefined || f.params[k] === v),
  );
  if (selected.length === 0) return null;
  // A node-to-node reference (no CNI) is what the datapaths' bars are read against, never one of them;
  // drawn alone, it is bars like any scenario.
  const references = new Set(scenarios.filter((s) => isReferenceCni(s.cni.name)).map((s) => s.id));
  const datapaths = selected.filter((f) => !references.has(f.scenarioId));
  const bars = datapaths.length > 0 ? datapaths : selected;
  const labels = seriesLabels(scenarios);
  const present = new Set(bars.map((f) => f.scenarioId));
  const series = scenarios
    .filter((s) => present.has(s.id))
    .map((s) => ({ id: s.id, label: labels.get(s.id) ?? s.label }));
  const versus = options.versus ?? (() => undefined);
  const categories = new Map<string, BarsData["data"][number]>();
  for (const f of bars) {
    const category = paramsLabel(f.params, hide);
    const entry = categories.get(category) ?? { category, values: {} };
    entry.values[f.scenarioId] = barValue(f, versus(f));
    categories.set(category, entry);
  }
  if (bars === datapaths) {
    // The reference's path is node to node: it matches a group by every other param.
    const unpathed = (f: Figure) => paramsLabel(f.params, [...hide, "path"]);
    const referenceOf = new Map<string, Figure>();
    for (const f of selected)
      if (references.has(f.scenarioId) && !referenceOf.has(unpathed(f))) referenceOf.set(unpathed(f), f);
    for (const f of bars) {
      const r = referenceOf.get(unpathed(f));
      const entry = categories.get(paramsLabel(f.params, hide))!;
      if (r && !entry.reference) {
        const s = scenarios.find((x) => x.id === r.scenarioId);
        entry.reference = {
          y: r.value,
          label: `node-to-node reference (${labels.get(r.scenarioId) ?? s?.label ?? "no CNI"})`,
        };
      }
    }
  }
  const data = [...categories.values()].sort((a, b) => natural(a.category, b.category));
  return { metric, title: def?.label ?? metric, unit: selected[0]?.unit ?? def?.unit ?? "", series, data };
}

/** The NIC line rates of the scenarios' instance types, to draw over throughput. */
export function nicCeilings(scenarios: readonly ScenarioSummary[]): { y: number; label: string }[] {
  const bySpeed = new Map<number, Set<string>>();
  for (const s of scenarios) {
    if (s.nicGbps === null) continue;
    bySpeed.set(s.nicGbps, (bySpeed.get(s.nicGbps) ?? new Set()).add(s.sku));
  }
  return [...bySpeed.entries()].map(([y, skus]) => ({ y, label: `NIC ${y} Gbit/s (${[...skus].join(", ")})` }));
}

export type CrossoverQuery = {
  metric: string;
  /** The numeric param along the x axis, e.g. "services". */
  x: string;
  /** Params every figure must have, e.g. { connection: "short" }. */
  where: Params;
  y: "absolute" | "degradation";
};

export type { CrossoverPoint };

export type CrossoverData = {
  metric: string;
  title: string;
  /** Unit of y: the metric's, or degradation's (chart-views.ts). */
  unit: string;
  xParam: string;
  /** The drawn lines' scenarios with their legend labels, in legend order: the baselines one may choose. */
  scenarios: SeriesInfo[];
  series: { id: string; label: string; scenarioId: string; points: (CrossoverPoint & { versus?: Versus })[] }[];
  /** Where one line overtakes another, computed on absolute values; y is on the drawn scale. */
  markers: { x: number; y: number; label: string }[];
  sentences: string[];
  /** Crossings that rest on approximate or bounded figures: said, never marked. */
  undecided: string[];
  /** Lines left out because the chart draws at most `maxLines` (the first ones in explorer order). */
  hiddenLines: number;
};

/**
 * The most lines a crossover chart draws: 8 colours × 2 dash patterns stay distinguishable, and
 * more lines (with every pair's crossings) are noise. Beyond it the view asks to narrow the filter.
 */
export const maxLines = 16;

/**
 * Lines of one metric along a numeric param, one per scenario (per scenario and remaining params when
 * a scenario measured several variants), with the crossovers between them. With a baseline, each
 * point carries its verdict against the baseline's point at the same x (and the same other params).
 */
export function crossoverOf(
  scenarios: readonly ScenarioSummary[],
  figures: readonly Figure[],
  query: CrossoverQuery & Against,
): CrossoverData {
  const def = findMetric(query.metric);
  const better = resolveBetter(query.metric, def?.better);
  const selected = figures.filter(
    (f) =>
      f.metric === query.metric &&
      typeof f.params[query.x] === "number" &&
      Object.entries(query.where).every(([k, v]) => f.params[k] === v),
  );
  // Group per scenario and per the params that are neither x nor fixed (e.g. concurrency 64 vs 256).
  const groups = new Map<string, { scenarioId: string; rest: Params; figures: Figure[] }>();
  for (const f of selected) {
    const rest = withoutKeys(f.params, [query.x, ...Object.keys(query.where)]);
    const key = `${f.scenarioId}\u0000${JSON.stringify(Object.entries(rest).sort())}`;
    const g = groups.get(key) ?? { scenarioId: f.scenarioId, rest, figures: [] };
    g.figures.push(f);
    groups.set(key, g);
  }
  const perScenario = new Map<string, number>();
  for (const g of groups.values()) perScenario.set(g.scenarioId, (perScenario.get(g.scenarioId) ?? 0) + 1);
  const order = new Map(scenarios.map((s, i) => [s.id, i]));
  const candidates = [...groups.entries()]
    .filter(([, g]) => g.figures.length >= 2)
    .sort(([, a], [, b]) => (order.get(a.scenarioId) ?? 0) - (order.get(b.scenarioId) ?? 0));
  const shown = candidates.slice(0, maxLines);
  // Legend labels tell apart the drawn lines' scenarios, not every scenario in scope.
  const drawnScenarios = new Set(shown.map(([, g]) => g.scenarioId));
  const labels = seriesLabels(scenarios.filter((s) => drawnScenarios.has(s.id)));
  const versus = versusOf(scenarios, figures, query, (id) => labels.get(id) ?? seriesLabels(scenarios).get(id) ?? id);
  const lines = shown.map(([id, g]) => {
    const base = labels.get(g.scenarioId) ?? g.scenarioId;
    const label = (perScenario.get(g.scenarioId) ?? 0) > 1 ? `${base} · ${paramsLabel(g.rest)}` : base;
    const figs = [...g.figures].sort((a, b) => Number(a.params[query.x]) - Number(b.params[query.x]));
    return { id, label, scenarioId: g.scenarioId, figs };
  });

  const absolute: Series[] = lines.map((l) => ({
    id: l.id,
    label: l.label,
    points: l.figs.map((f) => ({
      x: Number(f.params[query.x]),
      value: f.value,
      qualifier: f.qualifier,
      low: f.low,
      high: f.high,
    })),
  }));
  const result = findCrossovers(absolute, better);
  // Five significant digits: a crossing between steps of thousands reads "≈19,650", not "≈19,650.0".
  const words = { xLabel: crossoverAxisWords(query.x), significantDigits: 5 };
  const drawn =
    query.y === "absolute"
      ? absolute
      : absolute.map((s) => ({
          ...s,
          points: degradation(s.points, { better }).steps.map((d) => ({
            x: d.x,
            value: d.percent ?? 0,
            qualifier: d.approximate ? ("approx" as const) : null,
          })),
        }));
  const drawnById = new Map(drawn.map((s) => [s.id, s]));

  return {
    metric: query.metric,
    title: def?.label ?? query.metric,
    unit: query.y === "absolute" ? (selected[0]?.unit ?? def?.unit ?? "") : crossoverView.degradation.unit,
    xParam: query.x,
    scenarios: [...drawnScenarios].map((id) => ({ id, label: labels.get(id) ?? id })),
    series: lines.map((l) => ({
      id: l.id,
      label: l.label,
      scenarioId: l.scenarioId,
      points: l.figs.map((f, i) => {
        const summary = summaryOf(f);
        const against = versus(f);
        return {
          ...(against ? { versus: against } : {}),
          x: Number(f.params[query.x]),
          y: drawnById.get(l.id)?.points[i]?.value ?? f.value,
          // Degradation is a percentage of the baseline's median: no whisker of the runs on that scale.
          summary,
          whisker: query.y === "absolute" ? whiskerOf(summary) : null,
          qualifier: f.qualifier,
          low: query.y === "absolute" ? f.low : null,
          high: query.y === "absolute" ? f.high : null,
          params: f.params,
          bundleId: f.bundleId,
          scenarioId: f.scenarioId,
          sourceTitle: f.sourceTitle,
          sourceUrl: f.sourceUrl,
        };
      }),
    })),
    markers: result.crossovers.map((c) => {
      const line = drawnById.get(c.overtaker.id);
      const y = query.y === "absolute" ? c.value : ((line && readAt(line.points, c.x)?.value) ?? 0);
      return { x: c.x, y, label: `≈${formatNumber(c.x, 5)}` };
    }),
    sentences: result.crossovers.map((c) => formatCrossover(c, words)),
    undecided: result.undecided.map((c) => formatUndecidedCrossing(c, words)),
    hiddenLines: candidates.length - lines.length,
  };
}

const featureWords: Record<string, Record<string, string>> = {
  policy: { l3l4: "L3/L4 policy", l7: "L7 policy" },
  hubble: { on: "Hubble on" },
};

/**
 * Overheads of policies and Hubble per scenario, computed from the raw RPS pairs (policy none vs
 * l3l4/l7, Hubble off vs on with all other params equal): a bar per scenario, a group per feature.
 */
export function overheadsOf(scenarios: readonly ScenarioSummary[], figures: readonly Figure[]): BarsData | null {
  const labels = seriesLabels(scenarios);
  const categories = new Map<string, BarsData["data"][number]>();
  const present = new Set<string>();
  for (const s of scenarios) {
    const own = figures.filter((f) => f.scenarioId === s.id && f.metric === "http.rps");
    for (const [param, base] of [
      ["policy", "none"],
      ["hubble", "off"],
    ] as const) {
      for (const o of featureOverheads(own, { param, base })) {
        if (o.overheadPercent === null) continue;
        const variant = String(o.variant);
        const rest = paramsLabel(o.params as Params, ["policy", "hubble", "services", "target"]);
        const category = `${featureWords[param]?.[variant] ?? `${param} ${variant}`} · ${rest}`;
        const entry = categories.get(category) ?? { category, values: {} };
        // The figure with the feature on carries the link; its base is in the same bundle or beside it.
        entry.values[s.id] = {
          ...barValue(o.with as Figure),
          y: o.overheadPercent,
          qualifier: o.approximate ? "approx" : null,
          low: null,
          high: null,
          // A difference of two medians: neither side's runs are its spread.
          summary: null,
          whisker: null,
        };
        categories.set(category, entry);
        present.add(s.id);
      }
    }
  }
  if (categories.size === 0) return null;
  return {
    metric: "http.rps",
    title: "Feature overhead on HTTP requests per second",
    unit: barViews.overheads.unit,
    series: scenarios.filter((s) => present.has(s.id)).map((s) => ({ id: s.id, label: labels.get(s.id) ?? s.label })),
    data: [...categories.values()].sort((a, b) => natural(a.category, b.category)),
  };
}

/**
 * Every chart of a bar view for these scenarios; empty charts are left out. With a baseline, each
 * bar carries its verdict against the baseline's bar of the same group (overheads, differences of
 * two figures, carry none).
 */
export function barView(
  view: BarView,
  scenarios: readonly ScenarioSummary[],
  figures: readonly Figure[],
  options: { percentile: string } & Against,
): (BarsData & { references: { y: number; label: string }[] })[] {
  if (view === "overheads") {
    const o = overheadsOf(scenarios, figures);
    return o ? [{ ...o, references: [] }] : [];
  }
  const fixed: Params = view === "latency" ? { percentile: options.percentile } : {};
  const labels = seriesLabels(scenarios);
  const versus = versusOf(scenarios, figures, options, (id) => labels.get(id) ?? id);
  return barViews[view].metrics.flatMap((metric) => {
    const bars = barsOf(metric, scenarios, figures, { fixed, versus });
    if (!bars) return [];
    const shown = scenarios.filter((s) => bars.series.some((b) => b.id === s.id));
    return [{ ...bars, references: bars.unit === "Gbit/s" ? nicCeilings(shown) : [] }];
  });
}
