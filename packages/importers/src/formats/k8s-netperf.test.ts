/**
 * k8s-netperf results: the documented result CSV (real/k8s-netperf/docs_example_result.csv,
 * cloud-bulldozer/k8s-netperf @ fb9a2ec1 docs/output-and-results.md, the older header without VM mode
 * and Burst) and --json output built from pkg/archive/archive.go (synthetic, make-synthetic.py).
 * Figures read by hand from the rows; that the interval is centred on the mean was checked with
 * awk 'BEGIN{print (861.9391413991156+885.2741919342178)/2}' = 873.607 (the row's Avg Throughput).
 */
import { fixtureText } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect.ts";
import type { Result } from "../types.ts";
import { parseK8sNetperf } from "./k8s-netperf.ts";

const pick = (results: Result[], metric: string, params: Record<string, unknown>) =>
  results.filter((r) => r.metric === metric && Object.entries(params).every(([k, v]) => r.params?.[k] === v));

/** The one run a CSV or JSON file holds. */
function only(text: string) {
  const runs = parseK8sNetperf(text);
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

describe("k8s-netperf results", () => {
  const csv = fixtureText("real/k8s-netperf/docs_example_result.csv");

  it("CSV: each row's mean of 3 samples with its 95 % interval, as summary statistics", () => {
    const run = only(csv);
    // 6 rows × (throughput or rate + p99 latency)
    expect(run.results).toHaveLength(12);
    const [stream] = pick(run.results, "tcp.throughput", { messageSize: 1024 });
    expect(stream).toEqual({
      metric: "tcp.throughput",
      value: 873.606667,
      unit: "Mb/s",
      aggregate: "mean",
      summary: { mean: 873.606667, n: 3, of: "runs", ci95: [861.9391413991156, 885.2741919342178] },
      params: { driver: "netperf", path: "pod-pod", sameNode: false, streams: 1, messageSize: 1024 },
    });
    const crr = pick(run.results, "x.tcp.crr.rate", { path: "service" });
    expect(crr).toHaveLength(1);
    expect(crr[0]).toMatchObject({ value: 2061.776667, unit: "trans/s", better: "higher" });
    expect(pick(run.results, "tcp.rr.rate", {})[0]).toMatchObject({ value: 9333.986667, unit: "trans/s" });
    expect(pick(run.results, "tcp.rr.latency", { percentile: "p99" })[0]).toMatchObject({
      value: 451.3333333333333,
      unit: "µs",
      summary: { mean: 451.3333333333333, n: 3, of: "runs" },
    });
    expect(pick(run.results, "udp.throughput", {})[0]?.value).toBe(788.903333);
    expect(run.skipped).toEqual([]);
    expect(detectFormat("result-1700000000.csv", csv)).toEqual({ format: "k8s-netperf" });
  });

  it("its printed tables (real stdout, e2e-benchmarking PR 575): a mean, its 95 % interval and n per row", () => {
    const text = fixtureText("real/k8s-netperf/e2e-benchmarking_pr575_stdout_table_TRUNCATED.txt");
    expect(detectFormat("k8s-netperf.log", text)).toEqual({ format: "k8s-netperf" });
    const [run, ...more] = parseK8sNetperf(text);
    expect(more).toEqual([]);
    // The file's three rows (lines 6–8), read by hand; the 3rd is cut inside its interval and is named, not read.
    expect(run?.results.map((r) => [r.metric, r.params?.driver, r.params?.path, r.value, r.unit])).toEqual([
      ["tcp.throughput", "netperf", "node-node", 7164.306667, "Mb/s"],
      ["tcp.throughput", "iperf3", "node-node", 8731.176448, "Mb/s"],
    ]);
    expect(run?.results[0]?.summary).toEqual({ mean: 7164.306667, n: 3, of: "runs", ci95: [7010.984364, 7317.628969] });
    expect(run?.results[0]?.params).toMatchObject({ streams: 1, messageSize: 8192, sameNode: false });
    expect(run?.skipped).toEqual(['line 8: cut short (no closing "|"), not read']);
  });

  it("the documented tables: throughput and p99 latency rows joined, no interval column, no summary spread", () => {
    const text = fixtureText("real/k8s-netperf/docs_output-and-results_fb9a2ec1.md");
    const runs = parseK8sNetperf(text);
    expect(runs).toHaveLength(1);
    const results = runs[0]!.results;
    // docs lines 13 and 45: netperf TCP_STREAM host network, 1024 B: 2661.006667 Mb/s, p99 71.333333 usec.
    const hostNet = (r: Result) =>
      r.params?.driver === "netperf" && r.params?.path === "node-node" && r.params?.messageSize === 1024;
    expect(pick(results, "tcp.throughput", {}).find(hostNet)).toMatchObject({
      value: 2661.006667,
      summary: { mean: 2661.006667, n: 3, of: "runs" },
    });
    expect(pick(results, "x.tcp.stream.latency", {}).find(hostNet)).toMatchObject({ value: 71.333333, unit: "µs" });
    // Its markdown table of pass/fail is no k8s-netperf table; retransmissions and loss are named.
    expect(runs[0]!.skipped).toEqual([
      'line 103: "TCP Retransmissions" is not read',
      'line 104: "TCP Retransmissions" is not read',
      'line 105: "UDP Loss Percent" is not read',
    ]);
  });

  it("JSON (synthetic from archive.go): the same rows, kernel and Kubernetes version from metadata", () => {
    const text = fixtureText("synthetic/k8s-netperf/k8s-netperf_json_synthetic_from_csv_example.json");
    const run = only(text);
    expect(pick(run.results, "tcp.throughput", {})[0]?.summary).toEqual({
      mean: 873.606667,
      n: 3,
      of: "runs",
      ci95: [861.9391413991156, 885.2741919342178],
    });
    expect(run.derived).toEqual({ kernel: "5.14.0-427.50.1.el9_4.x86_64", k8s: "v1.31.4" });
    expect(run.collector).toEqual({ name: "k8s-netperf", version: "v0.1.28" });
    expect(detectFormat("out.json", text)).toEqual({ format: "k8s-netperf" });
  });

  it("one sample: no summary (k8s-netperf writes the interval [0, 0])", () => {
    const one = csv.split("\n").slice(0, 2).join("\n").replace(",10,1,3,1024,", ",10,1,1,1024,");
    const run = only(one);
    expect(run.results[0]).not.toHaveProperty("summary");
    expect(run.results[0]).not.toHaveProperty("aggregate");
  });

  it("an unknown profile is named, not guessed", () => {
    const run = only(
      csv.replace(
        "netperf,TCP_STREAM,false,false,false,false,10,1,3,8192",
        "uperf,SCTP_STREAM,false,false,false,false,10,1,3,8192",
      ),
    );
    expect(run.skipped).toEqual(['CSV row 2 (uperf SCTP_STREAM): profile "SCTP_STREAM" has no catalogue mapping']);
  });
});
