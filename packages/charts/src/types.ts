import type { Verdict } from "@cnibench/format";
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
  /**
   * The noise band around a line's point, shaded between its neighbours': its runs' min–max, or the
   * metric's margin around a single run; the legend's `band` words say which.
   */
  band?: readonly [number, number] | null;
  /** Bundle and source, shown with the selected point. */
  links?: { label: string; href: string }[];
  /** Against the chart's baseline, when it has one; absent for the baseline's own points. */
  versus?: Versus | null;
};

/** The scenario a series' figures belong to, named on each of its rows of the chart's CSV. */
export type ScenarioRef = { id: string; name: string };

/** A series as the legend lists it. */
export type SeriesInfo = {
  id: string;
  label: string;
  /** Its scenario, when the series is not the whole scenario (a line per params); else its id and label. */
  scenario?: ScenarioRef;
  /**
   * Its place in the palette given by the page, so one scenario has one colour on every chart of
   * the page; its rank on this chart when absent.
   */
  colorIndex?: number;
};

export type ChartSeries = SeriesInfo & { points: ChartPoint[] };

/** A labelled point drawn over the chart, e.g. where one line overtakes another. */
export type ChartMarker = { x: number; y: number; label: string };

/** Bars: one group per category (e.g. a percentile), one bar per series (e.g. a scenario). */
export type BarDatum = {
  category: string;
  values: Record<string, (Omit<ChartPoint, "x"> & { y: number }) | undefined>;
  /** A reference measured without a datapath (node to node), drawn as a dashed line across the group. */
  reference?: GroupReference | null;
};

/**
 * A group's reference: a figure measured without a datapath (bare metal, host network), drawn as a
 * labelled line across the group, never as a bar ranked among the datapaths.
 */
export type GroupReference = {
  y: number;
  /** What the line is: "node-to-node reference (baremetal)". */
  label: string;
  /** Its scenario, for the CSV and the line's own short label. */
  scenarioId?: string;
  scenario?: string;
  params?: Record<string, string | number | boolean>;
};

/** A horizontal line across the whole chart, such as a NIC's line rate. */
export type ChartRule = { y: number; label: string };
