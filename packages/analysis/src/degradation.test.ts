import { shortConnRpsByServices } from "@cnibench/test-support/tke-figures";
import { describe, expect, it } from "vitest";
import { changeOf, degradation, degradationBySeries, formatDegradation } from "./degradation.ts";

describe("degradation against each line's baseline (TKE short-connection RPS vs Services)", () => {
  const byLine = degradationBySeries(shortConnRpsByServices, { better: "higher" });

  it("reproduces the seed's iptables column from the raw RPS", () => {
    // (22,237 − 31,365) / 31,365 = −29.10 %; (17,261 − 31,365) / 31,365 = −44.97 %;
    // (12,916 − 31,365) / 31,365 = −58.82 %; (9,057 − 31,365) / 31,365 = −71.12 %.
    const d = byLine.iptables!;
    expect(d.baselineX).toBe(0);
    expect(d.baseline).toBe(31_365);
    expect(d.steps.map((s) => s.percent)).toEqual([
      0,
      expect.closeTo(-29.103, 2),
      expect.closeTo(-44.967, 2),
      expect.closeTo(-58.821, 2),
      expect.closeTo(-71.124, 2),
    ]);
    expect(d.steps.map((s) => s.change)).toEqual(["unchanged", "degraded", "degraded", "degraded", "degraded"]);
    expect(formatDegradation(d.steps[4]!)).toBe("−71.1 % (degraded)");
  });

  it("reproduces the Cilium columns", () => {
    // Native: (10,286 − 13,826) / 13,826 = −25.60 %. Overlay: (12,746 − 14,193) / 14,193 = −10.20 %,
    // (12,879 − 14,193) / 14,193 = −9.26 %.
    expect(byLine.native!.steps[4]!.percent).toBeCloseTo(-25.604, 2);
    expect(byLine.overlay!.steps[2]!.percent).toBeCloseTo(-10.195, 2);
    expect(byLine.overlay!.steps[4]!.percent).toBeCloseTo(-9.258, 2);
    expect(byLine.overlay!.steps[4]!.absolute).toBe(12_879 - 14_193);
  });

  it("accepts an explicit baseline x and rejects one that was not sampled", () => {
    const points = shortConnRpsByServices[0]!.points;
    // Against 10,000 Services: (9,057 − 17,261) / 17,261 = −47.53 %; (31,365 − 17,261) / 17,261 = +81.71 %.
    const d = degradation(points, { better: "higher", baselineX: 10_000 });
    expect(d.steps[4]!.percent).toBeCloseTo(-47.529, 2);
    expect(d.steps[0]!.percent).toBeCloseTo(81.71, 2);
    expect(d.steps[0]!.change).toBe("improved");
    expect(() => degradation(points, { better: "higher", baselineX: 7 })).toThrow(/baseline x = 7/);
  });

  it("words the sign by the better-direction", () => {
    // EKS kube-proxy connection setup: 164 µs at 4 Services → 190 µs at 1,000: +15.85 %, worse.
    const d = degradation(
      [
        { x: 4, value: 164 },
        { x: 1_000, value: 190 },
      ],
      { better: "lower" },
    );
    expect(d.steps[1]!.percent).toBeCloseTo(15.854, 2);
    expect(formatDegradation(d.steps[1]!)).toBe("+15.9 % (degraded)");
    expect(changeOf(-1, "lower")).toBe("improved");
    expect(changeOf(5, "none")).toBe("changed");
  });

  it("flags approximate baselines and has no percentage against 0", () => {
    // EKS kube-proxy sync "~130ms" → "~170ms": +30.77 %, approximate.
    const d = degradation(
      [
        { x: 4, value: 130, qualifier: "approx" },
        { x: 1_000, value: 170, qualifier: "approx" },
      ],
      { better: "lower" },
    );
    expect(d.steps[1]!.approximate).toBe(true);
    expect(formatDegradation(d.steps[1]!)).toBe("≈ +30.8 % (degraded)");
    const zero = degradation(
      [
        { x: 0, value: 0 },
        { x: 1, value: 3 },
      ],
      { better: "lower" },
    );
    expect(zero.steps[1]!.percent).toBeNull();
    expect(formatDegradation(zero.steps[1]!)).toBe("n/a");
  });
});
