import { hubbleRps, policyRps } from "@cnibench/test-support/tke-figures";
import { describe, expect, it } from "vitest";
import { featureOverheads, overheadPercent } from "./overhead.ts";
import type { Measurement } from "./types.ts";

describe("overheadPercent from the TKE Hubble and NetworkPolicy tables (http.rps)", () => {
  it("L7 policy costs 86–89 %", () => {
    // Native: (99,985 − 13,883) / 99,985 = 86,102 / 99,985 = 86.115 %
    // Overlay: (101,514 − 11,483) / 101,514 = 90,031 / 101,514 = 88.688 %
    expect(overheadPercent(policyRps.native.none, policyRps.native.l7)).toBeCloseTo(86.115, 2);
    expect(overheadPercent(policyRps.overlay.none, policyRps.overlay.l7)).toBeCloseTo(88.688, 2);
  });

  it("L3/L4 policy and Hubble are close to zero", () => {
    // L3/L4: (99,985 − 99,965) / 99,985 = 0.020 %; (101,514 − 99,249) / 101,514 = 2.231 %.
    expect(overheadPercent(policyRps.native.none, policyRps.native.l3l4)).toBeCloseTo(0.02, 3);
    expect(overheadPercent(policyRps.overlay.none, policyRps.overlay.l3l4)).toBeCloseTo(2.231, 2);
    // Hubble: (100,271 − 100,007) / 100,271 = 0.263 %; (101,675 − 101,434) / 101,675 = 0.237 %.
    expect(overheadPercent(hubbleRps.native.off, hubbleRps.native.on)).toBeCloseTo(0.263, 3);
    expect(overheadPercent(hubbleRps.overlay.off, hubbleRps.overlay.on)).toBeCloseTo(0.237, 3);
  });

  it("counts a rise as the cost for lower-is-better metrics, and has none without a direction", () => {
    // Latency 2.0 → 2.5 ms with the feature on: (2.5 − 2.0) / 2.0 = 25 % overhead.
    expect(overheadPercent(2, 2.5, "lower")).toBeCloseTo(25, 10);
    expect(overheadPercent(2, 2.5, "none")).toBeNull();
    expect(overheadPercent(0, 5)).toBeNull();
  });
});

describe("featureOverheads pairs raw figures by their other params", () => {
  const rps = (policy: string, value: number, extra: Record<string, string | number> = {}): Measurement => ({
    metric: "http.rps",
    unit: "req/s",
    value,
    params: { connection: "keepalive", concurrency: 64, policy, ...extra },
  });

  it("computes l3l4 and l7 against none for the Overlay cluster", () => {
    const rows = [rps("l7", 11_483), rps("none", 101_514), rps("l3l4", 99_249)];
    const out = featureOverheads(rows, { param: "policy", base: "none" });
    expect(out.map((o) => [o.variant, o.overheadPercent])).toEqual([
      ["l7", expect.closeTo(88.688, 2)],
      ["l3l4", expect.closeTo(2.231, 2)],
    ]);
    expect(out[0]!.params).toEqual({ connection: "keepalive", concurrency: 64 });
    expect(out[0]!.better).toBe("higher");
    expect(out[0]!.approximate).toBe(false);
  });

  it("does not pair figures whose other params differ, and skips variants without a base", () => {
    const rows = [
      rps("none", 100_000, { concurrency: 256 }),
      rps("l7", 10_000),
      rps("l7", 12_000, { concurrency: 256 }),
    ];
    const out = featureOverheads(rows, { param: "policy", base: "none" });
    expect(out).toHaveLength(1);
    expect(out[0]!.overheadPercent).toBeCloseTo(88, 10); // (100,000 − 12,000) / 100,000
  });

  it("works for Hubble on vs off and rejects two bases for one pair", () => {
    const hubble = (state: string, value: number): Measurement => ({
      metric: "http.rps",
      unit: "req/s",
      value,
      params: { hubble: state },
    });
    const out = featureOverheads([hubble("on", 100_007), hubble("off", 100_271)], { param: "hubble", base: "off" });
    expect(out[0]!.overheadPercent).toBeCloseTo(0.263, 3);
    expect(() => featureOverheads([hubble("off", 1), hubble("off", 2)], { param: "hubble", base: "off" })).toThrow(
      /two base figures/,
    );
  });
});
