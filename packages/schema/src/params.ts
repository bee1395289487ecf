/**
 * Params vocabulary (issue 26): which of a figure's params are scale axes and which are categories.
 *
 * A **scale axis** counts something a cluster or its load grows in. Between two measured steps every
 * value in between is a cluster or a load one can run (15,000 Services, 150 concurrent clients), and
 * what a datapath costs moves with it as the kernel's tables, the maps and the load grow, so a line
 * drawn between the steps says something and "where one line overtakes another" answers a real
 * question: from how many Services on does Cilium serve more short connections than iptables?
 *
 * A **category** is a test's setting or a way to slice figures: its values are picked from a few
 * (1, 8 or 16 streams; p50 or p99; 64 B or 64 KiB messages; pod or Service path), each its own test,
 * and what lies between two of them is neither measured nor meaningful. Such figures are compared side
 * by side, as bars; a crossover along them ("overtakes at ≈1.72 streams") would be an artefact of
 * drawing a straight line between two different tests.
 *
 * A param declared in neither list is a category until it is declared a scale here: a crossover is
 * only drawn where someone decided it means something, never guessed from numeric values.
 */

/** The scale axes, each with what it counts in the plural, as a chart's axis and a crossover sentence say it. */
export const scaleParams = {
  // Service count: kube-proxy's iptables chains and the eBPF service maps grow with it (TKE, EKS seeds).
  services: "Services",
  // Backends behind Services: what the Service maps and EndpointSlices hold.
  endpoints: "endpoints",
  // Pod count: identities, endpoints and routes grow with it (AKS 60,000 → 100,000 pods).
  pods: "pods",
  // Cluster size: routes, tunnels and per-node agents' state grow with it.
  nodes: "nodes",
  namespaces: "namespaces",
  // Policy counts (AKS 0 → 2,000): the policy maps and rule chains grow with them. "policy" (one
  // policy's kind: none, l3l4, l7) is a category below.
  networkPolicies: "network policies",
  policies: "policies",
  // A load sweep: the request rate a load generator aims at; where a datapath saturates first is a
  // crossover. A "max" value is not a number and stays off the line.
  qps: "target QPS",
  // Concurrent clients or connections of a load generator (64 → 256): load that grows continuously.
  concurrency: "concurrency",
  connections: "connections",
} as const satisfies Record<string, string>;

export type ScaleParam = keyof typeof scaleParams;

/**
 * The categories sources use, named so that each known param is declared one way or the other (a test
 * holds every param the metric catalogue names to it). Numeric values do not make a scale:
 * - `streams`: iperf3's -P, parallel flows of one bulk transfer. 1 stream is the single-flow ceiling,
 *   8 or 16 spread the transfer over NIC queues and cores until the link saturates: separate tests,
 *   sources publish them side by side, and nobody runs 1.72 streams.
 * - `messageSize`, `msgSize`: payload sizes picked from a few powers of two; throughput steps at the
 *   MTU and segment boundaries rather than moving along a line between them.
 * - `maxEntries`: a BPF map's configured capacity, a setting, not a load.
 * - `percentile`, `stat`, `measure`: which statistic of the same runs a figure is.
 * - the rest say what or how was measured: a path, a target, a protocol, short or kept-alive
 *   connections (`connection`, not to be confused with the `connections` count), a component…
 */
export const categoryParams = [
  "streams",
  "messageSize",
  "msgSize",
  "maxEntries",
  "percentile",
  "stat",
  "measure",
  "path",
  "target",
  "protocol",
  "connection",
  "sameNode",
  "component",
  "role",
  "test",
  "map",
  "hubble",
  "policy",
  // Which CPU time a cpu.usage counts (all-modes, user+system, mode) and, for "mode", which one.
  "accounting",
  "mode",
] as const;

const scaleNames: ReadonlySet<string> = new Set(Object.keys(scaleParams));

/** Whether a param is a scale axis, along which lines are drawn and crossovers said; false for every other. */
export function isScaleParam(name: string): name is ScaleParam {
  return scaleNames.has(name);
}

/** "scale" for a declared scale axis; "category" for every other param, declared or not. */
export function paramKind(name: string): "scale" | "category" {
  return isScaleParam(name) ? "scale" : "category";
}
