// Expected values from scipy 1.17 (python3): stats.ttest_ind(..., equal_var=False),
// stats.mannwhitneyu(c, b, method="asymptotic") and stats.false_discovery_control(p), as noted per case.
import { describe, expect, it } from "vitest";
import { benjaminiHochberg, effectOf, historyNoise, marginOnScale, ranksOf, runsToDecide } from "./effect.ts";

describe("effectOf", () => {
  it("needs two runs a side", () => {
    expect(effectOf([100], [101, 102])).toBeNull();
  });

  it("works on the values, relative to the baseline, when a run is 0 (UDP loss)", () => {
    // stats.ttest_ind([0.5, 0.7, 0.6], [0, 0.2, 0.1], equal_var=False).pvalue = 0.003602232609
    const e = effectOf([0, 0.2, 0.1], [0.5, 0.7, 0.6])!;
    expect(e.scale).toBe("linear");
    expect(e.p).toBeCloseTo(0.003602232609, 9);
    expect(e.ratio).toBeCloseTo(6, 10); // mean 0.6 over mean 0.1
  });

  it("adds the rank-based view from 6 runs a side", () => {
    // stats.mannwhitneyu(c, b, method="asymptotic"): U = 30, p = 0.06461008912954472
    const b = [100, 101, 99, 102, 98, 100.5];
    const c = [103, 104, 101, 105, 102, 99.5];
    const e = effectOf(b, c)!;
    expect(e.ranks).toMatchObject({ higher: 30, pairs: 36 });
    expect(e.ranks!.p).toBeCloseTo(0.06461008912954472, 12);
    // 29 pairings higher, 5 lower, 2 ties: (29 − 5) / 36
    expect(e.ranks!.cliffsDelta).toBeCloseTo(24 / 36, 12);
    expect(effectOf(b.slice(0, 5), c.slice(0, 5))!.ranks).toBeNull();
  });
});

describe("historyNoise and effectOf with a history", () => {
  // Four earlier campaigns of three steady runs (≈1 % apart) of the baseline's series.
  const earlier = [
    [99, 101, 100],
    [102, 100, 101],
    [98, 99, 100.5],
    [101, 103, 100],
  ];

  it("pools the within-campaign variance of campaigns of at least 2 runs, from 10 runs on", () => {
    // numpy: Σ(nᵢ−1)·var(log hᵢ, ddof=1) / Σ(nᵢ−1) = 0.00014621862262236812, df 8
    const noise = historyNoise([...earlier, [250]])!;
    expect(noise).toMatchObject({ runs: 12, campaigns: 4, df: 8 });
    expect(noise.logVariance).toBeCloseTo(0.00014621862262236812, 15);
    expect(historyNoise(earlier.slice(0, 3))).toBeNull(); // 9 runs
    expect(historyNoise([...earlier, [0, 1]])!.logVariance).toBeNull();
  });

  it("replaces a noisy side's own variance and says so", () => {
    const b = [100, 108, 93];
    const c = [110, 112, 108];
    // Own runs: stats.ttest_ind(log(c), log(b), equal_var=False).pvalue = 0.15576665032290962
    expect(effectOf(b, c)!.p).toBeCloseTo(0.15576665032290962, 10);
    // With the history's variance for the baseline (df 8) and the candidate's own (df 2), Welch by hand
    // in numpy: se² = 0.000146219/3 + var(log c)/3, df = se⁴/(seB⁴/8 + seC⁴/2) = 3.96601057930038,
    // p = 2·stats.t.sf(|d|/se, df) = 0.0018071909090259018, interval exp(d ± stats.t.ppf(0.975, df)·se).
    const e = effectOf(b, c, { baseline: historyNoise(earlier) })!;
    expect(e.df).toBeCloseTo(3.96601057930038, 10);
    expect(e.p).toBeCloseTo(0.0018071909090259018, 12);
    expect(e.ratio).toBeCloseTo(1.0982703347720297, 12);
    expect(e.low).toBeCloseTo(1.0603644636104197, 10);
    expect(e.high).toBeCloseTo(1.1375312636688153, 10);
    expect(e.noise).toEqual({
      baseline: { from: "history", runs: 12, campaigns: 4, df: 8 },
      candidate: { from: "runs" },
    });
  });

  it("keeps a side's own variance when its history has no log scale", () => {
    const e = effectOf([100, 108, 93], [110, 112, 108], { baseline: historyNoise([...earlier, [0, 1]]) })!;
    expect(e.noise.baseline).toEqual({ from: "runs" });
    expect(e.p).toBeCloseTo(0.15576665032290962, 10);
  });
});

describe("ranksOf", () => {
  it("corrects for ties", () => {
    // stats.mannwhitneyu([2, 3, 3, 4, 4, 5], [1, 2, 2, 3, 3, 3], method="asymptotic"): U = 29, p = 0.07840293453326791
    const r = ranksOf([1, 2, 2, 3, 3, 3], [2, 3, 3, 4, 4, 5]);
    expect(r.higher).toBe(29);
    expect(r.p).toBeCloseTo(0.07840293453326791, 12);
  });
});

describe("benjaminiHochberg", () => {
  it("adjusts like scipy's false_discovery_control, in the input's order", () => {
    // stats.false_discovery_control([0.01, 0.04, 0.03, 0.2, 0.0011]) = [0.025, 0.05, 0.05, 0.2, 0.0055]
    const adjusted = benjaminiHochberg([0.01, 0.04, 0.03, 0.2, 0.0011]);
    expect(adjusted.map((p) => Number(p.toFixed(10)))).toEqual([0.025, 0.05, 0.05, 0.2, 0.0055]);
  });
});

describe("runsToDecide", () => {
  it("sizes a test of equivalence when the difference is under half the margin", () => {
    // The fewest n with (t0.95,df + t0.8,df)·√(2 · 0.03² / n) ≤ ln 1.05 − 0.01, df Welch's at n a side:
    // 9 (scipy t.ppf in a loop; the normal approximation gives 7.40 → 8).
    const runs = { from: "runs" } as const;
    const sides = { noise: { baseline: runs, candidate: runs }, baselineRuns: 3, candidateRuns: 3 };
    expect(
      runsToDecide({ ...sides, variance: { baseline: 0.0009, candidate: 0.0009 } }, 0.01, marginOnScale("log", 5)),
    ).toBe(9);
    expect(runsToDecide({ ...sides, variance: { baseline: 0, candidate: 0 } }, 0.01, 0.05)).toBeNull();
    // No finite number of runs outweighs an infinite variance (it looped for ever before the guard).
    expect(runsToDecide({ ...sides, variance: { baseline: Infinity, candidate: 0.0009 } }, 0.01, 0.05)).toBeNull();
  });
});
