import { describe, expect, it } from "vitest";
import type { Measurement } from "./types.ts";
import { compareFigures, figureInterval } from "./verdict.ts";

const rps = (value: number, samples?: number[]): Measurement => ({
  metric: "http.rps",
  unit: "req/s",
  value,
  ...(samples ? { samples } : {}),
});
const cpu = (value: number, extra: Partial<Measurement> = {}): Measurement => ({
  metric: "cpu.usage",
  unit: "millicores",
  value,
  better: "lower",
  ...extra,
});

describe("compareFigures with samples (Welch's t-test)", () => {
  it("calls 3 vs 3 clearly different rounds better, or worse when lower is better", () => {
    // Baseline 99,000 / 100,000 / 101,000 (mean 100,000, s² = 1,000,000); candidate +10,000 each.
    // se² = 1e6/3 + 1e6/3 = 666,666.7, t = 10,000 / 816.50 = 12.247, df = 4, p ≈ 0.00025.
    const r = compareFigures(rps(100_000, [99_000, 100_000, 101_000]), rps(110_000, [109_000, 110_000, 111_000]));
    expect(r.verdict).toBe("better");
    expect(r.evidence).toMatchObject({ method: "welch", baselineMean: 100_000, candidateMean: 110_000 });
    if (r.evidence.method !== "welch") throw new Error("expected Welch evidence");
    expect(r.evidence.t).toBeCloseTo(12.247, 3);
    expect(r.evidence.df).toBeCloseTo(4, 10);
    expect(r.evidence.p).toBeLessThan(0.001);
    expect(r.evidence.p).toBeGreaterThan(0.0001);
    expect(r.delta).toEqual({ absolute: 10_000, percent: 10 });

    const latency = (value: number, samples: number[]): Measurement => ({
      metric: "pod.rtt",
      unit: "µs",
      value,
      samples,
    });
    expect(compareFigures(latency(100, [99, 100, 101]), latency(110, [109, 110, 111])).verdict).toBe("worse");
  });

  it("calls overlapping rounds within noise even when the headline moved 5 %", () => {
    // Baseline 90 / 100 / 110, candidate 95 / 105 / 115: means 100 and 105, s² = 100 each,
    // t = 5 / √(200/3) = 0.6124, df = 4, p ≈ 0.573 > 0.05.
    const r = compareFigures(rps(100, [90, 100, 110]), rps(105, [95, 105, 115]));
    expect(r.verdict).toBe("within-noise");
    if (r.evidence.method !== "welch") throw new Error("expected Welch evidence");
    expect(r.evidence.t).toBeCloseTo(0.6124, 3);
    expect(r.evidence.p).toBeCloseTo(0.573, 2);
  });

  it("falls back to the noise band with fewer than 3 samples on a side", () => {
    const r = compareFigures(rps(100, [90, 100, 110]), rps(120, [120]));
    expect(r.evidence).toEqual({ method: "noise-band", bandPercent: 5, deltaPercent: 20 });
    expect(r.verdict).toBe("better");
  });
});

describe("compareFigures with single values (noise bands, TKE and EKS figures)", () => {
  it("keeps TKE's throughput differences within the ±5 % band", () => {
    // Pod-to-pod 8 streams: iptables 10.43 vs Overlay 10.77 Gbit/s = +3.26 %.
    const tcp = (value: number): Measurement => ({ metric: "tcp.throughput", unit: "Gbit/s", value });
    const r = compareFigures(tcp(10.43), tcp(10.77));
    expect(r.verdict).toBe("within-noise");
    expect(r.delta!.percent).toBeCloseTo(3.26, 2);
  });

  it("calls TKE's keepalive RPS gap worse and the 30,000-Service short-connection RPS better", () => {
    // (100,955 − 115,434) / 115,434 = −12.54 %; (12,879 − 9,057) / 9,057 = +42.20 %.
    const worse = compareFigures(rps(115_434), rps(100_955));
    expect(worse.verdict).toBe("worse");
    expect(worse.delta!.percent).toBeCloseTo(-12.543, 2);
    const better = compareFigures(rps(9_057), rps(12_879));
    expect(better.verdict).toBe("better");
    expect(better.delta!.percent).toBeCloseTo(42.199, 2);
  });

  it("applies ±10 % to latencies: TKE TCP_RR p99 107 vs 103 µs is noise, EKS pod RTT 4,894 → 3,135 µs is better", () => {
    const rr = (value: number): Measurement => ({ metric: "tcp.rr.latency", unit: "µs", value });
    expect(compareFigures(rr(107), rr(103)).verdict).toBe("within-noise"); // −3.74 %
    const rtt = (value: number): Measurement => ({ metric: "pod.rtt", unit: "µs", value });
    const r = compareFigures(rtt(4_894), rtt(3_135)); // −35.94 %, lower is better
    expect(r.verdict).toBe("better");
    expect(r.delta!.percent).toBeCloseTo(-35.942, 2);
  });

  it("counts the band's edge as noise and compares against 0 relative to the candidate", () => {
    expect(compareFigures(rps(200), rps(210)).verdict).toBe("within-noise"); // exactly +5 %
    expect(compareFigures(rps(200), rps(211)).verdict).toBe("better"); // +5.5 %
    const loss = (value: number): Measurement => ({ metric: "udp.loss", unit: "%", value });
    expect(compareFigures(loss(0), loss(0)).verdict).toBe("within-noise");
    expect(compareFigures(loss(0), loss(0.03)).verdict).toBe("worse");
  });

  it("takes the better-direction from the catalogue when the figure does not declare it", () => {
    const r = compareFigures(rps(100), rps(50));
    expect(r.better).toBe("higher");
    expect(r.verdict).toBe("worse");
  });
});

describe("compareFigures edge cases", () => {
  it("says which side is missing", () => {
    expect(compareFigures(null, rps(1))).toMatchObject({ verdict: "missing", evidence: { side: "baseline" } });
    expect(compareFigures(rps(1), undefined)).toMatchObject({ verdict: "missing", evidence: { side: "candidate" } });
    expect(compareFigures(null, null)).toMatchObject({ verdict: "missing", evidence: { side: "both" }, metric: "" });
    expect(compareFigures(rps(1), null).delta).toBeNull();
  });

  it("has no winner for metrics with better none, but still gives the delta", () => {
    // EKS kube-proxy NAT rules: 99 at 4 Services vs 10,059 at 1,000.
    const rules = (value: number): Measurement => ({ metric: "iptables.rules", unit: "count", value });
    const r = compareFigures(rules(99), rules(10_059));
    expect(r.verdict).toBe("not-comparable");
    expect(r.better).toBe("none");
    expect(r.delta!.absolute).toBe(9_960);
  });

  it("refuses different metrics or units", () => {
    expect(compareFigures(rps(1), { ...rps(1), unit: "req/min" }).verdict).toBe("not-comparable");
    expect(compareFigures(rps(1), { ...rps(1), metric: "http.qps.achieved" }).verdict).toBe("not-comparable");
  });
});

describe("compareFigures with qualified figures", () => {
  it("decides when a bound clears the other figure: AKS ≤ 100 millicores vs 300 millicores", () => {
    const worse = compareFigures(cpu(100, { qualifier: "at-most" }), cpu(300));
    expect(worse.verdict).toBe("worse");
    expect(worse.qualified).toBe(true);
    expect(worse.evidence).toMatchObject({
      method: "bounds",
      baseline: { low: Number.NEGATIVE_INFINITY, high: 100 },
      candidate: { low: 300, high: 300 },
    });
    expect(compareFigures(cpu(300), cpu(100, { qualifier: "at-most" })).verdict).toBe("better");
  });

  it("does not decide when the bounds overlap or are apart by less than the band", () => {
    expect(compareFigures(cpu(100, { qualifier: "at-most" }), cpu(80)).verdict).toBe("not-comparable");
    const near = compareFigures(cpu(100, { qualifier: "at-most" }), cpu(105)); // 5 % < ±10 %
    expect(near.verdict).toBe("not-comparable");
    expect(near.evidence).toMatchObject({ reason: "the bounds are apart by less than the noise band" });
    // AKS "below 150 millicores" vs "around 200 millicores": approximate never decides.
    expect(compareFigures(cpu(150, { qualifier: "at-most" }), cpu(200, { qualifier: "approx" })).verdict).toBe(
      "not-comparable",
    );
    expect(compareFigures(cpu(200, { qualifier: "at-least" }), cpu(300, { qualifier: "at-least" })).verdict).toBe(
      "not-comparable",
    );
  });

  it("decides ranges that do not overlap: EKS 4–6m vs 4–5m overlaps, 4–6m vs 8–9m does not", () => {
    const range = (low: number, high: number) => cpu((low + high) / 2, { qualifier: "range", low, high });
    expect(compareFigures(range(4, 6), range(4, 5)).verdict).toBe("not-comparable");
    expect(compareFigures(range(4, 6), range(8, 9)).verdict).toBe("worse"); // 8 vs 6: +33 %
    expect(figureInterval(range(4, 6))).toEqual({ low: 4, high: 6 });
    expect(figureInterval(cpu(5, { qualifier: "approx" }))).toBeNull();
  });

  it("ignores samples when a figure is qualified", () => {
    const r = compareFigures(rps(100, [99, 100, 101]), { ...rps(200, [199, 200, 201]), qualifier: "approx" });
    expect(r.verdict).toBe("not-comparable");
    expect(r.evidence.method).toBe("bounds");
  });
});
