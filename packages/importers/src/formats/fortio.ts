/**
 * fortio results: the JSON of `fortio load -json` / the REST API, and the text `fortio load` prints.
 * A run at a fixed rate gives http.qps.achieved (ActualQPS at RequestedQPS); a run at "max" gives
 * http.rps. Latency percentiles are published in seconds (DurationHistogram.Percentiles[].Value);
 * they stay in seconds here and the normaliser converts them to the catalogue's ms.
 */
import { ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { at, finite, isObject, type Json, parseJson, percentileName } from "../util.ts";

export function looksLikeFortio(doc: unknown): boolean {
  return isObject(doc) && "ActualQPS" in doc && ("DurationHistogram" in doc || "RunType" in doc);
}

export function looksLikeFortioText(text: string): boolean {
  return /^All done \d+ calls/m.test(text) && /^# target \d/m.test(text);
}

export function parseFortio(text: string): ParsedRun {
  return fortioFromJson(parseJson(text, "fortio JSON"));
}

export function fortioFromJson(doc: unknown, extraParams: Params = {}): ParsedRun {
  if (!looksLikeFortio(doc)) throw new ImportError("not fortio JSON: no ActualQPS and DurationHistogram");
  const d = doc as Json;
  const runType = typeof d.RunType === "string" ? d.RunType : "HTTP";
  if (runType.toUpperCase() !== "HTTP") {
    throw new ImportError(`fortio RunType "${runType}" is not HTTP; only HTTP load results are imported`);
  }
  const actual = finite(d.ActualQPS);
  if (actual === undefined) throw new ImportError("fortio JSON: ActualQPS is missing or not a number");
  const threads = finite(d.NumThreads);
  const reuse = Array.isArray(d.ConnReuseRange) ? d.ConnReuseRange.map(finite) : [];
  // -keepalive=false, or a connection reuse range of exactly one request (the REST API's way).
  const short = d.DisableKeepAlive === true || (reuse.length === 2 && reuse[1] === 1);
  const base: Params = {
    connection: short ? "short" : "keepalive",
    ...(threads !== undefined ? { concurrency: threads } : {}),
    ...extraParams,
  };
  const percentiles = Array.isArray(at(d, "DurationHistogram.Percentiles"))
    ? (at(d, "DurationHistogram.Percentiles") as unknown[]).flatMap((p) => {
        const percentile = finite(at(p, "Percentile"));
        const value = finite(at(p, "Value"));
        return percentile === undefined || value === undefined ? [] : [{ percentile, value }];
      })
    : [];
  const run = rateRun({
    requested: String(d.RequestedQPS ?? ""),
    actual,
    base,
    percentiles,
    average: finite(at(d, "DurationHistogram.Avg")),
    source: "JSON",
  });
  const errors = nonOkCalls(d.RetCodes);
  if (errors > 0) run.skipped.push(`${errors} calls did not answer HTTP 200 (RetCodes); the figures include them`);
  const version = typeof d.Version === "string" && d.Version !== "" ? d.Version : undefined;
  return {
    ...run,
    collector: { name: "fortio", ...(version ? { version } : {}) },
    ...(typeof d.StartTime === "string" && d.StartTime !== "" ? { runAt: d.StartTime } : {}),
  };
}

/** `fortio load` text output (what the EKS v2 script parses): "Starting at …", "# target 99% …", "All done …". */
export function parseFortioText(text: string): ParsedRun {
  if (!looksLikeFortioText(text))
    throw new ImportError('not fortio text output: no "All done … calls" and "# target" lines');
  const started = /^Starting at (\S+) qps with (\d+) thread/m.exec(text);
  // Linear on hostile text: [^:\n] stops at the line's end, the look-behind starts a number only once
  // per run of digits, and [^\S\n] never spans lines (\s and .*?[\d.]+ made these O(n²)).
  const ended = /^Ended after [^:\n]+: \d+ calls\. qps=([\d.eE+-]+)/m.exec(text);
  const allDone = /^All done \d+ calls .*?(?<![\d.])([\d.]+) qps[^\S\n]*$/m.exec(text);
  const actual = finite(ended?.[1] ?? allDone?.[1]);
  if (actual === undefined) throw new ImportError('fortio text: no "qps=" in the "Ended after" or "All done" line');
  const command = /^\$?[^\S\n]*(fortio load\b.*)$/m.exec(text)?.[1];
  const base: Params = {};
  if (command) base.connection = /-keepalive[= ]false/.test(command) ? "short" : "keepalive";
  const threads = finite(started?.[2]);
  if (threads !== undefined) base.concurrency = threads;
  const percentiles = [...text.matchAll(/^# target ([\d.]+)% ([\d.eE+-]+)/gm)].flatMap((m) => {
    const percentile = finite(m[1]);
    const value = finite(m[2]);
    return percentile === undefined || value === undefined ? [] : [{ percentile, value }];
  });
  const average = finite(/^Aggregated Function Time : count \d+ avg ([\d.eE+-]+)/m.exec(text)?.[1]);
  const run = rateRun({ requested: started?.[1] ?? "", actual, base, percentiles, average, source: "text" });
  if (!command) run.skipped.push("no `fortio load` command line in the file, so the connection mode is not stated");
  const errors = [...text.matchAll(/^Code (-?\d+) : (\d+)/gm)]
    .filter((m) => m[1] !== "200")
    .reduce((n, m) => n + Number(m[2]), 0);
  if (errors > 0) run.skipped.push(`${errors} calls did not answer HTTP 200; the figures include them`);
  const version = /^Fortio (\S+) running/m.exec(text)?.[1];
  return { ...run, collector: { name: "fortio", ...(version ? { version } : {}), ...(command ? { command } : {}) } };
}

function rateRun(input: {
  requested: string;
  actual: number;
  base: Params;
  percentiles: { percentile: number; value: number }[];
  average: number | undefined;
  source: string;
}): { results: Result[]; derived: object; skipped: string[] } {
  const requested = finite(input.requested);
  // fortio writes RequestedQPS "max" for -qps 0 / -1: the run measures the maximum rate.
  const atMax = requested === undefined || requested <= 0;
  const qps: string | number = atMax ? "max" : requested;
  const results: Result[] = [];
  if (atMax) {
    results.push({ metric: "http.rps", value: input.actual, unit: "req/s", params: input.base });
  } else {
    results.push({ metric: "http.qps.achieved", value: input.actual, unit: "req/s", params: { qps, ...input.base } });
  }
  for (const p of input.percentiles) {
    results.push({
      metric: "http.latency",
      value: p.value,
      unit: "s",
      params: { percentile: percentileName(p.percentile), qps, ...input.base },
    });
  }
  if (input.average !== undefined) {
    results.push({
      metric: "http.latency",
      value: input.average,
      unit: "s",
      params: { stat: "avg", qps, ...input.base },
    });
  }
  return { results, derived: {}, skipped: [] };
}

function nonOkCalls(retCodes: unknown): number {
  if (!isObject(retCodes)) return 0;
  return Object.entries(retCodes)
    .filter(([code]) => code !== "200")
    .reduce((n, [, count]) => n + (finite(count) ?? 0), 0);
}
