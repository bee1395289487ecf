/**
 * netperf omni output: `-o` (a header line of human-readable column names, then a CSV line) and
 * `-k` (SELECTOR=value lines). Latencies are microseconds (netperf.texi: MIN/MEAN/P50/P90/P99/
 * MAX_LATENCY). TCP_RR gives tcp.rr.latency and tcp.rr.rate, TCP_CRR tcp.crr.latency; the test is
 * read from the command line when the file has one, else from the "MIGRATED … TEST" banner, else
 * from the units (Trans/s means request/response; omni's default protocol is TCP).
 */
import { ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { finite } from "../util.ts";

/** Human-readable omni column names (`-o`) to selector names (`-k`). */
const columnSelectors: Record<string, string> = {
  "minimum latency microseconds": "MIN_LATENCY",
  "maximum latency microseconds": "MAX_LATENCY",
  "mean latency microseconds": "MEAN_LATENCY",
  "stddev latency microseconds": "STDDEV_LATENCY",
  "50th percentile latency microseconds": "P50_LATENCY",
  "90th percentile latency microseconds": "P90_LATENCY",
  "99th percentile latency microseconds": "P99_LATENCY",
  "transaction rate tran/s": "TRANSACTION_RATE",
  throughput: "THROUGHPUT",
  "throughput units": "THROUGHPUT_UNITS",
};

type Test = "TCP_RR" | "TCP_CRR" | "TCP_STREAM" | "UDP_RR" | "UDP_STREAM";

type Block = { test?: Test; values: Record<string, string>; command?: string; comment?: string };

export function looksLikeNetperf(text: string): boolean {
  return (
    /Latency Microseconds/i.test(text) ||
    /^(MIGRATED|OMNI) .*TEST/m.test(text) ||
    /^(THROUGHPUT|P50_LATENCY|MEAN_LATENCY|TRANSACTION_RATE)=/m.test(text)
  );
}

function testFromBanner(line: string): Test | undefined {
  const upper = line.toUpperCase();
  if (/TCP CONNECT\/REQUEST\/RESPONSE/.test(upper)) return "TCP_CRR";
  if (/TCP REQUEST\/RESPONSE/.test(upper)) return "TCP_RR";
  if (/UDP REQUEST\/RESPONSE/.test(upper)) return "UDP_RR";
  if (/TCP STREAM/.test(upper)) return "TCP_STREAM";
  if (/UDP STREAM/.test(upper)) return "UDP_STREAM";
  return undefined;
}

function testFromCommand(command: string): Test | undefined {
  const t = /-t\s*([A-Za-z_]+)/.exec(command)?.[1]?.toUpperCase();
  if (t === "OMNI") {
    const direction = /-d\s*(\w+)/.exec(command)?.[1]?.toLowerCase();
    const udp = /-T\s*udp/i.test(command);
    if (direction === "rr") return udp ? "UDP_RR" : "TCP_RR";
    return udp ? "UDP_STREAM" : "TCP_STREAM";
  }
  if (t === "TCP_RR" || t === "TCP_CRR" || t === "TCP_STREAM" || t === "UDP_RR" || t === "UDP_STREAM") return t;
  return undefined;
}

/** Splits a file into measurement blocks: each value line (or key=value group) is one netperf run. */
function readBlocks(text: string): { blocks: Block[]; problems: string[] } {
  const blocks: Block[] = [];
  // Same problem on several lines is said once: "lines 7, 11: …".
  const byMessage = new Map<string, number[]>();
  const problem = (line: number, message: string) => byMessage.set(message, [...(byMessage.get(message) ?? []), line]);
  let header: string[] | undefined;
  let test: Test | undefined;
  let command: string | undefined;
  let comment: string | undefined;
  let keyval: Record<string, string> | undefined;
  const flushKeyval = () => {
    if (keyval && Object.keys(keyval).length > 0) blocks.push({ test, values: keyval, command, comment });
    keyval = undefined;
  };
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("```")) return;
    if (line.startsWith("#")) {
      flushKeyval();
      comment = line.replace(/^#+\s*/, "");
      return;
    }
    const commandLine = /^\$?\s*(netperf\s.*)$/.exec(line)?.[1];
    if (commandLine) {
      flushKeyval();
      command = commandLine;
      test = testFromCommand(commandLine) ?? test;
      header = undefined;
      return;
    }
    if (/^(MIGRATED|OMNI)\b.*TEST/i.test(line)) {
      flushKeyval();
      test = testFromBanner(line) ?? (command ? testFromCommand(command) : undefined);
      header = undefined;
      return;
    }
    const kv = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (kv) {
      keyval ??= {};
      keyval[kv[1]!] = kv[2]!.trim();
      return;
    }
    const cells = line.split(",").map((c) => c.trim());
    if (cells.some((c) => c.toLowerCase() in columnSelectors) || cells.includes("...")) {
      flushKeyval();
      header = cells;
      return;
    }
    if (header && cells.length > 0 && finite(cells[0]) !== undefined) {
      if (header.includes("...") || header.length !== cells.length) {
        problem(
          index + 1,
          `${cells.length} values under a header of ${header.length} columns${
            header.includes("...") ? ' (the header is abbreviated with "...")' : ""
          }, so the columns cannot be named`,
        );
        return;
      }
      const values: Record<string, string> = {};
      header.forEach((name, i) => {
        const selector = columnSelectors[name.toLowerCase()] ?? name.toUpperCase().replace(/\W+/g, "_");
        values[selector] = cells[i]!;
      });
      blocks.push({ test, values, command, comment });
      return;
    }
    if (finite(cells[0]) !== undefined) problem(index + 1, "values without a header line");
  });
  flushKeyval();
  const problems = [...byMessage].map(
    ([message, lines]) => `line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}: ${message}`,
  );
  return { blocks, problems };
}

export function parseNetperf(text: string, extraParams: Params = {}): ParsedRun[] {
  if (!looksLikeNetperf(text)) throw new ImportError("not netperf omni output: no latency/throughput columns or keys");
  const { blocks, problems } = readBlocks(text);
  if (blocks.length === 0) {
    throw new ImportError(
      `netperf output without a measurement${problems.length ? `: ${problems.join("; ")}` : " (no value line under the header)"}`,
    );
  }
  // Repeated blocks of one test are separate runs (e.g. with and without a setting): one bundle each.
  const seen = new Map<string, number>();
  const runs: ParsedRun[] = [];
  blocks.forEach((block, index) => {
    const test = block.test ?? inferTest(block.values);
    const key = test ?? "?";
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const run = runs[n - 1] ?? {
      results: [],
      derived: {},
      collector: { name: "netperf", ...(block.command ? { command: block.command } : {}) },
      skipped: [...(n === 1 ? problems : [])],
      ...(n > 1 ? { part: `run ${n}` } : {}),
    };
    runs[n - 1] = run;
    if (!test) {
      run.skipped.push(`block ${index + 1}: cannot tell the netperf test (no command line, banner or Trans/s unit)`);
      return;
    }
    run.results.push(...blockResults(test, block, extraParams, run.skipped));
  });
  for (const run of runs) {
    if (run.results.length === 0) {
      throw new ImportError(`netperf output without an importable figure: ${run.skipped.join("; ") || "no values"}`);
    }
  }
  return runs;
}

function inferTest(values: Record<string, string>): Test | undefined {
  const units = values.THROUGHPUT_UNITS?.toLowerCase();
  if (units?.startsWith("trans")) return "TCP_RR";
  if (units && /bits\/s|bytes\/s/.test(units)) return "TCP_STREAM";
  return undefined;
}

function blockResults(test: Test, block: Block, extraParams: Params, skipped: string[]): Result[] {
  const v = block.values;
  const num = (key: string) => finite(v[key]);
  const note = block.comment;
  const withNote = (r: Result): Result => (note ? { ...r, note } : r);
  const results: Result[] = [];
  const latencyMetric =
    test === "TCP_RR"
      ? "tcp.rr.latency"
      : test === "TCP_CRR"
        ? "tcp.crr.latency"
        : test === "UDP_RR"
          ? "x.udp.rr.latency"
          : undefined;
  if (latencyMetric) {
    const better = latencyMetric.startsWith("x.") ? ({ better: "lower" } as const) : {};
    const latency = (key: string, params: Params) => {
      const value = num(key);
      if (value !== undefined) {
        results.push(
          withNote({ metric: latencyMetric, value, unit: "µs", params: { ...params, ...extraParams }, ...better }),
        );
      }
    };
    latency("P50_LATENCY", { percentile: "p50" });
    latency("P90_LATENCY", { percentile: "p90" });
    latency("P99_LATENCY", { percentile: "p99" });
    latency("MEAN_LATENCY", { stat: "avg" });
    latency("MAX_LATENCY", { stat: "max" });
    // For request/response tests netperf's THROUGHPUT is the transaction rate (THROUGHPUT_UNITS "Trans/s").
    const units = v.THROUGHPUT_UNITS?.toLowerCase();
    const rate =
      num("TRANSACTION_RATE") ?? (units === undefined || units.startsWith("trans") ? num("THROUGHPUT") : undefined);
    const rateMetric = test === "TCP_RR" ? "tcp.rr.rate" : test === "TCP_CRR" ? "x.tcp.crr.rate" : "x.udp.rr.rate";
    if (rate !== undefined) {
      results.push(
        withNote({
          metric: rateMetric,
          value: rate,
          unit: "trans/s",
          params: { ...extraParams },
          ...(rateMetric.startsWith("x.") ? { better: "higher" as const } : {}),
        }),
      );
    }
  } else {
    const throughput = num("THROUGHPUT");
    const unit = bitrateUnit(v.THROUGHPUT_UNITS);
    if (throughput !== undefined && unit) {
      // UDP_STREAM's throughput is what the receiving side counted: what arrived, the headline.
      const metric = test === "TCP_STREAM" ? "tcp.throughput" : "udp.throughput";
      results.push(
        withNote({
          metric,
          value: throughput,
          unit,
          params: { ...extraParams },
          ...(metric.startsWith("x.") ? { better: "higher" as const } : {}),
        }),
      );
    } else if (throughput !== undefined) {
      skipped.push(`${test} throughput ${throughput} without a THROUGHPUT_UNITS column, so its unit is not known`);
    }
  }
  return results;
}

/** netperf's unit strings ("10^6bits/s", "10^9bits/s", "Trans/s") to catalogue spellings. */
function bitrateUnit(units: string | undefined): string | undefined {
  if (!units) return undefined;
  const m = /^10\^(\d+)bits\/s$/i.exec(units.trim());
  if (m) return { "0": "bit/s", "3": "Kbit/s", "6": "Mbit/s", "9": "Gbit/s" }[m[1]!];
  const bytes = /^10\^(\d+)bytes\/s$/i.exec(units.trim());
  if (bytes) return { "0": "B/s", "3": "KB/s", "6": "MB/s", "9": "GB/s" }[bytes[1]!];
  return undefined;
}
