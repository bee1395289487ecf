/**
 * vegeta reports (tsenart/vegeta lib/reporters.go, lib/metrics.go): `vegeta report` text and
 * `vegeta report -type=json`. One report is one attack, at a fixed rate: the figures are
 * - throughput (successful requests per second over attack + wait) → http.qps.achieved, with qps the
 *   attack's pace: rate = requests / (latest − earliest) spans requests − 1 intervals, so the
 *   pace is rate × (requests − 1) / requests, rounded (the report does not print -rate itself);
 * - latencies (min, mean, 50, 90, 95, 99, max over all requests) → http.latency with percentile or stat;
 * - success ratio → x.http.success (%).
 * The text layout's durations are Go's (1m0s, 59.99s, 21.4ms, 850µs); JSON durations are nanoseconds.
 * Several JSON reports of one run's concurrent clients (vegeta's distributed attack: the same attack from
 * several machines at once, each reported on its own) are one run: concurrentClients reads them as one,
 * each figure's clients as its samples with samplesAre "clients".
 */
import { ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { at, finite, isObject, parseJson } from "../util.ts";

export function looksLikeVegetaText(text: string): boolean {
  return /^Requests[^\S\n]+\[total, rate, throughput\]/m.test(text) && /^Latencies[^\S\n]+\[/m.test(text);
}

export function looksLikeVegetaJson(doc: unknown): boolean {
  return isObject(doc) && isObject(doc.latencies) && "requests" in doc && "throughput" in doc && "rate" in doc;
}

type Figures = {
  requests: number;
  rate: number;
  throughput: number;
  success: number | undefined;
  latencies: { name: string; seconds: number }[];
  runAt?: string;
  errors: number;
};

export function parseVegeta(text: string): ParsedRun {
  return text.trimStart().startsWith("{") ? parseVegetaJson(text) : parseVegetaText(text);
}

function parseVegetaJson(text: string): ParsedRun {
  const doc = parseJson(text, "vegeta JSON");
  if (!looksLikeVegetaJson(doc)) {
    throw new ImportError('not a vegeta JSON report: no "latencies", "requests", "rate" and "throughput"');
  }
  const need = (path: string) => {
    const value = finite(at(doc, path));
    if (value === undefined) throw new ImportError(`vegeta JSON: ${path} is missing or not a number`);
    return value;
  };
  const latencies: Figures["latencies"] = [];
  for (const key of ["min", "mean", "50th", "90th", "95th", "99th", "max"]) {
    const ns = finite(at(doc, `latencies.${key}`));
    if (ns !== undefined) latencies.push({ name: key.replace(/th$/, ""), seconds: ns / 1e9 });
  }
  const codes = at(doc, "status_codes");
  const errors = isObject(codes)
    ? Object.entries(codes)
        .filter(([code]) => !/^[23]\d\d$/.test(code))
        .reduce((n, [, count]) => n + (finite(count) ?? 0), 0)
    : 0;
  const earliest = at(doc, "earliest");
  const success = finite(at(doc, "success"));
  return build({
    requests: need("requests"),
    rate: need("rate"),
    throughput: need("throughput"),
    success: success === undefined ? undefined : success * 100,
    latencies,
    errors,
    ...(typeof earliest === "string" && /^\d{4}-\d{2}-\d{2}T/.test(earliest) && !earliest.startsWith("0001-")
      ? { runAt: earliest }
      : {}),
  });
}

function parseVegetaText(text: string): ParsedRun {
  if (!looksLikeVegetaText(text)) {
    throw new ImportError('not a vegeta text report: no "Requests [total, rate, throughput]" and "Latencies" lines');
  }
  const row = (name: string) => {
    const match = new RegExp(`^${name}[^\\S\\n]+\\[([^\\]\\n]*)\\][^\\S\\n]+([^\\n]*)$`, "m").exec(text);
    if (!match) return undefined;
    const keys = match[1]!.split(",").map((k) => k.trim());
    const values = match[2]!.split(",").map((v) => v.trim());
    return new Map(keys.map((k, i) => [k, values[i] ?? ""]));
  };
  const requests = row("Requests");
  const number = (map: Map<string, string> | undefined, key: string, what: string) => {
    const value = finite(map?.get(key));
    if (value === undefined) throw new ImportError(`vegeta text: ${what} is missing or not a number`);
    return value;
  };
  const latencies: Figures["latencies"] = [];
  for (const [key, raw] of row("Latencies") ?? []) {
    const seconds = goDuration(raw);
    if (seconds === undefined) throw new ImportError(`vegeta text: latency "${key}" is not a duration ("${raw}")`);
    latencies.push({ name: key, seconds });
  }
  const ratio = /^([\d.]+)%$/.exec(row("Success")?.get("ratio") ?? "")?.[1];
  const codesLine = /^Status Codes[^\S\n]+\[code:count\][^\S\n]+([^\n]*)$/m.exec(text)?.[1] ?? "";
  const errors = [...codesLine.matchAll(/(\S+):(\d+)/g)]
    .filter((m) => !/^[23]\d\d$/.test(m[1]!))
    .reduce((n, m) => n + Number(m[2]), 0);
  return build({
    requests: number(requests, "total", "Requests total"),
    rate: number(requests, "rate", "Requests rate"),
    throughput: number(requests, "throughput", "Requests throughput"),
    success: finite(ratio),
    latencies,
    errors,
  });
}

function build(f: Figures): ParsedRun {
  if (f.requests <= 0) throw new ImportError("vegeta report: no requests were made");
  const qps = Math.round((f.rate * (f.requests - 1)) / f.requests);
  const base: Params = { qps };
  const results: Result[] = [
    {
      metric: "http.qps.achieved",
      value: f.throughput,
      unit: "req/s",
      params: base,
      note: `vegeta's throughput: successful requests per second; qps is the attack's pace, from its rate ${f.rate}`,
    },
  ];
  for (const l of f.latencies) {
    const params: Params = /^\d+$/.test(l.name)
      ? { ...base, percentile: `p${l.name}` }
      : { ...base, stat: l.name === "mean" ? "avg" : l.name };
    results.push({ metric: "http.latency", value: l.seconds, unit: "s", params });
  }
  if (f.success !== undefined) {
    results.push({ metric: "x.http.success", value: f.success, unit: "%", better: "higher", params: base });
  }
  const skipped =
    f.errors > 0 ? [`${f.errors} requests failed (status code 0, 4xx or 5xx); the latencies include them`] : [];
  return {
    results,
    derived: {},
    collector: { name: "vegeta" },
    ...(f.runAt ? { runAt: f.runAt } : {}),
    skipped,
  };
}

const GO_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** Go's time.Duration.String() ("1h2m3.5s", "850µs", "0s") in seconds; undefined when it is not one. */
export function goDuration(text: string): number | undefined {
  if (text === "0" || text === "0s") return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * GO_UNITS[p[2]!]!, 0);
}

/** A JSON report as one client of a distributed attack: its run, requests and attack window (ms). */
type Client = { name: string; run: ParsedRun; requests: number; start: number; end: number; qps: number };

function clientOf(name: string, text: string): Client | undefined {
  // Cheap first: most JSON in a result tree is no vegeta report, and parsing it all costs.
  if (!text.includes('"latencies"') || !text.includes('"earliest"')) return undefined;
  let run: ParsedRun;
  try {
    run = parseVegetaJson(text);
  } catch (error) {
    if (error instanceof ImportError) return undefined;
    throw error;
  }
  const doc = JSON.parse(text) as unknown;
  const start = Date.parse(String(at(doc, "earliest")));
  const end = Date.parse(String(at(doc, "latest")));
  const qps = run.results[0]?.params?.qps;
  // Go's zero time (a report of no results) is year 1: no window then.
  if (!(start > 0 && end >= start) || typeof qps !== "number") return undefined;
  return { name, run, requests: finite(at(doc, "requests")) ?? 0, start, end, qps };
}

/**
 * The JSON reports among `reports` that are concurrent clients of one run: in one folder, at the same
 * pace, their attack windows (earliest–latest request) overlapping. Each group of two or more becomes
 * one run (mergeClients); the other reports are left to be read one by one.
 */
export function concurrentClients(
  reports: readonly { name: string; folder: string; text: string }[],
): { names: string[]; run: ParsedRun }[] {
  const byPace = new Map<string, Client[]>();
  for (const r of reports) {
    const client = clientOf(r.name, r.text);
    if (!client) continue;
    const key = `${r.folder}\u0000${client.qps}`;
    const same = byPace.get(key);
    if (same) same.push(client);
    else byPace.set(key, [client]);
  }
  const groups: { names: string[]; run: ParsedRun }[] = [];
  for (const clients of byPace.values()) {
    clients.sort((a, b) => a.start - b.start);
    let group: Client[] = [];
    let end = Number.NEGATIVE_INFINITY;
    const close = () => {
      if (group.length > 1) groups.push({ names: group.map((c) => c.name), run: mergeClients(group) });
    };
    for (const c of clients) {
      if (c.start > end) {
        close();
        group = [];
      }
      group.push(c);
      end = Math.max(end, c.end);
    }
    close();
  }
  return groups;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * One run from its clients' reports. Exact where the reports allow: the throughput and the pace are
 * the clients' sums, the mean latency and the success ratio their means weighted by requests, min and
 * max the extremes. A percentile cannot be had from the clients' percentiles: the median of theirs,
 * said in a note (`vegeta report` over all the clients' results gives the run's own). Every figure but
 * the sums keeps the clients' values as samples, samplesAre "clients": one run to verdicts.
 */
function mergeClients(clients: readonly Client[]): ParsedRun {
  const qps = sum(clients.map((c) => c.qps));
  const weights = clients.map((c) => c.requests);
  const n = clients.length;
  const skipped: string[] = [];
  const results: Result[] = [];
  const keyOf = (r: Result) => `${r.metric}\u0000${r.params?.stat ?? ""}\u0000${r.params?.percentile ?? ""}`;
  for (const first of clients[0]!.run.results) {
    const values = clients.map((c) => c.run.results.find((r) => keyOf(r) === keyOf(first))?.value);
    const label = `${first.metric} ${first.params?.percentile ?? first.params?.stat ?? ""}`.trim();
    if (values.some((v) => v === undefined)) {
      skipped.push(`${label}: not in every client's report`);
      continue;
    }
    const of = values as number[];
    const params: Params = { ...first.params, qps };
    const clientsNote = `${n} concurrent clients of one run (vegeta's distributed attack)`;
    if (first.metric === "http.qps.achieved") {
      results.push({ ...first, params, value: sum(of), note: `the sum of the throughput of ${clientsNote}` });
      continue;
    }
    const stat = first.params?.stat;
    let value: number;
    let note: string;
    if (stat === "min" || stat === "max") {
      value = stat === "min" ? Math.min(...of) : Math.max(...of);
      note = `the ${stat} over ${clientsNote}`;
    } else if (stat === "avg" || first.metric === "x.http.success") {
      value = sum(of.map((v, i) => v * weights[i]!)) / sum(weights);
      note = `over ${clientsNote}, weighted by their requests`;
    } else {
      const sorted = [...of].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      value = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
      note = `the median of the ${first.params?.percentile} of ${clientsNote}; \`vegeta report\` over all their results gives the run's own`;
    }
    results.push({
      ...first,
      params,
      value,
      ...(stat === undefined && first.metric === "http.latency" ? { aggregate: "median" as const } : {}),
      samples: of,
      samplesAre: "clients",
      note,
    });
  }
  const runAt = clients.map((c) => c.run.runAt).find((t) => t !== undefined);
  return {
    results,
    derived: {},
    collector: { name: "vegeta" },
    ...(runAt ? { runAt } : {}),
    skipped: [...skipped, ...clients.flatMap((c) => c.run.skipped.map((s) => `${c.name}: ${s}`))],
  };
}
