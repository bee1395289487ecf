// A plotted figure's columns in a chart's CSV export, the same for lines and bars. Apart from
// export.ts, which loads on the first click: the charts build their rows as they render.
import type { ChartPoint } from "./types";

/** The CSV columns of a plotted figure, after what places it (series and x, or group and series). */
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

/** A plotted figure's cells under pointColumns. */
export function pointCells(p: Omit<ChartPoint, "x">, unit: string): (string | number)[] {
  return [
    p.y,
    unit,
    p.qualifier ?? "",
    p.low ?? "",
    p.high ?? "",
    p.n ?? "",
    p.whisker?.[0] ?? "",
    p.whisker?.[1] ?? "",
    p.params ? JSON.stringify(p.params) : "",
    p.versus?.verdict ?? "",
    p.versus?.percent ?? "",
  ];
}
