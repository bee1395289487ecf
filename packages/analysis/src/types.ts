import type { Better, Qualifier } from "@cnibench/schema";
import type { HistoryNoise } from "./effect.ts";

export type { Better, Qualifier };

/** A param value as stored; null is accepted so database rows pass through unchanged. */
export type ParamValue = string | number | boolean | null;
export type Params = Record<string, ParamValue>;

/**
 * A figure as the analysis judges it: a value and its runs (`samples`). packages/db's current figures
 * (LatestFigure) and stored measurements (MeasurementRow) fit it, so a server can hand rows over
 * without reshaping. `better` falls back to the metric catalogue.
 */
export type Figure = {
  metric: string;
  params?: Params;
  value: number;
  unit: string;
  qualifier?: Qualifier | null;
  low?: number | null;
  high?: number | null;
  samples?: readonly number[];
  better?: Better;
  /** Run-to-run noise of the figure's series from its earlier campaigns, when it has enough (effect.ts). */
  history?: HistoryNoise | null;
  /**
   * Summary statistics when the tool published a mean and its spread instead of samples (the bundle
   * contract's result.summary; the read models' summaryStatistics): verdicts use them by Welch's t from
   * summary statistics.
   */
  summaryStatistics?: {
    mean: number;
    sd?: number;
    ci95?: readonly [number, number];
    n: number;
    of: "runs" | "clients";
  } | null;
  /** "clients": the samples are concurrent clients of one run, so the figure counts as one run. */
  samplesAre?: "runs" | "clients" | null;
};

/** A figure as a page shows it: one value (a median, or the single run) with its qualifier and spread. */
export type ShownFigure = {
  metric: string;
  params: Params;
  value: number;
  unit: string;
  qualifier: Qualifier | null;
  low: number | null;
  high: number | null;
};

/** One sampled step of a line: x is the varied param (Service count, pods, …). */
export type Point = {
  x: number;
  value: number;
  qualifier?: Qualifier | null;
  low?: number | null;
  high?: number | null;
  /** The runs the value is the median of: with them (or a single run's value) a crossing's order is judged. */
  samples?: readonly number[];
};

/** A chart line: one scenario (or one cluster) across a varied param. */
export type Series = {
  id: string;
  label: string;
  points: readonly Point[];
};

export type SeriesRef = { id: string; label: string };

/** Absolute and relative change of a candidate figure against a baseline figure. */
export type Delta = {
  absolute: number;
  /** (candidate − baseline) / |baseline| × 100; null when the baseline is 0. */
  percent: number | null;
};
