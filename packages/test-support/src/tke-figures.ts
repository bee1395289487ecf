import type { Series } from "@cnibench/analysis";

/**
 * Figures transcribed from ../shared/seeds/tke-iptables-vs-cilium-2026.txt (TKE, SA5.LARGE8,
 * kernel 6.6.117, fortio), for tests only. Section 4, "Short conn: iptables collapses linearly":
 * http.rps, connection short, c64, via Service; "Baseline (small)" is taken as 0 Services.
 */
export const shortConnRpsByServices: Series[] = [
  {
    id: "iptables",
    label: "kube-proxy iptables",
    points: [
      { x: 0, value: 31_365 },
      { x: 5_000, value: 22_237 },
      { x: 10_000, value: 17_261 },
      { x: 20_000, value: 12_916 },
      { x: 30_000, value: 9_057 },
    ],
  },
  {
    id: "native",
    label: "Cilium Native",
    points: [
      { x: 0, value: 13_826 },
      { x: 5_000, value: 12_774 },
      { x: 10_000, value: 11_895 },
      { x: 20_000, value: 11_815 },
      { x: 30_000, value: 10_286 },
    ],
  },
  {
    id: "overlay",
    label: "Cilium Overlay",
    points: [
      { x: 0, value: 14_193 },
      { x: 5_000, value: 13_122 },
      { x: 10_000, value: 12_746 },
      { x: 20_000, value: 13_080 },
      { x: 30_000, value: 12_879 },
    ],
  },
];

/** Section 5: http.rps (keepalive, c64) with Hubble off/on and NetworkPolicy none/l3l4/l7. */
export const hubbleRps = {
  native: { off: 100_271, on: 100_007 },
  overlay: { off: 101_675, on: 101_434 },
};

export const policyRps = {
  native: { none: 99_985, l3l4: 99_965, l7: 13_883 },
  overlay: { none: 101_514, l3l4: 99_249, l7: 11_483 },
};

type Figure = { metric: string; unit: string; params: Record<string, string | number>; value: number };

const figure = (metric: string, unit: string, params: Record<string, string | number>, value: number): Figure => ({
  metric,
  unit,
  params,
  value,
});

/**
 * Sections 1–4 and 6 as two scenarios' figure sets: cluster A (VPC-CNI + kube-proxy iptables) and
 * cluster C (Cilium Overlay). Overlay's BPF map memory (289.7 MB = 276.28 MiB) has no iptables
 * counterpart.
 */
function figures(column: 0 | 1): Figure[] {
  const pick = (iptables: number, overlay: number) => (column === 0 ? iptables : overlay);
  const tcp = (path: string, streams: number, a: number, c: number) =>
    figure("tcp.throughput", "Gbit/s", { path, streams }, pick(a, c));
  const rps = (params: Record<string, string | number>, a: number, c: number) =>
    figure("http.rps", "req/s", { concurrency: 64, ...params }, pick(a, c));
  return [
    tcp("node-node", 8, 10.44, 10.82),
    tcp("pod-pod", 1, 10.43, 10.75),
    tcp("pod-pod", 8, 10.43, 10.77),
    tcp("pod-pod", 16, 10.43, 10.77),
    tcp("service", 8, 10.43, 10.77),
    rps({ connection: "keepalive", target: "pod" }, 115_903, 93_159),
    rps({ connection: "keepalive", target: "service" }, 115_434, 100_955),
    rps({ connection: "keepalive", target: "service", concurrency: 256 }, 119_434, 94_148),
    rps({ connection: "short", target: "service", services: 0 }, 31_365, 14_193),
    rps({ connection: "short", target: "service", services: 5_000 }, 22_237, 13_122),
    rps({ connection: "short", target: "service", services: 10_000 }, 17_261, 12_746),
    rps({ connection: "short", target: "service", services: 20_000 }, 12_916, 13_080),
    rps({ connection: "short", target: "service", services: 30_000 }, 9_057, 12_879),
    figure("tcp.rr.latency", "µs", { percentile: 50 }, pick(84, 95)),
    figure("tcp.rr.latency", "µs", { percentile: 99 }, pick(107, 118)),
    figure("tcp.crr.latency", "µs", { percentile: 99 }, pick(487, 558)),
    figure("http.latency", "ms", { percentile: 99, qps: 1000 }, pick(0.99, 0.99)),
  ];
}

export const iptablesFigures: Figure[] = figures(0);
export const overlayFigures: Figure[] = [...figures(1), figure("bpf.map.memory", "MiB", {}, 276.28)];
