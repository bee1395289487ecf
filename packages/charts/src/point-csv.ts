// A chart's CSV: a row per plotted figure, every row naming its scenario (id and name) and giving the
// figure's params in one column, as the page words them. Apart from export.ts, which loads on the
// first click: the charts build their rows as they render.
import { formatParams } from "@cnibench/format";
import type { BarDatum, ChartPoint, ChartSeries, ScenarioRef, SeriesInfo } from "./types";

type Cell = string | number;

/** The CSV columns of a plotted figure, after its scenario and what places it (series and x, or series and group). */
export const pointColumns = [
  "value",
  "unit",
  "qualifier",
  "low",
  "high",
  "n",
  "min",
  "max",
  "params",
  "verdict_vs_baseline",
  "change_percent",
];

/** A plotted figure's cells under pointColumns; params as the page words them ("path pod-pod · streams 8"). */
export function pointCells(p: Omit<ChartPoint, "x">, unit: string): Cell[] {
  return [
    p.y,
    unit,
    p.qualifier ?? "",
    p.low ?? "",
    p.high ?? "",
    p.n ?? "",
    p.whisker?.[0] ?? "",
    p.whisker?.[1] ?? "",
    p.params ? formatParams(p.params, { empty: "" }) : "",
    p.versus?.verdict ?? "",
    p.versus?.percent ?? "",
  ];
}

/** A series' scenario: the one it names, else the series itself (a bar series is a scenario). */
const scenarioOf = (s: SeriesInfo): ScenarioRef => s.scenario ?? { id: s.id, name: s.label };

/** A line chart's CSV: every point of every series, hidden or not. */
export function lineCsv(series: readonly ChartSeries[], unit: string): Cell[][] {
  return [
    ["scenario_id", "scenario", "series", "x", ...pointColumns],
    ...series.flatMap((s) => {
      const { id, name } = scenarioOf(s);
      return s.points.map((p) => [id, name, s.label, p.x, ...pointCells(p, unit)]);
    }),
  ];
}

/**
 * A bar chart's CSV: every bar of every series, hidden or not, then each group's reference line, a
 * row of its own scenario (a NIC's line rate is no measurement: not a row).
 */
export function barCsv(series: readonly SeriesInfo[], data: readonly BarDatum[], unit: string): Cell[][] {
  return [
    ["scenario_id", "scenario", "series", "group", ...pointColumns],
    ...data.flatMap((d) =>
      series.flatMap((s) => {
        const v = d.values[s.id];
        const { id, name } = scenarioOf(s);
        return v ? [[id, name, s.label, d.category, ...pointCells(v, unit)]] : [];
      }),
    ),
    ...data.flatMap((d) => {
      const r = d.reference;
      if (!r) return [];
      return [[r.scenarioId ?? "", r.scenario ?? "", r.label, d.category, ...pointCells(r, unit)]];
    }),
  ];
}
