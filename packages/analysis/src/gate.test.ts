import { findMetric } from "@cnibench/schema";
import { iptablesFigures, overlayFigures } from "@cnibench/test-support/tke-figures";
import { describe, expect, it } from "vitest";
import { gateReport } from "./gate.ts";

// TKE cluster A (iptables) as the baseline campaign, cluster C (Cilium Overlay) as the candidate: one
// run a figure, the better direction the catalogue's, as packages/db gives current figures.
const asCurrent = (figures: typeof iptablesFigures) =>
  figures.map((f) => ({ ...f, better: findMetric(f.metric)!.better, n: 1, samples: [] }));
const baseline = asCurrent(iptablesFigures);
const candidate = asCurrent(overlayFigures);

describe("gateReport on TKE cluster A (iptables) vs cluster C (Cilium Overlay)", () => {
  it("fails when any figure decides and is worse: 9 worse of 17 compared (compare.test's verdicts)", () => {
    const report = gateReport(baseline, candidate, {});
    expect(report).toMatchObject({ metrics: null, unmeasured: [], compared: 17, worse: 9, inconclusive: 0 });
    expect(report.outcome).toBe("worse");
    expect(report.rows).toHaveLength(18);
  });

  it("passes on the chosen metric's figures alone: the five TCP throughputs are within ±5 %", () => {
    const report = gateReport(baseline, candidate, { metrics: ["tcp.throughput"] });
    expect(report.rows.filter((r) => r.gated).map((r) => r.verdict)).toEqual(Array(5).fill("equivalent"));
    expect(report).toMatchObject({ worse: 0, inconclusive: 0, outcome: "pass" });
  });

  it("cannot decide on a chosen metric only one side measured", () => {
    const report = gateReport(baseline, candidate, { metrics: ["bpf.map.memory"] });
    expect(report).toMatchObject({ unmeasured: ["bpf.map.memory"], inconclusive: 1, outcome: "inconclusive" });
  });

  it("gives each row both sides' runs and medians, the change of the medians and its words", () => {
    const row = gateReport(baseline, candidate, {}).rows.find(
      (r) => r.metric === "http.rps" && r.params.services === 30_000,
    )!;
    // 9,057 → 12,879 req/s: (12,879 − 9,057) / 9,057 = +42.1994 % (by hand); one run a side.
    expect(row).toMatchObject({
      baseline: { n: 1, median: 9_057 },
      candidate: { n: 1, median: 12_879 },
      verdict: "better",
      indicative: true,
      marginPercent: 5,
      gated: true,
    });
    expect(row.changePercent).toBeCloseTo(42.1994, 4);
    expect(row.text).toMatchObject({ baseline: "9,057 req/s", candidate: "12,879 req/s", change: "+42.2 %" });
    expect(row.caveat).toBeNull();
  });
});

describe("gateReport on a campaign that moved more traffic for more CPU", () => {
  // An upgrade's campaign in InfraBuilder's shape: node CPU during the pod-to-pod TCP test, 3 runs a
  // side. 6.5 → 19.6 Gbit/s is (19.6 − 6.5) / 6.5 = +201.5 % (by hand, on the equal runs' ratio);
  // 0.8 → 1.2 cores is worse, but no plain regression: it is said with the traffic.
  const test = { path: "pod-pod", streams: 1 };
  const runs = (v: number) => [v * 0.99, v, v * 1.01];
  const side = (gbps: number, cores: number) => [
    {
      metric: "tcp.throughput",
      unit: "Gbit/s",
      params: test,
      better: "higher" as const,
      value: gbps,
      n: 3,
      samples: runs(gbps),
    },
    {
      metric: "cpu.usage",
      unit: "cores",
      params: { component: "node", ...test, protocol: "tcp", role: "client" },
      better: "lower" as const,
      value: cores,
      n: 3,
      samples: runs(cores),
    },
  ];

  it("says the traffic beside the worse CPU row, and still counts it worse", () => {
    const report = gateReport(side(6.5, 0.8), side(19.6, 1.2), {});
    const cpu = report.rows.find((r) => r.metric === "cpu.usage")!;
    expect(cpu).toMatchObject({ verdict: "worse", caveat: "while moving 201.5 % more traffic" });
    expect(report.rows.find((r) => r.metric === "tcp.throughput")).toMatchObject({ verdict: "better", caveat: null });
    expect(report.worse).toBe(1);
  });
});
