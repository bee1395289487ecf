// The metrics feed's exposition, pure: base units, snake_case labels, the testbed and CNI version, the
// `_timestamp_seconds` families, and Prometheus' own linter (`promtool check metrics`, Prometheus 2.42)
// accepting the text. Expected values are worked out by hand in the comments.
import { execFileSync, spawnSync } from "node:child_process";
import type { LatestFigure, ScenarioSummary } from "@cnibench/db";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import {
  familyName,
  feedFamily,
  inBaseUnit,
  openMetricsText,
  seriesLabels,
  timestampFamily,
  toSeries,
  unitSuffix,
} from "./metrics.ts";

const scenario = (id: string, version: string): ScenarioSummary => ({
  id,
  workspaceId: "w",
  label: `cilium ${version}`,
  provider: "aks",
  region: "westeurope",
  kubernetesVersion: "1.32",
  nodeCount: 3,
  sku: "Standard_D4s_v5",
  vcpus: 4,
  memoryGiB: 16,
  nicGbps: 12.5,
  os: "Ubuntu 22.04",
  kernel: "6.8",
  cni: { name: "cilium", version, mode: "native", kubeProxy: "replaced", label: null, settings: {} },
  sources: [],
  bundleCount: 1,
  lastRunAt: new Date("2026-06-01T00:00:00Z"),
});

const figure = (scenarioId: string, metric: string, unit: string, value: number, params = {}): LatestFigure =>
  ({
    scenarioId,
    bundleId: `b-${scenarioId}`,
    metric,
    params,
    value,
    unit,
    qualifier: null,
    n: 1,
  }) as unknown as LatestFigure;

const scenarios = [scenario("s1", "1.16.0"), scenario("s2", "1.17.1")];
const figures = [
  figure("s1", "tcp.throughput", "Gbit/s", 9.3, { path: "pod-pod", sameNode: false, "msg-size": 64 }),
  figure("s2", "tcp.throughput", "Gbit/s", 9.5, { path: "pod-pod", sameNode: false, "msg-size": 64 }),
  figure("s1", "http.latency", "ms", 0.412, { percentile: "p99" }),
  figure("s1", "conn.setup.latency", "µs", 57),
  figure("s1", "bpf.map.memory", "MiB", 1.5),
  figure("s1", "bpf.map.count", "count", 42),
  figure("s1", "cpu.usage", "%", 12.5),
  figure("s1", "x.agent.cpu", "millicores", 250),
];
const measuredAt = new Map([
  ["b-s1", new Date("2026-06-01T00:00:00Z")],
  ["b-s2", new Date("2026-06-02T12:30:00Z")],
]);
const testbeds = new Map([
  ["s1", "aks-d4s-native"],
  ["s2", "aks-d4s-native"],
]);
const series = toSeries(scenarios, figures, measuredAt, 100, testbeds);
const text = openMetricsText(series, { total: 10, expired: 2, maxSeries: 100, maxAgeDays: 365 });

describe("names and units", () => {
  it("gives families in base units, without a gauge ending in _count", () => {
    expect(familyName("tcp.throughput", "Gbit/s")).toBe("cnibench_tcp_throughput_bytes_per_second");
    expect(familyName("http.latency", "ms")).toBe("cnibench_http_latency_seconds");
    expect(familyName("conn.setup.latency", "µs")).toBe("cnibench_conn_setup_latency_seconds");
    expect(familyName("bpf.map.memory", "MiB")).toBe("cnibench_bpf_map_memory_bytes");
    expect(familyName("bpf.map.count", "count")).toBe("cnibench_bpf_map");
    expect(familyName("lb.entries", "count")).toBe("cnibench_lb_entries");
    expect(familyName("x.cpu.total", "count")).toBe("cnibench_x_cpu_total_value");
    expect(familyName("cpu.usage", "%")).toBe("cnibench_cpu_usage_ratio");
    expect(familyName("x.agent.cpu", "millicores")).toBe("cnibench_x_agent_cpu_cores");
    expect(familyName("x.someThing", "req/s")).toBe("cnibench_x_some_thing_requests_per_second");
    expect(unitSuffix("widgets/s")).toBe("widgets_per_s");
    expect(timestampFamily("cnibench_http_latency_seconds", "ms")).toBe("cnibench_http_latency_timestamp_seconds");
    expect(timestampFamily("cnibench_bpf_map", "count")).toBe("cnibench_bpf_map_timestamp_seconds");
  });

  it("converts values to the base unit (by hand)", () => {
    expect(inBaseUnit(9.3, "Gbit/s")).toBe(1_162_500_000); // 9.3e9 bit/s / 8
    expect(inBaseUnit(100, "Mbit/s")).toBe(12_500_000); // 1e8 / 8
    expect(inBaseUnit(0.412, "ms")).toBe(0.000412);
    expect(inBaseUnit(412, "ms")).toBe(0.412);
    expect(inBaseUnit(57, "µs")).toBe(0.000057);
    expect(inBaseUnit(1.5, "MiB")).toBe(1_572_864); // 1.5 × 1024 × 1024
    expect(inBaseUnit(12.5, "%")).toBe(0.125);
    expect(inBaseUnit(250, "millicores")).toBe(0.25);
    expect(inBaseUnit(42, "count")).toBe(42);
    expect(inBaseUnit(7, "widgets")).toBe(7);
  });
});

describe("labels", () => {
  it("writes every label in snake_case, with the testbed and CNI version", () => {
    const labels = seriesLabels(scenarios[0]!, figures[0]!, "aks-d4s-native");
    expect(labels).toMatchObject({
      testbed: "aks-d4s-native",
      cni: "cilium",
      cni_version: "1.16.0",
      same_node: "false",
      msg_size: "64",
      path: "pod-pod",
    });
    for (const name of Object.keys(labels)) expect(name).toMatch(/^[a-z_][a-z0-9_]*$/);
  });

  it("tells two CNI versions of one testbed apart by cni_version, not only by scenario_id", () => {
    const tcp = series.filter((s) => s.metric === "tcp.throughput");
    expect(tcp.map((s) => s.labels.testbed)).toEqual(["aks-d4s-native", "aks-d4s-native"]);
    expect(tcp.map((s) => s.labels.cni_version)).toEqual(["1.16.0", "1.17.1"]);
  });
});

describe("the exposition", () => {
  const families = parsePrometheusTextFormat(text);
  const byName = new Map(families.map((f) => [f.name, f]));

  it("gives each figure's value in base units and its measurement time in Unix seconds", () => {
    const tcp = byName.get("cnibench_tcp_throughput_bytes_per_second")!;
    expect(tcp.metrics.map((m) => Number(m.value))).toEqual([1_162_500_000, 1_187_500_000]); // 9.3 and 9.5 × 1.25e8
    const when = byName.get("cnibench_tcp_throughput_timestamp_seconds")!;
    // date -u -d 2026-06-01T00:00:00Z +%s → 1780272000; 2026-06-02T12:30:00Z → 1780403400
    expect(when.metrics.map((m) => Number(m.value))).toEqual([1780272000, 1780403400]);
    expect(when.metrics.map((m) => m.labels)).toEqual(tcp.metrics.map((m) => m.labels));
    expect(text).toContain("# UNIT cnibench_tcp_throughput_timestamp_seconds seconds\n");
    expect(text).toContain("# UNIT cnibench_http_latency_seconds seconds\n");
    expect(byName.get("cnibench_http_latency_seconds")!.help).toContain("converted from ms");
    expect(Number(byName.get("cnibench_bpf_map")!.metrics[0]!.value)).toBe(42);
  });

  it("counts the series shown, held and expired", () => {
    const feed = byName.get(feedFamily)!;
    expect(feed.metrics.map((m) => [m.labels?.state, Number(m.value)])).toEqual([
      ["shown", 8],
      ["total", 10],
      ["expired", 2],
    ]);
    expect(feed.help).toMatch(/^Series in this feed/); // 10 − 2 expired = 8 shown: not truncated
    expect(feed.help).toContain("365 days");
  });
});

const promtool = spawnSync("promtool", ["--version"]).status === 0;

describe.skipIf(!promtool)("promtool check metrics (Prometheus 2.42; apt-get install prometheus)", () => {
  it("accepts the feed: base units, snake_case labels, no reserved suffixes", () => {
    const out = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(`${out.stdout}${out.stderr}`).toBe("");
    expect(out.status).toBe(0);
  });

  it("still rejects what the feed used to give (the linter is really run)", () => {
    const old =
      '# TYPE cnibench_http_latency_milliseconds gauge\n# HELP cnibench_http_latency_milliseconds x\ncnibench_http_latency_milliseconds{sameNode="false"} 0.4\n';
    const out = spawnSync("promtool", ["check", "metrics"], { input: old, encoding: "utf8" });
    expect(out.status).not.toBe(0);
    expect(`${out.stdout}${out.stderr}`).toMatch(/base unit "seconds"/);
    expect(`${out.stdout}${out.stderr}`).toMatch(/snake_case/);
  });
});

if (!promtool) {
  it.skip("promtool is not installed: `apt-get install -y prometheus` provides /usr/bin/promtool", () => {
    execFileSync("promtool");
  });
}
