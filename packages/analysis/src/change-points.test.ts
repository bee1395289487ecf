import { mulberry32 } from "@cnibench/test-support/nightly";
import { describe, expect, it } from "vitest";
import {
  type ChangePoint,
  detectChangePoints,
  minCampaignsForChangePoints,
  type SeriesCampaign,
} from "./change-points.ts";

/*
 * Expected values come from an independent reference written with numpy 2.4 and scipy 1.17: a
 * brute-force E-divisive (Q̂ summed pair by pair for every τ < κ, sides of at least 3 campaigns),
 * the same split and merge steps, scipy.stats.ttest_ind(before, after) (Student) on the campaign
 * medians, and for the verdicts scipy.stats.ttest_ind(log(after), log(before), equal_var=False) with
 * stats.t.ppf(0.95, df) for the 90 % interval. Apache Otava's own analysis.compute_change_points
 * (window_len=50, max_pvalue=0.001) was run on the same medians for comparison, as noted per case.
 * The figures of (a), (c), (d) and (f) are TCP throughput in Gbit/s drawn with
 * numpy.random.default_rng (9.4 × (1 + σ·N(0, 1)), rounded to 0.01).
 */

const tcp = { metric: "tcp.throughput", unit: "Gbit/s" } as const;

const asCampaigns = (
  runs: readonly (readonly number[])[],
  annotate: (index: number) => SeriesCampaign["annotations"] = () => undefined,
): SeriesCampaign[] =>
  runs.map((r, i) => {
    const annotations = annotate(i);
    return { id: `c${i + 1}`, runs: r, ...(annotations ? { annotations } : {}) };
  });

const only = (points: readonly ChangePoint[]): ChangePoint => {
  expect(points).toHaveLength(1);
  return points[0]!;
};

const interval = (cp: ChangePoint) => {
  const e = cp.verdict.evidence;
  if (e.method !== "interval") throw new Error(`expected interval evidence, got ${e.method}`);
  return e;
};

describe("detectChangePoints on a shift injected at a known campaign", () => {
  // (a) 12 campaigns × 3 runs, 2 % noise (default_rng(27)), × 0.92 from campaign 9 (index 8), where
  // the node kernel went from 6.1 to 6.8.
  const runs = [
    [9.64, 9.55, 9.58],
    [9.2, 9.56, 9.37],
    [9.36, 9.61, 9.32],
    [9.16, 9.31, 9.17],
    [9.05, 9.37, 9.47],
    [8.99, 9.4, 9.45],
    [9.43, 9.16, 9.34],
    [9.36, 9.48, 9.16],
    [8.71, 8.82, 8.25],
    [8.69, 8.38, 8.62],
    [8.53, 8.87, 8.66],
    [8.79, 8.47, 8.73],
  ];
  const campaigns = asCampaigns(runs, (i) => ({
    cniVersion: "1.16.1",
    kernel: i < 8 ? "6.1.0-18-amd64" : "6.8.0-31-generic",
    nodeImage: "debian-12",
  }));

  it("finds one change point at index 8: −7.4 %, worse, at the kernel upgrade", () => {
    const result = detectChangePoints(campaigns, tcp);
    expect(result.reason).toBeNull();
    expect(result.campaigns).toBe(12);
    const cp = only(result.changePoints);
    expect(cp.index).toBe(8);
    expect(cp.id).toBe("c9");
    // Campaign medians 9.58 9.37 9.36 9.17 9.37 9.40 9.34 9.36 | 8.71 8.62 8.66 8.73 (numpy.median);
    // means 9.36875 → 8.68 (−7.351568 %), medians of medians 9.365 → 8.685.
    expect(cp.before).toMatchObject({ from: 0, to: 8, campaigns: 8, runs: 24 });
    expect(cp.after).toMatchObject({ from: 8, to: 12, campaigns: 4, runs: 12 });
    expect(cp.before.mean).toBeCloseTo(9.36875, 10);
    expect(cp.after.mean).toBeCloseTo(8.68, 10);
    expect(cp.before.median).toBeCloseTo(9.365, 10);
    expect(cp.after.median).toBeCloseTo(8.685, 10);
    expect(cp.changePercent).toBeCloseTo(-7.351567712, 8);
    // scipy: ttest_ind(medians[:8], medians[8:]).pvalue = 3.91223277840925e-07 (Otava: 1.98e-07,
    // from population standard deviations, at the same index).
    expect(cp.p).toBeCloseTo(3.91223277840925e-7, 15);
    expect(cp.verdict.verdict).toBe("worse");
    expect(cp.direction).toBe("regression");
    // scipy: Welch on the logs, p = 3.4363845264913276e-08, ratio e^d = 0.9265296726.
    const e = interval(cp);
    expect(e.p).toBeCloseTo(3.4363845264913276e-8, 15);
    expect(e.ratio).toBeCloseTo(0.9265296726, 9);
    expect(e.marginPercent).toBe(5);
    expect(cp.annotations).toEqual([{ key: "kernel", before: "6.1.0-18-amd64", after: "6.8.0-31-generic" }]);
  });

  it("calls the same drop an improvement for a metric where lower is better", () => {
    const cp = only(detectChangePoints(campaigns, { ...tcp, better: "lower" }).changePoints);
    expect(cp.verdict.verdict).toBe("better");
    expect(cp.direction).toBe("improvement");
  });

  it("finds two shifts, a regression and its fix, each against its neighbouring segments", () => {
    // (d) 24 campaigns, 2 % noise (default_rng(2711), after the 15 × 3 draws of (c)), × 0.92 from
    // index 8 (Cilium 1.15.6 → 1.16.0) and × 1.10 from index 16 (node image and Cilium 1.16.1).
    // The reference finds [8, 16]; Otava's compute_change_points finds neither: its t-test sets
    // medians[8:16] against all of medians[8:] (see the header of change-points.ts).
    const runs = [
      [9.08, 9.37, 9.26],
      [9.69, 9.41, 9.33],
      [9.72, 9.15, 9.2],
      [9.55, 9.21, 9.1],
      [9.63, 9.72, 8.87],
      [9.36, 9.2, 9.44],
      [9.35, 9.22, 8.92],
      [9.27, 9.61, 9.03],
      [8.5, 8.71, 8.53],
      [8.56, 8.62, 8.57],
      [8.64, 8.62, 8.74],
      [8.29, 8.77, 8.86],
      [8.4, 8.61, 8.75],
      [8.49, 8.73, 8.93],
      [8.75, 8.89, 8.67],
      [8.66, 8.61, 8.28],
      [9.4, 9.79, 9.9],
      [9.78, 9.56, 9.67],
      [9.68, 9.48, 9.64],
      [9.48, 9.55, 9.8],
      [9.55, 9.16, 9.14],
      [9.34, 9.22, 9.47],
      [9.82, 9.77, 9.78],
      [9.65, 9.39, 9.27],
    ];
    const campaigns = asCampaigns(runs, (i) => ({
      cniVersion: i < 8 ? "1.15.6" : i < 16 ? "1.16.0" : "1.16.1",
      nodeImage: i < 16 ? "ubuntu-22.04-20240611" : "ubuntu-24.04-20240912",
      kernel: "6.8.0-31-generic",
    }));
    const { changePoints } = detectChangePoints(campaigns, tcp);
    expect(changePoints.map((cp) => cp.index)).toEqual([8, 16]);
    const [down, up] = changePoints as [ChangePoint, ChangePoint];

    // scipy: means 9.32 → 8.65125 (−7.175429 %), Student p = 2.528802e-08; Welch-log ratio 0.928301.
    expect(down.before).toMatchObject({ from: 0, to: 8 });
    expect(down.after).toMatchObject({ from: 8, to: 16 });
    expect(down.changePercent).toBeCloseTo(-7.175429, 5);
    expect(down.p).toBeCloseTo(2.528802e-8, 13);
    expect(interval(down).ratio).toBeCloseTo(0.928301, 6);
    expect(down.direction).toBe("regression");
    expect(down.annotations).toEqual([{ key: "cniVersion", before: "1.15.6", after: "1.16.0" }]);

    // scipy: means 8.65125 → 9.54 (+10.273082 %), Student p = 5.728205e-08; Welch-log ratio 1.102511.
    expect(up.before).toMatchObject({ from: 8, to: 16 });
    expect(up.after).toMatchObject({ from: 16, to: 24 });
    expect(up.changePercent).toBeCloseTo(10.273082, 5);
    expect(up.p).toBeCloseTo(5.728205e-8, 13);
    expect(interval(up).ratio).toBeCloseTo(1.102511, 6);
    expect(up.direction).toBe("improvement");
    expect(up.annotations).toEqual([
      { key: "cniVersion", before: "1.16.0", after: "1.16.1" },
      { key: "nodeImage", before: "ubuntu-22.04-20240611", after: "ubuntu-24.04-20240912" },
    ]);
  });

  it("reports a real shift smaller than the margin δ, but not as a regression", () => {
    // (f) 16 campaigns with steady runs (0.4 % noise), × 0.975 from index 8: −2.5 % against δ = 5 %.
    // scipy: Student p = 8.336485e-11 (Otava: index 8 too); Welch-log p = 8.366018e-11, 90 % interval
    // of the ratio [0.972326, 0.977415], inside ±5 %: small but real.
    const runs = [
      [9.37, 9.43, 9.45],
      [9.44, 9.42, 9.42],
      [9.37, 9.37, 9.4],
      [9.43, 9.47, 9.41],
      [9.48, 9.37, 9.42],
      [9.37, 9.35, 9.44],
      [9.39, 9.4, 9.35],
      [9.37, 9.38, 9.36],
      [9.14, 9.15, 9.14],
      [9.16, 9.19, 9.26],
      [9.19, 9.19, 9.15],
      [9.13, 9.2, 9.15],
      [9.24, 9.15, 9.12],
      [9.21, 9.18, 9.11],
      [9.19, 9.2, 9.15],
      [9.19, 9.11, 9.12],
    ];
    const cp = only(detectChangePoints(asCampaigns(runs), tcp).changePoints);
    expect(cp.index).toBe(8);
    expect(cp.p).toBeCloseTo(8.336485e-11, 16);
    expect(cp.changePercent).toBeCloseTo(-2.513298, 5);
    const e = interval(cp);
    expect(e.tostLow).toBeCloseTo(0.972326, 6);
    expect(e.tostHigh).toBeCloseTo(0.977415, 6);
    expect(cp.verdict.verdict).toBe("small-but-real");
    expect(cp.direction).toBeNull();
    expect(cp.annotations).toEqual([]);
    // With a margin of 2 % for this comparison the same shift is a regression.
    expect(only(detectChangePoints(asCampaigns(runs), { ...tcp, marginPercent: 2 }).changePoints).direction).toBe(
      "regression",
    );
  });
});

describe("detectChangePoints without a shift", () => {
  it("finds none in 15 steady campaigns", () => {
    // (c) 2 % noise, default_rng(2711); the reference and Otava find none.
    const runs = [
      [9.18, 9.39, 9.31],
      [9.36, 9.51, 9.0],
      [9.07, 9.59, 9.41],
      [9.48, 9.22, 9.5],
      [9.14, 9.37, 9.07],
      [9.58, 9.41, 9.54],
      [9.58, 9.18, 9.52],
      [9.4, 9.35, 9.23],
      [9.73, 9.61, 9.12],
      [9.35, 9.38, 9.71],
      [9.44, 9.37, 9.42],
      [9.04, 9.65, 9.35],
      [9.32, 9.63, 9.58],
      [9.22, 8.98, 9.6],
      [9.59, 9.44, 9.49],
    ];
    const result = detectChangePoints(asCampaigns(runs), tcp);
    expect(result).toEqual({ changePoints: [], reason: null, campaigns: 15, maxPValue: 0.001, minSegment: 3 });
  });

  it("finds none in a perfectly flat series", () => {
    const result = detectChangePoints(asCampaigns(Array.from({ length: 12 }, () => [9.4, 9.4, 9.4])), tcp);
    expect(result.changePoints).toEqual([]);
  });

  it("raises few false alarms and no false regression in 200 seeded steady series", () => {
    // mulberry32 (Tommy Ettinger's 32-bit PRNG, the common JavaScript one-liner; test-support) so the
    // draws can be replayed in Python bit for bit; normal noise as the sum of 12 uniforms − 6
    // (Irwin–Hall), plain arithmetic so it too is the same in both. 20–40 campaigns × 3 runs of
    // 9.4 × (1 + 0.02·z).
    const alarms: { seed: number; indices: number[] }[] = [];
    let regressions = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const random = mulberry32(seed);
      const noise = () => Array.from({ length: 12 }, random).reduce((a, b) => a + b, 0) - 6;
      const count = 20 + Math.floor(random() * 21);
      const runs = Array.from({ length: count }, () => Array.from({ length: 3 }, () => 9.4 * (1 + 0.02 * noise())));
      const { changePoints } = detectChangePoints(asCampaigns(runs), tcp);
      if (changePoints.length > 0) alarms.push({ seed, indices: changePoints.map((cp) => cp.index) });
      regressions += changePoints.filter((cp) => cp.direction !== null).length;
    }
    // The split step's p is taken where the series diverges most, so it is not a plain p-value: the
    // numpy reference put 51 of 3,000 steady series (default_rng(1)) over maxPValue 0.001, 1.7 %, about
    // 3.4 expected in 200; 10 or more would happen 0.24 % of the time at 1.7 % (scipy.stats.binom.sf).
    expect(alarms.length).toBeLessThanOrEqual(9);
    // The same 200 series replayed in Python (the reference): seeds 17 and 83, both of 34 campaigns.
    expect(alarms).toEqual([
      { seed: 17, indices: [7, 19] },
      { seed: 83, indices: [10, 15] },
    ]);
    // Chance shifts are small: none is beyond the 5 % margin.
    expect(regressions).toBe(0);
  });
});

describe("detectChangePoints on short or sparse series", () => {
  const steady = [9.41, 9.38, 9.45];

  it("returns none below 10 campaigns, with the reason", () => {
    expect(minCampaignsForChangePoints).toBe(10);
    const runs = [...Array.from({ length: 5 }, () => steady), ...Array.from({ length: 4 }, () => [8.1, 8.2, 8.0])];
    const result = detectChangePoints(asCampaigns(runs), tcp);
    expect(result.changePoints).toEqual([]);
    expect(result.campaigns).toBe(9);
    expect(result.reason).toBe("9 campaigns with runs; change points need at least 10");
  });

  it("skips campaigns without a finite run and reports indices of the input", () => {
    // 13 campaigns, of which index 3 has no runs and index 9 only NaN: 11 points, a −14 % drop from
    // input index 7. Annotations compare the last campaign before the shift with the first after.
    const runs = [
      steady,
      steady,
      steady,
      [],
      steady,
      steady,
      steady,
      [8.1, 8.12],
      [8.09],
      [Number.NaN],
      [8.1],
      [8.11],
      [8.08],
    ];
    const campaigns = asCampaigns(runs, (i) => ({ mtu: i < 7 ? 1500 : 9000 }));
    const result = detectChangePoints(campaigns, tcp);
    expect(result.campaigns).toBe(11);
    const cp = only(result.changePoints);
    expect(cp.index).toBe(7);
    expect(cp.before).toMatchObject({ from: 0, to: 7, campaigns: 6, runs: 18 });
    expect(cp.after).toMatchObject({ from: 7, to: 13, campaigns: 5, runs: 6 });
    expect(cp.annotations).toEqual([{ key: "mtu", before: 1500, after: 9000 }]);
    expect(cp.direction).toBe("regression");
  });

  it("keeps each side of a change point at least minSegment campaigns long", () => {
    // One odd campaign at the end is an outlier, not a shift.
    const runs = [...Array.from({ length: 11 }, () => steady), [7.2, 7.1, 7.3]];
    expect(detectChangePoints(asCampaigns(runs), tcp).changePoints).toEqual([]);
  });
});
