// Where one datapath overtakes another along a scale (Services, pods, target QPS) is what the line charts
// are for; the crossing arithmetic is @cnibench/analysis's, this shapes the lines and says the crossings.
// Along a category (streams, message size) each value is its own test: points, never joined or crossed.
import {
  type CrossoverAxis,
  type CrossoverResult,
  crossingAt,
  crossoverAxesOf,
  degradation,
  findCrossovers,
  marginPercent,
  oneLinePerSetup,
  readAt,
  resolveBetter,
  type Series,
  summariseCrossovers,
  summaryOf,
  whiskerOf,
} from "@cnibench/analysis";
import type { LatestFigure, ScenarioSummary } from "@cnibench/db";
import type { CrossoverPoint } from "@cnibench/db/read-models";
import { formatNumber } from "@cnibench/format";
import { canonicalJson, findMetric, isScaleParam } from "@cnibench/schema";
import { barViewNames, barViews, crossoverAxisWords, crossoverView } from "../chart-views";
import { paramsLabel, seriesLabels, withoutKeys } from "./labels";
import type { Params, SeriesInfo } from "./types";
import { type Against, type Versus, versusOf } from "./versus";

export type CrossoverQuery = {
  metric: string;
  /** The scale param along the x axis, e.g. "services"; a category draws nothing and says why. */
  x: string;
  /** Params every figure must have, e.g. { connection: "short" }. */
  where: Params;
  y: "absolute" | "degradation";
};

/**
 * An axis the scope's data can be drawn along, as the axis choice and the empty state offer it, with
 * the conditions that draw each setup as one line along it (`oneLinePerSetup`).
 */
export type AxisChoice = Omit<CrossoverAxis, "values"> & { title: string; words: string; where: Params };

/**
 * What the shaded band around each line is: its runs' min–max where the points have runs, else the
 * metric's margin δ around each single run — the gap a verdict needs, so a line inside another's band
 * is "within noise" or "within δ %" in the sentences.
 */
type NoiseBand = { kind: "runs" | "margin"; marginPercent: number; words: string };

export type CrossoverData = {
  metric: string;
  title: string;
  /** Unit of y: the metric's, or degradation's (chart-views.ts). */
  unit: string;
  xParam: string;
  /** The drawn lines' scenarios with their legend labels, in legend order: the baselines one may choose. */
  scenarios: SeriesInfo[];
  series: {
    id: string;
    label: string;
    scenarioId: string;
    /** `band`: the point's noise band on the drawn scale (NoiseBand), null where none is drawn. */
    points: (CrossoverPoint & { versus?: Versus; band: [number, number] | null })[];
  }[];
  /** Where one line overtakes another, computed on absolute values; y is on the drawn scale. */
  markers: { x: number; y: number; label: string }[];
  /**
   * The summary: at most `maxSentences` crossings, the baseline's (else the first line's) first, and
   * "…and N more" when there are more; every one is marked and listed in `allSentences`.
   */
  sentences: string[];
  /** Crossings that rest on approximate or bounded figures: said (as briefly), never marked. */
  undecided: string[];
  /**
   * Where the medians cross but the order is not decided on a side (within the metric's margin or
   * the runs' noise): said as what is known, never marked.
   */
  withinNoise: string[];
  /** Every crossing and undecided crossing, in order of x: the details behind the summary. */
  allSentences: string[];
  /** Why nothing is drawn when x is not a scale (streams, percentile…); null otherwise. */
  notice: string | null;
  /** Lines left out because the chart draws at most `maxLines` (the first ones in explorer order). */
  hiddenLines: number;
  /** False along a category: the points of a setup are not joined. */
  joined: boolean;
  /** What the band around each line shows; null when none is drawn (degradation). */
  band: NoiseBand | null;
  /** The numeric params this metric's figures (under `where`) can be drawn along: ≥2 setups share ≥2 values. */
  axes: AxisChoice[];
  /** Every axis the scope's data has, of any metric, when nothing is drawn: the router fills it. */
  elsewhere: AxisChoice[];
  /**
   * Where a drawn setup has several lines (CPU by accounting, role, path…): the conditions, besides
   * the query's, that leave each setup one line; null when each has one.
   */
  oneLine: Params | null;
};

/**
 * The most lines a crossover chart draws: 8 colours × 2 dash patterns stay distinguishable, and
 * more lines (with every pair's crossings) are noise. Beyond it the view asks to narrow the filter.
 */
export const maxLines = 16;

/** The most crossings the summary says; more are counted ("…and 57 more"), marked and listed in full. */
export const maxSentences = 3;

/** "“streams” is a category, not a scale: …", with where the metric's figures are also drawn as bars. */
function categoryNotice(metric: string, x: string, title: string): string {
  const view = barViewNames.find((v) => (barViews[v].metrics as readonly string[]).includes(metric));
  return (
    `“${x}” is a category, not a scale: each value is its own test, so a setup's points are not joined and ` +
    "no line overtakes another between them. Choose Compare with to read each point's verdict at its value" +
    (view ? `, or compare ${title} by ${x} as bars in the ${barViews[view].title} view.` : ".")
  );
}

/** The axes in the words the page offers them ("Services", "streams"), each with its one-line conditions. */
export function axisChoices(axes: readonly CrossoverAxis[], figures: readonly LatestFigure[]): AxisChoice[] {
  const ofMetric = new Map<string, LatestFigure[]>();
  for (const f of figures) {
    const own = ofMetric.get(f.metric) ?? [];
    ofMetric.set(f.metric, own);
    own.push(f);
  }
  return axes.map(({ values: _values, ...a }) => ({
    ...a,
    title: findMetric(a.metric)?.label ?? a.metric,
    words: crossoverAxisWords(a.param),
    where: oneLinePerSetup(ofMetric.get(a.metric) ?? [], a.param),
  }));
}

/**
 * Lines of one metric along a numeric param, one per scenario (per scenario and remaining params when
 * a scenario measured several variants), with the crossovers between them. With a baseline, each
 * point carries its verdict against the baseline's point at the same x (and the same other params).
 */
export function crossoverOf(
  scenarios: readonly ScenarioSummary[],
  figures: readonly LatestFigure[],
  query: CrossoverQuery & Against,
): CrossoverData {
  const def = findMetric(query.metric);
  const title = def?.label ?? query.metric;
  const scale = isScaleParam(query.x);
  const better = resolveBetter(query.metric, def?.better);
  const { ofMetric, selected, ofScenario, candidates, shown } = linesOf(scenarios, figures, query);
  // Legend labels tell apart the drawn lines' scenarios, not every scenario in scope.
  const drawnScenarios = new Set(shown.map((g) => g.scenarioId));
  const labels = seriesLabels(scenarios.filter((s) => drawnScenarios.has(s.id)));
  const versus = versusOf(scenarios, figures, query, (id) => labels.get(id) ?? seriesLabels(scenarios).get(id) ?? id);
  const lines = shown.map((g) => {
    const base = labels.get(g.scenarioId) ?? g.scenarioId;
    const label = (ofScenario.get(g.scenarioId)?.length ?? 0) > 1 ? `${base} · ${paramsLabel(g.rest)}` : base;
    const figs = [...g.figures].sort((a, b) => Number(a.params[query.x]) - Number(b.params[query.x]));
    return { id: `${g.scenarioId}\u0000${canonicalJson(g.rest)}`, label, scenarioId: g.scenarioId, rest: g.rest, figs };
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
      // The runs judge the order at each step: a crossing claimed between noise and a decided gap is none.
      ...(f.samples.length > 1 ? { samples: f.samples } : {}),
    })),
  }));
  const result = crossingsOfLike(lines, absolute, better, query.x, query.metric);
  // Five significant digits: a crossing between steps of thousands reads "≈19,650", not "≈19,650.0".
  const words = { along: query.x, significantDigits: 5 };
  // The summary says first the crossings of the baseline's lines, else of the first line's scenario.
  const firstScenario =
    (query.baseline && drawnScenarios.has(query.baseline) ? query.baseline : lines[0]?.scenarioId) ?? "";
  const summary = summariseCrossovers(result, words, {
    limit: maxSentences,
    first: new Set(lines.filter((l) => l.scenarioId === firstScenario).map((l) => l.id)),
  });
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
  const margin = marginPercent(query.metric);
  // A band on the values' own scale only: degradation is a percentage of each line's first step.
  const bandOf = (f: LatestFigure, whisker: [number, number] | null): [number, number] | null =>
    query.y !== "absolute" || f.qualifier
      ? null
      : (whisker ?? [f.value * (1 - margin / 100), f.value * (1 + margin / 100)]);
  const shownFigures = lines.flatMap((l) => l.figs);
  const axes = axisChoices(crossoverAxesOf(ofMetric), ofMetric);
  // The drawn axis' one-line conditions are the axes' own where it is offered (the same figures).
  const oneLine = shown.some((g) => (ofScenario.get(g.scenarioId)?.length ?? 0) > 1)
    ? (axes.find((a) => a.param === query.x)?.where ?? oneLinePerSetup(selected, query.x))
    : null;
  const withRuns = shownFigures.filter((f) => f.samples.length > 1).length;

  return {
    metric: query.metric,
    title,
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
          band: bandOf(f, whiskerOf(summary)),
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
      return { x: c.x, y, label: `≈${crossingAt(c.x, words.significantDigits)}` };
    }),
    sentences: summary.sentences,
    undecided: summary.undecided,
    withinNoise: summary.withinNoise,
    allSentences: summary.all,
    notice: scale ? null : categoryNotice(query.metric, query.x, title),
    hiddenLines: candidates.length - lines.length,
    joined: scale,
    band: query.y === "absolute" && shownFigures.length > 0 ? bandWords(withRuns, shownFigures.length, margin) : null,
    axes,
    elsewhere: [],
    oneLine,
  };
}

/**
 * Which lines a crossover chart draws (pure selection by params and scenario order, whatever the
 * figures' values): the metric's figures under `where`, those along x, grouped per scenario and other
 * params, the groups of two or more points in explorer order, and the first `maxLines` of them.
 */
function linesOf(
  scenarios: readonly ScenarioSummary[],
  figures: readonly LatestFigure[],
  query: Pick<CrossoverQuery, "metric" | "x" | "where">,
) {
  const where = Object.entries(query.where);
  const ofMetric = figures.filter((f) => f.metric === query.metric && where.every(([k, v]) => f.params[k] === v));
  const selected = ofMetric.filter((f) => typeof f.params[query.x] === "number");
  // Group per scenario and per the params that are neither x nor fixed (e.g. concurrency 64 vs 256),
  // by comparing each figure with its scenario's few groups: a string key per figure was most of the
  // function's time with 1,400 figures.
  const groups: Group[] = [];
  const ofScenario = new Map<string, Group[]>();
  for (const f of selected) {
    const own = ofScenario.get(f.scenarioId) ?? [];
    ofScenario.set(f.scenarioId, own);
    let g = own.find((g) => alikeApartFrom(g.params, f.params, query.x));
    if (!g) {
      g = {
        scenarioId: f.scenarioId,
        params: f.params,
        rest: withoutKeys(f.params, [query.x, ...Object.keys(query.where)]),
        figures: [],
      };
      own.push(g);
      groups.push(g);
    }
    g.figures.push(f);
  }
  const order = new Map(scenarios.map((s, i) => [s.id, i]));
  const candidates = groups
    .filter((g) => g.figures.length >= 2)
    .sort((a, b) => (order.get(a.scenarioId) ?? 0) - (order.get(b.scenarioId) ?? 0));
  return { ofMetric, selected, ofScenario, candidates, shown: candidates.slice(0, maxLines) };
}

/**
 * The figures whose values crossoverOf reads: the drawn lines' points, and with a baseline every
 * figure of the drawn scenarios and the baseline's (their verdicts are the compare table's, whose
 * p-values are adjusted over all of a scenario's figures, versusOf). The others only decide, by their
 * params, which lines are drawn and along which axes: chartView need not read their campaigns' runs.
 */
export function crossoverDrawn(
  scenarios: readonly ScenarioSummary[],
  figures: readonly LatestFigure[],
  query: Pick<CrossoverQuery, "metric" | "x" | "where"> & Pick<Against, "baseline">,
): LatestFigure[] {
  const { shown } = linesOf(scenarios, figures, query);
  if (!query.baseline) return shown.flatMap((g) => g.figures);
  const judged = new Set([query.baseline, ...shown.map((g) => g.scenarioId)]);
  return figures.filter((f) => judged.has(f.scenarioId));
}

/** What the band is, for the legend: the runs' min–max, the margin around single values, or each where it applies. */
function bandWords(withRuns: number, points: number, margin: number): NoiseBand {
  const around = `±${formatNumber(margin)} % around a single value (the metric's margin)`;
  const words =
    withRuns === points
      ? "Shaded: each line's runs, min–max"
      : withRuns === 0
        ? `Shaded: ${around}`
        : `Shaded: each line's runs, min–max, or ${around}`;
  return { kind: withRuns > 0 ? "runs" : "margin", marginPercent: margin, words };
}

type Group = { scenarioId: string; params: Params; rest: Params; figures: LatestFigure[] };

/** Whether two figures' params are the same but for x: the figures of one line. */
function alikeApartFrom(a: Params, b: Params, x: string): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k === x || a[k] === b[k]);
}

/**
 * Crossings only between lines alike in every other param: Cilium's p99 line crossing iptables' p50
 * line, or its 8-stream line crossing a 1-stream one, compares two different tests.
 */
function crossingsOfLike(
  lines: readonly { rest: Params }[],
  absolute: readonly Series[],
  better: ReturnType<typeof resolveBetter>,
  along: string,
  metric: string,
): CrossoverResult {
  const alike = new Map<string, Series[]>();
  for (const [i, l] of lines.entries()) {
    const key = canonicalJson(l.rest);
    alike.set(key, [...(alike.get(key) ?? []), absolute[i]!]);
  }
  const results = [...alike.values()].map((group) => findCrossovers(group, better, { along, metric }));
  return {
    crossovers: results.flatMap((r) => r.crossovers).sort((c, d) => c.x - d.x),
    undecided: results.flatMap((r) => r.undecided).sort((c, d) => c.from.x - d.from.x),
    withinNoise: results.flatMap((r) => r.withinNoise).sort((c, d) => c.x - d.x),
    pairs: results.flatMap((r) => r.pairs),
  };
}
