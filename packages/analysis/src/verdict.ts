import { type Verdict, verdicts } from "@cnibench/schema";
import { resolveBetter } from "./better.ts";
import { percentDelta } from "./delta.ts";
import {
  type Effect,
  effectFromSummaries,
  effectOf,
  marginOnScale,
  onScale,
  runStatistics,
  runsToDecide,
  summaryStatistics,
} from "./effect.ts";
import { marginPercent } from "./noise-bands.ts";
import type { Better, Delta, Figure } from "./types.ts";

/**
 * Noise-aware verdict (issue 7): is a candidate figure better or worse than a baseline figure for
 * one (metric, params), or can the data not tell?
 *
 * Rules, in order:
 * 1. A side absent (or not a finite number) → "missing".
 * 2. Different metrics or units → "not-comparable" (the server compares like with like; units are
 *    normalised on ingest, so a mismatch is a caller error shown rather than hidden).
 * 3. A metric with better "none" (counts such as iptables.rules) → "not-comparable": there is no
 *    winner, and "different/same" would read like one. The delta is still reported.
 * 4. Either figure qualified (approx, at-most, at-least, range) → "not-comparable", unless the
 *    bounds decide it: each figure stands for the interval it allows (at-most v → (−∞, v],
 *    at-least v → [v, ∞), range → [low, high], exact → [v, v]; approx allows anything, so it never
 *    decides). When the intervals do not overlap and even their closest ends differ by more than the
 *    noise band, the direction is certain. E.g. baseline ≤ 100 millicores vs candidate 300 millicores
 *    with better "lower": the candidate is worse.
 * 5. At least 2 runs (samples) on both sides — or summary statistics (a mean, its sd or 95 % interval, n ≥ 2
 *    runs) on a side that publishes no samples, compared by Welch's t from summary statistics (effect.from
 *    "summary"); samples of concurrent clients of one run (samplesAre "clients") are one run → the effect candidate/baseline with its intervals
 *    (effect.ts; a side whose series has ≥ 10 earlier runs takes its noise from them) against the metric's practical margin ±δ (the catalogue's `margin`, noise-bands.ts), with the
 *    p-value adjusted afterwards for the figures compared at once (withAdjustedP, compareMeasurementSets):
 *    - "better"/"worse": significant (p < α) and the point estimate beyond δ;
 *    - "equivalent": the 90 % interval within ±δ (two one-sided tests at α) and not significant;
 *    - "small-but-real": the 90 % interval within ±δ yet significant: steady runs, a negligible change;
 *    - "inconclusive": anything else, with the runs per side that would decide at this noise.
 * 6. Otherwise (a single run on a side) the headline values against δ, as an indicative verdict: a
 *    change of at most δ (inclusive) is "equivalent", else "better"/"worse". δ is relative to the
 *    baseline; against a baseline of 0 it is relative to the candidate (so 0 vs 0 is equivalent).
 */
// The verdicts' names are the API's (packages/schema api.ts); which one a figure gets is decided here.
export { type Verdict, verdicts };

/** Neither better nor worse by a clear margin: the ties the guide words as equivalent, small but real or inconclusive. */
export const noClearDifference = (v: Verdict): boolean =>
  v === "equivalent" || v === "small-but-real" || v === "inconclusive";

/** The values a figure allows; ends may be infinite. */
export type Interval = { low: number; high: number };

export type VerdictEvidence =
  | { method: "missing"; side: "baseline" | "candidate" | "both" }
  | ({
      method: "interval";
      alpha: number;
      /** The practical margin ±δ, in % of the baseline. */
      marginPercent: number;
      /** The p-value adjusted for the figures compared at once (Benjamini–Hochberg); p when alone. */
      pAdjusted: number;
    } & Effect)
  /** A single run on a side: the headline values against the margin, an indicative verdict. */
  | {
      method: "noise-band";
      marginPercent: number;
      deltaPercent: number | null;
      /** Why a side with several samples counts as one run (its samples are concurrent clients). */
      oneRun?: string;
    }
  | { method: "bounds"; marginPercent: number; baseline: Interval | null; candidate: Interval | null; reason: string }
  | { method: "none"; reason: string };

export type VerdictResult = {
  verdict: Verdict;
  metric: string;
  unit: string | null;
  better: Better;
  /** Candidate headline value against the baseline's; null when a side is missing. */
  delta: Delta | null;
  /** Either figure is approximate or bounded. */
  qualified: boolean;
  evidence: VerdictEvidence;
};

export type VerdictOptions = {
  /** Significance level; 0.05 by default. */
  alpha?: number;
  /** Practical margins δ in ± % by metric key, overriding the catalogue's. */
  margins?: Readonly<Record<string, number>>;
};

const present = (m: Figure | null | undefined): m is Figure => m != null && Number.isFinite(m.value);

/** The interval a figure allows; null for approximate figures, which allow anything near. */
export function figureInterval(m: Figure): Interval | null {
  switch (m.qualifier ?? null) {
    case null:
      return { low: m.value, high: m.value };
    case "approx":
      return null;
    case "at-most":
      return { low: Number.NEGATIVE_INFINITY, high: m.value };
    case "at-least":
      return { low: m.value, high: Number.POSITIVE_INFINITY };
    case "range":
      return { low: m.low ?? m.value, high: m.high ?? m.value };
  }
}

/** −1, 0 or 1: is the candidate below, within or above the margin around the baseline? */
function sideOf(candidate: number, baseline: number, margin: number): -1 | 0 | 1 {
  const reference = baseline !== 0 ? Math.abs(baseline) : Math.abs(candidate);
  if (reference === 0) return 0;
  // Multiply before dividing: 210 vs 200 is exactly 5 %, so it lands inside a ±5 % band.
  const percent = ((candidate - baseline) * 100) / reference;
  if (Math.abs(percent) <= margin) return 0;
  return percent > 0 ? 1 : -1;
}

function verdictOf(side: -1 | 0 | 1, better: Better): Verdict {
  if (side === 0) return "equivalent";
  const candidateHigher = side > 0;
  return candidateHigher === (better === "higher") ? "better" : "worse";
}

export function compareFigures(
  baseline: Figure | null | undefined,
  candidate: Figure | null | undefined,
  options: VerdictOptions = {},
): VerdictResult {
  const hasBaseline = present(baseline);
  const hasCandidate = present(candidate);
  const any = hasCandidate ? candidate : hasBaseline ? baseline : undefined;
  const metric = any?.metric ?? "";
  const unit = any?.unit ?? null;
  const better = resolveBetter(metric, candidate?.better ?? baseline?.better);
  if (!hasBaseline || !hasCandidate) {
    const side = hasBaseline ? "candidate" : hasCandidate ? "baseline" : "both";
    const qualified = Boolean(any?.qualifier);
    return { verdict: "missing", metric, unit, better, delta: null, qualified, evidence: { method: "missing", side } };
  }

  const qualified = Boolean(baseline.qualifier || candidate.qualifier);
  const delta = percentDelta(candidate.value, baseline.value);
  const result = (verdict: Verdict, evidence: VerdictEvidence): VerdictResult => ({
    verdict,
    metric,
    unit,
    better,
    delta,
    qualified,
    evidence,
  });

  if (baseline.metric !== candidate.metric) {
    return result("not-comparable", {
      method: "none",
      reason: `different metrics: ${baseline.metric} vs ${candidate.metric}`,
    });
  }
  if (baseline.unit !== candidate.unit) {
    return result("not-comparable", {
      method: "none",
      reason: `different units: ${baseline.unit} vs ${candidate.unit}`,
    });
  }
  if (better === "none") {
    return result("not-comparable", { method: "none", reason: `${metric} has no better direction` });
  }

  const margin = marginPercent(metric, options.margins);

  if (qualified) {
    const b = figureInterval(baseline);
    const c = figureInterval(candidate);
    const bounds = (verdict: Verdict, reason: string) =>
      result(verdict, { method: "bounds", marginPercent: margin, baseline: b, candidate: c, reason });
    if (!b || !c) return bounds("not-comparable", "an approximate figure has no bound to decide by");
    // Compare the closest ends: if even they differ by more than the band, the direction is certain.
    if (c.low > b.high) {
      const side = sideOf(c.low, b.high, margin);
      if (side !== 0)
        return bounds(verdictOf(side, better), "the candidate's lower bound clears the baseline's upper bound");
    } else if (c.high < b.low) {
      const side = sideOf(c.high, b.low, margin);
      if (side !== 0)
        return bounds(verdictOf(side, better), "the candidate's upper bound is below the baseline's lower bound");
    } else {
      return bounds("not-comparable", "the bounds overlap");
    }
    return bounds("not-comparable", "the bounds are apart by less than the noise band");
  }

  const alpha = options.alpha ?? 0.05;
  const effect =
    effectOf(runsOf(baseline), runsOf(candidate), {
      baseline: baseline.history,
      candidate: candidate.history,
    }) ?? summaryEffect(baseline, candidate);
  if (effect) {
    // Alone, the p-value is its own adjusted one; a compare adjusts it afterwards (withAdjustedP).
    return result(intervalVerdict(effect, effect.p, alpha, margin, better), {
      method: "interval",
      alpha,
      marginPercent: margin,
      pAdjusted: effect.p,
      ...effect,
    });
  }

  const clients = [baseline, candidate].some(
    (m) => m.samplesAre === "clients" || m.summaryStatistics?.of === "clients",
  );
  return result(verdictOf(sideOf(candidate.value, baseline.value, margin), better), {
    method: "noise-band",
    marginPercent: margin,
    deltaPercent: delta.percent,
    ...(clients ? { oneRun: "the samples of a side are concurrent clients of one run" } : {}),
  });
}

/** A figure's runs: its samples, unless they are concurrent clients of one run (then it is one run). */
function runsOf(m: Figure): readonly number[] {
  return m.samplesAre === "clients" ? [] : (m.samples ?? []);
}

/**
 * Rule 5 when a side publishes summary statistics instead of runs (k8s-netperf: a mean of n runs and
 * its 95 % interval): Welch's t from the two sides' means, spreads and n, a side with runs summarised
 * likewise. Null unless both sides have n ≥ 2 runs and a spread.
 */
function summaryEffect(baseline: Figure, candidate: Figure): Effect | null {
  if (!baseline.summaryStatistics && !candidate.summaryStatistics) return null;
  const side = (m: Figure) => (m.summaryStatistics ? summaryStatistics(m.summaryStatistics) : runStatistics(runsOf(m)));
  const b = side(baseline);
  const c = side(candidate);
  return b && c ? effectFromSummaries(b, c) : null;
}

/**
 * The same comparison judged with a p-value adjusted for the figures compared with it: the effect is
 * kept, only the decision is made again. Other evidence has no p-value and stays as it is.
 */
export function withAdjustedP(r: VerdictResult, pAdjusted: number): VerdictResult {
  const e = r.evidence;
  if (e.method !== "interval") return r;
  const verdict = intervalVerdict(e, pAdjusted, e.alpha, e.marginPercent, r.better);
  return { ...r, verdict, evidence: { ...e, pAdjusted } };
}

/** Step 5 of the rules above, on the effect's scale. */
function intervalVerdict(
  effect: Effect,
  pAdjusted: number,
  alpha: number,
  marginPercent: number,
  better: Better,
): Verdict {
  const margin = marginOnScale(effect.scale, marginPercent);
  const estimate = onScale(effect.scale, effect.ratio);
  const significant = pAdjusted < alpha;
  if (significant && Math.abs(estimate) > margin) {
    return verdictOf(estimate > 0 ? 1 : -1, better);
  }
  const withinMargin =
    onScale(effect.scale, effect.tostLow) > -margin && onScale(effect.scale, effect.tostHigh) < margin;
  return withinMargin ? (significant ? "small-but-real" : "equivalent") : "inconclusive";
}

/**
 * Runs per side that would decide an inconclusive interval verdict at this noise; null for any other.
 * Computed where it is shown, not with every verdict: the guide and change points judge thousands.
 */
export function runsNeeded(r: Pick<VerdictResult, "verdict" | "evidence">): number | null {
  const e = r.evidence;
  if (r.verdict !== "inconclusive" || e.method !== "interval") return null;
  // The adjustment scaled p up; to decide, the raw p must fall as far below α, so the runs are sized
  // for α shrunk by the same factor (Benjamini–Hochberg's at this figure's rank, held fixed).
  const alpha = e.pAdjusted > e.p && e.p > 0 ? (e.alpha * e.p) / e.pAdjusted : e.alpha;
  return runsToDecide(e, onScale(e.scale, e.ratio), marginOnScale(e.scale, e.marginPercent), alpha);
}
