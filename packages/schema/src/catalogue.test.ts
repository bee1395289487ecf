import { describe, expect, it } from "vitest";
import { findMetric, metricCatalogue, physicalRange } from "./catalogue.ts";
import { canonicalUnitSymbol } from "./units.ts";

// Every row of "Metric catalogue v1" in docs/design.md, split rows as separate keys.
const designRows = [
  ["tcp.throughput", "Gbit/s", "higher"],
  ["udp.throughput", "Gbit/s", "higher"],
  ["udp.loss", "%", "lower"],
  ["http.rps", "req/s", "higher"],
  ["http.latency", "ms", "lower"],
  ["tcp.rr.latency", "µs", "lower"],
  ["tcp.crr.latency", "µs", "lower"],
  ["tcp.rr.rate", "trans/s", "higher"],
  ["pod.rtt", "µs", "lower"],
  ["dns.latency", "ms", "lower"],
  ["cpu.usage", "millicores", "lower"],
  ["memory.usage", "MiB", "lower"],
  ["service.routing.latency", "s", "lower"],
  ["apiserver.list.latency", "s", "lower"],
  ["pod.startup.latency", "s", "lower"],
  ["iptables.rules", "count", "none"],
  ["lb.entries", "count", "none"],
  ["kube-services.chain", "count", "none"],
  ["conn.setup.latency", "µs", "lower"],
  ["kubeproxy.sync", "ms", "lower"],
  ["http.qps.achieved", "req/s", "higher"],
  ["bpf.map.memory", "MiB", "lower"],
] as const;

describe("metric catalogue", () => {
  it.each(designRows)("has %s in %s, %s is better", (key, unit, better) => {
    expect(findMetric(key)).toMatchObject({ key, unit, better });
  });

  it("has unique keys, none in the x. namespace", () => {
    const keys = metricCatalogue.map((m) => m.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((k) => k.startsWith("x."))).toEqual([]);
  });

  it.each(metricCatalogue.map((m) => [m.key, m] as const))("%s has a canonical unit and words", (_key, metric) => {
    expect(canonicalUnitSymbol(metric.unit)).toBe(metric.unit);
    expect(metric.label.length).toBeGreaterThan(3);
    expect(metric.description.length).toBeGreaterThan(10);
  });

  it("keeps typical params from docs/design.md", () => {
    expect(findMetric("http.rps")?.params).toEqual(
      expect.arrayContaining(["connection", "concurrency", "target", "services", "policy", "hubble"]),
    );
    expect(findMetric("bpf.map.memory")?.params).toEqual(["map", "maxEntries"]);
  });

  // Params the demo data (demo-data/bundles) uses beyond docs/design.md's table, named once here so that
  // uploaders copying them find them documented.
  it.each([
    ["pod.rtt", "stat"], // EKS: iperf3 mean RTT, stat "avg"
    ["http.latency", "stat"], // EKS kube-proxy table: "HTTP avg"
    ["conn.setup.latency", "stat"], // EKS: "Conn Setup Avg"
    ["memory.usage", "measure"], // TKE: "Cilium Agent RSS", measure "rss"
    ["cpu.usage", "pods"], // AKS scale tests: 100K / 60K pods
    ["cpu.usage", "networkPolicies"], // AKS scale tests: 2K network policies
    ["memory.usage", "networkPolicies"],
    ["tcp.throughput", "services"], // EKS Service-scaling tables
    ["dns.latency", "services"],
  ] as const)("documents %s param %s", (key, param) => {
    expect(findMetric(key)?.params).toContain(param);
  });

  it("declares each metric's physical range: none below zero, a loss at most 100 %", () => {
    expect(metricCatalogue.filter((m) => m.range.max !== undefined).map((m) => [m.key, m.range])).toEqual([
      ["udp.loss", { min: 0, max: 100 }],
    ]);
    expect(metricCatalogue.every((m) => m.range.min === 0)).toBe(true);
  });

  it("gives a verdict margin to every metric with a winner: 5 % for rates, 10 % for the rest", () => {
    // The defaults docs/verdicts.md states; counts (better "none") have no verdict, so no margin.
    const margins = Object.fromEntries(metricCatalogue.map((m) => [m.key, m.margin]));
    expect(Object.keys(margins).filter((k) => margins[k] === 5)).toEqual([
      "tcp.throughput",
      "udp.throughput",
      "http.rps",
      "tcp.rr.rate",
      "http.qps.achieved",
    ]);
    expect(Object.keys(margins).filter((k) => margins[k] === null)).toEqual([
      "iptables.rules",
      "lb.entries",
      "kube-services.chain",
      "bpf.map.count",
    ]);
    expect(metricCatalogue.every((m) => (m.margin === null) === (m.better === "none"))).toBe(true);
    expect(findMetric("http.latency")?.margin).toBe(10);
    expect(findMetric("udp.loss")?.margin).toBe(10);
    expect(findMetric("cpu.usage")?.margin).toBe(10);
  });

  it("gives x. metrics a floor of zero by their unit's dimension only", () => {
    expect(physicalRange("tcp.throughput", "Mbps")).toEqual({
      what: "TCP throughput",
      unit: "Gbit/s",
      range: { min: 0 },
    });
    expect(physicalRange("x.udp.throughput.sent", "Mbps")).toEqual({
      what: "a throughput",
      unit: "Mbps",
      range: { min: 0 },
    });
    expect(physicalRange("x.sync", "us")?.what).toBe("a duration");
    expect(physicalRange("x.map", "Mi")?.what).toBe("a size");
    expect(physicalRange("x.agent.cpu", "cores")?.what).toBe("a CPU usage");
    expect(physicalRange("x.dns.qps", "qps")?.what).toBe("a rate");
    expect(physicalRange("x.hubble.overhead", "%")).toBeUndefined();
    expect(physicalRange("x.rules.delta", "rules")).toBeUndefined();
    expect(physicalRange("x.score", "points")).toBeUndefined();
  });

  it("does not find metrics outside it", () => {
    expect(findMetric("x.dns.qps")).toBeUndefined();
    expect(findMetric("tcp.Throughput")).toBeUndefined();
  });
});
