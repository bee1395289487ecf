import { findMetric, metricCatalogue } from "@cnibench/schema";
import { iptablesFigures, overlayFigures } from "@cnibench/test-support/tke-figures";
import { describe, expect, it } from "vitest";
import { compareMeasurementSets } from "./compare.ts";
import { comparisonTable } from "./comparison-table.ts";

// TKE cluster A (iptables) as the baseline, cluster C (Cilium Overlay) as the one candidate; the
// better direction as the database stores it, from the catalogue.
const withBetter = (figures: typeof iptablesFigures) =>
  figures.map((f) => ({ ...f, better: findMetric(f.metric)!.better }));
const baseline = withBetter(iptablesFigures);
const candidate = withBetter(overlayFigures);
const rows = comparisonTable(baseline, [compareMeasurementSets(baseline, candidate)], (f) => f.value);

describe("comparisonTable on TKE cluster A (iptables) vs cluster C (Cilium Overlay)", () => {
  it("lists the figures in catalogue order, params in their natural order (streams 8 before 16)", () => {
    const metrics = [...new Set(rows.map((r) => r.metric))];
    expect(metrics).toEqual(metricCatalogue.map((m) => m.key).filter((k) => metrics.includes(k)));
    expect(rows.filter((r) => r.metric === "tcp.throughput").map((r) => r.params)).toEqual([
      { path: "node-node", streams: 8 },
      { path: "pod-pod", streams: 1 },
      { path: "pod-pod", streams: 8 },
      { path: "pod-pod", streams: 16 },
      { path: "service", streams: 8 },
    ]);
  });

  it("shows the baseline's own figure unjudged, and a figure only the candidate has as missing", () => {
    expect(rows).toHaveLength(18);
    const memory = rows.find((r) => r.metric === "bpf.map.memory")!;
    expect(memory.cells[0]).toMatchObject({ figure: null, verdict: null });
    expect(memory.cells[1]).toMatchObject({ figure: 276.28, verdict: "missing", change: null, evidence: null });
    expect(rows[0]!.cells[0]).toMatchObject({ figure: 10.44, verdict: null, why: null });
  });

  it("judges each candidate figure with its change, test and words", () => {
    const short30k = rows.find((r) => r.metric === "http.rps" && r.params.services === 30_000)!;
    // 9,057 → 12,879 req/s: (12,879 − 9,057) / 9,057 = +42.1994 % (by hand), one run a side.
    expect(short30k.cells[1]).toMatchObject({
      figure: 12_879,
      verdict: "better",
      indicative: true,
      evidence: { test: "single value", marginPercent: 5, p: null },
    });
    expect(short30k.cells[1]!.change?.percent).toBeCloseTo(42.1994, 4);
    expect(short30k.cells[1]!.why).toMatch(/margin/);
  });
});
