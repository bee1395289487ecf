import { benjaminiHochberg } from "./effect.ts";
import { paramsKey } from "./params-key.ts";
import type { Figure, Params } from "./types.ts";
import { compareFigures, type VerdictOptions, type VerdictResult, withAdjustedP } from "./verdict.ts";

/** One (metric, params) of a scenario diff, with both figures and the verdict. */
export type ComparisonRow<F extends Figure = Figure> = {
  /** metric + canonical JSON of params: stable across key order, usable as a React key or URL part. */
  key: string;
  metric: string;
  params: Params;
  baseline: F | null;
  candidate: F | null;
  result: VerdictResult;
};

export function figureKey(metric: string, params: Params | undefined): string {
  return `${metric} ${params ? paramsKey(params) : "{}"}`;
}

function index<F extends Figure>(side: string, measurements: readonly F[]): Map<string, F> {
  const map = new Map<string, F>();
  for (const m of measurements) {
    const key = figureKey(m.metric, m.params);
    // Two figures for one (metric, params) on one side mean the caller skipped the latest-figure pick.
    if (map.has(key)) throw new RangeError(`${side} has two figures for ${key}`);
    map.set(key, m);
  }
  return map;
}

/**
 * A scenario diff: every (metric, params) either side has, matched by exact params, sorted by key.
 * A figure only one side has is a "missing" row rather than dropped, so gaps show. The p-values of
 * the figures compared by their runs are adjusted together (Benjamini–Hochberg): with dozens of
 * figures, some would pass α by chance alone.
 */
export function compareMeasurementSets<F extends Figure>(
  baseline: readonly F[],
  candidate: readonly F[],
  options: VerdictOptions = {},
): ComparisonRow<F>[] {
  const b = index("baseline", baseline);
  const c = index("candidate", candidate);
  const keys = [...new Set([...b.keys(), ...c.keys()])].sort();
  const rows = keys.map((key): ComparisonRow<F> => {
    const bm = b.get(key) ?? null;
    const cm = c.get(key) ?? null;
    const any = (cm ?? bm)!;
    return {
      key,
      metric: any.metric,
      params: { ...(any.params ?? {}) },
      baseline: bm,
      candidate: cm,
      result: compareFigures(bm, cm, options),
    };
  });
  const tested = rows.filter((r) => r.result.evidence.method === "interval");
  const adjusted = benjaminiHochberg(tested.map((r) => (r.result.evidence as { p: number }).p));
  tested.forEach((r, i) => {
    r.result = withAdjustedP(r.result, adjusted[i]!);
  });
  return rows;
}
