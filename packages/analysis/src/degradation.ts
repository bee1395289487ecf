import { formatPercent } from "@cnibench/format";
import { percentDelta } from "./delta.ts";
import { sortedPoints } from "./series.ts";
import type { Better, Point, Series } from "./types.ts";

/**
 * How each step of a line has moved against the line's own baseline (the smallest x, or an explicit
 * baseline x): (value − baseline) / baseline × 100. The sign is the arithmetic one; `change` says
 * whether that is good or bad for the metric ("higher": a fall is a degradation; "lower": a rise is).
 */
export type Change = "improved" | "degraded" | "unchanged" | "changed";

export type DegradationStep = {
  x: number;
  value: number;
  baseline: number;
  absolute: number;
  /** Null when the baseline is 0. */
  percent: number | null;
  change: Change;
  /** The baseline or this step is an approximate or bounded figure, so the percentage is too. */
  approximate: boolean;
};

export type Degradation = {
  baselineX: number;
  baseline: number;
  steps: DegradationStep[];
};

export function changeOf(absolute: number, better: Better): Change {
  if (absolute === 0) return "unchanged";
  if (better === "none") return "changed";
  const rose = absolute > 0;
  return rose === (better === "higher") ? "improved" : "degraded";
}

export function degradation(points: readonly Point[], options: { better: Better; baselineX?: number }): Degradation {
  const sorted = sortedPoints({ id: "line", label: "line", points });
  const base = options.baselineX === undefined ? sorted[0] : sorted.find((p) => p.x === options.baselineX);
  if (!base) {
    throw new RangeError(
      options.baselineX === undefined ? "no points to degrade from" : `no point at baseline x = ${options.baselineX}`,
    );
  }
  return {
    baselineX: base.x,
    baseline: base.value,
    steps: sorted.map((p) => {
      const { absolute, percent } = percentDelta(p.value, base.value);
      return {
        x: p.x,
        value: p.value,
        baseline: base.value,
        absolute,
        percent,
        change: changeOf(absolute, options.better),
        approximate: Boolean(p.qualifier || base.qualifier),
      };
    }),
  };
}

/** Degradation of every line against its own baseline, keyed by series id. */
export function degradationBySeries(
  series: readonly Series[],
  options: { better: Better; baselineX?: number },
): Record<string, Degradation> {
  return Object.fromEntries(series.map((s) => [s.id, degradation(s.points, options)]));
}

/** "−29.1% (degraded)"; "≈ −2.0% (degraded)" when approximate; "n/a" without a baseline. */
export function formatDegradation(step: DegradationStep, fractionDigits = 1): string {
  if (step.percent === null) return "n/a";
  const text = `${formatPercent(step.percent, fractionDigits)} (${step.change})`;
  return step.approximate ? `≈ ${text}` : text;
}
