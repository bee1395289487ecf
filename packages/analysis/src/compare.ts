import { benjaminiHochberg } from "./effect.ts";
import { paramsKey } from "./params-key.ts";
import type { Measurement, Params } from "./types.ts";
import { compareFigures, type VerdictOptions, type VerdictResult, withAdjustedP } from "./verdict.ts";

/** One (metric, params) of a scenario diff, with both figures and the verdict. */
export type ComparisonRow = {
  /** metric + canonical JSON of params: stable across key order, usable as a React key or URL part. */
  key: string;
  metric: string;
  params: Params;
  baseline: Measurement | null;
  candidate: Measurement | null;
  result: VerdictResult;
};

export function figureKey(metric: string, params: Params | undefined): string {
  return `${metric} ${params ? paramsKey(params) : "{}"}`;
}

function index(side: string, measurements: readonly Measurement[]): Map<string, Measurement> {
  const map = new Map<string, Measurement>();
  for (const m of measurements) {
    const key = figureKey(m.metric, m.params);
    // Two figures for one (metric, params) on one side mean the caller skipped the latest-figure pick.
    if (map.has(key)) throw new RangeError(`${side} has two figures for ${key}`);
    map.set(key, m);
  }
  return map;
}

type Made = {
  baseline: readonly Measurement[];
  candidate: readonly Measurement[];
  options: VerdictOptions;
  rows: ComparisonRow[];
};

/**
 * The diffs made lately, by their sides' first figures. A compare page asks for each one three times,
 * over the same figures: its table, and the verdicts its crossover and latency charts' tooltips show,
 * which must be the table's own (apps/web versus.ts). Judging hundreds of figures a side was most of
 * its analysis time, so a diff of the very same figures (not copies) and options is made once.
 */
const made = new WeakMap<Measurement, WeakMap<Measurement, Made>>();

const sameFigures = (a: readonly Measurement[], b: readonly Measurement[]) =>
  a.length === b.length && a.every((m, i) => m === b[i]);

function madeBefore(baseline: readonly Measurement[], candidate: readonly Measurement[], options: VerdictOptions) {
  const before = baseline[0] && candidate[0] ? made.get(baseline[0])?.get(candidate[0]) : undefined;
  return before &&
    before.options.alpha === options.alpha &&
    before.options.margins === options.margins &&
    sameFigures(before.baseline, baseline) &&
    sameFigures(before.candidate, candidate)
    ? before.rows
    : undefined;
}

/**
 * A scenario diff: every (metric, params) either side has, matched by exact params, sorted by key.
 * A figure only one side has is a "missing" row rather than dropped, so gaps show. The p-values of
 * the figures compared by their runs are adjusted together (Benjamini–Hochberg): with dozens of
 * figures, some would pass α by chance alone. The rows are shared with any caller asking again for
 * the same diff: read them, do not change them.
 */
export function compareMeasurementSets(
  baseline: readonly Measurement[],
  candidate: readonly Measurement[],
  options: VerdictOptions = {},
): ComparisonRow[] {
  const before = madeBefore(baseline, candidate, options);
  if (before) return before;
  const b = index("baseline", baseline);
  const c = index("candidate", candidate);
  const keys = [...new Set([...b.keys(), ...c.keys()])].sort();
  const rows = keys.map((key) => {
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
  if (baseline[0] && candidate[0]) {
    const byCandidate = made.get(baseline[0]) ?? new WeakMap<Measurement, Made>();
    byCandidate.set(candidate[0], {
      baseline: [...baseline],
      candidate: [...candidate],
      options: { ...options },
      rows,
    });
    made.set(baseline[0], byCandidate);
  }
  return rows;
}
