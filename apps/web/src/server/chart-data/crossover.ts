// Where one datapath overtakes another along a scale (Services, streams) is what the line charts are for;
// the crossing arithmetic is @cnibench/analysis's, this shapes the lines and says the crossings.
import {
  degradation,
  findCrossovers,
  formatCrossover,
  formatUndecidedCrossing,
  readAt,
  resolveBetter,
  type Series,
} from "@cnibench/analysis";
import { formatNumber } from "@cnibench/analysis/format";
import type { ScenarioSummary } from "@cnibench/db";
import type { CrossoverPoint } from "@cnibench/db/read-models";
import { findMetric } from "@cnibench/schema";
import { crossoverAxisWords, crossoverView } from "../chart-views";
import { summaryOf, whiskerOf } from "../figure-summary";
import { paramsLabel, seriesLabels, withoutKeys } from "./labels";
import type { Figure, Params, SeriesInfo } from "./types";
import { type Against, type Versus, versusOf } from "./versus";

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
