import { eksCiliumTuned, eksVpcCni, tkeCiliumOverlay, tkeIptables } from "@cnibench/test-support/seed-bundles";
import { describe, expect, it } from "vitest";
import {
  clusterKey,
  cniKey,
  formatPath,
  type NormalisedBundle,
  type NormalisedMeasurement,
  parseBundle,
  scenarioIdentity,
  scenarioKey,
} from "./normalise.ts";

function accept(input: unknown) {
  const result = parseBundle(input);
  if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.issues)}`);
  return result;
}

function normalised(input: unknown): NormalisedBundle {
  return accept(input).bundle;
}

function measurement(b: NormalisedBundle, metric: string, params: Record<string, unknown> = {}): NormalisedMeasurement {
  const found = b.measurements.find(
    (m) => m.metric === metric && Object.entries(params).every(([k, v]) => m.params[k] === v),
  );
  if (!found) throw new Error(`no ${metric} ${JSON.stringify(params)}`);
  return found;
}

describe("parseBundle: identity", () => {
  it("resolves vocabulary aliases and fills optional identity with unknown (TKE overlay)", () => {
    const { bundle, warnings } = accept(tkeCiliumOverlay());
    expect(warnings).toEqual([]);
    expect(bundle.cluster).toEqual({
      name: "Cluster C",
      provider: "tke",
      region: "unknown",
      kubernetesVersion: "v1.34.1-tke.5",
      nodeCount: 3,
    });
    expect(bundle.node).toEqual({
      sku: "SA5.LARGE8",
      vcpus: 4,
      memoryGiB: 8,
      nicGbps: null,
      os: "TencentOS Server 4",
      kernel: "6.6.117-45.11.2",
    });
    expect(bundle.cni).toEqual({
      name: "cilium",
      version: "1.19.4",
      mode: "overlay-vxlan",
      kubeProxy: "ebpf",
      label: "Cilium Overlay",
      settings: { "bpf-lb-map-max": 1020000 },
    });
    expect(bundle.runAt).toBeUndefined();
  });

  it("resolves VPC-CNI to the provider's plugin", () => {
    expect(normalised(tkeIptables()).cni.name).toBe("tke-vpc-cni");
    expect(normalised(eksVpcCni()).cni.name).toBe("aws-vpc-cni");
    expect(normalised(eksVpcCni()).cni.mode).toBe("eni");
    expect(normalised(eksCiliumTuned()).cni.kubeProxy).toBe("ebpf");
  });

  it("defaults absent optional fields", () => {
    const b = normalised({
      schema: "cnibench/bundle@1",
      cluster: { name: "unknown", provider: "unknown" },
      node: { sku: "unknown", kernel: "unknown" },
      cni: { name: "unknown", mode: "unknown" },
      results: [{ metric: "http.rps", value: 1, unit: "req/s" }],
    });
    expect(b.cluster).toEqual({
      name: "unknown",
      provider: "unknown",
      region: "unknown",
      kubernetesVersion: "unknown",
      nodeCount: null,
    });
    expect(b.node).toEqual({
      sku: "unknown",
      vcpus: null,
      memoryGiB: null,
      nicGbps: null,
      os: "unknown",
      kernel: "unknown",
    });
    expect(b.cni).toEqual({
      name: "unknown",
      version: "unknown",
      mode: "unknown",
      kubeProxy: "unknown",
      label: null,
      settings: {},
    });
    expect(b.extra).toEqual({});
    expect(b.source).toBeUndefined();
  });

  it("accepts unknown slugs with a warning, stored slugified", () => {
    const input = tkeCiliumOverlay();
    input.cni.name = "Foo CNI";
    input.cluster.provider = "Hetzner";
    const { bundle, warnings } = accept(input);
    expect(bundle.cni.name).toBe("foo-cni");
    expect(bundle.cluster.provider).toBe("hetzner");
    expect(warnings).toEqual([
      { path: "cluster.provider", message: 'cluster.provider "Hetzner" is not in the vocabulary; stored as "hetzner"' },
      { path: "cni.name", message: 'cni.name "Foo CNI" is not in the vocabulary; stored as "foo-cni"' },
    ]);
  });

  it("warns that VPC-CNI is ambiguous when the provider does not decide it", () => {
    const input = tkeIptables();
    input.cluster.provider = "unknown";
    const { bundle, warnings } = accept(input);
    expect(bundle.cni.name).toBe("vpc-cni");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.path).toBe("cni.name");
    expect(warnings[0]?.message).toContain("tke-vpc-cni on tke");
  });

  it("keeps unknown top-level fields in extra and parses runAt", () => {
    const input = { ...eksVpcCni(), workspace: "team-a", labels: { ticket: "NET-42" } };
    const b = normalised(input);
    expect(b.extra).toEqual({ workspace: "team-a", labels: { ticket: "NET-42" } });
    expect(b.runAt?.toISOString()).toBe("2026-02-09T00:00:00.000Z");
    expect(b.source?.publishedAt).toBe("2026-02-14");
    expect(b.collector?.name).toBe("cni-benchmark");
  });
});

describe("parseBundle: measurements in catalogue units", () => {
  it("converts to the catalogue unit and keeps the published figure (TKE overlay)", () => {
    const b = normalised(tkeCiliumOverlay());
    expect(measurement(b, "bpf.map.memory")).toMatchObject({
      value: 276.279449463,
      unit: "MiB",
      publishedValue: 289.7,
      publishedUnit: "MB",
    });
    expect(measurement(b, "tcp.throughput")).toMatchObject({ value: 10.77, unit: "Gbit/s", publishedUnit: "Gbps" });
    expect(measurement(b, "http.latency")).toMatchObject({ value: 0.99, unit: "ms" });
    expect(measurement(b, "cpu.usage")).toMatchObject({ value: 25.4, unit: "millicores", publishedUnit: "m" });
    expect(measurement(b, "lb.entries")).toMatchObject({ value: 179988, unit: "count", better: "none" });
    expect(measurement(b, "tcp.rr.latency")).toMatchObject({ value: 118, unit: "µs", better: "lower" });
  });

  it("converts EKS units (us, QPS, Mi) and ranges", () => {
    const a = normalised(eksVpcCni());
    expect(measurement(a, "pod.rtt")).toMatchObject({
      value: 4894,
      unit: "µs",
      publishedUnit: "us",
      aggregate: "median",
    });
    expect(measurement(a, "http.qps.achieved")).toMatchObject({ value: 999.6, unit: "req/s", publishedUnit: "QPS" });
    const e = normalised(eksCiliumTuned());
    expect(measurement(e, "memory.usage")).toMatchObject({ value: 82, unit: "MiB", publishedUnit: "Mi" });
    expect(measurement(e, "cpu.usage")).toMatchObject({ value: 4.5, low: 4, high: 5, qualifier: "range" });
  });

  it("converts value, low, high and samples together", () => {
    const input = tkeIptables();
    input.results = [
      {
        metric: "tcp.throughput",
        value: 10430,
        unit: "Mbps",
        params: { path: "pod-pod", streams: 8 },
        samples: [10430, 10440],
        aggregate: "median",
      },
      // "~1.5 s" published as an approximate figure in milliseconds
      { metric: "apiserver.list.latency", value: 1500, unit: "ms", qualifier: "approx" },
      { metric: "tcp.crr.latency", value: 0.487, unit: "ms", qualifier: "range", low: 0.4, high: 0.6 },
    ];
    const b = normalised(input);
    expect(b.measurements[0]).toEqual({
      position: 0,
      metric: "tcp.throughput",
      params: { path: "pod-pod", streams: 8 },
      paramsKey: '{"path":"pod-pod","streams":8}',
      value: 10.43,
      unit: "Gbit/s",
      low: null,
      high: null,
      samples: [10.43, 10.44],
      publishedValue: 10430,
      publishedUnit: "Mbps",
      qualifier: null,
      aggregate: "median",
      better: "higher",
    });
    expect(b.measurements[1]).toMatchObject({ value: 1.5, unit: "s", qualifier: "approx", paramsKey: "{}" });
    expect(b.measurements[2]).toMatchObject({ value: 487, low: 400, high: 600, unit: "µs" });
  });

  it("stores x. metrics in one unit per dimension, keeping the published figure and the direction", () => {
    const input = tkeCiliumOverlay();
    input.results = [
      { metric: "x.bpf.agent.rss", value: 1014, unit: "MB", better: "lower", params: { component: "cilium-agent" } },
      // iperf3's end.sum_sent.bits_per_second of InfraBuilder's flannel dts run 1 (all.results DTS_BW)
      { metric: "x.tcp.throughput.sent", value: 19587401486.345478, unit: "bit/s", better: "higher", samples: [1e9] },
      { metric: "x.udp.jitter", value: 0.0124, unit: "ms", better: "lower" },
      { metric: "x.tcp.retransmits", value: 336925, unit: "count", better: "lower" },
      { metric: "x.pkt.rate", value: 1200, unit: "pps", better: "higher" },
    ];
    const [rss, sent, jitter, retransmits, packets] = normalised(input).measurements;
    // 1014 MB = 1,014,000,000 B; 967 MiB = 1,013,972,992 B, and 27,008 / 1,048,576 = 0.0257568… (by hand)
    expect(rss).toMatchObject({ value: 967.025756836, unit: "MiB", publishedValue: 1014, publishedUnit: "MB" });
    expect(rss?.better).toBe("lower");
    // bit/s ÷ 1e9, to 12 significant digits
    expect(sent).toMatchObject({ value: 19.5874014863, unit: "Gbit/s", samples: [1], publishedUnit: "bit/s" });
    expect(jitter).toMatchObject({ value: 0.0124, unit: "ms" });
    expect(retransmits).toMatchObject({ value: 336925, unit: "count" });
    expect(packets).toMatchObject({ value: 1200, unit: "pps" }); // rates keep their word
  });

  it("gives equal params equal keys whatever their order", () => {
    const input = tkeCiliumOverlay();
    input.results = [
      { metric: "http.rps", value: 1, unit: "req/s", params: { services: 20000, connection: "short" } },
      { metric: "http.rps", value: 2, unit: "req/s", params: { connection: "short", services: 20000 } },
    ];
    const { bundle, warnings } = accept(input);
    expect(bundle.measurements[0]?.paramsKey).toBe('{"connection":"short","services":20000}');
    expect(bundle.measurements[1]?.paramsKey).toBe(bundle.measurements[0]?.paramsKey);
    expect(warnings.map((w) => w.path)).toEqual(["results[1]"]);
  });
});

describe("scenario identity", () => {
  it("ignores the cluster name and per-node capacity", () => {
    const a = normalised(tkeCiliumOverlay());
    const renamed = tkeCiliumOverlay();
    renamed.cluster.name = "tke-c";
    renamed.node.memoryGiB = 16;
    const b = normalised(renamed);
    expect(scenarioKey(b)).toBe(scenarioKey(a));
    expect(scenarioIdentity(b)).toEqual(scenarioIdentity(a));
    expect(scenarioIdentity(a)).not.toHaveProperty("cluster.name");
  });

  it("ignores the label, a display name: a new label renames the scenario, it does not fork it", () => {
    const relabelled = tkeCiliumOverlay();
    relabelled.cni.label = "Cilium VXLAN";
    const unlabelled = tkeCiliumOverlay();
    delete (unlabelled.cni as { label?: string }).label;
    const a = normalised(tkeCiliumOverlay());
    for (const other of [normalised(relabelled), normalised(unlabelled)]) {
      expect(scenarioKey(other)).toBe(scenarioKey(a));
      expect(cniKey(other)).toBe(cniKey(a));
    }
    expect(scenarioIdentity(a)).not.toHaveProperty("cni.label");
    // The label is still read and kept for display.
    expect(normalised(relabelled).cni.label).toBe("Cilium VXLAN");
  });

  it("ignores how the facets were spelled", () => {
    const spelled = tkeCiliumOverlay();
    spelled.cluster.provider = "Tencent Cloud";
    spelled.cni.mode = "overlay-vxlan";
    spelled.cni.kubeProxy = "kube-proxy replacement";
    expect(scenarioKey(normalised(spelled))).toBe(scenarioKey(normalised(tkeCiliumOverlay())));
  });

  it("splits scenarios that differ in one cni setting (eBPF host routing on/off)", () => {
    const on = eksCiliumTuned();
    const off = eksCiliumTuned();
    off.cni.settings["bpf.hostLegacyRouting"] = true;
    const a = normalised(on);
    const b = normalised(off);
    expect(scenarioKey(a)).not.toBe(scenarioKey(b));
    expect(cniKey(a)).not.toBe(cniKey(b));
    expect(clusterKey(a)).toBe(clusterKey(b));
  });

  it("splits scenarios on kernel, SKU, node count or Kubernetes version", () => {
    const base = scenarioKey(normalised(tkeCiliumOverlay()));
    const kernel = tkeCiliumOverlay();
    kernel.node.kernel = "5.4.241-1-tlinux4";
    const sku = tkeCiliumOverlay();
    sku.node.sku = "S5.LARGE8";
    const nodes = tkeCiliumOverlay();
    nodes.cluster.nodeCount = 4;
    const version = tkeCiliumOverlay();
    version.cluster.kubernetesVersion = "v1.32.2-tke.1";
    const keys = [kernel, sku, nodes, version].map((b) => scenarioKey(normalised(b)));
    expect(new Set([base, ...keys]).size).toBe(5);
  });

  it("lines up TKE clusters A and C as one cluster setup with two datapaths", () => {
    const a = normalised(tkeIptables());
    const c = normalised(tkeCiliumOverlay());
    expect(clusterKey(a)).toBe(clusterKey(c));
    expect(cniKey(a)).not.toBe(cniKey(c));
    expect(scenarioKey(a)).not.toBe(scenarioKey(c));
    expect(scenarioKey(a)).toMatch(/^[0-9a-f]{64}$/);
    const eks = normalised(eksVpcCni());
    expect(clusterKey(eks)).not.toBe(clusterKey(a));
  });

  it("keys the cluster part alone: a different node SKU keeps the cluster key", () => {
    const other = tkeCiliumOverlay();
    other.node.sku = "S5.LARGE8";
    expect(clusterKey(normalised(other))).toBe(clusterKey(normalised(tkeCiliumOverlay())));
  });
});

describe("formatPath", () => {
  it.each([
    [[], ""],
    [["cluster", "provider"], "cluster.provider"],
    [["results", 3, "unit"], "results[3].unit"],
    [["cni", "settings", "bpf.hostLegacyRouting"], 'cni.settings["bpf.hostLegacyRouting"]'],
  ] as const)("%j → %j", (path, expected) => {
    expect(formatPath(path)).toBe(expected);
  });
});
