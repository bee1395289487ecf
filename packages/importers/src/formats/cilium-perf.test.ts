/**
 * `cilium connectivity perf` summary tables: a real run on TKE (real/cilium-cli/tke-s5medium4-…,
 * imroc/tke-guide @ c24c3457) and excerpts from cilium-cli PR #2168 / cilium issue #32034. Figures read
 * by hand from the tables.
 */
import { fixtureText } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect.ts";
import type { Result } from "../types.ts";
import { parseCiliumPerf } from "./cilium-perf.ts";

const pick = (results: Result[], metric: string, params: Record<string, unknown>) =>
  results.filter((r) => r.metric === metric && Object.entries(params).every(([k, v]) => r.params?.[k] === v));

describe("cilium connectivity perf", () => {
  const tke = fixtureText("real/cilium-cli/tke-s5medium4-native-routing_summary.txt");

  it("TKE run: 4 TCP_RR rows × (6 latencies + rate) and 8 throughput rows", () => {
    const run = parseCiliumPerf(tke);
    expect(run.results).toHaveLength(36);
    // "📋 pod-to-pod | other-node | TCP_RR | 10s | 106µs | 146.96µs | 2.28ms | 145µs | 159µs | 183µs | 6793.74"
    const other = { path: "pod-pod", sameNode: false };
    expect(pick(run.results, "tcp.rr.latency", { ...other, percentile: "p99" })).toEqual([
      { metric: "tcp.rr.latency", value: 183, unit: "µs", params: { ...other, percentile: "p99" } },
    ]);
    expect(pick(run.results, "tcp.rr.latency", { ...other, stat: "max" })[0]).toMatchObject({
      value: 2.28,
      unit: "ms",
    });
    expect(pick(run.results, "tcp.rr.rate", other)[0]).toMatchObject({ value: 6793.74, unit: "trans/s" });
    expect(pick(run.results, "tcp.throughput", { path: "node-node", sameNode: false, streams: 1 })[0]).toMatchObject({
      value: 1589.32,
      unit: "Mb/s",
    });
    expect(
      pick(run.results, "tcp.throughput", { path: "pod-pod", sameNode: true, test: "TCP_STREAM_MULTI" })[0]?.value,
    ).toBe(19689.36);
    expect(run.skipped).toEqual([]);
    expect(detectFormat("perf.txt", tke)).toEqual({ format: "cilium-perf" });
  });

  it("PR and issue excerpts: UDP_RR and TCP_CRR too; the truncated rows are all complete lines", () => {
    const run = parseCiliumPerf(fixtureText("real/cilium-cli/pr2168_and_issue32034_excerpts.txt"));
    expect(
      pick(run.results, "tcp.crr.latency", { percentile: "p99", sameNode: true }).map((r) => [r.value, r.unit]),
    ).toEqual([
      [1.125, "ms"],
      [1.365, "ms"],
    ]);
    expect(pick(run.results, "x.udp.rr.rate", {}).map((r) => r.value)).toEqual([33049.72, 10993.48]);
    // 6 latency rows × 7 + 4 throughput rows
    expect(run.results).toHaveLength(46);
  });

  it("a row under no header, or with cells missing, is named", () => {
    const run = parseCiliumPerf(
      `${tke.split("\n").slice(0, 5).join("\n")}\n📋 pod-to-pod      | same-node  | TCP_RR | 10s\n`,
    );
    expect(run.skipped).toEqual(["line 6: 4 cells under a header of 11"]);
  });
});
