/**
 * Default noise bands (± % of the baseline) for comparing single figures, used when either side has
 * fewer than 3 samples so no t-test is possible. Chosen from what the seed sources call noise:
 * - throughput and request rates ±5 % — TKE calls ±4 % inter-cluster throughput variance VPC burst
 *   fluctuation and a −2.2 % L3/L4 RPS dip single-round noise; EKS calls its 4 → 104 Service
 *   differences "within 5 %" measurement error;
 * - latencies ±10 % — tail latencies move more between rounds (EKS: −8 % p99 "within measurement
 *   error"; TKE: TCP_RR p99 103–118 µs "within noise");
 * - resources (CPU, memory, BPF map memory) ±10 % — sampled over time, with spikes;
 * - UDP loss ±10 % (relative) — a rate of a rate, as noisy as latency.
 * Metrics outside this table (x.… metrics included) get `fallbackNoiseBandPercent`. Metrics with
 * better "none" (counts such as iptables.rules) never reach a band: they have no winner.
 */
export const defaultNoiseBands: Readonly<Record<string, number>> = {
  "tcp.throughput": 5,
  "udp.throughput": 5,
  "http.rps": 5,
  "tcp.rr.rate": 5,
  "http.qps.achieved": 5,
  "udp.loss": 10,
  "http.latency": 10,
  "tcp.rr.latency": 10,
  "tcp.crr.latency": 10,
  "pod.rtt": 10,
  "dns.latency": 10,
  "conn.setup.latency": 10,
  "service.routing.latency": 10,
  "apiserver.list.latency": 10,
  "pod.startup.latency": 10,
  "kubeproxy.sync": 10,
  "cpu.usage": 10,
  "memory.usage": 10,
  "bpf.map.memory": 10,
};

export const fallbackNoiseBandPercent = 10;

export function noiseBandPercent(metric: string, overrides?: Readonly<Record<string, number>>): number {
  return overrides?.[metric] ?? defaultNoiseBands[metric] ?? fallbackNoiseBandPercent;
}
