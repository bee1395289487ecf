// The explorer table's columns: a catalogue of headline figures, each ONE metric at FIXED params, so a
// column compares like with like. A scenario's cell holds its figure at exactly those params, or
// nothing: never "the best" among figures measured differently (1 stream against 8, pod-to-pod against
// via a Service), which once ranked one setup's 1-stream pod-to-pod throughput against others'
// 8-stream Service figures.
import { findMetric, type ParamValue as StoredParamValue } from "@cnibench/schema";
import type { ParamValue, ShownFigure } from "../types.ts";
import { natural } from "./natural.ts";

/** One column: a metric at exactly `params` (extra params only at their baseline, see headlineBaseline). */
export type ColumnDefinition = {
  key: string;
  /** The header, saying the params: "TCP pod-to-pod, 1 stream". */
  title: string;
  /** Where the column picker lists it. */
  group: string;
  metric: string;
  /** As stored: a param's value is never null. */
  params: Readonly<Record<string, StoredParamValue>>;
};

// The params follow what the importers write: TKE's benchmark (path and streams; fortio's connection,
// concurrency and target), InfraBuilder's bench.sh and knb (path and streams, a node's CPU per test),
// the EKS scripts (no params on their headline network figures: the "params not stated" columns).
export const columnCatalogue = [
  {
    key: "tcpPod1",
    group: "TCP throughput",
    title: "TCP pod-to-pod, 1 stream",
    metric: "tcp.throughput",
    params: { path: "pod-pod", streams: 1 },
  },
  {
    key: "tcpPod8",
    group: "TCP throughput",
    title: "TCP pod-to-pod, 8 streams",
    metric: "tcp.throughput",
    params: { path: "pod-pod", streams: 8 },
  },
  {
    key: "tcpPod16",
    group: "TCP throughput",
    title: "TCP pod-to-pod, 16 streams",
    metric: "tcp.throughput",
    params: { path: "pod-pod", streams: 16 },
  },
  {
    key: "tcpSvc1",
    group: "TCP throughput",
    title: "TCP via Service, 1 stream",
    metric: "tcp.throughput",
    params: { path: "service", streams: 1 },
  },
  {
    key: "tcpSvc8",
    group: "TCP throughput",
    title: "TCP via Service, 8 streams",
    metric: "tcp.throughput",
    params: { path: "service", streams: 8 },
  },
  {
    key: "tcpNode8",
    group: "TCP throughput",
    title: "TCP node-to-node, 8 streams",
    metric: "tcp.throughput",
    params: { path: "node-node", streams: 8 },
  },
  {
    key: "tcpUnstated",
    group: "TCP throughput",
    title: "TCP throughput, params not stated",
    metric: "tcp.throughput",
    params: {},
  },
  {
    key: "udpPod1",
    group: "UDP",
    title: "UDP pod-to-pod, 1 stream",
    metric: "udp.throughput",
    params: { path: "pod-pod", streams: 1 },
  },
  {
    key: "udpPod8",
    group: "UDP",
    title: "UDP pod-to-pod, 8 streams",
    metric: "udp.throughput",
    params: { path: "pod-pod", streams: 8 },
  },
  {
    key: "udpLossPod1",
    group: "UDP",
    title: "UDP loss pod-to-pod, 1 stream",
    metric: "udp.loss",
    params: { path: "pod-pod", streams: 1 },
  },
  {
    key: "udpLossPod8",
    group: "UDP",
    title: "UDP loss pod-to-pod, 8 streams",
    metric: "udp.loss",
    params: { path: "pod-pod", streams: 8 },
  },
  { key: "udpLossUnstated", group: "UDP", title: "UDP loss, params not stated", metric: "udp.loss", params: {} },
  {
    key: "shortRps",
    group: "HTTP",
    title: "Short-conn RPS via Service, 64 conns",
    metric: "http.rps",
    params: { connection: "short", concurrency: 64, target: "service" },
  },
  {
    key: "keepaliveRps",
    group: "HTTP",
    title: "Keepalive RPS via Service, 64 conns",
    metric: "http.rps",
    params: { connection: "keepalive", concurrency: 64, target: "service" },
  },
  {
    key: "keepaliveRps256",
    group: "HTTP",
    title: "Keepalive RPS via Service, 256 conns",
    metric: "http.rps",
    params: { connection: "keepalive", concurrency: 256, target: "service" },
  },
  {
    key: "keepalivePodRps",
    group: "HTTP",
    title: "Keepalive RPS pod-to-pod, 64 conns",
    metric: "http.rps",
    params: { connection: "keepalive", concurrency: 64, target: "pod" },
  },
  { key: "rpsUnstated", group: "HTTP", title: "HTTP RPS, params not stated", metric: "http.rps", params: {} },
  {
    key: "httpP99At1k",
    group: "HTTP",
    title: "HTTP p99 at 1,000 QPS",
    metric: "http.latency",
    params: { percentile: "p99", qps: 1000 },
  },
  { key: "tcpRrP50", group: "Latency", title: "TCP_RR p50", metric: "tcp.rr.latency", params: { percentile: "p50" } },
  { key: "tcpRrP99", group: "Latency", title: "TCP_RR p99", metric: "tcp.rr.latency", params: { percentile: "p99" } },
  {
    key: "tcpCrrP99",
    group: "Latency",
    title: "TCP_CRR p99",
    metric: "tcp.crr.latency",
    params: { percentile: "p99" },
  },
  { key: "podRttAvg", group: "Latency", title: "Pod RTT, mean", metric: "pod.rtt", params: { stat: "avg" } },
  { key: "dnsP99", group: "Latency", title: "DNS p99", metric: "dns.latency", params: { percentile: "p99" } },
  {
    key: "cpuTcpPod8Server",
    group: "Resources",
    title: "Node CPU, TCP pod-to-pod 8 streams, server",
    metric: "cpu.usage",
    params: { component: "node", path: "pod-pod", protocol: "tcp", streams: 8, role: "server" },
  },
  {
    key: "cpuTcpPod8Client",
    group: "Resources",
    title: "Node CPU, TCP pod-to-pod 8 streams, client",
    metric: "cpu.usage",
    params: { component: "node", path: "pod-pod", protocol: "tcp", streams: 8, role: "client" },
  },
  {
    key: "cpuIdleServer",
    group: "Resources",
    title: "Node CPU idle, server",
    metric: "cpu.usage",
    params: { component: "node", test: "idle", role: "server" },
  },
  {
    key: "memoryIdleServer",
    group: "Resources",
    title: "Node memory idle, server",
    metric: "memory.usage",
    params: { component: "node", test: "idle", role: "server" },
  },
] as const satisfies readonly ColumnDefinition[];

export type ColumnKey = (typeof columnCatalogue)[number]["key"];
export const columnKeys = columnCatalogue.map((c) => c.key) as readonly ColumnKey[];

const byKey = new Map<string, ColumnDefinition>(columnCatalogue.map((c) => [c.key, c]));
export const isColumnKey = (key: string): key is ColumnKey => byKey.has(key);

/** What the table shows until the visitor picks: throughput at 1 and 8 streams, UDP loss, RPS, latency. */
export const defaultColumns: readonly ColumnKey[] = ["tcpPod1", "tcpPod8", "udpLossPod1", "shortRps", "tcpRrP99"];

/** At most this many columns at once: a table still readable on a laptop. */
export const maxColumns = 8;

/**
 * The columns a request asks for (the URL's repeated `col=`), in catalogue order: unknown keys and
 * repeats dropped, at most maxColumns; the default set when none is left.
 */
export function chosenColumns(requested: readonly string[] | undefined): ColumnKey[] {
  const wanted = new Set((requested ?? []).filter(isColumnKey));
  const chosen = columnKeys.filter((k) => wanted.has(k)).slice(0, maxColumns);
  return chosen.length > 0 ? chosen : [...defaultColumns];
}

// Figures measured under extra load or features (many Services, policies, Hubble) are not a
// scenario's headline; a figure whose extra params are all at these values is the same experiment.
export const headlineBaseline: Record<string, readonly ParamValue[]> = {
  services: [0],
  policy: ["none"],
  hubble: ["off"],
};

/** A current figure as the table reads it; packages/db's LatestFigure fits. */
export type HeadlineFigure = ShownFigure & {
  bundleId: string;
  samples: readonly number[];
  n: number;
  campaignBundleIds: readonly string[];
};

export type KeyFigure<F extends HeadlineFigure = HeadlineFigure> = Pick<
  F,
  "value" | "unit" | "qualifier" | "low" | "high" | "params" | "bundleId" | "samples" | "n" | "campaignBundleIds"
>;

/**
 * How many baseline params a figure adds to the column's, or null when it does not qualify: another
 * metric, a column param missing or different, or any other param that is not at its baseline.
 */
function extraBaselineParams(f: ShownFigure, def: ColumnDefinition): number | null {
  if (f.metric !== def.metric) return null;
  let extra = 0;
  for (const [k, v] of Object.entries(def.params)) if (f.params[k] !== v) return null;
  for (const [k, v] of Object.entries(f.params)) {
    if (k in def.params) continue;
    if (!headlineBaseline[k]?.includes(v)) return null;
    extra++;
  }
  return extra;
}

/** Whether a figure belongs in a column: its metric, exactly the column's params, extras at baseline. */
export const inColumn = (f: ShownFigure, def: ColumnDefinition): boolean => extraBaselineParams(f, def) !== null;

/**
 * A scenario's figure per column. Only figures at the column's exact params qualify; when several do
 * (the same test written once without and once with `services: 0`), the choice never looks at the
 * value: the one without baseline extras first, then an exact figure before a qualified one, then the
 * most runs, then by params.
 */
export function keyFigures<F extends HeadlineFigure>(
  figures: readonly F[],
  columns: readonly ColumnKey[] = defaultColumns,
): Partial<Record<ColumnKey, KeyFigure<F>>> {
  const out: Partial<Record<ColumnKey, KeyFigure<F>>> = {};
  for (const key of columns) {
    const def = byKey.get(key);
    if (!def) continue;
    const ranked = figures
      .flatMap((f) => {
        const extra = extraBaselineParams(f, def);
        return extra === null ? [] : [{ f, extra }];
      })
      .sort(
        (a, b) =>
          a.extra - b.extra ||
          Number(a.f.qualifier !== null) - Number(b.f.qualifier !== null) ||
          b.f.n - a.f.n ||
          natural(JSON.stringify(a.f.params), JSON.stringify(b.f.params)),
      );
    const chosen = ranked[0]?.f;
    if (chosen) {
      const { value, unit, qualifier, low, high, params, bundleId, samples, n, campaignBundleIds } = chosen;
      out[key] = { value, unit, qualifier, low, high, params, bundleId, samples, n, campaignBundleIds };
    }
  }
  return out;
}

/** A column as headers, the picker and downloads show it: its definition and the catalogue's unit. */
export type ColumnInfo = ColumnDefinition & { key: ColumnKey; unit: string };

export function columnInfo(keys: readonly ColumnKey[] = columnKeys): ColumnInfo[] {
  return keys.flatMap((key) => {
    const def = byKey.get(key);
    return def ? [{ ...def, key, unit: findMetric(def.metric)?.unit ?? "" }] : [];
  });
}

/** The metrics and params the columns need: what the explorer's query fetches before keyFigures chooses. */
export function columnQueries(keys: readonly ColumnKey[]): Pick<ColumnDefinition, "metric" | "params">[] {
  return columnInfo(keys).map(({ metric, params }) => ({ metric, params }));
}
