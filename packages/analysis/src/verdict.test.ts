import { describe, expect, it } from "vitest";
import { historyNoise } from "./effect.ts";
import { explainVerdict } from "./explain.ts";
import type { Figure } from "./types.ts";
import { compareFigures, figureInterval, runsNeeded, withAdjustedP } from "./verdict.ts";

const rps = (value: number, samples?: number[]): Figure => ({
  metric: "http.rps",
  unit: "req/s",
  value,
  ...(samples ? { samples } : {}),
});
const cpu = (value: number, extra: Partial<Figure> = {}): Figure => ({
  metric: "cpu.usage",
  unit: "millicores",
  value,
  better: "lower",
  ...extra,
});

describe("compareFigures with runs: the effect's interval against the margin δ", () => {
  // Expected intervals and p-values: scipy 1.17, stats.ttest_ind(log(c), log(b), equal_var=False),
  // the Welch–Satterthwaite df and stats.t.ppf(0.975 | 0.95, df) around the mean log difference
  // (script in the commit message of this change); ratios are exp() of the log bounds.
  const interval = (r: ReturnType<typeof compareFigures>) => {
    if (r.evidence.method !== "interval") throw new Error(`expected interval evidence, got ${r.evidence.method}`);
    return r.evidence;
  };

  it("calls steady runs 0.65 % apart small but real, not worse or better", () => {
    const r = compareFigures(rps(100, [100, 100.1, 99.9]), rps(100.65, [100.65, 100.75, 100.55]));
    expect(r.verdict).toBe("small-but-real");
    const e = interval(r);
    expect(e.ratio).toBeCloseTo(1.006500004, 8);
    expect(e.low).toBeCloseTo(1.004228196, 8);
    expect(e.high).toBeCloseTo(1.008776952, 8);
    expect(e.p).toBeCloseTo(0.001349128291, 8);
    expect(e.marginPercent).toBe(5);
  });

  it("calls −10 % at p ≈ 0.011 worse for a rate and better for a latency", () => {
    const r = compareFigures(rps(100, [100, 103, 97]), rps(90, [90, 92.5, 87.8]));
    expect(r.verdict).toBe("worse");
    const e = interval(r);
    expect(e.ratio).toBeCloseTo(0.9010659937, 8);
    expect([e.low, e.high].map((v) => Number(v.toFixed(8)))).toEqual([0.84501135, 0.96083908]);
    expect(e.p).toBeCloseTo(0.01099239618, 8);
    expect(e.df).toBeCloseTo(3.923890378, 6);
    const rtt = (samples: number[]): Figure => ({ metric: "pod.rtt", unit: "µs", value: samples[0]!, samples });
    expect(compareFigures(rtt([100, 103, 97]), rtt([90, 92.5, 87.8])).verdict).toBe("better");
  });

  it("calls +2.5 % at p ≈ 0.36 inconclusive and says how many runs per side would decide", () => {
    const r = compareFigures(rps(100, [100, 103, 97.1]), rps(102.5, [102.5, 105.6, 99.6]));
    expect(r.verdict).toBe("inconclusive");
    const e = interval(r);
    expect(e.p).toBeCloseTo(0.3558240916, 8);
    expect([e.low, e.high].map((v) => Number(v.toFixed(8)))).toEqual([0.95927949, 1.09592782]);
    // The difference (0.02501 on the log scale) is over half of ln 1.05 (0.02440): the fewest n a side
    // with (t0.975,df + t0.8,df)·√((s²b + s²c)/n) ≤ d, df Welch's at n runs, is 23 (scipy: t.ppf in a
    // loop; the normal approximation said 22).
    expect(runsNeeded(r)).toBe(23);
    // (t0.975 + t0.8) · se, as a ratio: scipy gives 9.324861965 %.
    expect(e.detectablePercent).toBeCloseTo(9.324861965, 6);
  });

  it("asks for more runs than three when three did not decide (InfraBuilder, antrea UDP 1 stream)", () => {
    // antrea-ipsec against antrea-noencap, pod to pod, one stream, Gbit/s: one ipsec run at half the
    // others leaves Welch's t 2.04 df, p = 0.0623 (scipy ttest_ind on logs). Welch's t at n a side
    // decides from 4 (scipy t.ppf in a loop); the normal approximation said 2, "about 0 more runs".
    const gbps = (samples: number[]): Figure => ({
      metric: "udp.throughput",
      unit: "Gbit/s",
      value: samples[2]!,
      samples,
    });
    const r = compareFigures(
      gbps([4.05159313808, 2.04172132473, 4.01139208137]),
      gbps([7.73043956845, 7.24365973569, 7.73376902482]),
    );
    expect(r.verdict).toBe("inconclusive");
    expect(interval(r).p).toBeCloseTo(0.062276521757327535, 10);
    expect(runsNeeded(r)).toBe(4);
    expect(explainVerdict(r.evidence, { baseline: 3, candidate: 3 }, runsNeeded(r))).toMatch(
      /about 1 more run per side would decide/,
    );
  });

  it("calls two sides within the margin equivalent", () => {
    // ±1 % runs around the same mean: the 90 % interval of the ratio lies within ±5 %.
    const r = compareFigures(rps(100, [99, 100, 101]), rps(100, [101, 100, 99]));
    expect(r.verdict).toBe("equivalent");
    expect(interval(r).p).toBeCloseTo(1, 10);
  });

  it("adjusts the decision by the p-value it is given (Benjamini–Hochberg over a compare)", () => {
    const base = rps(100, [100, 103, 97]);
    const cand = rps(90, [90, 92.5, 87.8]);
    const adjusted = withAdjustedP(compareFigures(base, cand), 0.2);
    expect(adjusted.verdict).toBe("inconclusive");
    expect(interval(adjusted).pAdjusted).toBe(0.2);
    // Sized at α shrunk as p was (0.05 · 0.011/0.2), with Welch's t at n a side: 5 (scipy, as above).
    // The normal approximation at α said 2, fewer than the 3 runs that did not decide.
    expect(runsNeeded(adjusted)).toBe(5);
    expect(explainVerdict(adjusted.evidence, { baseline: 3, candidate: 3 }, runsNeeded(adjusted))).toMatch(
      /about 2 more runs per side would decide/,
    );
  });

  it("decides with a series' history what its own three noisy runs cannot", () => {
    // The runs and history of effect.test.ts ("replaces a noisy side's own variance"): scipy's Welch p
    // 0.156 on the runs alone, 0.0018 with the baseline's pooled history (numpy, by hand), ratio 1.098.
    const base = rps(100, [100, 108, 93]);
    const cand = rps(110, [110, 112, 108]);
    expect(compareFigures(base, cand).verdict).toBe("inconclusive");
    const history = historyNoise([
      [99, 101, 100],
      [102, 100, 101],
      [98, 99, 100.5],
      [101, 103, 100],
    ]);
    const r = compareFigures({ ...base, history }, cand);
    expect(r.verdict).toBe("better");
    expect(interval(r).p).toBeCloseTo(0.0018071909090259018, 12);
    expect(interval(r).noise.baseline).toMatchObject({ from: "history", runs: 12 });
  });

  it("gives a single run on a side an indicative verdict from the margin", () => {
    const r = compareFigures(rps(100, [90, 100, 110]), rps(120, [120]));
    expect(r.evidence).toEqual({ method: "noise-band", marginPercent: 5, deltaPercent: 20 });
    expect(r.verdict).toBe("better");
  });
});

describe("compareFigures with single values (noise bands, TKE and EKS figures)", () => {
  it("keeps TKE's throughput differences within the ±5 % band", () => {
    // Pod-to-pod 8 streams: iptables 10.43 vs Overlay 10.77 Gbit/s = +3.26 %.
    const tcp = (value: number): Figure => ({ metric: "tcp.throughput", unit: "Gbit/s", value });
    const r = compareFigures(tcp(10.43), tcp(10.77));
    expect(r.verdict).toBe("equivalent");
    expect(r.delta!.percent).toBeCloseTo(3.26, 2);
  });

  it("takes a margin from the options over the catalogue's, and 10 % for x. metrics", () => {
    // The same +3.26 % is beyond a ±3 % margin asked for on a compare page.
    const tcp = (value: number): Figure => ({ metric: "tcp.throughput", unit: "Gbit/s", value });
    const r = compareFigures(tcp(10.43), tcp(10.77), { margins: { "tcp.throughput": 3 } });
    expect(r.verdict).toBe("better");
    expect(r.evidence).toMatchObject({ method: "noise-band", marginPercent: 3 });
    const sync = (value: number): Figure => ({ metric: "x.sync", unit: "ms", value, better: "lower" });
    expect(compareFigures(sync(100), sync(109)).evidence).toMatchObject({ marginPercent: 10 });
    expect(compareFigures(sync(100), sync(109)).verdict).toBe("equivalent"); // +9 %, within ±10 %
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
    const rr = (value: number): Figure => ({ metric: "tcp.rr.latency", unit: "µs", value });
    expect(compareFigures(rr(107), rr(103)).verdict).toBe("equivalent"); // −3.74 %
    const rtt = (value: number): Figure => ({ metric: "pod.rtt", unit: "µs", value });
    const r = compareFigures(rtt(4_894), rtt(3_135)); // −35.94 %, lower is better
    expect(r.verdict).toBe("better");
    expect(r.delta!.percent).toBeCloseTo(-35.942, 2);
  });

  it("counts the band's edge as noise and compares against 0 relative to the candidate", () => {
    expect(compareFigures(rps(200), rps(210)).verdict).toBe("equivalent"); // exactly +5 %
    expect(compareFigures(rps(200), rps(211)).verdict).toBe("better"); // +5.5 %
    const loss = (value: number): Figure => ({ metric: "udp.loss", unit: "%", value });
    expect(compareFigures(loss(0), loss(0)).verdict).toBe("equivalent");
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
    const rules = (value: number): Figure => ({ metric: "iptables.rules", unit: "count", value });
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
