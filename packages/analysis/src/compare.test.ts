import { iptablesFigures, overlayFigures } from "@cnibench/test-support/tke-figures";
import { describe, expect, it } from "vitest";
import { compareMeasurementSets, figureKey } from "./compare.ts";
import { countVerdicts, formatVerdictSummary } from "./summary.ts";

describe("compareMeasurementSets on TKE cluster A (iptables) vs cluster C (Cilium Overlay)", () => {
  const rows = compareMeasurementSets(iptablesFigures, overlayFigures);
  const verdictOf = (metric: string, params: Record<string, string | number>) =>
    rows.find((r) => r.key === figureKey(metric, params))?.result.verdict;

  it("matches figures by exact params and keeps one-sided figures as missing", () => {
    expect(rows).toHaveLength(18);
    expect(verdictOf("bpf.map.memory", {})).toBe("missing");
    expect(rows.find((r) => r.metric === "bpf.map.memory")!.baseline).toBeNull();
  });

  it("gives the verdicts a reader of the seed expects", () => {
    // Short connections at 30,000 Services: 9,057 → 12,879 req/s, +42.2 %.
    expect(verdictOf("http.rps", { concurrency: 64, connection: "short", target: "service", services: 30_000 })).toBe(
      "better",
    );
    // At 20,000 Services: 12,916 → 13,080, +1.3 %: inside ±5 %, although the lines cross there.
    expect(verdictOf("http.rps", { concurrency: 64, connection: "short", target: "service", services: 20_000 })).toBe(
      "equivalent",
    );
    // TCP_CRR p99 487 → 558 µs, +14.6 % (lower is better).
    expect(verdictOf("tcp.crr.latency", { percentile: 99 })).toBe("worse");
    expect(verdictOf("http.latency", { percentile: 99, qps: 1000 })).toBe("equivalent");
  });

  it("summarises the diff", () => {
    // within: 5 throughput rows, short @20,000, HTTP p99; worse: 3 keepalive RPS, short @0/5,000/10,000,
    // TCP_RR p50 (+13.1 %) and p99 (+10.3 %), TCP_CRR p99; better: short @30,000; missing: BPF map memory.
    const counts = countVerdicts(rows.map((r) => r.result));
    expect(formatVerdictSummary("Cilium Overlay", "kube-proxy iptables", counts)).toBe(
      "Cilium Overlay vs kube-proxy iptables: 1 better, 9 worse, 7 equivalent, 1 missing",
    );
  });

  it("keys params independently of their order and rejects duplicates on one side", () => {
    expect(figureKey("m", { a: 1, b: 2 })).toBe(figureKey("m", { b: 2, a: 1 }));
    const twice = [iptablesFigures[0]!, { ...iptablesFigures[0]! }];
    expect(() => compareMeasurementSets(twice, [])).toThrow(/baseline has two figures/);
  });
});
