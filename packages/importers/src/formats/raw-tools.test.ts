/**
 * Each raw tool parser against every fixture of its format. Expected values were read by hand from
 * the files; the comment on each names the JSON path or line it comes from.
 */

import { fixtureText } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { ImportError, type Result } from "../types.ts";
import { parseFortio, parseFortioText } from "./fortio.ts";
import { parseIperf3 } from "./iperf3.ts";
import { parseNetperf } from "./netperf.ts";

const find = (results: Result[], metric: string, params: Record<string, unknown> = {}) =>
  results.filter((r) => r.metric === metric && Object.entries(params).every(([k, v]) => r.params?.[k] === v));
const one = (results: Result[], metric: string, params: Record<string, unknown> = {}) => {
  const found = find(results, metric, params);
  expect(found, `${metric} ${JSON.stringify(params)}`).toHaveLength(1);
  return found[0]!;
};

describe("iperf3 -J", () => {
  it("TCP (real, iperf 3.9 in a GKE pod): receiver and sender sums kept apart", () => {
    const run = parseIperf3(fixtureText("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json"));
    // end.sum_received.bits_per_second
    expect(one(run.results, "tcp.throughput")).toMatchObject({
      value: 1709695955.1191564,
      unit: "bit/s",
      params: { streams: 1 }, // start.test_start.num_streams
    });
    // end.sum_sent.bits_per_second
    expect(one(run.results, "x.tcp.throughput.sent")).toMatchObject({ value: 1710292618.1487515, better: "higher" });
    // end.sum_sent.retransmits
    expect(one(run.results, "x.tcp.retransmits").value).toBe(1262);
    expect(run.collector).toEqual({ name: "iperf3", version: "3.9" }); // start.version "iperf 3.9"
    expect(run.runAt).toBe("2021-08-02T18:53:45Z"); // start.timestamp.timesecs 1627930425
    expect(run.derived.kernel).toBe("5.4.104+"); // start.system_info "Linux iperf3-clients-w5rnm 5.4.104+ …"
  });

  it("UDP, the old 3.1.x layout with only end.sum (real): sender rate, loss, no receiver rate", () => {
    const run = parseIperf3(fixtureText("real/iperf3/iperf3_udp_1stream_v3.1.3_0complexity_doc.json"));
    // end.sum.bits_per_second: bytes sent over the sender's time, so no headline of what arrived
    expect(one(run.results, "x.udp.throughput.sent")).toMatchObject({ value: 834711189.017002, unit: "bit/s" });
    expect(find(run.results, "udp.throughput")).toHaveLength(0);
    expect(one(run.results, "udp.loss")).toMatchObject({ value: 0.690276, unit: "%" }); // end.sum.lost_percent
    expect(one(run.results, "x.udp.jitter")).toMatchObject({ value: 0.092, unit: "ms" }); // end.sum.jitter_ms
    expect(run.skipped.join()).toMatch(/end\.sum only/);
    expect(run.derived.kernel).toBe("4.7.2-1-ARCH"); // start.system_info
    expect(run.runAt).toBe("2016-09-06T11:45:58Z"); // start.timestamp.timesecs 1473162358
  });

  it("UDP with end.sum_sent / end.sum_received (synthetic layout from iperf_api.c)", () => {
    const run = parseIperf3(fixtureText("synthetic/iperf3/iperf3_udp_synthetic_sum_sent_received_layout.json"));
    // The headline is what arrived (end.sum_received), the sender's rate an extra figure (end.sum_sent).
    expect(one(run.results, "udp.throughput").value).toBe(949986953.512505);
    expect(one(run.results, "x.udp.throughput.sent").value).toBe(1e9);
    expect(one(run.results, "udp.loss").value).toBe(5.000011579998101); // end.sum_received.lost_percent
  });

  it("refuses a truncated file, an iperf3 error document and a test that never ended, saying which", () => {
    const full = fixtureText("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json");
    expect(() => parseIperf3(full.slice(0, 4000))).toThrow(/iperf3 JSON: malformed JSON at line \d+, column \d+/);
    expect(() => parseIperf3(JSON.stringify({ start: { version: "iperf 3.16" }, error: "unable to connect" }))).toThrow(
      "iperf3 reported an error: unable to connect",
    );
    expect(() => parseIperf3(JSON.stringify({ start: { version: "iperf 3.16" }, intervals: [], end: {} }))).toThrow(
      /no end section/,
    );
    expect(() => parseIperf3(fixtureText("real/fortio/fortio_http_rest_run_json_from_readme.json"))).toThrow(
      ImportError,
    );
  });
});

describe("fortio", () => {
  it("JSON (real, README's REST run): a fixed rate gives http.qps.achieved, percentiles in seconds", () => {
    const run = parseFortio(fixtureText("real/fortio/fortio_http_rest_run_json_from_readme.json"));
    const base = { qps: 40, connection: "keepalive", concurrency: 2 }; // RequestedQPS "40", DisableKeepAlive false, NumThreads 2
    expect(one(run.results, "http.qps.achieved", base)).toMatchObject({ value: 38.44836361217263, unit: "req/s" }); // ActualQPS
    // DurationHistogram.Percentiles[Percentile=50|90|99|99.9].Value, seconds
    expect(one(run.results, "http.latency", { ...base, percentile: "p50" })).toMatchObject({
      value: 0.0004920823333333334,
      unit: "s",
    });
    expect(one(run.results, "http.latency", { percentile: "p90" }).value).toBe(0.0008427420666666666);
    expect(one(run.results, "http.latency", { percentile: "p99" }).value).toBe(0.0009216405066666668);
    expect(one(run.results, "http.latency", { percentile: "p99.9" }).value).toBe(0.0009295303506666667);
    expect(one(run.results, "http.latency", { stat: "avg" }).value).toBe(0.00058301175); // DurationHistogram.Avg
    expect(find(run.results, "http.rps")).toHaveLength(0);
    expect(run.runAt).toBe("2022-03-19T15:34:23.279389-07:00"); // StartTime
    expect(run.collector).toEqual({ name: "fortio", version: "X.Y.Z" }); // Version (README placeholder)
  });

  it("JSON at max rate with one request per connection: http.rps, connection short", () => {
    const run = parseFortio(fixtureText("synthetic/tke-benchmark-results-synthetic/rps/svc_short_c64_r1.json"));
    // RequestedQPS "max", ConnReuseRange [1, 1], NumThreads 64
    expect(one(run.results, "http.rps")).toMatchObject({ params: { connection: "short", concurrency: 64 } });
    expect(one(run.results, "http.latency", { percentile: "p99" }).params?.qps).toBe("max");
  });

  it("text output (real, README's `fortio load`)", () => {
    const run = parseFortioText(fixtureText("real/fortio/fortio_load_text_output_from_readme.txt"));
    // "Starting at 8 qps with 4 thread(s)", "Ended after 5.059691387s : 40 calls. qps=7.9056"
    expect(one(run.results, "http.qps.achieved")).toMatchObject({
      value: 7.9056,
      params: { qps: 8, connection: "keepalive", concurrency: 4 },
    });
    expect(one(run.results, "http.latency", { percentile: "p50" }).value).toBe(0.0605556); // "# target 50% 0.0605556"
    expect(one(run.results, "http.latency", { percentile: "p99" }).value).toBe(0.085936); // "# target 99% 0.085936"
    expect(one(run.results, "http.latency", { percentile: "p99.9" }).value).toBe(0.0894975);
    expect(one(run.results, "http.latency", { stat: "avg" }).value).toBe(0.060587641); // "Aggregated Function Time : count 40 avg"
    expect(run.collector).toMatchObject({ version: "X.Y.Z", command: "fortio load http://www.google.com" });
  });

  it("refuses non-HTTP runs and truncated JSON", () => {
    const doc = JSON.parse(fixtureText("real/fortio/fortio_http_rest_run_json_from_readme.json"));
    expect(() => parseFortio(JSON.stringify({ ...doc, RunType: "TCP" }))).toThrow(/RunType "TCP" is not HTTP/);
    expect(() =>
      parseFortio(fixtureText("real/fortio/fortio_http_rest_run_json_from_readme.json").slice(0, 300)),
    ).toThrow(/fortio JSON: malformed JSON/);
  });
});

describe("netperf omni", () => {
  it("-o CSV with its header line (real, netperf.texi): omni -d rr is TCP_RR", () => {
    const [run, ...more] = parseNetperf(fixtureText("real/netperf/netperf_omni_csv_example_from_manual.txt"));
    expect(more).toHaveLength(0);
    // "Throughput,Throughput Units" / "60999.07,Trans/s"
    expect(one(run!.results, "tcp.rr.rate")).toMatchObject({ value: 60999.07, unit: "trans/s" });
    expect(run!.collector.command).toBe('netperf -t omni -- -d rr -o "THROUGHPUT,THROUGHPUT_UNITS"');
  });

  it("-k key=value (real, netperf.texi)", () => {
    const [run] = parseNetperf(fixtureText("real/netperf/netperf_omni_keyval_example_from_manual.txt"));
    expect(one(run!.results, "tcp.rr.rate").value).toBe(59092.65); // THROUGHPUT=59092.65, THROUGHPUT_UNITS=Trans/s
  });

  it("TCP_RR percentiles and TCP_STREAM throughput in one file (real Go test fixture, netperf 2.7)", () => {
    const [run, ...more] = parseNetperf(
      fixtureText("real/netperf/netperf_tcp_rr_and_stream_with_percentiles_talosmobile_fixture.txt"),
    );
    expect(more).toHaveLength(0);
    const rr = run!.results;
    // "4,14.49,6655,13,17,33,68492.367,68492.37,Trans/s" under MIN,MEAN,MAX,P50,P90,P99,TRANSACTION_RATE,THROUGHPUT,UNITS
    expect(one(rr, "tcp.rr.latency", { percentile: "p50" })).toMatchObject({ value: 13, unit: "µs" });
    expect(one(rr, "tcp.rr.latency", { percentile: "p90" }).value).toBe(17);
    expect(one(rr, "tcp.rr.latency", { percentile: "p99" }).value).toBe(33);
    expect(one(rr, "tcp.rr.latency", { stat: "avg" }).value).toBe(14.49);
    expect(one(rr, "tcp.rr.latency", { stat: "max" }).value).toBe(6655);
    expect(one(rr, "tcp.rr.rate").value).toBe(68492.367);
    // "0,1.44,819,1,3,4,1.000,88361.62,10^6bits/s"
    expect(one(rr, "tcp.throughput")).toMatchObject({ value: 88361.62, unit: "Mbit/s" });
  });

  it("two TCP_CRR runs of one file are two runs (real KEP text: without and with flowtables)", () => {
    const runs = parseNetperf(fixtureText("real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt"));
    expect(runs).toHaveLength(2);
    // "41,56.63,848,11.14,17730.719" under min,mean,max,stddev,transaction_rate
    expect(one(runs[0]!.results, "tcp.crr.latency", { stat: "avg" })).toMatchObject({
      value: 56.63,
      note: "Service traffic without flowtables:",
    });
    expect(one(runs[0]!.results, "tcp.crr.latency", { stat: "max" }).value).toBe(848);
    expect(one(runs[0]!.results, "x.tcp.crr.rate").value).toBe(17730.719);
    expect(one(runs[1]!.results, "tcp.crr.latency", { stat: "avg" }).value).toBe(57.64); // "40,57.64,2244,11.85,17388.759"
    expect(runs[1]!.part).toBe("run 2");
  });

  it("says why lines under an abbreviated header cannot be read (real cilium-cli test fixture)", () => {
    expect(() => parseNetperf(fixtureText("real/cilium-cli/netperf_raw_lines_from_perfpod_test.txt"))).toThrow(
      /lines 7, 11, 13, 14, 15, 19: 9 values under a header of 4 columns \(the header is abbreviated with "\.\.\."\)/,
    );
  });

  it("refuses text that is not netperf", () => {
    expect(() => parseNetperf("hello\nworld\n")).toThrow(/not netperf omni output/);
  });
});
