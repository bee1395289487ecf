/**
 * Metric catalogue v1 (docs/design.md). Each key has one canonical unit so figures from different sources
 * compare without conversion at read time, and one direction so views can say which side wins.
 * Metrics outside the catalogue are accepted as `x.<name>` with a declared unit and direction.
 */
import { unitDimension } from "./units.ts";

export type Better = "higher" | "lower" | "none";

export type MetricDefinition = {
  key: string;
  unit: string;
  better: Better;
  label: string;
  description: string;
  /** Param names sources typically use for this metric; documentation, not a whitelist. */
  params: readonly string[];
  /**
   * What a figure can physically be, in `unit`: bounds outside it are refused on upload (bundle.ts).
   * No catalogue figure is negative; a share cannot exceed 100 %.
   */
  range: PhysicalRange;
  /**
   * The practical margin δ of verdicts, in ± % of the baseline: a change within it is no difference
   * worth a verdict of better or worse (docs/verdicts.md). Null for metrics with better
   * "none", which have no winner. Chosen from what the seed sources call noise:
   * - throughput and request rates 5 % — TKE calls ±4 % inter-cluster throughput variance VPC burst
   *   fluctuation and a −2.2 % L3/L4 RPS dip single-round noise; EKS calls its 4 → 104 Service
   *   differences "within 5 %" measurement error;
   * - latencies 10 % — tail latencies move more between rounds (EKS: −8 % p99 "within measurement
   *   error"; TKE: TCP_RR p99 103–118 µs "within noise");
   * - resources (CPU, memory, BPF map memory) 10 % — sampled over time, with spikes;
   * - UDP loss 10 % (relative) — a rate of a rate, as noisy as latency.
   */
  margin: number | null;
};

/**
 * What a node's cpu.usage figure counts, by its `accounting` param (the catalogue's words below),
 * widest first: every busy mode, user + system, one mode's share. A figure without it is "unstated".
 * The guide, compare's summary and the charts all read it here.
 */
export const cpuAccountings = ["all-modes", "user+system", "mode"] as const;
export type CpuAccounting = (typeof cpuAccountings)[number] | "unstated";

export function cpuAccountingOf(params: Readonly<Record<string, unknown>>): CpuAccounting {
  const stated = cpuAccountings.find((a) => a === params.accounting);
  return stated ?? "unstated";
}

/** The floor is zero for every catalogue metric: throughputs, latencies, sizes, rates and counts. */
export type PhysicalRange = { min: 0; max?: number };

const amount: PhysicalRange = { min: 0 };
const share: PhysicalRange = { min: 0, max: 100 };

export const metricCatalogue: readonly MetricDefinition[] = [
  {
    key: "tcp.throughput",
    unit: "Gbit/s",
    better: "higher",
    label: "TCP throughput",
    description: "Bulk TCP bandwidth between two endpoints (iperf3, netperf TCP_STREAM).",
    params: ["path", "streams", "sameNode", "messageSize", "services"],
    range: amount,
    margin: 5,
  },
  {
    key: "udp.throughput",
    unit: "Gbit/s",
    better: "higher",
    label: "UDP throughput",
    description:
      "UDP bandwidth that arrived (the receiver's rate: what was sent less what was lost); read it together with udp.loss. A sender's rate is x.udp.throughput.sent.",
    params: ["path", "streams"],
    range: amount,
    margin: 5,
  },
  {
    key: "udp.loss",
    unit: "%",
    better: "lower",
    label: "UDP packet loss",
    description: "Share of UDP datagrams lost during a UDP throughput test.",
    params: ["path", "streams"],
    range: share,
    margin: 10,
  },
  {
    key: "http.rps",
    unit: "req/s",
    better: "higher",
    label: "HTTP requests per second",
    description: "Maximum HTTP request rate under saturating load (fortio, wrk).",
    params: ["connection", "concurrency", "target", "services", "policy", "hubble"],
    range: amount,
    margin: 5,
  },
  {
    key: "http.latency",
    unit: "ms",
    better: "lower",
    label: "HTTP latency",
    description: "HTTP request latency at a percentile, usually at a fixed request rate.",
    params: ["percentile", "stat", "qps", "connection", "services"],
    range: amount,
    margin: 10,
  },
  {
    key: "tcp.rr.latency",
    unit: "µs",
    better: "lower",
    label: "TCP request/response latency",
    description: "Round trip on an established connection (netperf TCP_RR).",
    params: ["percentile", "services"],
    range: amount,
    margin: 10,
  },
  {
    key: "tcp.crr.latency",
    unit: "µs",
    better: "lower",
    label: "TCP connect/request/response latency",
    description: "New connection, one round trip and teardown (netperf TCP_CRR).",
    params: ["percentile", "services"],
    range: amount,
    margin: 10,
  },
  {
    key: "tcp.rr.rate",
    unit: "trans/s",
    better: "higher",
    label: "TCP request/response transactions per second",
    description: "Transaction rate of netperf TCP_RR between two pods.",
    params: ["sameNode"],
    range: amount,
    margin: 5,
  },
  {
    key: "pod.rtt",
    unit: "µs",
    better: "lower",
    label: "Pod-to-pod round-trip time",
    description: "Round-trip time between two pods (ping or a prober).",
    params: ["percentile", "stat"],
    range: amount,
    margin: 10,
  },
  {
    key: "dns.latency",
    unit: "ms",
    better: "lower",
    label: "DNS resolution latency",
    description: "Time to resolve a name from a pod through the cluster DNS.",
    params: ["percentile", "services"],
    range: amount,
    margin: 10,
  },
  {
    key: "cpu.usage",
    unit: "millicores",
    better: "lower",
    label: "CPU usage",
    description:
      'CPU used by a datapath component (cilium-agent, kube-proxy, …, or the whole node) per node. A node\'s CPU may say what it counts with `accounting`: "all-modes" is the whole CPU (every busy mode: user, nice, system, irq, softirq, steal), "user+system" leaves out interrupt and softirq time (where encryption and packet processing mostly run), "mode" is one of them, named by `mode`.',
    // role, test, path, protocol, streams: a whole node's CPU during a throughput test (InfraBuilder's bench.sh);
    // accounting, mode: which CPU time it counts (statexec's counters by mode beside bench.sh's user + system).
    params: [
      "component",
      "stat",
      "services",
      "pods",
      "networkPolicies",
      "role",
      "test",
      "path",
      "protocol",
      "streams",
      "accounting",
      "mode",
    ],
    range: amount,
    margin: 10,
  },
  {
    key: "memory.usage",
    unit: "MiB",
    better: "lower",
    label: "Memory usage",
    description: "Memory used by a datapath component (cilium-agent, kube-proxy, …, or the whole node) per node.",
    params: [
      "component",
      "stat",
      "measure",
      "services",
      "pods",
      "networkPolicies",
      "role",
      "test",
      "path",
      "protocol",
      "streams",
    ],
    range: amount,
    margin: 10,
  },
  {
    key: "service.routing.latency",
    unit: "s",
    better: "lower",
    label: "Service routing latency",
    description: "Time to complete a fixed batch of requests through a Service as the pod count grows.",
    params: ["pods"],
    range: amount,
    margin: 10,
  },
  {
    key: "apiserver.list.latency",
    unit: "s",
    better: "lower",
    label: "API server LIST latency",
    description: "Average kube-apiserver response time to LIST requests.",
    params: [],
    range: amount,
    margin: 10,
  },
  {
    key: "pod.startup.latency",
    unit: "s",
    better: "lower",
    label: "Pod startup latency",
    description: "Time from pod creation until it is reported running.",
    params: [],
    range: amount,
    margin: 10,
  },
  {
    key: "iptables.rules",
    unit: "count",
    better: "none",
    label: "iptables rules",
    description: "Number of iptables (NAT) rules kube-proxy has programmed.",
    params: ["services"],
    range: amount,
    margin: null,
  },
  {
    key: "lb.entries",
    unit: "count",
    better: "none",
    label: "Load-balancer map entries",
    description: "Entries in the eBPF Service load-balancing map.",
    params: ["services"],
    range: amount,
    margin: null,
  },
  {
    key: "kube-services.chain",
    unit: "count",
    better: "none",
    label: "KUBE-SERVICES chain length",
    description: "Rules in the iptables KUBE-SERVICES chain, scanned by each new connection.",
    params: ["services"],
    range: amount,
    margin: null,
  },
  {
    key: "conn.setup.latency",
    unit: "µs",
    better: "lower",
    label: "Connection setup latency",
    description: "Time to establish a new TCP connection through a Service.",
    params: ["stat", "services"],
    range: amount,
    margin: 10,
  },
  {
    key: "kubeproxy.sync",
    unit: "ms",
    better: "lower",
    label: "kube-proxy sync time",
    description: "Duration of one kube-proxy rule sync cycle.",
    params: ["services"],
    range: amount,
    margin: 10,
  },
  {
    key: "http.qps.achieved",
    unit: "req/s",
    better: "higher",
    label: "Achieved HTTP QPS",
    description: "Request rate actually reached at a target rate; distinct from maximum RPS.",
    params: ["qps"],
    range: amount,
    margin: 5,
  },
  {
    key: "bpf.map.memory",
    unit: "MiB",
    better: "lower",
    label: "BPF map memory",
    description: "Memory pre-allocated for BPF maps per node, in total or for one map.",
    params: ["map", "maxEntries"],
    range: amount,
    margin: 10,
  },
  {
    key: "bpf.map.count",
    unit: "count",
    better: "none",
    label: "BPF map count",
    description: "Number of BPF maps loaded per node.",
    params: [],
    range: amount,
    margin: null,
  },
];

const byKey = new Map(metricCatalogue.map((metric) => [metric.key, metric]));

export function findMetric(key: string): MetricDefinition | undefined {
  return byKey.get(key);
}

const rankByKey = new Map(metricCatalogue.map((metric, i) => [metric.key, i]));

/** A metric's place in the catalogue, for sorting figures as the catalogue lists them; x. metrics come last. */
export function catalogueRank(key: string): number {
  return rankByKey.get(key) ?? Number.MAX_SAFE_INTEGER;
}

/**
 * What an x. figure is, by its unit's dimension, where no such figure can be negative. Percentages and
 * counts of x. metrics are left free: they may be deltas (an overhead of -0.3 %).
 */
const amountByDimension: Record<string, string> = {
  bitrate: "a throughput",
  time: "a duration",
  memory: "a size",
  cpu: "a CPU usage",
  rate: "a rate",
};

/**
 * The physical range of a result's figures, in `unit` (the catalogue unit, or the x. metric's own), and
 * what to call them in a refusal; undefined when any number is possible.
 */
export function physicalRange(
  metric: string,
  unit: string,
): { what: string; unit: string; range: PhysicalRange } | undefined {
  const definition = findMetric(metric);
  if (definition) return { what: definition.label, unit: definition.unit, range: definition.range };
  const dimension = unitDimension(unit);
  const what = dimension === undefined ? undefined : amountByDimension[dimension];
  return what === undefined ? undefined : { what, unit, range: amount };
}
