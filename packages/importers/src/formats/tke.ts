/**
 * The result directory of TKE's network-benchmark.sh (imroc/tke-guide, static/scripts): context.yaml,
 * benchmark-summary.json and the raw outputs it was computed from (throughput/*_r<N>.json from
 * iperf3, rps/*_r<N>.json from fortio, latency/tcp_{rr,crr}_r<N>.txt from netperf, service-scale/,
 * hubble/, networkpolicy/, resources/). One directory is one run of the script: one bundle.
 *
 * Rounds r1…rN become samples in round order (the script globs them sorted as text, so r10 comes
 * before r2 in its summary lists; the raw files are re-sorted by number). The summary's averages are
 * the headline values (aggregate "mean"); without a summary the mean is computed from the rounds.
 * Derived figures (degradation %, overhead %) are left out: analysis computes them from the raw ones.
 * Params follow the demo data transcribed from the script's published results (demo-data/bundles/tke-*).
 */
import { parse as parseCsv } from "csv-parse/sync";
import { type EnvironmentFields, ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { at, decodeText, finite, isObject, type Json, mean, parseJson } from "../util.ts";
import { fortioFromJson } from "./fortio.ts";
import { parseNetperf } from "./netperf.ts";

export const TKE_MARKERS = ["context.yaml", "benchmark-summary.json"] as const;

type Figure = {
  metric: string;
  unit: string;
  params: Params;
  /** Per-round values in round order, read from the raw files. */
  samples: number[];
  /** The summary's per-round list (in the script's text order) and average, when it has them. */
  summaryList?: number[];
  summaryValue?: number;
  better?: Result["better"];
  note?: string;
};

export function parseTkeDirectory(files: Map<string, Uint8Array>): ParsedRun {
  const skipped: string[] = [];
  const text = (path: string) => {
    const bytes = files.get(path);
    return bytes === undefined ? undefined : decodeText(bytes);
  };

  const contextText = text("context.yaml");
  const summaryText = text("benchmark-summary.json");
  if (contextText === undefined && summaryText === undefined) {
    throw new ImportError("not a network-benchmark.sh result directory: no context.yaml or benchmark-summary.json");
  }
  let summary: Json = {};
  if (summaryText !== undefined) {
    try {
      const parsed = parseJson(summaryText, "benchmark-summary.json");
      if (isObject(parsed)) summary = parsed;
    } catch (error) {
      skipped.push(`${(error as Error).message}; figures come from the raw files only`);
    }
  }
  // The script reads context.yaml as "key: value" lines (not YAML, which would turn "1.30" into 1.3); so do we.
  const context: Record<string, string> = {};
  for (const line of (contextText ?? "").split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) context[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  if (contextText === undefined && isObject(summary.cluster)) {
    for (const [k, v] of Object.entries(summary.cluster)) context[k] = String(v);
  }

  /** Files of a per-round pattern, sorted by round number: r9 before r10. */
  const rounds = (pattern: RegExp): { path: string; round: number }[] =>
    [...files.keys()]
      .flatMap((path) => {
        const m = pattern.exec(path);
        return m ? [{ path, round: Number(m[1]) }] : [];
      })
      .sort((a, b) => a.round - b.round);

  const readRaw = <T>(path: string, read: (text: string) => T): T | undefined => {
    try {
      return read(text(path) ?? "");
    } catch (error) {
      skipped.push(`${path}: ${(error as Error).message}`);
      return undefined;
    }
  };
  const iperfGbps = (path: string) =>
    readRaw(path, (t) => {
      const doc = parseJson(t, "iperf3 JSON");
      const bps = finite(at(doc, "end.sum_received.bits_per_second"));
      if (bps === undefined) throw new ImportError("end.sum_received.bits_per_second is missing");
      return bps / 1e9;
    });
  const fortioQps = (path: string) =>
    readRaw(path, (t) => {
      const run = fortioFromJson(parseJson(t, "fortio JSON"));
      return run.results[0]!.value;
    });

  const figures: Figure[] = [];
  const sum = (path: string) => finite(at(summary, path));
  const sumList = (path: string) => {
    const list = at(summary, path);
    return Array.isArray(list) ? list.map(finite).filter((v): v is number => v !== undefined) : undefined;
  };

  // Throughput (iperf3 -J, -P 1/8/16; the script takes end.sum_received / 1e9).
  const throughput = [
    { key: "node_level_8stream", stem: "node_throughput", params: { path: "node-node", streams: 8 } },
    { key: "pod2pod_single", stem: "pod2pod_single", params: { path: "pod-pod", streams: 1 } },
    { key: "pod2pod_8stream", stem: "pod2pod_8stream", params: { path: "pod-pod", streams: 8 } },
    { key: "pod2pod_16stream", stem: "pod2pod_16stream", params: { path: "pod-pod", streams: 16 } },
    { key: "via_service_8stream", stem: "via_service_8stream", params: { path: "service", streams: 8 } },
  ];
  for (const t of throughput) {
    figures.push({
      metric: "tcp.throughput",
      unit: "Gbit/s",
      params: t.params,
      samples: defined(rounds(new RegExp(`^throughput/${t.stem}_r(\\d+)\\.json$`)).map((f) => iperfGbps(f.path))),
      summaryList: sumList(`throughput.${t.key}.gbps`),
      summaryValue: sum(`throughput.${t.key}.avg`),
      note: "iperf3 end.sum_received (receiver)",
    });
  }

  // RPS (fortio at max rate, 64/256 connections; short = one request per connection).
  const rps = [
    { key: "pod2pod_c64", params: { connection: "keepalive", concurrency: 64, target: "pod" } },
    { key: "svc_c64", params: { connection: "keepalive", concurrency: 64, target: "service" } },
    { key: "svc_c256", params: { connection: "keepalive", concurrency: 256, target: "service" } },
    { key: "svc_short_c64", params: { connection: "short", concurrency: 64, target: "service" } },
  ];
  for (const r of rps) {
    figures.push({
      metric: "http.rps",
      unit: "req/s",
      params: r.params,
      samples: defined(rounds(new RegExp(`^rps/${r.key}_r(\\d+)\\.json$`)).map((f) => fortioQps(f.path))),
      summaryList: sumList(`rps.${r.key}.qps`),
      summaryValue: sum(`rps.${r.key}.avg_qps`),
    });
  }

  // netperf TCP_RR / TCP_CRR (-o MIN,MEAN,P50,P90,P99,MAX_LATENCY,THROUGHPUT; microseconds).
  const netperfFigures = (files: { path: string }[], params: Params = {}) => {
    const perRound = files.map((f) => readRaw(f.path, (t) => parseNetperf(t)[0]!.results));
    const byKey = new Map<string, Figure>();
    for (const results of perRound) {
      for (const r of results ?? []) {
        const p = { ...r.params, ...params };
        const key = `${r.metric}|${JSON.stringify(p)}`;
        const entry: Figure = byKey.get(key) ?? {
          metric: r.metric,
          unit: r.unit,
          params: p,
          samples: [],
          ...(r.better ? { better: r.better } : {}),
        };
        entry.samples.push(r.value);
        byKey.set(key, entry);
      }
    }
    return [...byKey.values()];
  };
  const latencySummary: Record<string, string> = {
    "tcp.rr.latency|p50": "latency.tcp_rr_p50_us",
    "tcp.rr.latency|p99": "latency.tcp_rr_p99_us",
    "tcp.crr.latency|p99": "latency.tcp_crr_p99_us",
  };
  for (const test of ["tcp_rr", "tcp_crr"]) {
    for (const f of netperfFigures(rounds(new RegExp(`^latency/${test}_r(\\d+)\\.txt$`)))) {
      const summaryPath = latencySummary[`${f.metric}|${f.params.percentile}`];
      figures.push({ ...f, ...(summaryPath ? { summaryValue: sum(summaryPath) } : {}) });
    }
  }
  // Summary-only latency figures (raw files absent).
  for (const [key, path] of Object.entries(latencySummary)) {
    const [metric, percentile] = key.split("|") as [string, string];
    const value = sum(path);
    if (value !== undefined && !figures.some((f) => f.metric === metric && f.params.percentile === percentile)) {
      figures.push({ metric, unit: "µs", params: { percentile }, samples: [], summaryValue: value });
    }
  }

  // HTTP latency at 1000 QPS (fortio -qps 1000 -c 16, keepalive); the summary gives p99 in ms.
  const httpDoc = files.has("latency/http_1k_qps.json")
    ? readRaw("latency/http_1k_qps.json", (t) => fortioFromJson(parseJson(t, "fortio JSON")))
    : undefined;
  const httpP99 = sum("latency.http_p99_1k_qps_ms");
  for (const r of httpDoc?.results ?? []) {
    if (r.metric === "http.qps.achieved") {
      figures.push({ metric: r.metric, unit: r.unit, params: { qps: 1000 }, samples: [r.value] });
    } else if (r.metric === "http.latency" && typeof r.params?.percentile === "string") {
      const isP99 = r.params.percentile === "p99";
      figures.push({
        metric: "http.latency",
        unit: isP99 && httpP99 !== undefined ? "ms" : "s",
        params: { percentile: r.params.percentile, qps: 1000 },
        samples: [isP99 && httpP99 !== undefined ? secondsToMs(r.value) : r.value],
        ...(isP99 ? { summaryValue: httpP99 } : {}),
      });
    }
  }
  if (!httpDoc && httpP99 !== undefined) {
    figures.push({
      metric: "http.latency",
      unit: "ms",
      params: { percentile: "p99", qps: 1000 },
      samples: [],
      summaryValue: httpP99,
    });
  }

  // Hubble on/off and NetworkPolicy none/l3l4/l7 (fortio, c64 keepalive, single runs).
  const single = (path: string, summaryPath: string, params: Params) => {
    const raw = files.has(path) ? fortioQps(path) : undefined;
    const value = raw ?? sum(summaryPath);
    if (value !== undefined) figures.push({ metric: "http.rps", unit: "req/s", params, samples: [value] });
  };
  const keepalive64 = { connection: "keepalive", concurrency: 64 };
  single("hubble/hubble_on.json", "hubble.with_hubble_qps", { ...keepalive64, hubble: "on" });
  single("hubble/hubble_off.json", "hubble.without_hubble_qps", { ...keepalive64, hubble: "off" });
  single("networkpolicy/no_policy.json", "networkpolicy.baseline_qps", { ...keepalive64, policy: "none" });
  single("networkpolicy/l3l4_policy.json", "networkpolicy.l3l4_qps", { ...keepalive64, policy: "l3l4" });
  single("networkpolicy/l7_policy.json", "networkpolicy.l7_qps", { ...keepalive64, policy: "l7" });

  figures.push(...serviceScale(files, summary, { rounds, fortioQps, readRaw, netperfFigures, text, skipped }));
  figures.push(...resources(files, summary, text, skipped));

  const results = withBaselines(figures).flatMap((f) => toResult(f, skipped));
  if (results.length === 0) throw new ImportError("network-benchmark.sh result directory without any figure");

  const derived: EnvironmentFields = {
    cluster: context.cluster_name,
    k8s: context.k8s_version,
    os: context.node_os,
    kernel: context.kernel_version,
    sku: context.node_model,
    ...(finite(context.node_count) !== undefined && finite(context.node_count)! > 0
      ? { nodeCount: finite(context.node_count) }
      : {}),
    ...fromClusterType(context.cluster_type),
  };
  return {
    results,
    derived,
    collector: { name: "network-benchmark.sh" },
    ...(context.test_date ? { runAt: context.test_date } : {}),
    skipped,
  };
}

/** cluster_type as the script detects it: which CNI runs and which service proxy. */
function fromClusterType(type: string | undefined): EnvironmentFields {
  switch (type) {
    case "cilium-native":
      return { cni: "cilium", mode: "native" };
    case "cilium-overlay":
      // The script's check matches "Tunnel: vxlan" or "geneve": the encapsulation is not recorded.
      return { cni: "cilium", mode: "overlay" };
    case "kubeproxy-iptables":
      return { kubeProxy: "iptables" };
    case "kubeproxy-ipvs":
      return { kubeProxy: "ipvs" };
    default:
      return {};
  }
}

type Helpers = {
  rounds: (pattern: RegExp) => { path: string; round: number }[];
  fortioQps: (path: string) => number | undefined;
  readRaw: <T>(path: string, read: (text: string) => T) => T | undefined;
  netperfFigures: (files: { path: string }[], params?: Params) => Figure[];
  text: (path: string) => string | undefined;
  skipped: string[];
};

/**
 * Service scale. Newer scripts step through SVC_SCALE_STEPS (ka_at_<N>svc_r<R>.json,
 * short_at_<N>svc_r<R>.json, {rr,crr}_at_<N>svc_r<R>.txt, iptables_rules_at_<N>svc.txt,
 * kube_services_chain_at_<N>svc.txt, lb_entries_at_<N>svc.txt; summary service_scale.steps[]);
 * older ones test 1000 Services (svc_1k_svc_r*.json, short_conn_1k_svc_r*.json). The rps baselines
 * (svc_c64, svc_short_c64) are the 0-Service points of the same curves, as the summary uses them.
 */
function serviceScale(files: Map<string, Uint8Array>, summary: Json, h: Helpers): Figure[] {
  const figures: Figure[] = [];
  const scale = isObject(summary.service_scale) ? summary.service_scale : {};
  const steps = Array.isArray(scale.steps) ? scale.steps.filter(isObject) : [];
  const counts = new Set<number>();
  for (const path of files.keys()) {
    const m = /^service-scale\/\D+_at_(\d+)svc(?:_r\d+)?\.(?:json|txt)$/.exec(path);
    if (m) counts.add(Number(m[1]));
  }
  for (const step of steps) {
    const n = finite(step.svc_count);
    if (n !== undefined) counts.add(n);
  }
  const count = (path: string) =>
    h.readRaw(path, (t) => {
      const n = finite(/\d+/.exec(t)?.[0]);
      if (n === undefined) throw new ImportError("no count in the file");
      return n;
    });
  for (const n of [...counts].sort((a, b) => a - b)) {
    const step = steps.find((s) => finite(s.svc_count) === n) ?? {};
    const services = { services: n };
    for (const [prefix, connection, key] of [
      ["ka", "keepalive", "keepalive_qps"],
      ["short", "short", "short_conn_qps"],
    ] as const) {
      const samples = defined(
        h.rounds(new RegExp(`^service-scale/${prefix}_at_${n}svc_r(\\d+)\\.json$`)).map((f) => h.fortioQps(f.path)),
      );
      figures.push({
        metric: "http.rps",
        unit: "req/s",
        params: { connection, concurrency: 64, target: "service", ...services },
        samples,
        summaryValue: finite(step[key]),
      });
    }
    for (const [prefix, metric, key] of [
      ["rr", "tcp.rr.latency", "tcp_rr_p99_us"],
      ["crr", "tcp.crr.latency", "tcp_crr_p99_us"],
    ] as const) {
      const raw = h.netperfFigures(
        h.rounds(new RegExp(`^service-scale/${prefix}_at_${n}svc_r(\\d+)\\.txt$`)),
        services,
      );
      for (const f of raw)
        figures.push({ ...f, ...(f.params.percentile === "p99" ? { summaryValue: finite(step[key]) } : {}) });
      const p99 = finite(step[key]);
      if (p99 !== undefined && !raw.some((f) => f.metric === metric && f.params.percentile === "p99")) {
        figures.push({
          metric,
          unit: "µs",
          params: { percentile: "p99", ...services },
          samples: [],
          summaryValue: p99,
        });
      }
    }
    for (const [file, metric, key] of [
      ["iptables_rules", "iptables.rules", "rules_count"],
      ["kube_services_chain", "kube-services.chain", "kube_services_chain"],
      ["lb_entries", "lb.entries", "lb_entries"],
    ] as const) {
      const path = `service-scale/${file}_at_${n}svc.txt`;
      const value = files.has(path) ? count(path) : finite(step[key]);
      if (value !== undefined) figures.push({ metric, unit: "count", params: services, samples: [value] });
    }
  }
  // The older layout: one step of 1000 dummy Services.
  const legacyCount = finite(h.text("service-scale/dummy_services_count.txt")?.trim()) ?? 1000;
  for (const [stem, connection, key] of [
    ["svc_1k_svc", "keepalive", "keepalive_1k_svc_qps"],
    ["short_conn_1k_svc", "short", "short_conn_1k_svc_qps"],
  ] as const) {
    const samples = defined(
      h.rounds(new RegExp(`^service-scale/${stem}_r(\\d+)\\.json$`)).map((f) => h.fortioQps(f.path)),
    );
    const summaryValue = finite(scale[key]) ?? (connection === "keepalive" ? finite(scale["1k_svc_qps"]) : undefined);
    if (samples.length > 0 || summaryValue !== undefined) {
      counts.add(legacyCount);
      figures.push({
        metric: "http.rps",
        unit: "req/s",
        params: { connection, concurrency: 64, target: "service", services: legacyCount },
        samples,
        summaryValue,
      });
    }
  }
  return figures;
}

/** The 0-Service baselines, added when there is a Service scale curve to anchor. */
function withBaselines(figures: Figure[]): Figure[] {
  const hasScale = figures.some((f) => f.metric === "http.rps" && typeof f.params.services === "number");
  if (!hasScale) return figures;
  const baselines = figures
    .filter(
      (f) =>
        f.metric === "http.rps" &&
        f.params.target === "service" &&
        f.params.concurrency === 64 &&
        f.params.services === undefined &&
        f.params.hubble === undefined &&
        f.params.policy === undefined,
    )
    .map((f) => ({ ...f, params: { ...f.params, services: 0 } }));
  return [...figures, ...baselines];
}

function resources(files: Map<string, Uint8Array>, summary: Json, text: Helpers["text"], skipped: string[]): Figure[] {
  const figures: Figure[] = [];
  const res = isObject(summary.resources) ? summary.resources : {};
  const components = [
    { key: "cilium_agent", component: "cilium-agent", csv: /^resources\/cilium_[^/]*\.csv$/ },
    { key: "kubeproxy", component: "kube-proxy", csv: /^resources\/kubeproxy_[^/]*\.csv$/ },
  ];
  for (const c of components) {
    const s = isObject(res[c.key]) ? (res[c.key] as Json) : undefined;
    // Without a summary, the same reduction as the script's: every sample of every monitor CSV.
    const rows = s
      ? []
      : [...files.keys()].filter((p) => c.csv.test(p)).flatMap((p) => csvSamples(p, text(p) ?? "", skipped));
    const cpu = s
      ? [finite(s.avg_cpu_m), finite(s.max_cpu_m)]
      : rows.length
        ? [mean(rows.map((r) => r.cpu)), Math.max(...rows.map((r) => r.cpu))]
        : [];
    const mem = s
      ? [finite(s.avg_mem_mb), finite(s.max_mem_mb)]
      : rows.length
        ? [mean(rows.map((r) => r.mem)), Math.max(...rows.map((r) => r.mem))]
        : [];
    const push = (metric: string, unit: string, values: (number | undefined)[]) => {
      values.forEach((value, i) => {
        if (value !== undefined) {
          figures.push({
            metric,
            unit,
            params: { component: c.component, stat: i === 0 ? "avg" : "max" },
            samples: [value],
            ...(metric === "memory.usage" ? { note: "kubectl top (Mi), as the script's memory_mib column" } : {}),
          });
        }
      });
    };
    push("cpu.usage", "millicores", cpu);
    push("memory.usage", "MiB", mem);
  }
  let bpf: Json | undefined = isObject(res.bpf_maps) ? (res.bpf_maps as Json) : undefined;
  if (!bpf && files.has("resources/bpf_map_memory.json")) {
    try {
      const parsed = parseJson(text("resources/bpf_map_memory.json") ?? "", "bpf_map_memory.json");
      if (isObject(parsed)) bpf = parsed;
    } catch (error) {
      skipped.push(`resources/bpf_map_memory.json: ${(error as Error).message}`);
    }
  }
  if (bpf) {
    const totalBytes = finite(bpf.total_bytes);
    const totalMb = finite(bpf.total_mb);
    if (totalBytes !== undefined)
      figures.push({ metric: "bpf.map.memory", unit: "B", params: { map: "total" }, samples: [totalBytes] });
    else if (totalMb !== undefined)
      figures.push({ metric: "bpf.map.memory", unit: "MB", params: { map: "total" }, samples: [totalMb] });
    const mapCount = finite(bpf.map_count);
    if (mapCount !== undefined)
      figures.push({ metric: "bpf.map.count", unit: "count", params: {}, samples: [mapCount] });
    for (const m of Array.isArray(bpf.top_maps) ? bpf.top_maps.filter(isObject) : []) {
      const bytes = finite(m.bytes);
      if (typeof m.name !== "string" || bytes === undefined) continue;
      const maxEntries = finite(m.max_entries);
      figures.push({
        metric: "bpf.map.memory",
        unit: "B",
        params: { map: m.name, ...(maxEntries !== undefined ? { maxEntries } : {}) },
        samples: [bytes],
      });
    }
  }
  const status = text("resources/cilium_agent_proc_status.txt");
  const rssKiB = finite(/^VmRSS:\s*(\d+)\s*kB/m.exec(status ?? "")?.[1]);
  if (rssKiB !== undefined) {
    figures.push({
      metric: "memory.usage",
      unit: "KiB",
      params: { component: "cilium-agent", measure: "rss" },
      samples: [rssKiB],
      note: "VmRSS of /proc/<cilium-agent>/status (the kernel's kB are KiB)",
    });
  } else if (finite(res.cilium_agent_rss_mb) !== undefined) {
    figures.push({
      metric: "memory.usage",
      unit: "MB",
      params: { component: "cilium-agent", measure: "rss" },
      samples: [finite(res.cilium_agent_rss_mb)!],
      note: "benchmark-summary.json resources.cilium_agent_rss_mb",
    });
  }
  return figures;
}

/** cpu_millicores and memory_mib of each row of a monitor CSV; a file that is no CSV is named in skipped. */
function csvSamples(path: string, text: string, skipped: string[]): { cpu: number; mem: number }[] {
  let records: string[][];
  try {
    records = parseCsv(text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
  } catch (error) {
    skipped.push(`${path}: ${(error as Error).message}`);
    return [];
  }
  // Lines of blanks are no rows either: the header is the first line with something on it.
  const [head, ...lines] = records.filter((r) => r.length > 1 || r[0]!.trim() !== "");
  const ci = head?.indexOf("cpu_millicores") ?? -1;
  const mi = head?.indexOf("memory_mib") ?? -1;
  if (ci < 0 || mi < 0) return [];
  const rows: { cpu: number; mem: number }[] = [];
  for (const cells of lines) {
    const cpu = finite(cells[ci]);
    const mem = finite(cells[mi]);
    if (cpu !== undefined && mem !== undefined) rows.push({ cpu, mem });
  }
  return rows;
}

/**
 * The summary's lists come from a text-sorted glob (r1, r10, r2, …). When every round is listed,
 * that order is known and is undone; a list with missing rounds cannot be re-ordered reliably.
 */
export function roundsInNumberOrder(values: number[]): number[] {
  const names = values.map((_, i) => `r${i + 1}.json`);
  const textOrder = [...names].sort();
  const byRound: number[] = new Array(values.length);
  textOrder.forEach((name, position) => {
    byRound[Number(name.slice(1, -5)) - 1] = values[position]!;
  });
  return byRound;
}

function toResult(f: Figure, skipped: string[]): Result[] {
  const samples = f.samples.length > 0 ? f.samples : f.summaryList ? roundsInNumberOrder(f.summaryList) : [];
  if (f.samples.length > 0 && f.summaryList && f.summaryList.length !== f.samples.length) {
    skipped.push(
      `${f.metric} ${JSON.stringify(f.params)}: the summary lists ${f.summaryList.length} rounds, the raw files hold ${f.samples.length}; samples come from the raw files`,
    );
  }
  let value: number;
  let aggregate: Result["aggregate"];
  if (f.summaryValue !== undefined) {
    value = f.summaryValue;
    aggregate = "mean";
  } else if (samples.length > 1) {
    value = Number(mean(samples).toPrecision(12));
    aggregate = "mean";
  } else if (samples.length === 1) {
    value = samples[0]!;
    aggregate = "single";
  } else {
    return [];
  }
  return [
    {
      metric: f.metric,
      value,
      unit: f.unit,
      aggregate,
      ...(samples.length > 0 && !(aggregate === "single" && samples.length === 1) ? { samples } : {}),
      params: f.params,
      ...(f.better ? { better: f.better } : {}),
      ...(f.note ? { note: f.note } : {}),
    },
  ];
}

function defined(values: (number | undefined)[]): number[] {
  return values.filter((v): v is number => v !== undefined);
}

function secondsToMs(value: number): number {
  return Number((value * 1000).toPrecision(12));
}
