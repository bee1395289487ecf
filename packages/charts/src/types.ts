import type { Verdict } from "@cnibench/analysis/format";
import type { Qualifier } from "@cnibench/schema";

/** A point against the baseline's point of the same params, judged as the compare table judges it. */
export type Versus = {
  /** The baseline's legend label. */
  baseline: string;
  verdict: Verdict;
  /** A single run on a side: the verdict comes from the margin alone. */
  indicative: boolean;
  /** The figure's change against the baseline's, in %; null against a baseline of 0. */
  percent: number | null;
  /** What the verdict rests on: "3 vs 3 runs, 95 % 0.121–0.122", "1 vs 1 runs, indicative". */
  words: string;
};

/** One plotted figure, with what a reader needs to trust it: qualifier, params, where it came from. */
export type ChartPoint = {
  x: number;
  y: number;
  qualifier?: Qualifier | null;
  low?: number | null;
  high?: number | null;
  params?: Record<string, string | number | boolean>;
  /** Runs behind the figure (its latest campaign); the value is their median when several. */
  n?: number | null;
  /** Min–max of those runs on the drawn scale, drawn as a whisker; null or absent for none. */
  whisker?: readonly [number, number] | null;
  /** Bundle and source, shown with the selected point. */
  links?: { label: string; href: string }[];
  /** Against the chart's baseline, when it has one; absent for the baseline's own points. */
  versus?: Versus | null;
};

export type ChartSeries = { id: string; label: string; points: ChartPoint[] };

/** A labelled point drawn over the chart, e.g. where one line overtakes another. */
export type ChartMarker = { x: number; y: number; label: string };

/** Bars: one group per category (e.g. a percentile), one bar per series (e.g. a scenario). */
export type BarDatum = {
  category: string;
  values: Record<string, (Omit<ChartPoint, "x"> & { y: number }) | undefined>;
  /** A reference measured without a datapath (node to node), drawn as a dashed line across the group. */
  reference?: { y: number; label: string } | null;
};
