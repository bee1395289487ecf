/**
 * The effect of a candidate against a baseline from their runs, for verdicts that hold at three runs
 * (docs/verdicts.md): the ratio candidate/baseline with a 95 % interval from Welch's t on
 * log values (so +10 % and −10 % are symmetric), the 90 % interval of the two one-sided tests
 * (TOST, α = 0.05 each side) that decide equivalence, how many runs per side would decide at this
 * noise, and from 6 runs a side a rank-based view (Mann-Whitney U, Cliff's δ).
 * Distributions come from @stdlib; the few lines of arithmetic around them are written out.
 */
import normalCdf from "@stdlib/stats-base-dists-normal-cdf";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import tCdf from "@stdlib/stats-base-dists-t-cdf";
import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import { mean, sampleVariance } from "simple-statistics";

export type Ranks = {
  /** Pairings (candidate run, baseline run) the candidate's value is higher in, ties counting half. */
  higher: number;
  pairs: number;
  /** Cliff's δ, from −1 (every candidate run lower) to 1 (every one higher). */
  cliffsDelta: number;
  /** Mann-Whitney U test, two-sided, normal approximation with tie and continuity corrections. */
  p: number;
};

/**
 * A series' run-to-run noise pooled over its earlier campaigns (its history): the within-campaign
 * variance Σ(nᵢ − 1)·sᵢ² / Σ(nᵢ − 1) over campaigns of at least 2 runs, on the values and on their logs.
 */
export type HistoryNoise = {
  /** Runs in the campaigns pooled. */
  runs: number;
  campaigns: number;
  /** Σ(nᵢ − 1): the degrees of freedom of the pooled variance. */
  df: number;
  variance: number;
  /** Null when a run is ≤ 0 (no log scale). */
  logVariance: number | null;
};

/** Earlier runs a series needs before its pooled noise replaces a side's own variance. */
export const minHistoryRuns = 10;

/** Pooled noise from a series' earlier campaigns' runs; null below `minHistoryRuns` runs pooled. */
export function historyNoise(campaigns: readonly (readonly number[])[]): HistoryNoise | null {
  const pooled = campaigns.filter((runs) => runs.length >= 2 && runs.every(Number.isFinite));
  const runs = pooled.reduce((n, c) => n + c.length, 0);
  if (runs < minHistoryRuns) return null;
  const df = runs - pooled.length;
  const pool = (values: readonly (readonly number[])[]) =>
    values.reduce((sum, c) => sum + (c.length - 1) * sampleVariance([...c]), 0) / df;
  const positive = pooled.every((c) => c.every((v) => v > 0));
  return {
    runs,
    campaigns: pooled.length,
    df,
    variance: pool(pooled),
    logVariance: positive ? pool(pooled.map((c) => c.map(Math.log))) : null,
  };
}

/** Where a side's variance came from: its own runs, or its series' history (HistoryNoise). */
export type NoiseSource = { from: "runs" } | ({ from: "history" } & Pick<HistoryNoise, "runs" | "campaigns" | "df">);

export type Effect = {
  /** On log values when every run is positive; else on the values, relative to the baseline's mean. */
  scale: "log" | "linear";
  /** Candidate / baseline: the ratio of geometric means (log scale) or of means (linear). */
  ratio: number;
  /** 95 % confidence interval of the ratio. */
  low: number;
  high: number;
  /** 90 % interval: inside ±δ it shows equivalence by two one-sided tests at α = 0.05. */
  tostLow: number;
  tostHigh: number;
  /** Welch's two-sided p-value of no difference. */
  p: number;
  df: number;
  baselineRuns: number;
  candidateRuns: number;
  /** The difference, in % of the baseline, these runs would detect 80 % of the time at α = 0.05. */
  detectablePercent: number;
  /** Each side's variance of one run on the effect's scale (its history's when `noise` says so). */
  variance: { baseline: number; candidate: number };
  noise: { baseline: NoiseSource; candidate: NoiseSource };
  ranks: Ranks | null;
  /**
   * "summary": computed by Welch's t from summary statistics (a mean, its spread and n per side:
   * effectFromSummaries), not from the runs themselves. Absent: from the runs.
   */
  from?: "summary";
  /** With from "summary": each side's spread, as published (sd, or recovered from ci95) or from its runs. */
  spread?: { baseline: SideStatistics["spread"]; candidate: SideStatistics["spread"] };
};

/**
 * Welch's t for a difference of means with each side's squared standard error and df: the p-value, the
 * Welch–Satterthwaite df (the pooled one when neither side has spread), the 95 % and 90 % (TOST)
 * intervals mapped through `toRatio`, and the difference these would detect 80 % of the time. Shared by
 * the effect from runs and the effect from summary statistics.
 */
function welch(diff: number, b: { se2: number; df: number; n: number }, c: { se2: number; df: number; n: number }) {
  const se = Math.sqrt(b.se2 + c.se2);
  const df = se === 0 ? b.n + c.n - 2 : se ** 4 / (b.se2 ** 2 / b.df + c.se2 ** 2 / c.df);
  const p = se === 0 ? (diff === 0 ? 1 : 0) : Math.min(1, 2 * tCdf(-Math.abs(diff / se), df));
  const t95 = tQuantile(0.975, df);
  const t90 = tQuantile(0.95, df);
  return {
    detectable: (t95 + tQuantile(0.8, df)) * se,
    interval: (toRatio: (d: number) => number) => ({
      ratio: toRatio(diff),
      low: toRatio(diff - t95 * se),
      high: toRatio(diff + t95 * se),
      tostLow: toRatio(diff - t90 * se),
      tostHigh: toRatio(diff + t90 * se),
      p,
      df,
    }),
  };
}

/** Runs a side needs for the rank-based view to say anything (its smallest p at 5 vs 5 is 0.008). */
export const minRunsForRanks = 6;

/**
 * The effect from two sides' runs; null with fewer than 2 runs on a side, or when the baseline's
 * mean is 0 on the linear scale (no ratio to speak of). A side whose series has a history (`history`)
 * takes its variance and degrees of freedom from there: three runs estimate noise poorly, dozens of
 * earlier runs of the same setup estimate it well.
 */
export function effectOf(
  baseline: readonly number[],
  candidate: readonly number[],
  history: { baseline?: HistoryNoise | null; candidate?: HistoryNoise | null } = {},
): Effect | null {
  if (baseline.length < 2 || candidate.length < 2) return null;
  const positive = [...baseline, ...candidate].every((v) => v > 0);
  const scale = positive ? "log" : "linear";
  const b = positive ? baseline.map(Math.log) : [...baseline];
  const c = positive ? candidate.map(Math.log) : [...candidate];
  const baseMean = mean(b);
  const diff = mean(c) - baseMean;
  if (!positive && baseMean === 0) return null;
  const side = (runs: number[], noise: HistoryNoise | null | undefined) => {
    const pooled = noise ? (positive ? noise.logVariance : noise.variance) : null;
    return pooled === null || noise == null
      ? { variance: sampleVariance(runs), df: runs.length - 1, source: { from: "runs" } as NoiseSource }
      : {
          variance: pooled,
          df: noise.df,
          source: { from: "history", runs: noise.runs, campaigns: noise.campaigns, df: noise.df } as NoiseSource,
        };
  };
  const sb = side(b, history.baseline);
  const sc = side(c, history.candidate);
  const vb = sb.variance;
  const vc = sc.variance;
  const w = welch(diff, { se2: vb / b.length, df: sb.df, n: b.length }, { se2: vc / c.length, df: sc.df, n: c.length });
  const toRatio = (d: number) => (positive ? Math.exp(d) : 1 + d / baseMean);
  return {
    scale,
    ...w.interval(toRatio),
    baselineRuns: b.length,
    candidateRuns: c.length,
    detectablePercent: (toRatio(w.detectable) - 1) * 100,
    variance: { baseline: vb, candidate: vc },
    noise: { baseline: sb.source, candidate: sc.source },
    ranks:
      baseline.length >= minRunsForRanks && candidate.length >= minRunsForRanks ? ranksOf(baseline, candidate) : null,
  };
}

/**
 * Runs per side that would decide at this noise, with 80 % power: the fewest n, more than the runs at
 * hand (they did not decide), at which Welch's t with each side's variance as now and its df at n runs
 * (a side's history keeps its own) would show the observed difference real at `alpha` when it is at
 * least half the margin, else show the two within the margin (TOST at 0.05). A normal approximation
 * said "0 more" at three runs a side: its quantiles ignore how few degrees of freedom three runs give.
 * `difference` and `margin` are on the effect's scale (log or relative).
 */
export function runsToDecide(
  e: Pick<Effect, "variance" | "noise" | "baselineRuns" | "candidateRuns">,
  difference: number,
  margin: number,
  alpha = 0.05,
): number | null {
  const real = Math.abs(difference) >= margin / 2;
  const gap = real ? Math.abs(difference) : margin - Math.abs(difference);
  const { baseline: vb, candidate: vc } = e.variance;
  if (!(gap > 0) || !(vb + vc > 0)) return null;
  const level = real ? 1 - alpha / 2 : 0.95;
  const sideDf = (side: "baseline" | "candidate", n: number) => {
    const noise = e.noise[side];
    return noise.from === "history" ? noise.df : n - 1;
  };
  const decides = (n: number) => {
    const sb = vb / n;
    const sc = vc / n;
    const df = (sb + sc) ** 2 / (sb ** 2 / sideDf("baseline", n) + sc ** 2 / sideDf("candidate", n));
    return (tQuantile(level, df) + tQuantile(0.8, df)) * Math.sqrt(sb + sc) <= gap;
  };
  // t's quantiles exceed the normal's, so the normal answer is a lower bound to step up from.
  const z = normalQuantile(level, 0, 1) + normalQuantile(0.8, 0, 1);
  let n = Math.max(Math.min(e.baselineRuns, e.candidateRuns) + 1, Math.ceil(((vb + vc) * z ** 2) / gap ** 2));
  // gap ≥ margin / 2, so only an infinite variance leaves no finite answer.
  if (!Number.isFinite(n)) return null;
  while (!decides(n)) n += Math.max(1, Math.floor(n / 20));
  return n;
}

/** The margin ±δ % on the effect's scale: ln(1 + δ) for log ratios, δ for relative differences. */
export function marginOnScale(scale: Effect["scale"], marginPercent: number): number {
  return scale === "log" ? Math.log(1 + marginPercent / 100) : marginPercent / 100;
}

/** The ratio on the effect's scale (0 = no difference). */
export function onScale(scale: Effect["scale"], ratio: number): number {
  return scale === "log" ? Math.log(ratio) : ratio - 1;
}

/**
 * Mann-Whitney U with Cliff's δ. Written out: simple-statistics has no U test, and the normal
 * approximation with tie correction is a few lines (scipy.stats.mannwhitneyu, method="asymptotic").
 */
export function ranksOf(baseline: readonly number[], candidate: readonly number[]): Ranks {
  let higher = 0;
  let lower = 0;
  for (const c of candidate) {
    for (const b of baseline) {
      if (c > b) higher += 1;
      else if (c < b) lower += 1;
    }
  }
  const n1 = candidate.length;
  const n2 = baseline.length;
  const pairs = n1 * n2;
  const ties = pairs - higher - lower;
  const u = higher + ties / 2;
  // Tie correction over the pooled values' tie groups.
  const counts = new Map<number, number>();
  for (const v of [...baseline, ...candidate]) counts.set(v, (counts.get(v) ?? 0) + 1);
  const n = n1 + n2;
  const tieTerm = [...counts.values()].reduce((s, t) => s + (t ** 3 - t), 0) / (n * (n - 1));
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm));
  const centre = pairs / 2;
  const z = sd === 0 ? 0 : (Math.abs(u - centre) - 0.5) / sd;
  const p = sd === 0 ? 1 : Math.min(1, 2 * normalCdf(-Math.max(0, z), 0, 1));
  return { higher: u, pairs, cliffsDelta: (higher - lower) / pairs, p };
}

/**
 * Benjamini–Hochberg adjusted p-values, in the input's order: a compare page tests dozens of figures
 * at once. Written out (six lines): no dependency of ours ships it.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let k = m - 1; k >= 0; k--) {
    running = Math.min(running, (order[k]!.p * m) / (k + 1));
    adjusted[order[k]!.i] = running;
  }
  return adjusted;
}

/** One side as summary statistics: mean, sample standard deviation and n runs. */
export type SideStatistics = { mean: number; sd: number; n: number; spread: "sd" | "ci95" | "runs" };

/**
 * A side's mean, standard deviation and n from published summary statistics: the sd as given, or
 * recovered from a Student's t 95 % interval of the mean, sd = (high − low) / 2 · √n / t(0.975, n − 1)
 * (how k8s-netperf's go-moremath MeanCI builds it). Null below 2 runs, for clients of one run, or
 * without a spread.
 */
export function summaryStatistics(summary: {
  mean: number;
  sd?: number;
  ci95?: readonly [number, number];
  n: number;
  of: "runs" | "clients";
}): SideStatistics | null {
  if (summary.of !== "runs" || !(summary.n >= 2) || !Number.isFinite(summary.mean)) return null;
  if (summary.sd !== undefined && Number.isFinite(summary.sd)) {
    return { mean: summary.mean, sd: summary.sd, n: summary.n, spread: "sd" };
  }
  if (summary.ci95) {
    const [low, high] = summary.ci95;
    const sd = (((high - low) / 2) * Math.sqrt(summary.n)) / tQuantile(0.975, summary.n - 1);
    if (Number.isFinite(sd) && sd >= 0) return { mean: summary.mean, sd, n: summary.n, spread: "ci95" };
  }
  return null;
}

/** A side's runs as summary statistics, to compare them with a side that has only a summary. */
export function runStatistics(runs: readonly number[]): SideStatistics | null {
  if (runs.length < 2 || !runs.every(Number.isFinite)) return null;
  return { mean: mean([...runs]), sd: Math.sqrt(sampleVariance([...runs])), n: runs.length, spread: "runs" };
}

/**
 * The effect by Welch's t from summary statistics (scipy.stats.ttest_ind_from_stats, equal_var=False),
 * on the linear scale relative to the baseline's mean: log values cannot be had from a mean and an sd.
 * Null when the baseline's mean is 0. No rank-based view: there are no runs to rank.
 */
export function effectFromSummaries(baseline: SideStatistics, candidate: SideStatistics): Effect | null {
  if (baseline.mean === 0) return null;
  const w = welch(
    candidate.mean - baseline.mean,
    { se2: baseline.sd ** 2 / baseline.n, df: baseline.n - 1, n: baseline.n },
    { se2: candidate.sd ** 2 / candidate.n, df: candidate.n - 1, n: candidate.n },
  );
  const scaleOf = Math.abs(baseline.mean);
  const toRatio = (d: number) => 1 + d / scaleOf;
  return {
    scale: "linear",
    ...w.interval(toRatio),
    baselineRuns: baseline.n,
    candidateRuns: candidate.n,
    detectablePercent: (w.detectable / scaleOf) * 100,
    // Relative to the baseline's mean, like the estimate runsToDecide compares it with.
    variance: { baseline: (baseline.sd / scaleOf) ** 2, candidate: (candidate.sd / scaleOf) ** 2 },
    noise: { baseline: { from: "runs" }, candidate: { from: "runs" } },
    ranks: null,
    from: "summary",
    spread: { baseline: baseline.spread, candidate: candidate.spread },
  };
}
