// The axes a crossover view offers, from the figures themselves: hand-built tables, the 25 InfraBuilder
// setups (1 and 8 streams each) and TKE's Service sweep as they ship.
import { importFiles } from "@cnibench/importers";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { tkeSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { crossoverAxesOf, oneLinePerSetup } from "./crossover-axes.ts";

const at = (scenarioId: string, metric: string, params: Record<string, string | number | boolean>) => ({
  scenarioId,
  metric,
  params,
});

describe("crossoverAxesOf", () => {
  it("offers a param where two setups share two values, and counts the setups that do", () => {
    // a {1, 2}, b {2, 3}, c {1, 2, 3}: a–c share 1 and 2, b–c share 2 and 3, a–b only 2. d {5} sweeps nothing.
    const figures = [
      ...[1, 2].map((v) => at("a", "tcp.throughput", { connections: v, path: "pod-pod" })),
      ...[2, 3].map((v) => at("b", "tcp.throughput", { connections: v, path: "pod-pod" })),
      ...[1, 2, 3].map((v) => at("c", "tcp.throughput", { connections: v, path: "pod-pod" })),
      at("d", "tcp.throughput", { connections: 5, path: "pod-pod" }),
    ];
    expect(crossoverAxesOf(figures)).toEqual([
      { metric: "tcp.throughput", param: "connections", kind: "scale", setups: 3, values: [1, 2, 3] },
    ]);
  });

  it("offers nothing where the setups' values do not overlap twice, or one setup sweeps alone", () => {
    // a {1, 2} and b {2, 3} share one value: no two points of both lines to read against each other.
    const oneShared = [...[1, 2].map((v) => at("a", "m", { qps: v })), ...[2, 3].map((v) => at("b", "m", { qps: v }))];
    expect(crossoverAxesOf(oneShared)).toEqual([]);
    const alone = [1, 2, 3].map((v) => at("a", "m", { qps: v }));
    expect(crossoverAxesOf([...alone, at("b", "m", { qps: 1 })])).toEqual([]);
    // Two metrics are two axes: a's qps figures of m do not pair with b's of n.
    const twoMetrics = [...[1, 2].map((v) => at("a", "m", { qps: v })), ...[1, 2].map((v) => at("b", "n", { qps: v }))];
    expect(crossoverAxesOf(twoMetrics)).toEqual([]);
  });

  it("finds InfraBuilder's 1 and 8 streams for all 25 setups, a category", () => {
    const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
    const figures = bundles.flatMap(({ bundle }) =>
      bundle.results.map((r) => at(bundle.cni.label ?? bundle.cni.name, r.metric, r.params ?? {})),
    );
    const axes = crossoverAxesOf(figures);
    expect(axes.find((a) => a.metric === "tcp.throughput")).toEqual({
      metric: "tcp.throughput",
      param: "streams",
      kind: "category",
      setups: 25,
      values: [1, 8],
    });
    // bench.sh sweeps only the stream count: every axis it has is streams.
    expect(new Set(axes.map((a) => a.param))).toEqual(new Set(["streams"]));
  });

  it("puts TKE's Service sweep first, then its concurrency, then the streams category", () => {
    const all = crossoverAxesOf(tkeSeeds().figures);
    const axes = all.map((a) => `${a.metric} by ${a.param}: ${a.setups}`);
    // The three clusters at 0, 5,000, 10,000, 20,000 and 30,000 Services (the seed's table).
    expect(all[0]?.values).toEqual([0, 5000, 10000, 20000, 30000]);
    expect(axes).toEqual([
      "http.rps by services: 3",
      "lb.entries by services: 2",
      "http.rps by concurrency: 3",
      "tcp.throughput by streams: 3",
    ]);
  });
});

describe("oneLinePerSetup", () => {
  const cpu = (scenarioId: string, params: Record<string, string | number>) =>
    [1, 8].map((streams) => at(scenarioId, "cpu.usage", { ...params, streams }));

  it("pins what splits a setup into several lines: the whole CPU, then the first value by name", () => {
    // Each setup has every mode and user + system, for client and server: 4 lines each without pins.
    const figures = ["a", "b"].flatMap((id) =>
      ["client", "server"].flatMap((role) =>
        ["user+system", "all-modes"].flatMap((accounting) => cpu(id, { accounting, role, target: `svc-${id}` })),
      ),
    );
    // `target` differs between the setups but splits none: left alone.
    expect(oneLinePerSetup(figures, "streams")).toEqual({ accounting: "all-modes", role: "client" });
  });

  it("takes a narrower accounting only where the whole CPU leaves fewer than two setups to draw", () => {
    const figures = [
      ...cpu("a", { accounting: "all-modes" }),
      ...cpu("a", { accounting: "user+system" }),
      ...cpu("b", { accounting: "user+system" }),
    ];
    expect(oneLinePerSetup(figures, "streams")).toEqual({ accounting: "user+system" });
    // A setup with one line already needs nothing.
    expect(oneLinePerSetup(cpu("a", { accounting: "all-modes" }), "streams")).toEqual({});
  });

  it("draws each of InfraBuilder's setups with statexec's files once: every mode, pod to pod, TCP, client", () => {
    const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
    const figures = bundles.flatMap(({ bundle }) =>
      bundle.results.map((r) => at(bundle.cni.label ?? bundle.cni.name, r.metric, r.params ?? {})),
    );
    const ofCpu = figures.filter((f) => f.metric === "cpu.usage");
    const where = oneLinePerSetup(ofCpu, "streams");
    expect(where).toEqual({ accounting: "all-modes", path: "pod-pod", protocol: "tcp", role: "client" });
    // One line a setup: the 22 synthetic setups, whose .prom files give every mode (the three real
    // ones publish bench.sh's user + system alone).
    const lines = ofCpu.filter(
      (f) => typeof f.params.streams === "number" && Object.entries(where).every(([k, v]) => f.params[k] === v),
    );
    const perSetup = new Map<string, Set<number>>();
    for (const f of lines)
      perSetup.set(f.scenarioId, (perSetup.get(f.scenarioId) ?? new Set()).add(f.params.streams as number));
    expect(perSetup.size).toBe(22);
    for (const streams of perSetup.values()) expect([...streams].sort((a, b) => a - b)).toEqual([1, 8]);
    expect(lines).toHaveLength(22 * 2 * 3);
  });
});
