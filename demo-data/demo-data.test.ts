/**
 * The demo data is the product's first impression: the published figures of the five seed
 * benchmarks (../shared/seeds/*.txt), transcribed into bundles. These tests hold the transcription
 * to the seed texts: every bundle passes the contract without warnings, every table has the number
 * of figures the seed prints, and a sample of figures read by hand from the seeds is found where a
 * chart would look for it (scenario label, metric, params).
 */
import { canonicalJson, type NormalisedMeasurement, type ParamValue, scenarioKey } from "@cnibench/schema";
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { describe, expect, it } from "vitest";

const loaded = loadDemoData().bundles;
const files = loaded.map((l) => l.file);

type Figure = NormalisedMeasurement & { file: string; label: string };
const figures: Figure[] = loaded.flatMap(({ file, bundle }) =>
  bundle.measurements.map((m) => ({ ...m, file, label: bundle.cni.label ?? "" })),
);

/** The one figure a chart would pick for (scenario label, metric, params). */
function figure(label: string, metric: string, params: Record<string, ParamValue>): Figure {
  const key = canonicalJson(params);
  const found = figures.filter((f) => f.label === label && f.metric === metric && f.paramsKey === key);
  if (found.length !== 1) {
    throw new Error(`expected one figure for ${label} / ${metric} / ${key}, found ${found.length}`);
  }
  return found[0]!;
}

/** Sources that publish no date (see demo-data/README.md); every other bundle names one. */
const undatedSources = [/^tke-/, /^aks-cilium-ga-scale-/];

describe("demo bundles", () => {
  it("are the 25 files of README.md, named in lower-case kebab case", () => {
    expect(files).toHaveLength(25);
    for (const file of files) expect(file).toMatch(/^(tke|eks|aks)-[a-z0-9-]+\.json$/);
  });

  it.each(loaded.map((l) => [l.file, l] as const))("%s passes the contract with no warnings", (_file, l) => {
    const { warnings, input } = l;
    expect(warnings).toEqual([]);
    expect(input.schema).toBe("cnibench/bundle@1");
  });

  it.each(loaded.map((l) => [l.file, l] as const))("%s names its source, section and scenario label", (file, l) => {
    const source = l.bundle.source;
    expect(source?.title).toBeTruthy();
    expect(source?.url).toMatch(/^https:\/\//);
    expect(source?.section).toBeTruthy();
    if (undatedSources.some((re) => re.test(file))) expect(source?.publishedAt).toBeUndefined();
    else expect(source?.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(l.bundle.cni.label).toBeTruthy();
  });

  it("gives each scenario one label and each label one scenario, so legends are unambiguous", () => {
    const byLabel = new Map<string, Set<string>>();
    const byScenario = new Map<string, Set<string>>();
    for (const { bundle } of loaded) {
      const label = bundle.cni.label ?? "";
      const key = scenarioKey(bundle);
      byLabel.set(label, (byLabel.get(label) ?? new Set()).add(key));
      byScenario.set(key, (byScenario.get(key) ?? new Set()).add(label));
    }
    for (const keys of byLabel.values()) expect(keys.size).toBe(1);
    for (const labels of byScenario.values()) expect(labels.size).toBe(1);
    expect(byLabel.size).toBe(13);
  });

  it("never gives the same (scenario, metric, params) twice, so no figure hides another", () => {
    const seen = new Map<string, string>();
    for (const { file, bundle } of loaded) {
      for (const m of bundle.measurements) {
        const key = `${scenarioKey(bundle)} ${m.metric} ${m.paramsKey}`;
        expect(seen.get(key), `${file} results[${m.position}] repeats ${seen.get(key)}`).toBeUndefined();
        seen.set(key, `${file} results[${m.position}]`);
      }
    }
  });

  it("keeps the published unit and value beside the canonical one", () => {
    const bpf = figure("Cilium Native", "bpf.map.memory", { map: "total" });
    expect([bpf.publishedValue, bpf.publishedUnit, bpf.unit]).toEqual([289.7, "MB", "MiB"]);
    expect(bpf.value).toBeCloseTo(276.28, 2);
    const ga = figure("Azure CNI powered by Cilium (overlay)", "memory.usage", {
      component: "cilium-agent",
      pods: 60000,
      networkPolicies: 2000,
      services: 1000,
    });
    expect([ga.publishedValue, ga.publishedUnit, ga.value, ga.unit]).toEqual([1, "GiB", 1024, "MiB"]);
    const rtt = figure("Cilium ENI + tuning (E)", "pod.rtt", { stat: "avg" });
    expect([rtt.value, rtt.unit, rtt.aggregate]).toEqual([3135, "µs", "median"]);
  });
});

const isTke = (f: Figure) => f.file.startsWith("tke-");
const isEksMain = (f: Figure) => /^eks-.*-main\.json$/.test(f.file);
const has = (name: string) => (f: Figure) => f.params[name] !== undefined;
const metricIn =
  (...metrics: string[]) =>
  (f: Figure) =>
    metrics.includes(f.metric);

// How many figures each transcribed table holds, counted in the seed text.
const tables: [seed: string, table: string, count: number, select: (f: Figure) => boolean][] = [
  ["tke", "1. Throughput: 5 rows × 3 clusters", 15, (f) => isTke(f) && f.metric === "tcp.throughput"],
  [
    "tke",
    "2. RPS: 4 rows × 3 clusters",
    12,
    (f) => f.file.endsWith("-main.json") && isTke(f) && f.metric === "http.rps",
  ],
  [
    "tke",
    "3. Latency: 4 rows × 3 clusters",
    12,
    (f) => isTke(f) && metricIn("tcp.rr.latency", "tcp.crr.latency", "http.latency")(f),
  ],
  [
    "tke",
    "4. Short conn Service-scale: baseline + 4 steps × 3 clusters",
    15,
    (f) => isTke(f) && f.metric === "http.rps" && f.params.connection === "short" && has("services")(f),
  ],
  [
    "tke",
    "4. KUBE-SERVICES chain / LB entries row: 2 ends × 3 clusters",
    6,
    (f) => isTke(f) && metricIn("kube-services.chain", "lb.entries")(f),
  ],
  ["tke", "5. Hubble ON/OFF × 2 Cilium clusters", 4, (f) => isTke(f) && has("hubble")(f)],
  ["tke", "5. NetworkPolicy none/L3L4/L7 × 2 Cilium clusters", 6, (f) => isTke(f) && has("policy")(f)],
  [
    "tke",
    "6. CPU / Memory avg and max × 3 components",
    12,
    (f) => isTke(f) && metricIn("cpu.usage", "memory.usage")(f) && has("stat")(f),
  ],
  [
    "tke",
    "6. BPF map total, count and agent RSS × 2 Cilium clusters",
    6,
    (f) =>
      isTke(f) &&
      ((f.metric === "bpf.map.memory" && f.params.map === "total") ||
        f.metric === "bpf.map.count" ||
        f.params.measure === "rss"),
  ],
  ["tke", "6. Top BPF map consumers: 5 maps, for both Cilium clusters", 10, (f) => isTke(f) && has("maxEntries")(f)],
  ["tke", "6. text: 540K iptables rules", 1, (f) => isTke(f) && f.metric === "iptables.rules"],
  ["eks", "TCP throughput × 5 scenarios", 5, (f) => isEksMain(f) && f.metric === "tcp.throughput"],
  [
    "eks",
    "UDP throughput (the sender's rate) and loss × 5 scenarios",
    10,
    (f) => isEksMain(f) && metricIn("x.udp.throughput.sent", "udp.loss")(f),
  ],
  ["eks", "Pod-to-pod RTT × 5 scenarios", 5, (f) => isEksMain(f) && f.metric === "pod.rtt"],
  [
    "eks",
    "HTTP detail table: 7 rows × 5 scenarios",
    35,
    (f) => isEksMain(f) && metricIn("http.rps", "http.latency", "http.qps.achieved")(f),
  ],
  ["eks", "DNS p50/p99 × 5 scenarios", 10, (f) => isEksMain(f) && f.metric === "dns.latency"],
  [
    "eks",
    "CNI resource usage: CPU and memory × B–E (A is N/M)",
    8,
    (f) => isEksMain(f) && metricIn("cpu.usage", "memory.usage")(f),
  ],
  [
    "eks",
    "kube-proxy 4/104/1000 columns: 9 rows, 23 cells with a figure",
    23,
    (f) => f.file === "eks-a-vpc-cni-kube-proxy-service-scale.json",
  ],
  ["eks", "Cilium 4 vs 104 Services: 4 rows × 2", 8, (f) => f.file === "eks-e-cilium-eni-tuned-service-scale.json"],
  ["aks-ebpf-host-routing", "Transactions/sec before and after", 2, (f) => f.file.startsWith("aks-ebpf-host-routing-")],
  [
    "aks-cilium-endpointslice",
    "APIServer LIST latency off/on",
    2,
    (f) => f.file.startsWith("aks-cilium-endpointslice-"),
  ],
  ["aks-cilium-ga-scale", "agent CPU and memory × 3 scale tests", 6, (f) => f.file.startsWith("aks-cilium-ga-scale-")],
];

describe("figures per table, as counted in the seeds", () => {
  it.each(tables)("%s: %s holds %i figures", (_seed, _table, count, select) => {
    expect(figures.filter(select)).toHaveLength(count);
  });

  it("covers every figure exactly once (213 in all)", () => {
    const counted = figures.filter((f) => tables.filter(([, , , select]) => select(f)).length > 0);
    expect(counted).toHaveLength(figures.length);
    expect(tables.reduce((sum, [, , count]) => sum + count, 0)).toBe(213);
    expect(figures).toHaveLength(213);
  });
});

const short = { connection: "short", concurrency: 64, target: "service" } as const;
const keepalive = { connection: "keepalive", concurrency: 64 } as const;
const svcKeepalive = { connection: "keepalive", concurrency: 64, target: "service" } as const;
const eksKa = { connection: "keepalive" } as const;
const gaAgent = { component: "cilium-agent" } as const;

type Row = [
  seed: string,
  table: string,
  label: string,
  metric: string,
  params: Record<string, ParamValue>,
  value: number,
  unit: string,
  extra?: Partial<Pick<NormalisedMeasurement, "qualifier" | "low" | "high">>,
];

// Read by hand in the seed texts; seed file names without the .txt.
const T = "tke-iptables-vs-cilium-2026";
const E = "eks-vpc-cni-vs-cilium-2026";
const HR = "aks-ebpf-host-routing-2025";
const CES = "aks-cilium-endpointslice-2025";
const GA = "aks-cilium-ga-scale";
const IPT = "kube-proxy iptables";
const NAT = "Cilium Native";
const OVL = "Cilium Overlay";
const A = "AWS VPC CNI (A)";
const B = "Cilium + kube-proxy (B)";
const C = "Cilium kube-proxy-less (C)";
const D = "Cilium ENI (D)";
const ET = "Cilium ENI + tuning (E)";
const GAL = "Azure CNI powered by Cilium (overlay)";

const rows: Row[] = [
  [
    T,
    "1. Throughput, Node hostNet (8 streams)",
    IPT,
    "tcp.throughput",
    { path: "node-node", streams: 8 },
    10.44,
    "Gbps",
  ],
  [
    T,
    "1. Throughput, Node hostNet (8 streams)",
    OVL,
    "tcp.throughput",
    { path: "node-node", streams: 8 },
    10.82,
    "Gbps",
  ],
  [T, "1. Throughput, Pod-to-Pod (single)", OVL, "tcp.throughput", { path: "pod-pod", streams: 1 }, 10.75, "Gbps"],
  [T, "1. Throughput, Pod-to-Pod (16 streams)", OVL, "tcp.throughput", { path: "pod-pod", streams: 16 }, 10.77, "Gbps"],
  [T, "1. Throughput, Via Service (8 streams)", NAT, "tcp.throughput", { path: "service", streams: 8 }, 10.43, "Gbps"],
  [T, "2. RPS, Pod-to-Pod c64 keepalive", IPT, "http.rps", { ...keepalive, target: "pod" }, 115903, "req/s"],
  [T, "2. RPS, Pod-to-Pod c64 keepalive", OVL, "http.rps", { ...keepalive, target: "pod" }, 93159, "req/s"],
  [T, "2. RPS, Via Svc c64 keepalive", IPT, "http.rps", svcKeepalive, 115434, "req/s"],
  [T, "2. RPS, Via Svc c256 keepalive", NAT, "http.rps", { ...svcKeepalive, concurrency: 256 }, 102827, "req/s"],
  [T, "2. RPS, Via Svc c256 keepalive", IPT, "http.rps", { ...svcKeepalive, concurrency: 256 }, 119434, "req/s"],
  [T, "2. RPS, Via Svc c64 short conn", OVL, "http.rps", short, 14193, "req/s"],
  [T, "3. Latency, TCP_RR p50", IPT, "tcp.rr.latency", { percentile: "p50" }, 84, "µs"],
  [T, "3. Latency, TCP_RR p50", OVL, "tcp.rr.latency", { percentile: "p50" }, 95, "µs"],
  [T, "3. Latency, TCP_RR p99", NAT, "tcp.rr.latency", { percentile: "p99" }, 103, "µs"],
  [T, "3. Latency, TCP_CRR p99", NAT, "tcp.crr.latency", { percentile: "p99" }, 546, "µs"],
  [T, "3. Latency, TCP_CRR p99", IPT, "tcp.crr.latency", { percentile: "p99" }, 487, "µs"],
  [T, "3. Latency, HTTP p99 @1000 QPS", OVL, "http.latency", { percentile: "p99", qps: 1000 }, 0.99, "ms"],
  [T, "4. Short conn, Baseline (small)", IPT, "http.rps", { ...short, services: 0 }, 31365, "req/s"],
  [T, "4. Short conn, 10000", IPT, "http.rps", { ...short, services: 10000 }, 17261, "req/s"],
  [T, "4. Short conn, 30000", IPT, "http.rps", { ...short, services: 30000 }, 9057, "req/s"],
  [T, "4. Short conn, 5000", NAT, "http.rps", { ...short, services: 5000 }, 12774, "req/s"],
  [T, "4. Short conn, 30000", NAT, "http.rps", { ...short, services: 30000 }, 10286, "req/s"],
  [T, "4. Short conn, 20000", OVL, "http.rps", { ...short, services: 20000 }, 13080, "req/s"],
  [T, "4. KUBE-SERVICES chain 5011→30003", IPT, "kube-services.chain", { services: 30000 }, 30003, "rules"],
  [T, "4. LB entries 30018→179946", NAT, "lb.entries", { services: 5000 }, 30018, "entries"],
  [T, "4. LB entries 30042→179988", OVL, "lb.entries", { services: 30000 }, 179988, "entries"],
  [T, "5. Hubble ON", NAT, "http.rps", { ...keepalive, hubble: "on" }, 100007, "req/s"],
  [T, "5. Hubble OFF", OVL, "http.rps", { ...keepalive, hubble: "off" }, 101675, "req/s"],
  [T, "5. L7 CNP applied", NAT, "http.rps", { ...keepalive, policy: "l7" }, 13883, "req/s"],
  [T, "5. L3/L4 CNP applied", OVL, "http.rps", { ...keepalive, policy: "l3l4" }, 99249, "req/s"],
  [T, "5. No policy", OVL, "http.rps", { ...keepalive, policy: "none" }, 101514, "req/s"],
  [T, "6. kube-proxy CPU avg", IPT, "cpu.usage", { component: "kube-proxy", services: 30000, stat: "avg" }, 8.2, "m"],
  [
    T,
    "6. kube-proxy memory avg",
    IPT,
    "memory.usage",
    { component: "kube-proxy", services: 30000, stat: "avg" },
    926,
    "MiB",
  ],
  [
    T,
    "6. Cilium Agent (Native) memory max",
    NAT,
    "memory.usage",
    { component: "cilium-agent", services: 30000, stat: "max" },
    1216,
    "MiB",
  ],
  [
    T,
    "6. Cilium Agent (Overlay) CPU max",
    OVL,
    "cpu.usage",
    { component: "cilium-agent", services: 30000, stat: "max" },
    33,
    "m",
  ],
  [T, "6. Cilium Agent RSS", OVL, "memory.usage", { component: "cilium-agent", measure: "rss" }, 1014, "MB"],
  [T, "6. BPF map count", NAT, "bpf.map.count", {}, 64, "maps"],
  [T, "6. BPF map total", NAT, "bpf.map.memory", { map: "total" }, 289.7, "MB"],
  [
    T,
    "6. Top BPF maps, cilium_lb4_affinity",
    OVL,
    "bpf.map.memory",
    { map: "cilium_lb4_affinity", maxEntries: 1020000 },
    93.8,
    "MB",
  ],
  [
    T,
    "6. Top BPF maps, cilium_ct4_global",
    NAT,
    "bpf.map.memory",
    { map: "cilium_ct4_global", maxEntries: 131072 },
    17.0,
    "MB",
  ],
  [
    T,
    "6. text, 540K iptables rules",
    IPT,
    "iptables.rules",
    { services: 30000 },
    540000,
    "rules",
    { qualifier: "approx" },
  ],
  [E, "TCP 吞吐量", A, "tcp.throughput", {}, 12.41, "Gbps"],
  [E, "UDP 吞吐量", B, "x.udp.throughput.sent", {}, 7.92, "Gbps"],
  [E, "UDP 丢包率", D, "udp.loss", {}, 20.42, "%"],
  [E, "UDP 丢包率", ET, "udp.loss", {}, 0.03, "%"],
  [E, "Pod 到 Pod RTT", C, "pod.rtt", { stat: "avg" }, 5092, "µs"],
  [E, "Pod 到 Pod RTT", ET, "pod.rtt", { stat: "avg" }, 3135, "µs"],
  [E, "HTTP 1,000 实际 QPS", A, "http.qps.achieved", { qps: 1000 }, 999.6, "QPS"],
  [E, "HTTP 1,000 p50", ET, "http.latency", { percentile: "p50", qps: 1000 }, 4.21, "ms"],
  [E, "HTTP 1,000 p99", D, "http.latency", { percentile: "p99", qps: 1000 }, 8.75, "ms"],
  [E, "HTTP 1,000 p99", ET, "http.latency", { percentile: "p99", qps: 1000 }, 9.89, "ms"],
  [E, "HTTP 5,000 实际 QPS", B, "http.qps.achieved", { qps: 5000 }, 4012.0, "QPS"],
  [E, "HTTP 5,000 p99", C, "http.latency", { percentile: "p99", qps: 5000 }, 358.38, "ms"],
  [E, "HTTP 最大 实际 QPS", ET, "http.rps", {}, 4181.9, "QPS"],
  [E, "HTTP 最大 p99", A, "http.latency", { percentile: "p99", qps: "max" }, 28.07, "ms"],
  [E, "DNS p99", C, "dns.latency", { percentile: "p99" }, 2, "ms"],
  [E, "DNS p99", ET, "dns.latency", { percentile: "p99" }, 3, "ms"],
  [E, "CNI Resource Usage, Memory", C, "memory.usage", { component: "cilium-agent" }, 129, "Mi"],
  [
    E,
    "CNI Resource Usage, CPU 5-6m",
    D,
    "cpu.usage",
    { component: "cilium-agent" },
    5.5,
    "m",
    { qualifier: "range", low: 5, high: 6 },
  ],
  [E, "kube-proxy table, iptables NAT 规则数 1000", A, "iptables.rules", { services: 1000 }, 10059, "rules"],
  [E, "kube-proxy table, 同步周期时间 104", A, "kubeproxy.sync", { services: 104 }, 160, "ms", { qualifier: "approx" }],
  [E, "kube-proxy table, 连接建立时间 1000", A, "conn.setup.latency", { stat: "avg", services: 1000 }, 190, "us"],
  [
    E,
    "kube-proxy table, HTTP p99 @QPS=1000, 1000",
    A,
    "http.latency",
    { ...eksKa, percentile: "p99", qps: 1000, services: 1000 },
    2.96,
    "ms",
  ],
  [
    E,
    "kube-proxy table, HTTP avg @QPS=1000, 104",
    A,
    "http.latency",
    { ...eksKa, stat: "avg", qps: 1000, services: 104 },
    2.675,
    "ms",
  ],
  [E, "kube-proxy table, 最大 QPS（keepalive）104", A, "http.rps", { ...eksKa, services: 104 }, 4231, "QPS"],
  [
    E,
    "kube-proxy table, HTTP p99（Connection:close）4",
    A,
    "http.latency",
    { connection: "short", percentile: "p99", services: 4 },
    8.11,
    "ms",
  ],
  [
    E,
    "kube-proxy table, HTTP avg（Connection:close）1000",
    A,
    "http.latency",
    { connection: "short", stat: "avg", services: 1000 },
    4.621,
    "ms",
  ],
  [
    E,
    "Cilium 4 vs 104, HTTP p99 @QPS=1000, 104",
    ET,
    "http.latency",
    { ...eksKa, percentile: "p99", qps: 1000, services: 104 },
    3.64,
    "ms",
  ],
  [E, "Cilium 4 vs 104, 最大实际 QPS, 4", ET, "http.rps", { ...eksKa, services: 4 }, 4405, "QPS"],
  [E, "Cilium 4 vs 104, TCP 吞吐量, 4", ET, "tcp.throughput", { services: 4 }, 12.3, "Gbps"],
  [
    HR,
    "Results Summary, Transactions/sec (from)",
    "Azure CNI powered by Cilium, eBPF host routing off",
    "tcp.rr.rate",
    {},
    16003.7,
    "Transactions/sec",
  ],
  [
    HR,
    "Results Summary, Transactions/sec (to)",
    "Azure CNI powered by Cilium, eBPF host routing on",
    "tcp.rr.rate",
    {},
    20396.9,
    "Transactions/sec",
  ],
  [
    CES,
    "Average APIServer Responsiveness, ~1.5 seconds",
    "Azure CNI powered by Cilium, CiliumEndpointSlice off",
    "apiserver.list.latency",
    {},
    1.5,
    "seconds",
    { qualifier: "approx" },
  ],
  [
    CES,
    "Average APIServer Responsiveness, ~0.25 seconds",
    "Azure CNI powered by Cilium, CiliumEndpointSlice on",
    "apiserver.list.latency",
    {},
    0.25,
    "seconds",
    { qualifier: "approx" },
  ],
  [
    GA,
    "100k pods, no policy: CPU not exceeding 100 milli cores",
    GAL,
    "cpu.usage",
    { ...gaAgent, pods: 100000, networkPolicies: 0, services: 0 },
    100,
    "milli cores",
    { qualifier: "at-most" },
  ],
  [
    GA,
    "100k pods, no policy: memory around 500 MiB",
    GAL,
    "memory.usage",
    { ...gaAgent, pods: 100000, networkPolicies: 0, services: 0 },
    500,
    "MiB",
    { qualifier: "approx" },
  ],
  [
    GA,
    "100k pods, 2k policies: CPU below 150 milli cores",
    GAL,
    "cpu.usage",
    { ...gaAgent, pods: 100000, networkPolicies: 2000, services: 0 },
    150,
    "milli cores",
    { qualifier: "at-most" },
  ],
  [
    GA,
    "1k services, 60k pods, 2k policies: CPU around 200 milli cores",
    GAL,
    "cpu.usage",
    { ...gaAgent, pods: 60000, networkPolicies: 2000, services: 1000 },
    200,
    "milli cores",
    { qualifier: "approx" },
  ],
  [
    GA,
    "1k services, 60k pods, 2k policies: memory around 1 GiB",
    GAL,
    "memory.usage",
    { ...gaAgent, pods: 60000, networkPolicies: 2000, services: 1000 },
    1,
    "GiB",
    { qualifier: "approx" },
  ],
];

describe("figures read by hand in the seeds", () => {
  it("sample at least 40 figures from all five seeds", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(new Set(rows.map(([seed]) => seed)).size).toBe(5);
  });

  it.each(rows)("%s, %s: %s %s", (_seed, _table, label, metric, params, value, unit, extra = {}) => {
    const f = figure(label, metric, params);
    expect(f.publishedValue).toBe(value);
    expect(f.publishedUnit).toBe(unit);
    expect({ qualifier: f.qualifier, low: f.low, high: f.high }).toEqual({
      qualifier: null,
      low: null,
      high: null,
      ...extra,
    });
  });
});

// The seeds print percentages derived from their own figures. Recomputing them from the bundles
// catches a mistyped figure that a second reading would miss; where a seed's percentage does not
// follow from its figures, a test pins the contradiction that README.md reports.
type Point = [label: string, params: Record<string, ParamValue>];
type Change = [seed: string, metric: string, from: Point, to: Point, published: string];
const change = (published: string, metric: string, from: Point, to: Point, seed: string): Change => [
  seed,
  metric,
  from,
  to,
  published,
];
const shortAt = (label: string, services: number): Point => [label, { ...short, services }];
const ka = (label: string, extra: Record<string, ParamValue>): Point => [label, { ...keepalive, ...extra }];
const changes: Change[] = [
  change("-29.1", "http.rps", shortAt(IPT, 0), shortAt(IPT, 5000), T),
  change("-45.0", "http.rps", shortAt(IPT, 0), shortAt(IPT, 10000), T),
  change("-58.8", "http.rps", shortAt(IPT, 0), shortAt(IPT, 20000), T),
  change("-71.1", "http.rps", shortAt(IPT, 0), shortAt(IPT, 30000), T),
  change("-7.6", "http.rps", shortAt(NAT, 0), shortAt(NAT, 5000), T),
  change("-14.0", "http.rps", shortAt(NAT, 0), shortAt(NAT, 10000), T),
  change("-14.5", "http.rps", shortAt(NAT, 0), shortAt(NAT, 20000), T),
  change("-25.6", "http.rps", shortAt(NAT, 0), shortAt(NAT, 30000), T),
  change("-7.5", "http.rps", shortAt(OVL, 0), shortAt(OVL, 5000), T),
  change("-10.2", "http.rps", shortAt(OVL, 0), shortAt(OVL, 10000), T),
  change("-7.8", "http.rps", shortAt(OVL, 0), shortAt(OVL, 20000), T),
  change("-9.3", "http.rps", shortAt(OVL, 0), shortAt(OVL, 30000), T),
  change("-0.3", "http.rps", ka(NAT, { hubble: "off" }), ka(NAT, { hubble: "on" }), T),
  change("-0.2", "http.rps", ka(OVL, { hubble: "off" }), ka(OVL, { hubble: "on" }), T),
  change("-0.0", "http.rps", ka(NAT, { policy: "none" }), ka(NAT, { policy: "l3l4" }), T),
  change("-2.2", "http.rps", ka(OVL, { policy: "none" }), ka(OVL, { policy: "l3l4" }), T),
  change("-86.1", "http.rps", ka(NAT, { policy: "none" }), ka(NAT, { policy: "l7" }), T),
  change("-88.7", "http.rps", ka(OVL, { policy: "none" }), ka(OVL, { policy: "l7" }), T),
  change("-36", "pod.rtt", [A, { stat: "avg" }], [ET, { stat: "avg" }], E),
  change("-9", "pod.rtt", [A, { stat: "avg" }], [D, { stat: "avg" }], E),
  change("-30", "pod.rtt", [D, { stat: "avg" }], [ET, { stat: "avg" }], E),
  change("-12.5", "pod.rtt", [C, { stat: "avg" }], [D, { stat: "avg" }], E),
  change("+3", "pod.rtt", [B, { stat: "avg" }], [C, { stat: "avg" }], E),
  change("+0.6", "tcp.throughput", [C, {}], [D, {}], E),
  change("-10", "http.latency", [B, { percentile: "p99", qps: 1000 }], [C, { percentile: "p99", qps: 1000 }], E),
  change("-1.8", "http.latency", [C, { percentile: "p99", qps: 1000 }], [D, { percentile: "p99", qps: 1000 }], E),
  change("+13", "http.latency", [D, { percentile: "p99", qps: 1000 }], [ET, { percentile: "p99", qps: 1000 }], E),
  change("+3.9", "http.rps", [D, {}], [ET, {}], E),
  change("+31", "kubeproxy.sync", [A, { services: 4 }], [A, { services: 1000 }], E),
  change("+16", "conn.setup.latency", [A, { stat: "avg", services: 4 }], [A, { stat: "avg", services: 1000 }], E),
  change(
    "+5",
    "http.latency",
    [A, { connection: "short", percentile: "p99", services: 4 }],
    [A, { connection: "short", percentile: "p99", services: 1000 }],
    E,
  ),
  change(
    "+5",
    "http.latency",
    [A, { connection: "short", stat: "avg", services: 4 }],
    [A, { connection: "short", stat: "avg", services: 1000 }],
    E,
  ),
  change(
    "-49",
    "http.latency",
    [A, { ...eksKa, percentile: "p99", qps: 1000, services: 4 }],
    [A, { ...eksKa, percentile: "p99", qps: 1000, services: 1000 }],
    E,
  ),
  change(
    "-45",
    "http.latency",
    [A, { ...eksKa, stat: "avg", qps: 1000, services: 4 }],
    [A, { ...eksKa, stat: "avg", qps: 1000, services: 1000 }],
    E,
  ),
  change(
    "-8",
    "http.latency",
    [ET, { ...eksKa, percentile: "p99", qps: 1000, services: 4 }],
    [ET, { ...eksKa, percentile: "p99", qps: 1000, services: 104 }],
    E,
  ),
  change("-4.2", "http.rps", [ET, { ...eksKa, services: 4 }], [ET, { ...eksKa, services: 104 }], E),
  change(
    "+27",
    "tcp.rr.rate",
    ["Azure CNI powered by Cilium, eBPF host routing off", {}],
    ["Azure CNI powered by Cilium, eBPF host routing on", {}],
    HR,
  ),
];

describe("percentages the seeds derive from their figures", () => {
  it.each(changes)("%s: %s %j → %j is %s%", (_seed, metric, [fromLabel, from], [toLabel, to], published) => {
    const base = figure(fromLabel, metric, from).publishedValue;
    const other = figure(toLabel, metric, to).publishedValue;
    const decimals = published.split(".")[1]?.length ?? 0;
    expect(Number((((other - base) / base) * 100).toFixed(decimals))).toBe(Number(published));
  });

  it("EKS: NAT rules grow '101×' from 4 to 1,000 Services", () => {
    const ratio =
      figure(A, "iptables.rules", { services: 1000 }).publishedValue /
      figure(A, "iptables.rules", { services: 4 }).publishedValue;
    expect(Math.floor(ratio)).toBe(101);
  });

  it("EKS contradiction: the headline's 8.75 ms 'E' p99 is scenario D's figure in the detail table", () => {
    const p99 = { percentile: "p99", qps: 1000 };
    expect(figure(ET, "http.latency", p99).publishedValue).toBe(9.89);
    expect(figure(D, "http.latency", p99).publishedValue).toBe(8.75);
  });

  it("AKS contradiction: ~1.5 s → ~0.25 s is an 83% decrease, not the '50%' the post states", () => {
    const off = figure("Azure CNI powered by Cilium, CiliumEndpointSlice off", "apiserver.list.latency", {});
    const on = figure("Azure CNI powered by Cilium, CiliumEndpointSlice on", "apiserver.list.latency", {});
    expect(Number(((1 - on.publishedValue / off.publishedValue) * 100).toFixed(0))).toBe(83);
  });
});
