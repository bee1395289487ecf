/**
 * `cilium connectivity perf` summary tables (cilium-cli connectivity/check/context.go): rows
 * "📋 <scenario> | <node> | <test> | …" under a header row naming the columns. Latency tables
 * (Min, Mean, Max, P50, P90, P99, "Transaction rate OP/s") give, per test,
 * TCP_RR → tcp.rr.latency and tcp.rr.rate, TCP_CRR → tcp.crr.latency and x.tcp.crr.rate,
 * UDP_RR → x.udp.rr.latency and x.udp.rr.rate; throughput tables ("Throughput Mb/s") give
 * TCP_STREAM → tcp.throughput (streams 1) and TCP_STREAM_MULTI → tcp.throughput with param
 * test "TCP_STREAM_MULTI" (several streams; the table does not say how many). Scenario pod-to-pod is
 * path pod-pod, host-to-host node-node; Node same-node is sameNode true. Latencies keep the unit
 * printed with each figure (µs, ms); the normaliser converts them.
 */
import { ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { finite, unitProblem } from "../util.ts";

const ROW = /^📋[^\S\n]*(.*)$/u;

export function looksLikeCiliumPerf(text: string): boolean {
  return /Network Performance Test Summary/.test(text) || /^📋[^\S\n]*Scenario[^\S\n]*\|/mu.test(text);
}

const LATENCY_COLUMNS: Record<string, Params> = {
  Min: { stat: "min" },
  Mean: { stat: "avg" },
  Max: { stat: "max" },
  P50: { percentile: "p50" },
  P90: { percentile: "p90" },
  P99: { percentile: "p99" },
};

const TESTS: Record<string, { latency?: string; rate?: string; throughput?: Params }> = {
  TCP_RR: { latency: "tcp.rr.latency", rate: "tcp.rr.rate" },
  TCP_CRR: { latency: "tcp.crr.latency", rate: "x.tcp.crr.rate" },
  UDP_RR: { latency: "x.udp.rr.latency", rate: "x.udp.rr.rate" },
  TCP_STREAM: { throughput: { streams: 1 } },
  TCP_STREAM_MULTI: { throughput: { test: "TCP_STREAM_MULTI" } },
};

const PATHS: Record<string, string> = { "pod-to-pod": "pod-pod", "host-to-host": "node-node" };

export function parseCiliumPerf(text: string): ParsedRun {
  if (!looksLikeCiliumPerf(text)) {
    throw new ImportError(
      'not `cilium connectivity perf` output: no "Network Performance Test Summary" or "📋 Scenario |" header',
    );
  }
  const results: Result[] = [];
  const skipped: string[] = [];
  let header: string[] | undefined;
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    const row = ROW.exec(line.trimEnd())?.[1];
    if (row === undefined) return;
    const cells = row.split("|").map((c) => c.trim());
    if (cells[0] === "Scenario") {
      header = cells;
      return;
    }
    const where = `line ${index + 1}`;
    if (!header || cells.length !== header.length) {
      skipped.push(
        `${where}: ${header ? `${cells.length} cells under a header of ${header.length}` : "a row before any header"}`,
      );
      return;
    }
    const cell = (name: string) => cells[header!.indexOf(name)];
    const [scenario, node, test] = [cell("Scenario") ?? "", cell("Node") ?? "", cell("Test") ?? ""];
    const mapping = TESTS[test];
    if (!mapping) {
      skipped.push(`${where}: test "${test}" has no catalogue mapping`);
      return;
    }
    const params: Params = { path: PATHS[scenario] ?? scenario, sameNode: node === "same-node" };
    const throughputColumn = header.find((h) => /^Throughput /.test(h));
    if (mapping.throughput && throughputColumn) {
      const value = finite(cell(throughputColumn));
      const unit = throughputColumn.replace(/^Throughput\s+/, "");
      const problem = unitProblem("tcp.throughput", unit);
      if (problem) skipped.push(`${where}: ${problem}`);
      else if (value === undefined) skipped.push(`${where}: throughput "${cell(throughputColumn)}" is not a number`);
      else results.push({ metric: "tcp.throughput", value, unit, params: { ...params, ...mapping.throughput } });
      return;
    }
    if (mapping.latency) {
      for (const [column, extra] of Object.entries(LATENCY_COLUMNS)) {
        const raw = cell(column);
        if (raw === undefined) continue;
        const m = /^(\d+(?:\.\d+)?)(ns|µs|μs|us|ms|s)$/u.exec(raw);
        if (!m) {
          skipped.push(`${where}: ${column} "${raw}" is not a duration`);
          continue;
        }
        results.push({
          metric: mapping.latency,
          value: Number(m[1]),
          unit: m[2] === "μs" ? "µs" : m[2]!,
          params: { ...params, ...extra },
          ...(mapping.latency.startsWith("x.") ? { better: "lower" as const } : {}),
        });
      }
      const rateColumn = header.find((h) => /^Transaction rate/.test(h));
      const rate = rateColumn ? finite(cell(rateColumn)) : undefined;
      if (rate !== undefined && mapping.rate) {
        results.push({
          metric: mapping.rate,
          value: rate,
          unit: "trans/s",
          params,
          ...(mapping.rate.startsWith("x.") ? { better: "higher" as const } : {}),
        });
      }
    }
  });
  if (results.length === 0) throw new ImportError("cilium connectivity perf: no complete result row under a header");
  return { results, derived: {}, collector: { name: "cilium-cli connectivity perf" }, skipped };
}
