"use client";

import { formatPercent, type Verdict, verdictWords } from "@cnibench/format";
import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from "react";
import { ChartFrame, type KeyLine, useChartState } from "./chart-frame";
import { valueAxisWidth } from "./geometry";
import { useInteractive } from "./interactive";
import { colorAt } from "./palette";
import { StaticHistoryChart } from "./static-chart";

// Recharts and the plot drawn with it: a chunk of its own, loaded once the reader interacts.
const HistoryPlot = lazy(() => import("./history-plot"));

// A series over time: each campaign a point at its runs' median with min–max whiskers, a dashed
// vertical marker where what the campaigns ran on changed (kernel, CNI version…), a solid one where
// the series shifted (a change point, with its change and verdict), and the mean of each stretch
// between change points as a step. The markers sit between the last campaign before the change and
// the first after it: that is where it happened.

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

type Props = {
  title: string;
  summary?: ReactNode;
  /** The series in the legend: "TCP throughput · path pod-pod · streams 1". */
  label: string;
  points: HistoryPoint[];
  annotations?: HistoryAnnotation[];
  shifts?: HistoryShift[];
  yLabel: string;
  unit: string;
  filename: string;
  height?: number;
};

export const seriesId = "history";
export const margin = { right: 24, bottom: 28, left: 16 } as const;
/** The font's line height of the markers' labels. */
export const lineHeight = 14;
/**
 * The chart's width until it is measured (the server's picture): a phone's, so that labels placed for
 * it stay inside a wider chart too, and its date ticks do not crowd.
 */
const unmeasuredWidth = 360;
/** About how wide a character of a 12 px label is, to keep labels apart before they are drawn. */
const charWidth = 6.6;

/** A verdict's colour on a change point: the palette's vermilion-red and green, 3:1 on both backgrounds. */
export const shiftColor = (verdict: Verdict): string =>
  verdict === "worse" ? "#c80a3c" : verdict === "better" ? "#009e73" : "currentColor";

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

/** The chart's CSV: a row per campaign, oldest first, with what changed at it and the change point found there. */
export function historyCsv(
  points: readonly HistoryPoint[],
  annotations: readonly HistoryAnnotation[],
  shifts: readonly HistoryShift[],
  unit: string,
): (string | number)[][] {
  return [
    ["campaign", "date", "median", "min", "max", "n", "unit", "annotations", "change_point", "change_percent", "p"],
    ...[...points]
      .sort((a, b) => a.x - b.x)
      .map((p) => {
        const shift = shifts.find((s) => s.x === p.x);
        return [
          p.campaign,
          new Date(p.x).toISOString(),
          p.y,
          p.min,
          p.max,
          p.n,
          unit,
          annotations
            .filter((a) => a.x === p.x)
            .map((a) => a.label)
            .join("; "),
          shift ? shiftWords(shift) : "",
          shift?.changePercent ?? "",
          shift?.p ?? "",
        ];
      }),
  ];
}

/** The x domain: the campaigns' span with a little room either side (a day around a single campaign). */
function timeDomain(points: readonly HistoryPoint[]): [number, number] {
  const xs = points.map((p) => p.x);
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const pad = Math.max((hi - lo) * 0.04, 12 * 3600 * 1000);
  return [lo - pad, hi + pad];
}

/**
 * A series over time: campaigns' medians with min–max whiskers against their dates, what changed
 * (dashed markers) and where the series shifted (solid markers, coloured by verdict), each labelled
 * above the plot; the means between shifts as steps.
 */
const noAnnotations: HistoryAnnotation[] = [];
const noShifts: HistoryShift[] = [];

export function HistoryChart({ height = 360, annotations = noAnnotations, shifts = noShifts, ...props }: Props) {
  const state = useChartState([seriesId], [{ id: seriesId, label: props.label }]);
  const [width, setWidth] = useState(0);
  // The chart's width, to keep the markers' labels apart and the date ticks readable before drawing.
  const measure = useCallback((node: HTMLDivElement | null) => {
    if (!node) return;
    setWidth(node.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const points = props.points;
  // The same arrays until the data or the width change: new ones make Recharts remount the dots,
  // losing the hovered or focused point.
  const { domain, groups, rows, steps, years, ticks } = useMemo(() => {
    const domain = timeDomain(points);
    const plotLeft = margin.left + valueAxisWidth;
    const plotWidth = Math.max(1, (width || unmeasuredWidth) - plotLeft - margin.right);
    const toPx = (x: number) => plotLeft + ((x - domain[0]) / (domain[1] - domain[0])) * plotWidth;
    const stacked = stackLabels(markerGroups(points, annotations, shifts), toPx, plotLeft + plotWidth);
    const years = new Set(points.map((p) => new Date(p.x).getUTCFullYear())).size > 1;
    const ticks = timeTicks(points, plotWidth, years ? 110 : 64);
    return { domain, ...stacked, steps: segmentSteps(points, shifts), years, ticks };
  }, [points, annotations, shifts, width]);
  const color = colorAt(state.styleOf(seriesId));
  const csv = historyCsv(points, annotations, shifts, props.unit);
  const keys: KeyLine[] = [
    ...(annotations.length > 0 ? [{ label: "what the campaigns ran on changed", dash: "4 4" }] : []),
    ...(shifts.length > 0
      ? [
          { label: "change point (the series shifted)", dash: "" },
          { label: "mean between change points", dash: "8 3" },
        ]
      : []),
  ];
  const top = 16 + rows * lineHeight;
  const interactive = useInteractive();
  const picture = (
    <StaticHistoryChart
      title={props.title}
      yLabel={`${props.yLabel} (${props.unit})`}
      points={state.visible(seriesId) ? points : []}
      domain={domain}
      xTicks={ticks.map((value) => ({ value, label: dateTick(value, years) }))}
      rules={groups.map((g) => ({
        x: g.x,
        solid: Boolean(g.shift),
        row: g.row,
        before: g.before,
        lines: [
          ...g.annotations.map((text) => ({ text })),
          ...(g.shift ? [{ text: shiftWords(g.shift), color: shiftColor(g.shift.verdict) }] : []),
        ],
      }))}
      rows={rows}
      steps={state.visible(seriesId) ? steps : []}
      color={color}
      height={height}
    />
  );

  return (
    <ChartFrame
      about={{
        title: props.title,
        summary: props.summary,
        filename: props.filename,
        series: [{ id: seriesId, label: props.label }],
      }}
      state={state}
      csv={csv}
      mark="point"
      whiskers={points.some((p) => p.n > 1)}
      keys={keys}
    >
      <div ref={measure} data-testid="history-plot">
        {interactive ? (
          <Suspense fallback={picture}>
            <HistoryPlot
              points={points}
              domain={domain}
              ticks={ticks}
              years={years}
              groups={groups}
              rows={rows}
              steps={steps}
              color={color}
              height={height}
              top={top}
              label={props.label}
              yLabel={props.yLabel}
              unit={props.unit}
              state={state}
            />
          </Suspense>
        ) : (
          picture
        )}
      </div>
    </ChartFrame>
  );
}
