import { describe, expect, it } from "vitest";
import {
  applyFilters,
  chosenColumns,
  columnInfo,
  columnKeys,
  defaultColumns,
  type FacetScenario,
  type GroupedFigure,
  groupFigures,
  type HeadlineFigure,
  keyFigures,
  maxColumns,
} from "./index.ts";

type TestScenario = FacetScenario & { id: string };

function scenario(
  id: string,
  over: Partial<Omit<TestScenario, "cni">> & { cni?: Partial<TestScenario["cni"]> },
): TestScenario {
  const { cni, ...rest } = over;
  return {
    id,
    provider: "tke",
    kubernetesVersion: "v1.34.1-tke.5",
    sku: "SA5.LARGE8",
    kernel: "6.6.117-45.11.2",
    cni: {
      name: "cilium",
      mode: "overlay-vxlan",
      kubeProxy: "ebpf",
      ...cni,
    },
    sources: ["Cilium Network Performance Benchmark"],
    ...rest,
  };
}

// The seeds' environments: three TKE clusters, two of the five EKS scenarios, one AKS.
const scenarios = [
  scenario("tke-a", { cni: { name: "tke-vpc-cni", mode: "iptables", kubeProxy: "iptables" } }),
  scenario("tke-b", { cni: { mode: "native-routing" } }),
  scenario("tke-c", {}),
  scenario("eks-a", {
    provider: "eks",
    sku: "m6i.xlarge",
    kernel: "6.12.68",
    kubernetesVersion: "1.34",
    cni: { name: "aws-vpc-cni", mode: "native-routing", kubeProxy: "iptables" },
    sources: ["EKS VPC CNI vs Cilium"],
  }),
  scenario("eks-b", {
    provider: "eks",
    sku: "m6i.xlarge",
    kernel: "6.12.68",
    kubernetesVersion: "1.34",
    cni: { mode: "overlay-vxlan" },
    sources: ["EKS VPC CNI vs Cilium"],
  }),
  scenario("aks-1", {
    provider: "aks",
    sku: "unknown",
    kernel: "unknown",
    cni: { name: "azure-cni-cilium", mode: "overlay" },
    sources: ["AKS host routing", "AKS CiliumEndpointSlice"],
  }),
];

const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
const counts = (facets: ReturnType<typeof applyFilters>["facets"], key: string) =>
  Object.fromEntries(facets.find((f) => f.key === key)?.values.map((v) => [v.value, v.count]) ?? []);

describe("applyFilters", () => {
  it("matches everything without filters and counts each value", () => {
    const r = applyFilters(scenarios, {});
    expect(ids(r.matching)).toEqual(["tke-a", "tke-b", "tke-c", "eks-a", "eks-b", "aks-1"]);
    expect(counts(r.facets, "provider")).toEqual({ tke: 3, eks: 2, aks: 1 });
    expect(counts(r.facets, "cni")).toEqual({ cilium: 3, "tke-vpc-cni": 1, "aws-vpc-cni": 1, "azure-cni-cilium": 1 });
  });

  it("combines values of one facet with OR", () => {
    expect(ids(applyFilters(scenarios, { provider: ["tke", "aks"] }).matching)).toEqual([
      "tke-a",
      "tke-b",
      "tke-c",
      "aks-1",
    ]);
  });

  it("combines facets with AND, and counts a facet without its own filter", () => {
    const r = applyFilters(scenarios, { provider: ["eks"], cni: ["cilium"] });
    expect(ids(r.matching)).toEqual(["eks-b"]);
    // Provider counts apply only the CNI filter: ticking tke as well would add its two Cilium clusters.
    expect(counts(r.facets, "provider")).toEqual({ tke: 2, eks: 1, aks: 0 });
    expect(counts(r.facets, "cni")).toEqual({ cilium: 1, "aws-vpc-cni": 1, "tke-vpc-cni": 0, "azure-cni-cilium": 0 });
  });

  it("matches a scenario on any of its sources", () => {
    expect(ids(applyFilters(scenarios, { source: ["AKS CiliumEndpointSlice"] }).matching)).toEqual(["aks-1"]);
    expect(counts(applyFilters(scenarios, {}).facets, "source")).toEqual({
      "Cilium Network Performance Benchmark": 3,
      "EKS VPC CNI vs Cilium": 2,
      "AKS host routing": 1,
      "AKS CiliumEndpointSlice": 1,
    });
  });

  it("says which filter to drop when nothing matches, most rewarding first", () => {
    const r = applyFilters(scenarios, { provider: ["tke"], sku: ["m6i.xlarge"] });
    expect(r.matching).toEqual([]);
    // Without the SKU filter the three TKE scenarios match; without the provider filter, the two EKS ones.
    expect(r.dropHints.map((h) => [h.key, h.matchesWithout])).toEqual([
      ["sku", 3],
      ["provider", 2],
    ]);
  });

  it("keeps a selected value nobody has any more, so it can be unticked", () => {
    const r = applyFilters(scenarios, { sku: ["gone.large"] });
    expect(r.facets.find((f) => f.key === "sku")?.values.find((v) => v.value === "gone.large")).toMatchObject({
      count: 0,
      selected: true,
    });
  });

  it("labels vocabulary slugs in users' words", () => {
    const provider = applyFilters(scenarios, {}).facets.find((f) => f.key === "provider");
    expect(provider?.values.find((v) => v.value === "tke")?.label).toBe("Tencent Kubernetes Engine");
  });
});

type TestFigure = HeadlineFigure & GroupedFigure;
function figure(
  metric: string,
  value: number,
  params: TestFigure["params"],
  over: Partial<TestFigure> = {},
): TestFigure {
  return {
    bundleId: "b1",
    metric,
    params,
    paramsKey: JSON.stringify(Object.fromEntries(Object.entries(params).sort())),
    value,
    unit: "req/s",
    low: null,
    high: null,
    samples: [],
    qualifier: null,
    better: "higher",
    n: 1,
    campaignBundleIds: ["b1"],
    ...over,
  };
}

describe("keyFigures", () => {
  // TKE Cilium Overlay: short-connection RPS at 0 and 30,000 Services, and under L7 policy.
  const overlay = [
    figure("http.rps", 14193, { connection: "short", concurrency: 64, target: "service", services: 0 }),
    figure("http.rps", 12879, { connection: "short", concurrency: 64, target: "service", services: 30000 }),
    figure("http.rps", 40000, { connection: "keepalive", concurrency: 64, policy: "l7" }),
    figure("http.rps", 52000, { connection: "keepalive", concurrency: 64, target: "service", policy: "none" }),
    figure("http.rps", 61000, { connection: "keepalive", concurrency: 256, target: "service" }),
    figure("tcp.throughput", 9.42, { path: "pod-pod", streams: 1 }, { unit: "Gbit/s" }),
    figure("tcp.throughput", 9.47, { path: "pod-pod", streams: 8 }, { unit: "Gbit/s" }),
    figure("tcp.throughput", 9.6, { path: "pod-pod", streams: 16 }, { unit: "Gbit/s" }),
    figure("tcp.throughput", 9.9, { path: "service", streams: 8 }, { unit: "Gbit/s" }),
    figure("tcp.rr.latency", 120, { percentile: "p99" }, { unit: "µs", better: "lower" }),
    figure("tcp.rr.latency", 118, { percentile: "p99", services: 0 }, { unit: "µs", better: "lower" }),
    figure("tcp.rr.latency", 60, { percentile: "p50" }, { unit: "µs", better: "lower" }),
  ];
  const all = ["tcpPod1", "tcpPod8", "tcpSvc8", "shortRps", "keepaliveRps", "keepaliveRps256", "tcpRrP99"] as const;

  it("takes each column's figure at exactly its params, never the best of several", () => {
    const k = keyFigures(overlay, all);
    expect(k.tcpPod1?.value).toBe(9.42);
    expect(k.tcpPod8?.value).toBe(9.47);
    // 9.6 (16 streams) and 9.9 (via the Service) are higher, and other tests: not in these columns.
    expect(k.tcpSvc8?.value).toBe(9.9);
    expect(k.keepaliveRps256?.value).toBe(61000);
  });

  it("takes the baseline figure, never one measured under many Services or policy", () => {
    const k = keyFigures(overlay, all);
    expect(k.shortRps?.value).toBe(14193);
    expect(k.shortRps?.params).toEqual({ connection: "short", concurrency: 64, target: "service", services: 0 });
    // policy "none" is the baseline; the L7 figure has no target and is another test anyway.
    expect(k.keepaliveRps?.value).toBe(52000);
  });

  it("prefers the figure without baseline extras, then an exact one, whatever their values", () => {
    // 120 µs without `services`, 118 µs with `services: 0`: the same test, and the choice ignores the value.
    expect(keyFigures(overlay, ["tcpRrP99"]).tcpRrP99?.value).toBe(120);
    const approx = figure("tcp.rr.latency", 50, { percentile: "p99" }, { better: "lower", qualifier: "approx" });
    const exactAtZero = figure("tcp.rr.latency", 118, { percentile: "p99", services: 0 }, { better: "lower" });
    expect(keyFigures([approx, exactAtZero], ["tcpRrP99"]).tcpRrP99?.value).toBe(50);
    const exact = figure("tcp.rr.latency", 130, { percentile: "p99" }, { better: "lower" });
    expect(keyFigures([approx, exact], ["tcpRrP99"]).tcpRrP99?.value).toBe(130);
    expect(keyFigures([approx], ["tcpRrP99"]).tcpRrP99).toMatchObject({ value: 50, qualifier: "approx" });
  });

  it("leaves a cell empty rather than fill it from other params", () => {
    const oneStream = [figure("tcp.throughput", 9.42, { path: "pod-pod", streams: 1 }, { unit: "Gbit/s" })];
    expect(keyFigures(oneStream, ["tcpPod1", "tcpPod8", "tcpSvc8"])).toEqual({
      tcpPod1: expect.objectContaining({ value: 9.42 }),
    });
    // An iperf3 run in reverse, or at a param no column names, is another test.
    const reverse = figure("tcp.throughput", 9.5, { path: "pod-pod", streams: 8, reverse: true }, { unit: "Gbit/s" });
    expect(keyFigures([reverse], ["tcpPod8"])).toEqual({});
    // Figures whose source stated no params go in their own column only.
    const unstated = figure("tcp.throughput", 12.41, {}, { unit: "Gbit/s" });
    expect(keyFigures([unstated], ["tcpPod8", "tcpUnstated"])).toEqual({
      tcpUnstated: expect.objectContaining({ value: 12.41 }),
    });
  });

  it("shows the default columns without a choice", () => {
    expect(Object.keys(keyFigures(overlay))).toEqual(["tcpPod1", "tcpPod8", "shortRps", "tcpRrP99"]);
  });
});

describe("chosenColumns", () => {
  it("keeps known keys once, in catalogue order, and falls back to the defaults", () => {
    expect(chosenColumns(["tcpRrP99", "nope", "tcpPod8", "tcpPod8"])).toEqual(["tcpPod8", "tcpRrP99"]);
    expect(chosenColumns([])).toEqual([...defaultColumns]);
    expect(chosenColumns(undefined)).toEqual([...defaultColumns]);
    expect(chosenColumns(["nope"])).toEqual([...defaultColumns]);
  });

  it("takes at most maxColumns", () => {
    expect(chosenColumns([...columnKeys])).toEqual(columnKeys.slice(0, maxColumns));
  });

  it("says each column's unit from the catalogue", () => {
    expect(columnInfo(["tcpPod1", "udpLossPod1", "shortRps"]).map((c) => [c.key, c.unit])).toEqual([
      ["tcpPod1", "Gbit/s"],
      ["udpLossPod1", "%"],
      ["shortRps", "req/s"],
    ]);
  });

  it("has unique keys, and no two columns at the same metric and params", () => {
    expect(new Set(columnKeys).size).toBe(columnKeys.length);
    const tests = columnInfo().map((c) => `${c.metric} ${JSON.stringify(Object.entries(c.params).sort())}`);
    expect(new Set(tests).size).toBe(tests.length);
    expect(defaultColumns.length).toBeGreaterThanOrEqual(4);
    expect(defaultColumns.length).toBeLessThanOrEqual(5);
  });
});

describe("groupFigures", () => {
  it("groups by metric in catalogue order, one row per params sorted numerically, older runs as history", () => {
    const newer = figure("http.rps", 13080, { connection: "short", services: 20000 }, { bundleId: "b2" });
    const older = figure("http.rps", 12990, { connection: "short", services: 20000 }, { bundleId: "b1" });
    const groups = groupFigures([
      figure("tcp.rr.latency", 118, { percentile: "p99" }, { unit: "µs", better: "lower" }),
      newer,
      older,
      figure("http.rps", 13122, { connection: "short", services: 5000 }),
      figure("tcp.throughput", 9.47, { streams: 8 }, { unit: "Gbit/s" }),
    ]);
    expect(groups.map((g) => g.metric)).toEqual(["tcp.throughput", "http.rps", "tcp.rr.latency"]);
    const rps = groups[1];
    expect(rps?.label).toBe("HTTP requests per second");
    expect(rps?.rows.map((r) => r.params.services)).toEqual([5000, 20000]);
    expect(rps?.rows[1]?.current.bundleId).toBe("b2");
    expect(rps?.rows[1]?.history.map((h) => h.value)).toEqual([12990]);
    expect(rps?.rows.map((r) => r.olderRuns)).toEqual([0, 1]);
  });

  it("counts the older runs that were not fetched", () => {
    const [group] = groupFigures([
      { ...figure("http.rps", 13300, { services: 20000 }, { bundleId: "b3" }), runs: 7 },
      { ...figure("http.rps", 13080, { services: 20000 }, { bundleId: "b2" }), runs: 7 },
    ]);
    expect(group?.rows[0]?.history).toHaveLength(1);
    expect(group?.rows[0]?.olderRuns).toBe(6);
  });

  it("puts custom x. metrics after the catalogue's", () => {
    const groups = groupFigures([
      figure("x.keepalive.degradation", -14, {}, { unit: "%", better: "none" }),
      figure("http.rps", 13122, {}),
    ]);
    expect(groups.map((g) => [g.metric, g.label])).toEqual([
      ["http.rps", "HTTP requests per second"],
      ["x.keepalive.degradation", "x.keepalive.degradation"],
    ]);
  });
});
