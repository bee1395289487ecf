import { describe, expect, it } from "vitest";
import { welchTTest } from "./welch.ts";

describe("welchTTest", () => {
  it("matches a hand computation for 3 vs 3 samples", () => {
    // x = 1, 2, 3 and y = 4, 5, 6: means 2 and 5, sample variances 1 and 1.
    // se² = 1/3 + 1/3 = 2/3, t = (2 − 5) / √(2/3) = −3.6742; df = (2/3)² / (2 × (1/3)² / 2) = 4.
    // Two-sided p with 4 df at |t| = 3.6742: 0.02131 (R: t.test(1:3, 4:6)).
    const r = welchTTest([1, 2, 3], [4, 5, 6]);
    expect(r.t).toBeCloseTo(-3.6742, 4);
    expect(r.df).toBeCloseTo(4, 10);
    expect(r.p).toBeCloseTo(0.02131, 4);
    expect([r.meanX, r.meanY, r.varianceX, r.varianceY, r.nX, r.nY]).toEqual([2, 5, 1, 1, 3, 3]);
  });

  it("uses the Welch–Satterthwaite df for unequal variances", () => {
    // x = 10, 12, 14 (var 4), y = 10, 20, 30, 40 (var 166.67).
    // seX = 4/3 = 1.3333, seY = 166.67/4 = 41.667, se² = 43.0; t = (12 − 25) / √43 = −1.9825.
    // df = 43² / (1.3333²/2 + 41.667²/3) = 1849 / (0.8889 + 578.70) = 3.1902.
    const r = welchTTest([10, 12, 14], [10, 20, 30, 40]);
    expect(r.t).toBeCloseTo(-1.9825, 3);
    expect(r.df).toBeCloseTo(3.1902, 3);
    expect(r.p).toBeGreaterThan(0.05);
    expect(r.p).toBeLessThan(0.2);
  });

  it("handles identical rounds (zero variance)", () => {
    expect(welchTTest([5, 5, 5], [5, 5, 5])).toMatchObject({ t: 0, p: 1, df: 4 });
    expect(welchTTest([6, 6, 6], [5, 5, 5])).toMatchObject({ t: Number.POSITIVE_INFINITY, p: 0 });
  });

  it("needs two samples a side", () => {
    expect(() => welchTTest([1], [1, 2])).toThrow(/at least 2/);
  });
});
