/**
 * cloud-bulldozer k8s-netperf results: the result-<unix>.csv it archives by default (`--csv`) and the
 * JSON documents `--json` prints (cloud-bulldozer/k8s-netperf pkg/archive/archive.go: WriteCSVResult,
 * WriteJSONResult/BuildDocs). Each row is one test run `samples` times; the tool publishes the mean
 * of the samples and, for the throughput, the 95 % confidence interval of that mean (Student's t,
 * go-moremath stats.MeanCI), never the samples themselves: figures carry that as `summary`.
 * Profiles map to: TCP_STREAM → tcp.throughput, UDP_STREAM → udp.throughput, TCP_RR → tcp.rr.rate,
 * TCP_CRR/UDP_RR → x.tcp.crr.rate/x.udp.rr.rate; the "99%tile Observed Latency" (the mean of the
 * samples' P99) → tcp.rr.latency/tcp.crr.latency/x.udp.rr.latency, and for stream profiles
 * x.tcp.stream.latency/x.udp.stream.latency, with percentile p99. Host network is path node-node,
 * a Service path service, else pod-pod; parallelism is streams.
 */
import { parse as parseCsv } from "csv-parse/sync";
import {
  type EnvironmentFields,
  ImportError,
  type Params,
  type ParsedRun,
  type Result,
  type ResultSummary,
} from "../types.ts";
import { at, finite, isObject, parseJson, unitProblem } from "../util.ts";

const CSV_HEADER = /^Driver,Profile,Same node,Host Network,/;

export function looksLikeK8sNetperfCsv(text: string): boolean {
  return CSV_HEADER.test(text.trimStart());
}

export function looksLikeK8sNetperfJson(doc: unknown): boolean {
  return (
    Array.isArray(doc) &&
    doc.length > 0 &&
    doc.every((d) => isObject(d) && typeof d.profile === "string" && "throughput" in d && "tputMetric" in d)
  );
}

/** One row of either layout, by field. */
type Row = {
  driver: string;
  profile: string;
  sameNode: boolean;
  hostNetwork: boolean;
  service: boolean;
  externalServer: boolean;
  virt: boolean;
  parallelism?: number;
  samples?: number;
  messageSize?: number;
  burst?: number;
  ci: [number, number] | undefined;
  throughput?: number;
  throughputUnit: string;
  latency?: number;
  latencyUnit: string;
};

/** What says which test a row is, by its column's name in a text layout (a missing column reads as unset). */
type Columns = Record<
  | "driver"
  | "profile"
  | "sameNode"
  | "hostNetwork"
  | "service"
  | "externalServer"
  | "virt"
  | "parallelism"
  | "samples"
  | "messageSize"
  | "burst",
  string
>;
const CSV_COLUMNS: Columns = {
  driver: "Driver",
  profile: "Profile",
  sameNode: "Same node",
  hostNetwork: "Host Network",
  service: "Service",
  externalServer: "External Server",
  virt: "VM mode",
  parallelism: "Parallelism",
  samples: "# of Samples",
  messageSize: "Message Size",
  burst: "Burst",
};
const TABLE_COLUMNS: Columns = {
  driver: "DRIVER",
  profile: "SCENARIO",
  sameNode: "SAME NODE",
  hostNetwork: "HOST NETWORK",
  service: "SERVICE",
  externalServer: "EXTERNAL SERVER",
  virt: "VM MODE",
  parallelism: "PARALLELISM",
  samples: "SAMPLES",
  messageSize: "MESSAGE SIZE",
  burst: "BURST",
};

/** A row's test, read from its cells by the layout's column names. */
function testOf(cell: (name: string) => string | undefined, c: Columns) {
  const flag = (name: string) => cell(name) === "true";
  return {
    driver: cell(c.driver) ?? "",
    profile: cell(c.profile) ?? "",
    sameNode: flag(c.sameNode),
    hostNetwork: flag(c.hostNetwork),
    service: flag(c.service),
    externalServer: flag(c.externalServer),
    virt: flag(c.virt),
    parallelism: finite(cell(c.parallelism)),
    samples: finite(cell(c.samples)),
    messageSize: finite(cell(c.messageSize)),
    burst: finite(cell(c.burst)),
  };
}

export function parseK8sNetperf(text: string): ParsedRun[] {
  if (text.trimStart().startsWith("[")) return [parseK8sNetperfJson(text)];
  return looksLikeK8sNetperfTables(text) ? parseK8sNetperfTables(text) : [parseK8sNetperfCsv(text)];
}

const TABLE_HEADER = /^\|\s*RESULT TYPE\s*\|\s*DRIVER\s*\|/m;

/** The tables k8s-netperf prints (pkg/results/result.go): "| RESULT TYPE | DRIVER | SCENARIO | …". */
export function looksLikeK8sNetperfTables(text: string): boolean {
  return TABLE_HEADER.test(text);
}

/**
 * The tables k8s-netperf prints to its console (pkg/results/result.go), read as the CSV is: a "Stream
 * Results" or "Rr Results" row's AVG VALUE (with its 95 % CONFIDENCE INTERVAL where the table has one)
 * is the throughput, the matching "… Latency Results" row's 99%TILE VALUE its latency; rows match by
 * every column but those. A "Run N" line starts another run (e2e-benchmarking prints several). A line
 * cut short (no closing "|") is named, never half read; other tables (retransmissions, loss) too.
 */
function parseK8sNetperfTables(text: string): ParsedRun[] {
  const runs: { rows: Map<string, Row>; skipped: string[] }[] = [];
  let current: (typeof runs)[number] | undefined;
  let header: string[] | undefined;
  const figure = (cell: string | undefined) => /^(\d+(?:\.\d+)?)\s*\(([^)]+)\)$/.exec(cell ?? "");
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^Run \d+\s*$/.test(line) || !current) {
      current = { rows: new Map(), skipped: [] };
      runs.push(current);
      if (/^Run \d+\s*$/.test(line)) return;
    }
    const trimmed = line.trim();
    // A table is one block of "+---" borders and "|" rows: anything else ends it.
    if (!trimmed.startsWith("|")) {
      if (!trimmed.startsWith("+")) header = undefined;
      return;
    }
    if (!trimmed.endsWith("|") || trimmed.length < 2) {
      current.skipped.push(`line ${i + 1}: cut short (no closing "|"), not read`);
      return;
    }
    const cells = trimmed
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim());
    // Header rows are in capitals: RESULT TYPE, or TYPE (retransmissions and loss, named below as not read).
    if (/^[A-Z][A-Z0-9 %]*$/.test(cells[0] ?? "")) {
      header = cells;
      return;
    }
    if (!header) return;
    const cell = (name: string) => {
      const at = header!.indexOf(name);
      return at === -1 ? undefined : cells[at];
    };
    const type = (cells[0] ?? "").replace(/^[^A-Za-z]+/, "");
    const latency = /Latency Results$/.test(type);
    if (!/^(Stream|Rr)( Latency)? Results$/.test(type)) {
      current.skipped.push(`line ${i + 1}: "${type}" is not read`);
      return;
    }
    const value = figure(latency ? cell("99%TILE VALUE") : cell("AVG VALUE"));
    if (!value) {
      current.skipped.push(
        `line ${i + 1}: no figure "<number> (<unit>)" in ${latency ? "99%TILE VALUE" : "AVG VALUE"}`,
      );
      return;
    }
    const key = [...Object.values(TABLE_COLUMNS), "DURATION"].map((name) => cell(name) ?? "").join("\u0000");
    let row = current.rows.get(key);
    if (!row) {
      row = { ...testOf(cell, TABLE_COLUMNS), ci: undefined, throughputUnit: "", latencyUnit: "usec" };
      current.rows.set(key, row);
    }
    if (latency) {
      row.latency = Number(value[1]);
      row.latencyUnit = value[2]!;
    } else {
      row.throughput = Number(value[1]);
      row.throughputUnit = value[2]!;
      const ci = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)\s*\(([^)]+)\)$/.exec(cell("95% CONFIDENCE INTERVAL") ?? "");
      if (ci && ci[3] === value[2]) row.ci = [Number(ci[1]), Number(ci[2])];
    }
  });
  const read = runs.filter((r) => r.rows.size > 0 || r.skipped.length > 0);
  if (read.length === 0) throw new ImportError("k8s-netperf tables: no result row");
  return read.map((r, i) => {
    const run = build([...r.rows.values()], {}, undefined, "table");
    return {
      ...run,
      skipped: [...r.skipped, ...run.skipped],
      ...(read.length > 1 ? { part: `run ${i + 1}` } : {}),
    };
  });
}

function parseK8sNetperfCsv(text: string): ParsedRun {
  if (!looksLikeK8sNetperfCsv(text)) {
    throw new ImportError(
      'not a k8s-netperf result CSV: the header does not start "Driver,Profile,Same node,Host Network"',
    );
  }
  let records: string[][];
  try {
    records = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new ImportError(`k8s-netperf CSV: ${(error as Error).message}`);
  }
  const [header, ...lines] = records;
  const column = new Map(header!.map((name, i) => [name, i]));
  for (const required of ["Avg Throughput", "Throughput Metric"]) {
    if (!column.has(required)) throw new ImportError(`k8s-netperf CSV: no "${required}" column in the header`);
  }
  const rows: Row[] = lines.map((cells) => {
    const cell = (name: string) => {
      const i = column.get(name);
      return i === undefined ? undefined : cells[i];
    };
    const lo = finite(cell("Confidence metric - low"));
    const hi = finite(cell("Confidence metric - high"));
    return {
      ...testOf(cell, CSV_COLUMNS),
      ci: lo !== undefined && hi !== undefined ? [lo, hi] : undefined,
      throughput: finite(cell("Avg Throughput")),
      throughputUnit: cell("Throughput Metric") ?? "",
      latency: finite(cell("99%tile Observed Latency")),
      latencyUnit: cell("Latency Metric") ?? "usec",
    };
  });
  return build(rows, {}, undefined, "CSV");
}

function parseK8sNetperfJson(text: string): ParsedRun {
  const docs = parseJson(text, "k8s-netperf JSON");
  if (!looksLikeK8sNetperfJson(docs)) {
    throw new ImportError(
      'not k8s-netperf JSON: not an array of documents with "profile", "throughput" and "tputMetric"',
    );
  }
  const list = docs as Record<string, unknown>[];
  const rows: Row[] = list.map((d) => {
    const confidence = Array.isArray(d.confidence) ? d.confidence.map(finite) : [];
    return {
      driver: typeof d.driver === "string" ? d.driver : "",
      profile: d.profile as string,
      sameNode: d.local === true,
      hostNetwork: d.hostNetwork === true,
      service: d.service === true,
      externalServer: d.externalServer === true,
      virt: d.virt === true,
      parallelism: finite(d.parallelism),
      samples: finite(d.samples),
      messageSize: finite(d.messageSize),
      burst: finite(d.burst),
      ci:
        confidence.length === 2 && confidence[0] !== undefined && confidence[1] !== undefined
          ? [confidence[0], confidence[1]]
          : undefined,
      throughput: finite(d.throughput),
      throughputUnit: typeof d.tputMetric === "string" ? d.tputMetric : "",
      latency: finite(d.latency),
      latencyUnit: typeof d.ltcyMetric === "string" ? d.ltcyMetric : "usec",
    };
  });
  const first = list[0]!;
  const derived: EnvironmentFields = {};
  const kernel = at(first, "metadata.kernel");
  if (typeof kernel === "string" && kernel.trim() !== "") derived.kernel = kernel.trim();
  const k8s = at(first, "metadata.k8sVersion") ?? at(first, "metadata.kubelet");
  if (typeof k8s === "string" && k8s.trim() !== "") derived.k8s = k8s.trim();
  const version = typeof first.toolVersion === "string" && first.toolVersion !== "" ? first.toolVersion : undefined;
  const runAt = typeof first.timestamp === "string" ? first.timestamp : undefined;
  return build(rows, derived, version, "JSON", runAt);
}

// k8s-netperf's own spellings: OP/s are netperf transactions, usec microseconds.
const UNITS: Record<string, string> = { "OP/s": "trans/s", usec: "µs" };

function build(
  rows: Row[],
  derived: EnvironmentFields,
  version: string | undefined,
  layout: string,
  runAt?: string,
): ParsedRun {
  const results: Result[] = [];
  const skipped: string[] = [];
  rows.forEach((row, i) => {
    const where = `${layout} row ${i + 1} (${row.driver} ${row.profile})`;
    const metrics = profileMetrics(row.profile);
    if (!metrics) {
      skipped.push(`${where}: profile "${row.profile}" has no catalogue mapping`);
      return;
    }
    const params: Params = {
      driver: row.driver,
      path: row.externalServer ? "external" : row.service ? "service" : row.hostNetwork ? "node-node" : "pod-pod",
      sameNode: row.sameNode,
      ...(row.service && row.hostNetwork ? { hostNetwork: true } : {}),
      ...(row.virt ? { vm: true } : {}),
      ...(row.parallelism !== undefined ? { streams: row.parallelism } : {}),
      ...(row.messageSize !== undefined ? { messageSize: row.messageSize } : {}),
      ...(row.burst ? { burst: row.burst } : {}),
    };
    const n = row.samples;
    const several = n !== undefined && n > 1;
    const rateUnit = UNITS[row.throughputUnit] ?? row.throughputUnit;
    const latencyUnit = UNITS[row.latencyUnit] ?? row.latencyUnit;
    const rateProblem = unitProblem(metrics.rate, rateUnit);
    const latencyProblem = unitProblem(metrics.latency, latencyUnit);
    if (rateProblem) skipped.push(`${where}: ${rateProblem}`);
    if (latencyProblem) skipped.push(`${where}: latency ${latencyProblem}`);
    if (row.throughput === undefined) {
      skipped.push(`${where}: no throughput figure`);
    } else if (!rateProblem) {
      // k8s-netperf writes [0, 0] when there was one sample: no interval then.
      // The mean is printed with 6 decimals (%f), the interval in full: an interval of identical samples
      // may then miss the printed mean, and says nothing a verdict can use; it is left out.
      const ci =
        several &&
        row.ci &&
        !(row.ci[0] === 0 && row.ci[1] === 0) &&
        row.ci[0] <= row.throughput &&
        row.throughput <= row.ci[1]
          ? row.ci
          : undefined;
      const summary: ResultSummary | undefined = several
        ? { mean: row.throughput, n: n!, of: "runs", ...(ci ? { ci95: ci } : {}) }
        : undefined;
      results.push({
        metric: metrics.rate,
        value: row.throughput,
        unit: rateUnit,
        ...(several ? { aggregate: "mean" as const } : {}),
        ...(summary ? { summary } : {}),
        params,
        ...(metrics.rate.startsWith("x.") ? { better: "higher" as const } : {}),
      });
    }
    if (row.latency !== undefined && !latencyProblem) {
      results.push({
        metric: metrics.latency,
        value: row.latency,
        unit: latencyUnit,
        ...(several ? { aggregate: "mean" as const, summary: { mean: row.latency, n: n!, of: "runs" as const } } : {}),
        params: { ...params, percentile: "p99" },
        ...(metrics.latency.startsWith("x.") ? { better: "lower" as const } : {}),
      });
    }
  });
  if (results.length === 0) throw new ImportError(`k8s-netperf ${layout}: no result row with a figure`);
  return {
    results,
    derived,
    collector: { name: "k8s-netperf", ...(version ? { version } : {}) },
    ...(runAt ? { runAt } : {}),
    skipped,
  };
}

function profileMetrics(profile: string): { rate: string; latency: string } | undefined {
  switch (profile.toUpperCase()) {
    case "TCP_STREAM":
      return { rate: "tcp.throughput", latency: "x.tcp.stream.latency" };
    case "UDP_STREAM":
      return { rate: "udp.throughput", latency: "x.udp.stream.latency" };
    case "TCP_RR":
      return { rate: "tcp.rr.rate", latency: "tcp.rr.latency" };
    case "TCP_CRR":
      return { rate: "x.tcp.crr.rate", latency: "tcp.crr.latency" };
    case "UDP_RR":
      return { rate: "x.udp.rr.rate", latency: "x.udp.rr.latency" };
    default:
      return undefined;
  }
}
