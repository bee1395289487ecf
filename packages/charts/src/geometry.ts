// A chart as geometry: scales, ticks, line paths, bars and labels in pixels, from the same series
// the Recharts components draw. Pure (no React, no Recharts), so a picture can be drawn on the server
// without a browser: the link cards (apps/web/src/server/card.tsx) draw its lines with SVG paths and
// its words with positioned text.
import { formatCompact } from "@cnibench/format";
import { colorAt, dashAt } from "./palette";
import { type Better, barScores, lineScores, rankByScore, topCount } from "./top";
import type { BarDatum, ChartMarker, ChartSeries, SeriesInfo } from "./types";

/**
 * The interactive charts' value axis width (Recharts' YAxis, rule.tsx): room for ticks like "13.5K"
 * and, left of them, the label turned along it. Here, without Recharts, so the static pictures line
 * their plot up with it without loading Recharts.
 */
export const valueAxisWidth = 68;

/** The plot area inside the picture, in px from its top left corner. */
export type Plot = { left: number; top: number; width: number; height: number };
/** A tick of an axis: its value, its words, and where it falls along the axis in px. */
export type Tick = { value: number; label: string; at: number };
/** A drawn series: its rank's colour and dash, as the legend shows it. */
export type DrawnSeries = { id: string; label: string; color: string; dash: string };

/** Where the plot sits in a picture of `width` × `height`: room left for the y labels, below for the x. */
export type Frame = {
  width: number;
  height: number;
  margin?: Partial<{ top: number; right: number; bottom: number; left: number }>;
};

const plotOf = ({ width, height, margin = {} }: Frame): Plot => {
  const { top = 16, right = 16, bottom = 40, left = 64 } = margin;
  return { left, top, width: Math.max(1, width - left - right), height: Math.max(1, height - top - bottom) };
};

/**
 * About `count` round values (1, 2 or 5 × 10ⁿ apart) covering [min, max], the first at or below min
 * and the last at or above max. A single value gets a step around it.
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min === max) {
    const pad = min === 0 ? 1 : Math.abs(min) / 2;
    [min, max] = [min - pad, max + pad];
  }
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const first = Math.floor(min / step + 1e-9) * step;
  const out: number[] = [];
  for (let v = first; v < max + step - step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** Powers of ten covering [min, max] (min > 0), with 2 and 5 between them when there are fewer than 3. */
export function logTicks(min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const decades = Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i));
  if (decades.length >= 3) return decades;
  return decades.flatMap((d, i) => (i === decades.length - 1 ? [d] : [d, 2 * d, 5 * d]));
}

const round = (v: number) => Math.round(v * 10) / 10;

/** A linear or logarithmic map of [d0, d1] onto [r0, r1]. */
function scale(kind: "linear" | "log", [d0, d1]: [number, number], [r0, r1]: [number, number]) {
  const f = kind === "log" ? Math.log10 : (v: number) => v;
  const [a, b] = [f(d0), f(d1)];
  return (v: number) => round(r0 + ((f(v) - a) / (b - a || 1)) * (r1 - r0));
}

/** A min–max whisker on a y scale: its top and bottom in px. */
const whiskerAt = ([min, max]: readonly [number, number], y: (v: number) => number): [number, number] => [
  y(max),
  y(min),
];

const ticksOf = (values: number[], at: (v: number) => number): Tick[] =>
  values.map((value) => ({ value, label: formatCompact(value), at: at(value) }));

export type LineGeometry = {
  plot: Plot;
  xTicks: Tick[];
  yTicks: Tick[];
  /**
   * Each point with its whisker (the runs' min–max, in px along y) when it has one; `band` the shaded
   * outline of the points' noise bands (upper edge left to right, lower edge back), "" when none.
   */
  lines: (DrawnSeries & {
    path: string;
    band: string;
    points: { x: number; y: number; whisker?: [number, number] }[];
  })[];
  markers: { x: number; y: number; label: string }[];
  /** Series left out: beyond the top `count`. */
  hidden: number;
};

/**
 * Lines over a numeric x, as LineSeriesChart draws them: the top `count` series by their value at the
 * largest x in the better direction (the charts page's rule), each in its rank's colour and dash; x
 * from 0 (linear) or the smallest positive x (log, where x ≤ 0 cannot be drawn); y from 0, or below
 * it when a value is negative (a degradation). Markers (crossovers) outside the x range are left out.
 */
export function lineGeometry(input: {
  series: readonly ChartSeries[];
  markers?: readonly ChartMarker[];
  frame: Frame;
  xScale?: "linear" | "log";
  better?: Better;
  count?: number;
  /**
   * Unjoined points (along a category): ticks at the measured values only (nothing lies between), the
   * first and last kept off the axes by a twentieth of the width.
   */
  unjoined?: boolean;
}): LineGeometry {
  const { xScale = "linear", count = topCount } = input;
  const plot = plotOf(input.frame);
  const ranked = rankByScore(
    input.series.map((s) => s.id),
    lineScores(input.series as ChartSeries[]),
    input.better,
  );
  const drawable = (p: { x: number }) => xScale === "linear" || p.x > 0;
  const byId = new Map(input.series.map((s) => [s.id, s]));
  const top = ranked.slice(0, count).flatMap((id, rank) => {
    const s = byId.get(id);
    return s ? [{ s, style: s.colorIndex ?? rank, points: s.points.filter(drawable) }] : [];
  });
  const all = top.flatMap((t) => t.points);
  const xs = all.map((p) => p.x);
  // The whiskers and bands stay inside the plot, as Recharts widens its axis for them.
  const ys = all.flatMap((p) => [p.y, ...(p.whisker ?? []), ...(p.band ?? [])]);
  const [xMin, xMax] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  const xValues = input.unjoined
    ? [...new Set(xs)].sort((a, b) => a - b)
    : xScale === "log"
      ? logTicks(xMin, Math.max(xMax, xMin * 10))
      : niceTicks(0, xMax);
  const yValues = niceTicks(Math.min(0, ...ys), Math.max(0, ...ys));
  const xDomain: [number, number] = [xValues[0] ?? 0, xValues.at(-1) ?? 1];
  const yDomain: [number, number] = [yValues[0] ?? 0, yValues.at(-1) ?? 1];
  const pad = input.unjoined ? plot.width / 20 : 0;
  const x = scale(xScale, xDomain, [plot.left + pad, plot.left + plot.width - pad]);
  const y = scale("linear", yDomain, [plot.top + plot.height, plot.top]);
  return {
    plot,
    xTicks: ticksOf(xValues, x),
    yTicks: ticksOf(yValues, y),
    lines: top.map(({ s, style, points }) => {
      const sorted = [...points].sort((a, b) => a.x - b.x);
      const at = sorted.map((p) => ({
        x: x(p.x),
        y: y(p.y),
        ...(p.whisker ? { whisker: whiskerAt(p.whisker, y) } : {}),
      }));
      // Only a line whose every point has a band gets one: a bounded or approximate point has none.
      const banded = sorted.every((p) => p.band) && sorted.length > 1;
      const edge = (i: 0 | 1) => sorted.map((p) => `${x(p.x)},${y(p.band![i])}`);
      return {
        band: banded ? `M${[...edge(1), ...edge(0).reverse()].join("L")}Z` : "",
        id: s.id,
        label: s.label,
        color: colorAt(style),
        dash: dashAt(style),
        points: at,
        path: at.map((p, i) => `${i === 0 ? "M" : "L"}${p.x},${p.y}`).join(""),
      };
    }),
    markers: (input.markers ?? [])
      .filter((m) => drawable(m) && m.x >= xDomain[0] && m.x <= xDomain[1])
      .map((m) => ({ x: x(m.x), y: y(m.y), label: m.label })),
    hidden: Math.max(0, input.series.length - top.length),
  };
}

export type BarGeometry = {
  plot: Plot;
  yTicks: Tick[];
  series: DrawnSeries[];
  groups: {
    category: string;
    /** The group's centre along x, for its label. */
    at: number;
    /** With its whisker (the runs' min–max, in px along y) when it has one. */
    bars: (DrawnSeries & { x: number; y: number; width: number; height: number; whisker?: [number, number] })[];
    /** A reference drawn across the group (node to node), at its y in px. */
    reference: { y: number; label: string } | null;
  }[];
  hidden: number;
};

/**
 * Grouped bars, as GroupedBarChart draws them: the top `count` series by their mean rank over the
 * groups (the charts page's rule), each in its colorIndex or rank's colour, side by side in every
 * group in that order; y from 0, or below it for negative values (an overhead that saves). With
 * `groups`, only the first that many groups holding a bar of a drawn series (a small picture).
 */
export function barGeometry(input: {
  data: readonly BarDatum[];
  series: readonly SeriesInfo[];
  frame: Frame;
  better?: Better;
  count?: number;
  groups?: number;
}): BarGeometry {
  const { count = topCount } = input;
  const plot = plotOf(input.frame);
  const ranked = rankByScore(
    input.series.map((s) => s.id),
    barScores(input.data, input.better),
    "lower",
  );
  const byId = new Map(input.series.map((s) => [s.id, s]));
  const series = ranked.slice(0, count).flatMap((id, rank) => {
    const s = byId.get(id);
    const style = s?.colorIndex ?? rank;
    return s ? [{ id, label: s.label, color: colorAt(style), dash: dashAt(style) }] : [];
  });
  const data = input.data.filter((d) => series.some((s) => d.values[s.id])).slice(0, input.groups ?? input.data.length);
  const values = data.flatMap((d) => [
    ...series.flatMap((s) => {
      const v = d.values[s.id];
      return v ? [v.y, ...(v.whisker ?? [])] : [];
    }),
    ...(d.reference ? [d.reference.y] : []),
  ]);
  const yValues = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
  const y = scale("linear", [yValues[0] ?? 0, yValues.at(-1) ?? 1], [plot.top + plot.height, plot.top]);
  const band = plot.width / Math.max(1, data.length);
  // A tenth of each band either side stays empty, so the groups stand apart.
  const barWidth = (band * 0.8) / Math.max(1, series.length);
  return {
    plot,
    yTicks: ticksOf(yValues, y),
    series,
    groups: data.map((d, g) => {
      const start = plot.left + g * band + band * 0.1;
      return {
        category: d.category,
        at: round(plot.left + g * band + band / 2),
        bars: series.flatMap((s, i) => {
          const v = d.values[s.id];
          if (!v) return [];
          const [top, bottom] = [y(Math.max(0, v.y)), y(Math.min(0, v.y))];
          const bar = {
            ...s,
            x: round(start + i * barWidth),
            y: top,
            width: round(barWidth),
            height: round(bottom - top),
          };
          return [v.whisker ? { ...bar, whisker: whiskerAt(v.whisker, y) } : bar];
        }),
        reference: d.reference ? { y: y(d.reference.y), label: d.reference.label } : null,
      };
    }),
    hidden: Math.max(0, input.series.length - series.length),
  };
}

/**
 * The side each horizontal rule's label sits on: in order of value, alternately right and left, so two
 * NIC lines close together (10 and 12.5 Gbit/s) never print their labels over each other (issue 40).
 */
export function ruleSides<R extends { y: number }>(rules: readonly R[]): { rule: R; side: "right" | "left" }[] {
  return [...rules]
    .sort((a, b) => b.y - a.y)
    .map((rule, i) => ({ rule, side: i % 2 === 0 ? ("right" as const) : ("left" as const) }));
}
