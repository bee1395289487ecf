// A chart as geometry: which series are drawn, in which order, colour and dash, the axes' domains and
// ticks, and line paths, bars and labels in pixels. Each kind of chart computes it once, in one
// function here, and every picture of it is drawn from that object: the static first paint
// (static-chart.tsx), the interactive Recharts plot (given its domains, ticks and colours, not left
// to choose its own), the link cards (apps/web/src/server/cards/card.tsx) and the SVG and PNG exports of the
// Recharts picture. Pure (no React, no Recharts), so it runs on the server without a browser.
import { formatCompact, formatPercent, type Verdict, verdictWords } from "@cnibench/format";
import { colorAt, dashAt } from "./palette";
import { type Better, barScores, lineScores, rankByScore, topCount } from "./top";
import type { BarDatum, ChartMarker, ChartRule, ChartSeries, SeriesInfo } from "./types";

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
/** A drawn series: its place in the palette (palette.ts: colour, marker, dash), as the legend shows it. */
export type DrawnSeries = { id: string; label: string; style: number; color: string; dash: string };

/** The series' style as the palette gives it for a place. */
const drawnSeries = (s: { id: string; label: string }, style: number): DrawnSeries => ({
  id: s.id,
  label: s.label,
  style,
  color: colorAt(style),
  dash: dashAt(style),
});

/** Where the plot sits in a picture of `width` × `height`: room left for the y labels, below for the x. */
export type Frame = {
  width: number;
  height: number;
  margin?: Partial<{ top: number; right: number; bottom: number; left: number }>;
};

/** The static pictures' frame (static-chart.tsx): the plot alone on 1000 × 1000 units, stretched over its box. */
export const pictureUnits = 1000;
export const pictureFrame: Frame = {
  width: pictureUnits,
  height: pictureUnits,
  margin: { top: 0, right: 0, bottom: 0, left: 0 },
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

const along = (kind: "linear" | "log") =>
  kind === "log" ? { f: Math.log10, back: (v: number) => 10 ** v } : { f: (v: number) => v, back: (v: number) => v };

/** A linear or logarithmic map of [d0, d1] onto [r0, r1]. */
function scale(kind: "linear" | "log", [d0, d1]: readonly [number, number], [r0, r1]: [number, number]) {
  const { f } = along(kind);
  const [a, b] = [f(d0), f(d1)];
  return (v: number) => round(r0 + ((f(v) - a) / (b - a || 1)) * (r1 - r0));
}

/**
 * [lo, hi] widened on the axis's scale so that lo and hi fall a twentieth of the length in from its
 * ends (1/18 of the span either side): unjoined points kept off the axes, in values rather than in
 * pixels, so every picture of any width keeps them off alike.
 */
function keptOff(kind: "linear" | "log", lo: number, hi: number): [number, number] {
  const { f, back } = along(kind);
  const span = f(hi) - f(lo) || 1;
  return [back(f(lo) - span / 18), back(f(hi) + span / 18)];
}

/** A min–max whisker on a y scale: its top and bottom in px. */
const whiskerAt = ([min, max]: readonly [number, number], y: (v: number) => number): [number, number] => [
  y(max),
  y(min),
];

/** Whether a point can be drawn: a log axis has no x ≤ 0. */
export const drawableOn =
  (xScale: "linear" | "log") =>
  (p: { x: number }): boolean =>
    xScale === "linear" || p.x > 0;

const ticksOf = (values: number[], at: (v: number) => number): Tick[] =>
  values.map((value) => ({ value, label: formatCompact(value), at: at(value) }));

export type LineGeometry = {
  plot: Plot;
  xScale: "linear" | "log";
  /** The axes' ends in values, as the interactive plot is given them. */
  xDomain: [number, number];
  yDomain: [number, number];
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
  /** In px, with the marker as given (its values) for a plot that places it itself. */
  markers: { x: number; y: number; label: string; value: ChartMarker }[];
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
  const drawable = drawableOn(xScale);
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
  const [xFirst, xLast] = [xValues[0] ?? 0, xValues.at(-1) ?? 1];
  const xDomain = input.unjoined ? keptOff(xScale, xFirst, xLast) : ([xFirst, xLast] as [number, number]);
  const yDomain: [number, number] = [yValues[0] ?? 0, yValues.at(-1) ?? 1];
  const x = scale(xScale, xDomain, [plot.left, plot.left + plot.width]);
  const y = scale("linear", yDomain, [plot.top + plot.height, plot.top]);
  return {
    plot,
    xScale,
    xDomain,
    yDomain,
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
        ...drawnSeries(s, style),
        points: at,
        path: at.map((p, i) => `${i === 0 ? "M" : "L"}${p.x},${p.y}`).join(""),
      };
    }),
    markers: (input.markers ?? [])
      .filter((m) => drawable(m) && m.x >= xDomain[0] && m.x <= xDomain[1])
      .map((m) => ({ x: x(m.x), y: y(m.y), label: m.label, value: m })),
    hidden: Math.max(0, input.series.length - top.length),
  };
}

export type BarGeometry = {
  plot: Plot;
  yDomain: [number, number];
  yTicks: Tick[];
  series: DrawnSeries[];
  /** Lines across the whole plot (a NIC's line rate), at their y in px, each label on its side (ruleSides). */
  rules: { value: number; y: number; label: string; side: "right" | "left" }[];
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

/** The height of a rule's label above its line (rule.tsx: 12 px text, 6 px above the line). */
const ruleLabelRoom = 18;

/**
 * Grouped bars, as GroupedBarChart draws them: the top `count` series by their mean rank over the
 * groups (the charts page's rule), each in its colorIndex or rank's colour, side by side in every
 * group in that order; y from 0, or below it for negative values (an overhead that saves), and up to
 * the groups' references and the `references` across the chart, so every line to read the bars
 * against is on the plot. With `groups`, only the first that many groups holding a bar of a drawn
 * series (a small picture).
 */
export function barGeometry(input: {
  data: readonly BarDatum[];
  series: readonly SeriesInfo[];
  references?: readonly ChartRule[];
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
    return s ? [drawnSeries(s, s.colorIndex ?? rank)] : [];
  });
  const references = input.references ?? [];
  const data = input.data.filter((d) => series.some((s) => d.values[s.id])).slice(0, input.groups ?? input.data.length);
  const values = data.flatMap((d) => [
    ...series.flatMap((s) => {
      const v = d.values[s.id];
      return v ? [v.y, ...(v.whisker ?? [])] : [];
    }),
    ...(d.reference ? [d.reference.y] : []),
  ]);
  // A rule's label sits above its line: room for it under the plot's top, where the groups' reference
  // names are (a 40 Gbit/s NIC line at the top of a 0–40 axis printed over them).
  const headroom = plot.height > ruleLabelRoom ? plot.height / (plot.height - ruleLabelRoom) : 1;
  const yValues = niceTicks(Math.min(0, ...values), Math.max(0, ...values, ...references.map((r) => r.y * headroom)));
  const yDomain: [number, number] = [yValues[0] ?? 0, yValues.at(-1) ?? 1];
  const y = scale("linear", yDomain, [plot.top + plot.height, plot.top]);
  const band = plot.width / Math.max(1, data.length);
  // A tenth of each band either side stays empty, so the groups stand apart.
  const barWidth = (band * 0.8) / Math.max(1, series.length);
  return {
    plot,
    yDomain,
    yTicks: ticksOf(yValues, y),
    series,
    rules: ruleSides(references).map(({ rule, side }) => ({ value: rule.y, y: y(rule.y), label: rule.label, side })),
    groups: data.map((d, g) => {
      // The group's bars side by side about its centre, with no slot kept for a series that has no
      // figure here: a gap would push the others off-centre (the static picture packs them the same way).
      const present = series.filter((s) => d.values[s.id]);
      const centre = plot.left + g * band + band / 2;
      const start = centre - (present.length * barWidth) / 2;
      return {
        category: d.category,
        at: round(centre),
        bars: present.map((s, i) => {
          const v = d.values[s.id]!;
          const [top, bottom] = [y(Math.max(0, v.y)), y(Math.min(0, v.y))];
          const bar = {
            ...s,
            x: round(start + i * barWidth),
            y: top,
            width: round(barWidth),
            height: round(bottom - top),
          };
          return v.whisker ? { ...bar, whisker: whiskerAt(v.whisker, y) } : bar;
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

// A series over time (HistoryChart): its campaigns, what changed and where it shifted.

/** A campaign as the chart draws it. */
export type HistoryPoint = {
  campaign: string;
  /** Its time, in ms since the epoch. */
  x: number;
  /** The median of its runs. */
  y: number;
  min: number;
  max: number;
  /** Its runs. */
  n: number;
  /** What it ran on, in words, for its tooltip: "Cilium 1.16.3 · kernel 6.8.0 · Ubuntu 22.04". */
  ranOn?: string;
  /** Its bundles, shown with the selected point. */
  links?: { label: string; href: string }[];
};

/** A change of what the campaigns ran on, at the first campaign (its x) that ran on the new one. */
export type HistoryAnnotation = { x: number; label: string };

/** A change point: the series shifted at the campaign of this x, the first after the shift. */
export type HistoryShift = {
  x: number;
  /** After against before, in % of before; null when before is 0. */
  changePercent: number | null;
  verdict: Verdict;
  p: number;
};

/** The history chart's margins around its plot (the top grows with the rows of labels above it). */
export const historyMargin = { right: 24, bottom: 28, left: 16 } as const;
/** The font's line height of the markers' labels. */
export const lineHeight = 14;
/**
 * The chart's width until it is measured (the server's picture): a phone's, so that labels placed for
 * it stay inside a wider chart too, and its date ticks do not crowd.
 */
const unmeasuredWidth = 360;
/** About how wide a character of a 12 px label is, to keep labels apart before they are drawn. */
const charWidth = 6.6;

/** A change point in a few words: "−7.3 % · worse". */
export const shiftWords = (s: HistoryShift): string =>
  `${s.changePercent === null ? "" : `${formatPercent(s.changePercent)} · `}${verdictWords[s.verdict]}`;

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const yearFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** A campaign's day as an axis tick: "Nov 9", with the year when the campaigns span more than one. */
export function dateTick(x: number, withYear: boolean): string {
  return (withYear ? yearFormat : dayFormat).format(new Date(x));
}

/** The day of a campaign as tooltips and the CSV give it: "2026-11-09". */
export const isoDay = (x: number): string => new Date(x).toISOString().slice(0, 10);

/** A vertical marker: the labels of what changed and of the shift at one campaign, drawn together. */
export type MarkerGroup = {
  /** The campaign's x where the change first shows. */
  at: number;
  /** Where the marker is drawn: halfway from the campaign before. */
  x: number;
  annotations: string[];
  shift: HistoryShift | null;
  /** The first row of its labels above the plot (stackLabels). */
  row: number;
  /** Its labels end at the marker instead of starting there, not to run past the plot's right edge (stackLabels). */
  before: boolean;
};

/** The annotations and change points by campaign, each group halfway from the campaign before, in time order. */
export function markerGroups(
  points: readonly HistoryPoint[],
  annotations: readonly HistoryAnnotation[],
  shifts: readonly HistoryShift[],
): MarkerGroup[] {
  const xs = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  const between = (at: number): number => {
    const before = xs.filter((x) => x < at).at(-1);
    return before === undefined ? at : (before + at) / 2;
  };
  const byAt = new Map<number, MarkerGroup>();
  const groupAt = (at: number): MarkerGroup => {
    const g = byAt.get(at) ?? { at, x: between(at), annotations: [], shift: null, row: 0, before: false };
    byAt.set(at, g);
    return g;
  };
  for (const a of annotations) groupAt(a.x).annotations.push(a.label);
  for (const s of shifts) groupAt(s.x).shift = s;
  return [...byAt.values()].sort((a, b) => a.at - b.at);
}

/** A group's lines of label, top to bottom: what changed, then the shift. */
export const labelLines = (g: Pick<MarkerGroup, "annotations" | "shift">): string[] => [
  ...g.annotations,
  ...(g.shift ? [shiftWords(g.shift)] : []),
];

/**
 * Rows above the plot for the groups' labels, so none overlaps another: each label starts beside its
 * marker (before it, near the right edge) and takes as many rows as it has lines; a group goes on the
 * first rows its label's span leaves free. `toPx` places an x on the chart; `right` is the plot's end.
 * Returns the groups with their first row and side, and the rows used; both pictures of the chart
 * (static-chart.tsx and history-plot.tsx) place the labels by them.
 */
export function stackLabels(
  groups: readonly MarkerGroup[],
  toPx: (x: number) => number,
  right: number,
): { groups: MarkerGroup[]; rows: number } {
  const taken: [number, number][][] = [];
  const free = (row: number, span: [number, number]) =>
    (taken[row] ?? []).every(([a, b]) => span[1] + 8 < a || span[0] - 8 > b);
  let rows = 0;
  const placed = groups.map((g) => {
    const lines = labelLines(g);
    const px = toPx(g.x);
    const width = Math.max(0, ...lines.map((l) => l.length)) * charWidth;
    const before = px + 4 + width > right;
    const span: [number, number] = before ? [px - 4 - width, px] : [px, px + 4 + width];
    let row = 0;
    while (!lines.every((_, k) => free(row + k, span))) row++;
    for (let k = 0; k < lines.length; k++) {
      taken[row + k] = [...(taken[row + k] ?? []), span];
    }
    rows = Math.max(rows, row + lines.length);
    return { ...g, row, before };
  });
  return { groups: placed, rows };
}

/** The mean of the campaigns' medians between change points, from its first campaign to its last. */
export function segmentSteps(
  points: readonly HistoryPoint[],
  shifts: readonly HistoryShift[],
): { from: number; to: number; mean: number }[] {
  if (shifts.length === 0) return [];
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const cuts = new Set(shifts.map((s) => s.x));
  const segments: HistoryPoint[][] = [];
  for (const p of sorted) {
    if (segments.length === 0 || cuts.has(p.x)) segments.push([]);
    segments.at(-1)?.push(p);
  }
  return segments.map((s) => ({
    from: s[0]?.x ?? 0,
    to: s.at(-1)?.x ?? 0,
    mean: s.reduce((sum, p) => sum + p.y, 0) / s.length,
  }));
}

/**
 * The x axis's ticks: campaigns' days, every k-th so that about one fits per `spacing` px, and each
 * a different day; the last campaign's always.
 */
export function timeTicks(points: readonly HistoryPoint[], plotWidth: number, spacing: number): number[] {
  const xs = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  const fit = Math.max(2, Math.floor(plotWidth / spacing));
  const step = Math.max(1, Math.ceil(xs.length / fit));
  const picked = xs.filter((_, i) => i % step === 0);
  const last = xs.at(-1);
  if (last !== undefined && picked.at(-1) !== last) {
    // The last campaign replaces a tick too close to it.
    if (picked.length > 1 && xs.indexOf(last) - xs.indexOf(picked.at(-1) as number) < step) picked.pop();
    picked.push(last);
  }
  const days = new Set<string>();
  return picked.filter((x) => {
    const day = isoDay(x);
    if (days.has(day)) return false;
    days.add(day);
    return true;
  });
}

/** The x domain: the campaigns' span with a little room either side (a day around a single campaign). */
function timeDomain(points: readonly HistoryPoint[]): [number, number] {
  const xs = points.map((p) => p.x);
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const pad = Math.max((hi - lo) * 0.04, 12 * 3600 * 1000);
  return [lo - pad, hi + pad];
}

export type HistoryGeometry = {
  /** The time axis's ends and ticks (campaigns' days). */
  xDomain: [number, number];
  xTicks: { value: number; label: string }[];
  /** The value axis: round ticks covering every campaign's min–max. */
  yDomain: [number, number];
  yTicks: { value: number; label: string }[];
  /** The markers, each with its row of labels above the plot and its side. */
  groups: MarkerGroup[];
  /** The rows of labels above the plot. */
  rows: number;
  /** The means between change points. */
  steps: { from: number; to: number; mean: number }[];
};

/**
 * A series over time, as HistoryChart draws it on a chart `width` px wide (0 before it is measured:
 * a phone's, so labels placed for it stay inside a wider chart too, and its date ticks do not crowd).
 */
export function historyGeometry(input: {
  points: readonly HistoryPoint[];
  annotations: readonly HistoryAnnotation[];
  shifts: readonly HistoryShift[];
  width: number;
}): HistoryGeometry {
  const { points } = input;
  const xDomain = timeDomain(points);
  const plotLeft = historyMargin.left + valueAxisWidth;
  const plotWidth = Math.max(1, (input.width || unmeasuredWidth) - plotLeft - historyMargin.right);
  const toPx = (x: number) => plotLeft + ((x - xDomain[0]) / (xDomain[1] - xDomain[0])) * plotWidth;
  const stacked = stackLabels(markerGroups(points, input.annotations, input.shifts), toPx, plotLeft + plotWidth);
  const years = new Set(points.map((p) => new Date(p.x).getUTCFullYear())).size > 1;
  const ys = points.flatMap((p) => [p.min, p.max]);
  const yValues = niceTicks(Math.min(...ys), Math.max(...ys));
  return {
    xDomain,
    xTicks: timeTicks(points, plotWidth, years ? 110 : 64).map((value) => ({ value, label: dateTick(value, years) })),
    yDomain: [yValues[0] ?? 0, yValues.at(-1) ?? 1],
    yTicks: yValues.map((value) => ({ value, label: formatCompact(value) })),
    ...stacked,
    steps: segmentSteps(points, input.shifts),
  };
}
