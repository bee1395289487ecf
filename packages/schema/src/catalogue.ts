/**
 * Metric catalogue v1 (docs/design.md). Each key has one canonical unit so figures from different sources
 * compare without conversion at read time, and one direction so views can say which side wins.
 * Metrics outside the catalogue are accepted as `x.<name>` with a declared unit and direction.
 */

export type Better = "higher" | "lower" | "none";

export type MetricDefinition = {
  key: string;
  unit: string;
  better: Better;
  label: string;
  description: string;
  /** Param names sources typically use for this metric; documentation, not a whitelist. */
  params: readonly string[];
};

export const metricCatalogue: readonly MetricDefinition[] = [
  {
    key: "tcp.throughput",
    unit: "Gbit/s",
    better: "higher",
    label: "TCP throughput",
    description: "Bulk TCP bandwidth between two endpoints (iperf3, netperf TCP_STREAM).",
    params: ["path", "streams", "sameNode", "messageSize", "services"],
  },
  {
    key: "udp.throughput",
    unit: "Gbit/s",
    better: "higher",
    label: "UDP throughput",
    description: "UDP bandwidth achieved by the sender; read it together with udp.loss.",
    params: ["path", "streams"],
  },
  {
    key: "udp.loss",
    unit: "%",
    better: "lower",
    label: "UDP packet loss",
    description: "Share of UDP datagrams lost during a UDP throughput test.",
    params: ["path", "streams"],
  },
  {
    key: "http.rps",
    unit: "req/s",
    better: "higher",
    label: "HTTP requests per second",
    description: "Maximum HTTP request rate under saturating load (fortio, wrk).",
    params: ["connection", "concurrency", "target", "services", "policy", "hubble"],
  },
  {
    key: "http.latency",
    unit: "ms",
    better: "lower",
    label: "HTTP latency",
    description: "HTTP request latency at a percentile, usually at a fixed request rate.",
    params: ["percentile", "stat", "qps", "connection", "services"],
  },
  {
    key: "tcp.rr.latency",
    unit: "µs",
    better: "lower",
    label: "TCP request/response latency",
    description: "Round trip on an established connection (netperf TCP_RR).",
    params: ["percentile", "services"],
  },
  {
    key: "tcp.crr.latency",
    unit: "µs",
    better: "lower",
    label: "TCP connect/request/response latency",
    description: "New connection, one round trip and teardown (netperf TCP_CRR).",
    params: ["percentile", "services"],
  },
  {
    key: "tcp.rr.rate",
    unit: "trans/s",
    better: "higher",
    label: "TCP request/response transactions per second",
    description: "Transaction rate of netperf TCP_RR between two pods.",
    params: ["sameNode"],
  },
  {
    key: "pod.rtt",
    unit: "µs",
    better: "lower",
    label: "Pod-to-pod round-trip time",
    description: "Round-trip time between two pods (ping or a prober).",
    params: ["percentile", "stat"],
  },
  {
    key: "dns.latency",
    unit: "ms",
    better: "lower",
    label: "DNS resolution latency",
    description: "Time to resolve a name from a pod through the cluster DNS.",
    params: ["percentile", "services"],
  },
  {
    key: "cpu.usage",
    unit: "millicores",
    better: "lower",
    label: "CPU usage",
    description: "CPU used by a datapath component (cilium-agent, kube-proxy, …) per node.",
    params: ["component", "stat", "services", "pods", "networkPolicies"],
  },
  {
    key: "memory.usage",
    unit: "MiB",
    better: "lower",
    label: "Memory usage",
    description: "Memory used by a datapath component (cilium-agent, kube-proxy, …) per node.",
    params: ["component", "stat", "measure", "services", "pods", "networkPolicies"],
  },
  {
    key: "service.routing.latency",
    unit: "s",
    better: "lower",
    label: "Service routing latency",
    description: "Time to complete a fixed batch of requests through a Service as the pod count grows.",
    params: ["pods"],
  },
  {
    key: "apiserver.list.latency",
    unit: "s",
    better: "lower",
    label: "API server LIST latency",
    description: "Average kube-apiserver response time to LIST requests.",
    params: [],
  },
  {
    key: "pod.startup.latency",
    unit: "s",
    better: "lower",
    label: "Pod startup latency",
    description: "Time from pod creation until it is reported running.",
    params: [],
  },
  {
    key: "iptables.rules",
    unit: "count",
    better: "none",
    label: "iptables rules",
    description: "Number of iptables (NAT) rules kube-proxy has programmed.",
    params: ["services"],
  },
  {
    key: "lb.entries",
    unit: "count",
    better: "none",
    label: "Load-balancer map entries",
    description: "Entries in the eBPF Service load-balancing map.",
    params: ["services"],
  },
  {
    key: "kube-services.chain",
    unit: "count",
    better: "none",
    label: "KUBE-SERVICES chain length",
    description: "Rules in the iptables KUBE-SERVICES chain, scanned by each new connection.",
    params: ["services"],
  },
  {
    key: "conn.setup.latency",
    unit: "µs",
    better: "lower",
    label: "Connection setup latency",
    description: "Time to establish a new TCP connection through a Service.",
    params: ["stat", "services"],
  },
  {
    key: "kubeproxy.sync",
    unit: "ms",
    better: "lower",
    label: "kube-proxy sync time",
    description: "Duration of one kube-proxy rule sync cycle.",
    params: ["services"],
  },
  {
    key: "http.qps.achieved",
    unit: "req/s",
    better: "higher",
    label: "Achieved HTTP QPS",
    description: "Request rate actually reached at a target rate; distinct from maximum RPS.",
    params: ["qps"],
  },
  {
    key: "bpf.map.memory",
    unit: "MiB",
    better: "lower",
    label: "BPF map memory",
    description: "Memory pre-allocated for BPF maps per node, in total or for one map.",
    params: ["map", "maxEntries"],
  },
  {
    key: "bpf.map.count",
    unit: "count",
    better: "none",
    label: "BPF map count",
    description: "Number of BPF maps loaded per node.",
    params: [],
  },
];

const byKey = new Map(metricCatalogue.map((metric) => [metric.key, metric]));

export function findMetric(key: string): MetricDefinition | undefined {
  return byKey.get(key);
}
