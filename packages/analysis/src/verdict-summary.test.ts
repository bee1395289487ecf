/**
 * Verdicts from summary statistics (k8s-netperf publishes a mean of n runs and its 95 % interval, not
 * the runs) and from samples that are concurrent clients of one run. Expected values from scipy 1.17:
 * sd from the interval as (hi − lo)/2 · √n / stats.t.ppf(0.975, n − 1); p from
 * stats.ttest_ind_from_stats(..., equal_var=False); the interval of the ratio as 1 + (d ± t.ppf(0.975, df)·se)/mean_b.
 */
import { describe, expect, it } from "vitest";
import { effectFromSummaries, summaryStatistics } from "./effect.ts";
import type { Figure } from "./types.ts";
import { compareFigures, runsNeeded } from "./verdict.ts";

// real/k8s-netperf/docs_example_result.csv, row 1: TCP_STREAM 873.606667 Mb/s, 95 % CI 861.94–885.27, 3 samples.
const row1 = { mean: 873.606667, ci95: [861.9391413991156, 885.2741919342178] as const, n: 3, of: "runs" as const };
// row 2: 744.233333, CI 178.12–1310.34.
const row2 = { mean: 744.233333, ci95: [178.12442996547009, 1310.3422367011967] as const, n: 3, of: "runs" as const };
const tput = (value: number, extra: Partial<Figure> = {}): Figure => ({
  metric: "tcp.throughput",
  value,
  unit: "Mbit/s",
  ...extra,
});

describe("summary statistics", () => {
  it("recovers the sd from a Student's t 95 % interval (scipy: 4.696810974835271)", () => {
    expect(summaryStatistics(row1)?.sd).toBeCloseTo(4.696810974835271, 9);
    expect(summaryStatistics({ ...row1, n: 1 })).toBeNull();
    expect(summaryStatistics({ mean: 1, n: 3, of: "runs" })).toBeNull(); // no spread
    expect(summaryStatistics({ ...row1, of: "clients" })).toBeNull();
    expect(summaryStatistics({ mean: 10, sd: 2, n: 5, of: "runs" })).toEqual({ mean: 10, sd: 2, n: 5, spread: "sd" });
  });

  it("Welch's t from summaries: 960 (same sd) against row 1 is better (scipy p 2.2992e-05, df 4)", () => {
    const r = compareFigures(
      tput(row1.mean, { summaryStatistics: row1 }),
      tput(960, { summaryStatistics: { mean: 960, sd: 4.696810974835271, n: 3, of: "runs" } }),
    );
    expect(r.verdict).toBe("better");
    expect(r.evidence.method).toBe("interval");
    if (r.evidence.method !== "interval") return;
    expect(r.evidence.from).toBe("summary");
    expect(r.evidence.spread).toEqual({ baseline: "ci95", candidate: "sd" });
    expect(r.evidence.p).toBeCloseTo(2.2991996577099524e-5, 9);
    expect(r.evidence.df).toBeCloseTo(4, 9);
    expect(r.evidence.ratio).toBeCloseTo(1.0988927125484036, 9);
    expect(r.evidence.low).toBeCloseTo(1.0867047642264895, 9);
    expect(r.evidence.high).toBeCloseTo(1.1110806608703176, 9);
    expect(r.evidence.baselineRuns).toBe(3);
  });

  it("row 2 against row 1: its wide interval decides nothing (scipy p 0.42914, df 2.0017)", () => {
    const r = compareFigures(
      tput(row1.mean, { summaryStatistics: row1 }),
      tput(row2.mean, { summaryStatistics: row2 }),
    );
    expect(r.verdict).toBe("inconclusive");
    if (r.evidence.method !== "interval") throw new Error("interval expected");
    expect(r.evidence.p).toBeCloseTo(0.4291422694898333, 9);
    expect(r.evidence.df).toBeCloseTo(2.001699094142474, 9);
    expect(runsNeeded(r)).toBeGreaterThan(3);
  });

  it("runs on one side, a summary on the other: the runs are summarised (scipy p 0.98925)", () => {
    const r = compareFigures(tput(row1.mean, { summaryStatistics: row1 }), tput(871, { samples: [880, 870, 871] }));
    if (r.evidence.method !== "interval") throw new Error("interval expected");
    expect(r.evidence.p).toBeCloseTo(0.9892488119022967, 9);
    expect(r.evidence.spread).toEqual({ baseline: "ci95", candidate: "runs" });
    expect(r.verdict).toBe("equivalent");
  });

  it("a summary without spread, or of one run, falls back to the headline values (noise band)", () => {
    const r = compareFigures(
      tput(100, { summaryStatistics: { mean: 100, n: 3, of: "runs" } }),
      tput(120, { summaryStatistics: row1 }),
    );
    expect(r.evidence.method).toBe("noise-band");
    expect(r.verdict).toBe("better");
    expect(
      effectFromSummaries({ mean: 0, sd: 1, n: 3, spread: "sd" }, { mean: 1, sd: 1, n: 3, spread: "sd" }),
    ).toBeNull();
  });
});

describe("samples that are concurrent clients of one run", () => {
  // Two vegeta attacks of 4 clients each: read as runs, 4 vs 4 with little spread would be significant.
  const base = tput(100, { samples: [99, 100, 101, 100] });
  const cand = tput(104, { samples: [103, 104, 105, 104] });

  it("as runs they give an interval verdict; as clients one run a side: the noise band, named", () => {
    expect(compareFigures(base, cand).evidence.method).toBe("interval");
    const r = compareFigures({ ...base, samplesAre: "clients" }, { ...cand, samplesAre: "clients" });
    expect(r.evidence).toEqual({
      method: "noise-band",
      marginPercent: 5,
      deltaPercent: 4,
      oneRun: "the samples of a side are concurrent clients of one run",
    });
    expect(r.verdict).toBe("equivalent"); // +4 % within the ±5 % margin
  });
});
