/**
 * Bundles transcribed from the seed documents (../shared/seeds/), used by the tests. Figures and
 * environment facts are as published; what a source does not say is left out or "unknown".
 * Each call returns a fresh object so a test can modify it freely.
 */
import type { BundleInput } from "@cnibench/schema";

/** A bundle input whose settings are always present, so tests can toggle one. */
export type SeedBundle = BundleInput & { cni: { settings: Record<string, string | number | boolean | null> } };

const tkeSource = {
  title: "Cilium Network Performance Benchmark",
  section: "At a Glance; 6. Resource Consumption",
};

const tkeEnvironment = {
  cluster: { name: "Cluster C", provider: "TKE", kubernetesVersion: "v1.34.1-tke.5", nodeCount: 3 },
  node: {
    sku: "SA5.LARGE8",
    vcpus: 4,
    memoryGiB: 8,
    nicGbps: null,
    os: "TencentOS Server 4",
    kernel: "6.6.117-45.11.2",
  },
};

/** TKE cluster C: Cilium VXLAN overlay, kube-proxy replaced (tke-iptables-vs-cilium-2026.txt). */
export function tkeCiliumOverlay(): SeedBundle {
  return structuredClone<SeedBundle>({
    schema: "cnibench/bundle@1",
    source: tkeSource,
    collector: { name: "network-benchmark.sh" },
    ...tkeEnvironment,
    cni: {
      name: "Cilium",
      version: "1.19.4",
      mode: "VXLAN",
      kubeProxy: "eBPF",
      label: "Cilium Overlay",
      settings: { "bpf-lb-map-max": 1020000 },
    },
    results: [
      { metric: "tcp.throughput", value: 10.77, unit: "Gbps", params: { path: "pod-pod", streams: 8 } },
      {
        metric: "http.rps",
        value: 100955,
        unit: "req/s",
        params: { connection: "keepalive", concurrency: 64, target: "service" },
      },
      {
        metric: "http.rps",
        value: 13080,
        unit: "req/s",
        params: { connection: "short", concurrency: 64, target: "service", services: 20000 },
      },
      { metric: "tcp.rr.latency", value: 118, unit: "µs", params: { percentile: "p99" } },
      { metric: "tcp.crr.latency", value: 558, unit: "µs", params: { percentile: "p99" } },
      { metric: "http.latency", value: 0.99, unit: "ms", params: { percentile: "p99", qps: 1000 } },
      { metric: "bpf.map.memory", value: 289.7, unit: "MB", params: { map: "total" } },
      {
        metric: "cpu.usage",
        value: 25.4,
        unit: "m",
        params: { component: "cilium-agent", stat: "avg", services: 30000 },
      },
      { metric: "memory.usage", value: 1104, unit: "MiB", params: { component: "cilium-agent", stat: "avg" } },
      { metric: "lb.entries", value: 179988, unit: "entries", params: { services: 30000 } },
    ],
  });
}

/** TKE cluster A: VPC-CNI with kube-proxy in iptables mode, same hardware and kernel as cluster C. */
export function tkeIptables(): SeedBundle {
  return structuredClone<SeedBundle>({
    schema: "cnibench/bundle@1",
    source: tkeSource,
    ...tkeEnvironment,
    cluster: { ...tkeEnvironment.cluster, name: "Cluster A" },
    cni: { name: "VPC-CNI", mode: "vpc", kubeProxy: "iptables", label: "iptables", settings: {} },
    results: [
      { metric: "tcp.throughput", value: 10.43, unit: "Gbps", params: { path: "pod-pod", streams: 8 } },
      {
        metric: "http.rps",
        value: 31365,
        unit: "req/s",
        params: { connection: "short", concurrency: 64, target: "service" },
      },
      { metric: "kube-services.chain", value: 30003, unit: "rules", params: { services: 30000 } },
      { metric: "cpu.usage", value: 8.2, unit: "m", params: { component: "kube-proxy", stat: "avg", services: 30000 } },
      { metric: "memory.usage", value: 926, unit: "MiB", params: { component: "kube-proxy", stat: "avg" } },
    ],
  });
}

const eksEnvironment = {
  source: {
    title: "VPC CNI 与 Cilium CNI 性能对比基准测试",
    publishedAt: "2026-02-14",
    section: "基准测试结果",
  },
  collector: { name: "cni-benchmark", command: "./scripts/benchmarks/cni-benchmark/run-all-scenarios.sh" },
  runAt: "2026-02-09",
  cluster: {
    name: "unknown",
    provider: "Amazon EKS",
    region: "ap-northeast-2",
    kubernetesVersion: "1.31",
    nodeCount: 3,
  },
  node: {
    sku: "m6i.xlarge",
    vcpus: 4,
    memoryGiB: 16,
    nicGbps: 12.5,
    os: "Amazon Linux 2023",
    kernel: "6.1.159-182.297.amzn2023",
  },
};

/** EKS scenario A: VPC CNI baseline (eks-vpc-cni-vs-cilium-2026.txt), medians of 3+ runs. */
export function eksVpcCni(): SeedBundle {
  return structuredClone<SeedBundle>({
    schema: "cnibench/bundle@1",
    ...eksEnvironment,
    cni: { name: "VPC CNI", mode: "ENI Secondary IP", kubeProxy: "iptables", label: "A: VPC CNI", settings: {} },
    results: [
      { metric: "tcp.throughput", value: 12.41, unit: "Gbps", aggregate: "median" },
      { metric: "udp.throughput", value: 10.0, unit: "Gbps", aggregate: "median" },
      { metric: "udp.loss", value: 20.39, unit: "%", aggregate: "median" },
      { metric: "pod.rtt", value: 4894, unit: "us", aggregate: "median", params: { percentile: "p50" } },
      {
        metric: "http.latency",
        value: 10.92,
        unit: "ms",
        aggregate: "median",
        params: { percentile: "p99", qps: 1000 },
      },
      { metric: "http.qps.achieved", value: 999.6, unit: "QPS", aggregate: "median", params: { qps: 1000 } },
      { metric: "dns.latency", value: 2, unit: "ms", aggregate: "median", params: { percentile: "p50" } },
    ],
  });
}

/** EKS scenario E: Cilium ENI mode with the full tuning set. */
export function eksCiliumTuned(): SeedBundle {
  return structuredClone<SeedBundle>({
    schema: "cnibench/bundle@1",
    ...eksEnvironment,
    cni: {
      name: "cilium",
      version: "1.16.5",
      mode: "native routing",
      kubeProxy: "kube-proxy-less",
      label: "E: ENI+Tuned",
      settings: {
        ipam: "eni",
        "bpf.hostLegacyRouting": false,
        "bandwidthManager.enabled": true,
        "bandwidthManager.bbr": true,
        "bpf.masquerade": true,
        "socketLB.enabled": true,
        "hubble.enabled": false,
        "loadBalancer.mode": "snat",
      },
    },
    results: [
      { metric: "tcp.throughput", value: 12.4, unit: "Gbps", aggregate: "median" },
      { metric: "udp.loss", value: 0.03, unit: "%", aggregate: "median" },
      { metric: "pod.rtt", value: 3135, unit: "µs", aggregate: "median", params: { percentile: "p50" } },
      // Published as "CPU: 4-5m" and "Memory: 82Mi".
      {
        metric: "cpu.usage",
        value: 4.5,
        low: 4,
        high: 5,
        qualifier: "range",
        unit: "m",
        params: { component: "cilium-agent" },
      },
      { metric: "memory.usage", value: 82, unit: "Mi", params: { component: "cilium-agent" } },
    ],
  });
}
