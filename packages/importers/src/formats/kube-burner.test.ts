/**
 * kube-burner quantile measurements: the documented examples (real/kube-burner, kube-burner docs/
 * measurements/index.md @ bfb5794a; the pod and service ones are not valid JSON as documented).
 * Figures read by hand from the files.
 */
import { fixtureText } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect.ts";
import { ImportError } from "../types.ts";
import { parseKubeBurner } from "./kube-burner.ts";

describe("kube-burner measurements", () => {
  it("netpolLatencyQuantilesMeasurement (a JSON array): x.netpol.latency per phase, ms", () => {
    const text = fixtureText("real/kube-burner/netpolLatencyQuantilesMeasurement_doc_example.json");
    const run = parseKubeBurner(text);
    // 2 documents × P50, P95, P99, avg, max (no min in the file)
    expect(run.results).toHaveLength(10);
    expect(run.results[0]).toEqual({
      metric: "x.netpol.latency",
      value: 2077,
      unit: "ms",
      params: { job: "network-policy-perf", phase: "Ready", percentile: "p50" },
      better: "lower",
    });
    expect(run.results.find((r) => r.params?.phase === "minReady" && r.params?.stat === "avg")?.value).toBe(2245);
    expect(run.runAt).toBe("2024-10-10T10:39:29.059701196Z");
    expect(run.skipped).toEqual([]);
    expect(detectFormat("netpolLatencyQuantilesMeasurement-network-policy-perf.json", text)).toEqual({
      format: "kube-burner",
    });
  });

  it("its log (real run, kube-burner PR 200): refused, naming the quantile files to send", () => {
    const text = fixtureText("real/kube-burner/pr200_realrun_log_quantiles.txt");
    expect(detectFormat("kube-burner.log", text)).toEqual({
      format: null,
      reason: expect.stringContaining("send the <measurement>QuantilesMeasurement-<job>.json files"),
    });
  });

  it("podLatencyQuantilesMeasurement (documented, repaired): Ready is pod.startup.latency", () => {
    const text = fixtureText("real/kube-burner/podLatencyQuantilesMeasurement_doc_example.json");
    expect(detectFormat("x.json", text)).toEqual({ format: "kube-burner" });
    const run = parseKubeBurner(text);
    expect(run.results.filter((r) => r.metric === "pod.startup.latency").map((r) => [r.params, r.value])).toEqual([
      [{ percentile: "p50" }, 2897],
      [{ percentile: "p95" }, 3510],
      [{ percentile: "p99" }, 3774],
      [{ stat: "avg" }, 2876.3],
      [{ stat: "max" }, 3774],
    ]);
    expect(run.results.find((r) => r.params?.phase === "PodScheduled" && r.params?.percentile === "p99")).toMatchObject(
      {
        metric: "x.pod.phase.latency",
        value: 64,
      },
    );
    expect(run.skipped[0]).toMatch(/repaired for reading/);
  });

  it("svcLatencyQuantilesMeasurement: nanoseconds", () => {
    const run = parseKubeBurner(fixtureText("real/kube-burner/svcLatencyQuantilesMeasurement_doc_example.json"));
    expect(run.results.find((r) => r.params?.phase === "Ready" && r.params?.percentile === "p99")).toMatchObject({
      metric: "x.service.latency",
      value: 1867593282,
      unit: "ns",
    });
  });

  it("per-object documents and the job summary are refused with a pointer to the quantile file", () => {
    expect(() => parseKubeBurner(fixtureText("real/kube-burner/podLatencyMeasurement_doc_example.json"))).toThrow(
      /podLatencyMeasurement is one document per object; its <measurement>QuantilesMeasurement file summarises it/,
    );
    expect(() => parseKubeBurner(fixtureText("real/kube-burner/jobSummary_doc_example.json"))).toThrow(ImportError);
  });
});
