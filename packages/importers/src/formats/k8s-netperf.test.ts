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

describe("k8s-netperf results", () => {
  const csv = fixtureText("real/k8s-netperf/docs_example_result.csv");

  it("CSV: each row's mean of 3 samples with its 95 % interval, as summary statistics", () => {
    const run = parseK8sNetperf(csv);
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

  it("its printed tables (real stdout, e2e-benchmarking PR 575): refused, naming the files to send", () => {
    const text = fixtureText("real/k8s-netperf/e2e-benchmarking_pr575_stdout_table_TRUNCATED.txt");
    expect(detectFormat("k8s-netperf.log", text)).toEqual({
      format: null,
      reason: expect.stringContaining("send the result-<unix>.csv k8s-netperf writes beside them"),
    });
  });

  it("JSON (synthetic from archive.go): the same rows, kernel and Kubernetes version from metadata", () => {
    const text = fixtureText("synthetic/k8s-netperf/k8s-netperf_json_synthetic_from_csv_example.json");
    const run = parseK8sNetperf(text);
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
    const run = parseK8sNetperf(one);
    expect(run.results[0]).not.toHaveProperty("summary");
    expect(run.results[0]).not.toHaveProperty("aggregate");
  });

  it("an unknown profile is named, not guessed", () => {
    const run = parseK8sNetperf(
      csv.replace(
        "netperf,TCP_STREAM,false,false,false,false,10,1,3,8192",
        "uperf,SCTP_STREAM,false,false,false,false,10,1,3,8192",
      ),
    );
    expect(run.skipped).toEqual(['CSV row 2 (uperf SCTP_STREAM): profile "SCTP_STREAM" has no catalogue mapping']);
  });
});
