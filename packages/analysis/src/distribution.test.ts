// Expected values computed by hand (and checked with Python's statistics module: median, mean, stdev).
import { describe, expect, it } from "vitest";
import { distributionOf, median } from "./distribution.ts";

describe("distributionOf", () => {
  it("summarises an odd number of runs: three iperf3 TCP runs in Gbit/s", () => {
    const d = distributionOf([9.41, 9.37, 9.52]);
    expect(d).toMatchObject({ n: 3, median: 9.41, min: 9.37, max: 9.52 });
    expect(d?.mean).toBeCloseTo(9.4333333, 6);
    // stdev([9.41, 9.37, 9.52]) = 0.0776745...
    expect(d?.sd).toBeCloseTo(0.0776745, 6);
    expect(d?.cv).toBeCloseTo(0.0776745 / 9.4333333, 6);
  });

  it("takes the middle two's mean for an even number of runs", () => {
    expect(distributionOf([31365, 30000, 29000, 32000])).toMatchObject({ n: 4, median: 30682.5, mean: 30591.25 });
  });

  it("has no spread for one run, and equal runs have none either", () => {
    expect(distributionOf([14193])).toEqual({
      n: 1,
      median: 14193,
      mean: 14193,
      min: 14193,
      max: 14193,
      sd: null,
      cv: null,
    });
    expect(distributionOf([5, 5, 5])).toMatchObject({ n: 3, median: 5, sd: 0, cv: 0 });
  });

  it("keeps ties and ignores what is not a number", () => {
    expect(distributionOf([2, 2, 8, Number.NaN])).toMatchObject({ n: 3, median: 2, mean: 4, min: 2, max: 8 });
    expect(distributionOf([])).toBeNull();
    expect(distributionOf([0, 0])).toMatchObject({ cv: null });
  });
});

describe("median", () => {
  it("sorts numerically, negatives included: the middle two of −3.5, −0.25, 7, 12", () => {
    // (−0.25 + 7) / 2 = 3.375 by hand; a text sort would have put 12 before 7.
    expect(median([12, -3.5, 7, -0.25])).toBe(3.375);
    expect(median([9.41, 9.52, 9.37])).toBe(9.41);
    expect(() => median([])).toThrow(RangeError);
  });
});
