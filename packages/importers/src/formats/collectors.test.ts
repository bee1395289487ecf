/**
 * Collector outputs (EKS cni-benchmark, knb, TKE network-benchmark.sh) against their fixtures;
 * expected values read by hand from the files, with the JSON path or line in a comment.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fixtureBytes, fixturesDir, fixtureText } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import type { Result } from "../types.ts";
import { clusterFromContext, parseEks } from "./eks.ts";
import { parseKnbDocument, parseKnbText } from "./knb.ts";
import { parseTkeDirectory, roundsInNumberOrder } from "./tke.ts";

const one = (results: Result[], metric: string, params: Record<string, unknown> = {}) => {
  const found = results.filter(
    (r) =>
      r.metric === metric &&
      Object.keys(params).length === Object.keys(r.params ?? {}).length &&
      Object.entries(params).every(([k, v]) => r.params?.[k] === v),
  );
  expect(found, `${metric} ${JSON.stringify(params)}`).toHaveLength(1);
  return found[0]!;
};

describe("EKS cni-benchmark results/*.json", () => {
  // Hand-read from real/eks-devfloor9/*.json: network.*, http.qps_1000/qps_5000/qps_max.*, dns.*
  const table = [
    ["scenario-a-vpccni", 12.41, 10.0, 20.39, 4894, 999.6, 4.39, 10.92, 4071.1, 440.45, 4103.9, 28.07, 2, 4],
    ["scenario-b-cilium-kp", 12.34, 7.92, 0.94, 4955, 999.6, 4.36, 9.87, 4012.0, 21.6, 4044.7, 25.25, 2, 4],
    ["scenario-c-kpless", 12.34, 7.92, 0.69, 5092, 999.7, 4.45, 8.91, 3986.5, 358.38, 4019.3, 28.5, 2, 2],
    ["scenario-d-eni", 12.41, 10.0, 20.42, 4453, 999.7, 4.29, 8.75, 3992.6, 23.01, 4026.4, 26.67, 2, 4],
    ["scenario-e-eni-tuned", 12.4, 7.96, 0.03, 3135, 999.7, 4.21, 9.89, 4053.2, 24.44, 4181.9, 28.45, 2, 3],
  ] as const;

  it.each(table)(
    "%s (real, run-benchmark.sh)",
    (scenario, tcp, udp, loss, rtt, q1k, p50, p99, q5k, p99at5k, qmax, p99max, dns50, dns99) => {
      const run = parseEks(fixtureText(`real/eks-devfloor9/${scenario}.json`));
      const r = run.results;
      expect(one(r, "tcp.throughput")).toMatchObject({ value: tcp, unit: "Gbit/s" });
      expect(one(r, "x.udp.throughput.sent")).toMatchObject({
        value: udp,
        note: expect.stringContaining("sender's rate"),
      });
      expect(r.some((x) => x.metric === "udp.throughput")).toBe(false); // no received rate in these files
      expect(one(r, "udp.loss").value).toBe(loss);
      expect(one(r, "pod.rtt", { stat: "avg" })).toMatchObject({ value: rtt, unit: "µs" });
      expect(one(r, "http.qps.achieved", { qps: 1000 }).value).toBe(q1k);
      expect(one(r, "http.latency", { percentile: "p50", qps: 1000 }).value).toBe(p50);
      expect(one(r, "http.latency", { percentile: "p99", qps: 1000 }).value).toBe(p99);
      expect(one(r, "http.qps.achieved", { qps: 5000 }).value).toBe(q5k);
      expect(one(r, "http.latency", { percentile: "p99", qps: 5000 }).value).toBe(p99at5k);
      expect(one(r, "http.rps").value).toBe(qmax);
      expect(one(r, "http.latency", { percentile: "p99", qps: "max" }).value).toBe(p99max);
      expect(one(r, "dns.latency", { percentile: "p50" }).value).toBe(dns50);
      expect(one(r, "dns.latency", { percentile: "p99" }).value).toBe(dns99);
      expect(r).toHaveLength(13);
      expect(run.skipped).toEqual([]);
      // "cluster": "yjeong-demo@cni-bench.ap-northeast-2.eksctl.io"
      expect(run.derived).toMatchObject({
        cluster: "cni-bench",
        region: "ap-northeast-2",
        provider: "eks",
        label: scenario,
      });
      expect(run.collector.name).toBe("run-benchmark.sh");
    },
  );

  it("scenario-a's timestamp is its runAt", () => {
    expect(parseEks(fixtureText("real/eks-devfloor9/scenario-a-vpccni.json")).runAt).toBe("2026-02-09T21:23:36Z");
  });

  it('v2 (synthetic from run-benchmark-v2.sh): http_httpbin imported, http_conduit "N/A" skipped and named', () => {
    const run = parseEks(fixtureText("synthetic/eks/eks_v2_synthetic_scenario-f-conduit-na.json"));
    expect(run.collector.name).toBe("run-benchmark-v2.sh");
    expect(one(run.results, "http.qps.achieved", { qps: 1000, concurrency: 16 }).value).toBe(999.7);
    expect(one(run.results, "http.rps", { concurrency: 16 }).value).toBe(4150.2);
    expect(run.results.some((r) => r.params?.app === "conduit")).toBe(false);
    expect(run.skipped).toContain('http_conduit.qps_1000.actual_qps is "N/A", not a number');
    expect(run.skipped).toHaveLength(7); // 3 + 2 + 2 "N/A" fields
  });

  it("reads kube contexts: eksctl, EKS ARN, anything else as a name", () => {
    expect(clusterFromContext("arn:aws:eks:us-west-2:123456789012:cluster/bench")).toEqual({
      cluster: "bench",
      region: "us-west-2",
      provider: "eks",
    });
    expect(clusterFromContext("kind-kind")).toEqual({ cluster: "kind-kind" });
  });
});

describe("knb", () => {
  const expectReal = (r: Result[]) => {
    // "Pod to pod : TCP : bandwidth = 2594 Mbit/s" / "UDP : bandwidth = 959 Mbit/s"; "Pod to Service" 2568 / 797
    expect(one(r, "tcp.throughput", { path: "pod-pod", streams: 1 })).toMatchObject({ value: 2594, unit: "Mbit/s" });
    expect(one(r, "udp.throughput", { path: "pod-pod", streams: 1 }).value).toBe(959);
    expect(one(r, "tcp.throughput", { path: "service", streams: 1 }).value).toBe(2568);
    expect(one(r, "udp.throughput", { path: "service", streams: 1 }).value).toBe(797);
    // "Idle : client cpu = total 6.40% …", "server ram = 1531 MB"
    expect(one(r, "x.node.cpu.usage", { test: "idle", role: "client" })).toMatchObject({ value: 6.4, unit: "%" });
    expect(one(r, "x.node.memory.used", { test: "idle", role: "server" })).toMatchObject({ value: 1531, unit: "MB" });
    // "Pod to pod : TCP : server cpu = total 37.65%"
    expect(one(r, "x.node.cpu.usage", { path: "pod-pod", protocol: "tcp", role: "server" }).value).toBe(37.65);
  };

  it("text report (real, knb 1.5.0, Calico IPIP)", () => {
    const run = parseKnbText(fixtureText("real/knb/knb_text_output_example_calico_ipip.txt"));
    expectReal(run.results);
    expect(run.derived).toEqual({ kernel: "5.4.0-66-generic", k8s: "v1.19.7" }); // "Discovered Kernel", "Discovered k8s version"
    expect(run.runAt).toBe("2021-03-18T06:37:24Z"); // "Date : 2021-03-18 06:37:24 UTC"
    expect(run.collector).toEqual({ name: "knb", version: "1.5.0" });
    expect(run.skipped).toEqual([]);
  });

  it("JSON and YAML (synthetic layouts from knb's compute-json/yaml-result, numbers of the real text)", () => {
    for (const file of ["knb_json_synthetic_from_text_sample.json", "knb_yaml_synthetic_from_text_sample.yaml"]) {
      const run = parseKnbDocument(fixtureText(`synthetic/knb/${file}`));
      expectReal(run.results);
      expect(run.skipped).toEqual([]);
      expect(run.derived.kernel).toBe("5.4.0-66-generic"); // data.kernel
    }
  });

  it('the invalid JSON knb writes for an empty monitor file ("user": ,): imports the rest, names what it skipped', () => {
    const run = parseKnbDocument(fixtureText("synthetic/knb/knb_json_synthetic_empty_monitor_invalid.json"));
    expect(one(run.results, "udp.throughput", { path: "pod-pod", streams: 1 }).value).toBe(959);
    expect(
      run.results.some(
        (r) => r.params?.role === "client" && r.params?.protocol === "udp" && r.params?.path === "pod-pod",
      ),
    ).toBe(false);
    expect(run.skipped).toEqual([
      expect.stringMatching(/JSON was not valid/),
      "data.pod2pod.udp.client.cpu is empty (knb's monitor recorded nothing)",
      "data.pod2pod.udp.client.ram is empty (knb wrote no value)",
    ]);
  });

  it("JSON as knb 1.4.1 writes it (real 2020 run, CRs in strings, a missing comma) reads like its YAML", () => {
    const text = fixtureText("real/knb/infrabuilder-2020-doc-flannel-run1.json");
    expect(text).toContain("3.70GHz\r"); // as knb wrote it: the fixture must keep the defect
    expect(() => JSON.parse(text)).toThrow();
    const json = parseKnbDocument(text);
    const yaml = parseKnbDocument(fixtureText("real/knb/infrabuilder-2020-doc-flannel-run1.yaml"));
    expect(json.results).toEqual(yaml.results);
    expect(json.results).toHaveLength(24);
    // The text report of the same replay: "Pod to pod : TCP : bandwidth = 9629 Mbit/s", "UDP : 9842",
    // "Pod to Service : TCP : 9827"; "Idle : client cpu = total 0.64%"
    expect(one(json.results, "tcp.throughput", { path: "pod-pod", streams: 1 }).value).toBe(9629);
    expect(one(json.results, "udp.throughput", { path: "pod-pod", streams: 1 }).value).toBe(9842);
    expect(one(json.results, "tcp.throughput", { path: "service", streams: 1 }).value).toBe(9827);
    expect(one(json.results, "x.node.cpu.usage", { test: "idle", role: "client" }).value).toBe(0.64);
    // No CR left; OS, label and CNI from its run name "Ubuntu 18.04 - Kernel default - doc-flannel - Run 1".
    expect(json.derived).toEqual({
      kernel: "4.15.0-112-generic",
      k8s: "v1.19.0",
      os: "Ubuntu 18.04",
      label: "doc-flannel",
      cni: "flannel",
    });
    expect(json.collector).toEqual({ name: "knb", version: "1.4.1" });
  });

  it("a blank cpu line in a text report is skipped and named", () => {
    const text = fixtureText("real/knb/knb_text_output_example_calico_ipip.txt").replace(
      /(Pod to Service :\n\s+TCP :\n\s+bandwidth = 2568 Mbit\/s\n\s+client cpu = ).*\n/,
      "$1\n",
    );
    const run = parseKnbText(text);
    expect(run.skipped).toEqual(["data.pod2svc.tcp.client.cpu is empty (knb's monitor recorded nothing)"]);
    expect(one(run.results, "tcp.throughput", { path: "service", streams: 1 }).value).toBe(2568);
  });
});

/** The synthetic TKE result directory as importFiles would hand it over: relative path → bytes. */
function tkeDirectory(): Map<string, Uint8Array> {
  const root = path.join(fixturesDir, "synthetic/tke-benchmark-results-synthetic");
  const files = new Map<string, Uint8Array>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path.relative(root, full), fixtureBytes(path.relative(fixturesDir, full)));
    }
  };
  walk(root);
  return files;
}

describe("TKE network-benchmark.sh result directory (synthetic, ROUNDS=10)", () => {
  const run = parseTkeDirectory(tkeDirectory());
  const r = run.results;

  it("reads the environment from context.yaml", () => {
    expect(run.derived).toEqual({
      cluster: "tke-c-synthetic",
      k8s: "v1.34.1-tke.5",
      os: "TencentOS Server 4",
      kernel: "6.6.117-45.11.2.tl4.x86_64",
      sku: "SA5.LARGE8",
      nodeCount: 3,
      cni: "cilium",
      mode: "overlay", // cluster_type cilium-overlay: vxlan or geneve, the script does not say which
    });
    expect(run.runAt).toBe("2026-02-09T22:23:39Z");
  });

  it("rounds become samples in number order (r10 after r9), the summary's average the value", () => {
    const single = one(r, "tcp.throughput", { path: "pod-pod", streams: 1 });
    expect(single).toMatchObject({ value: 10.75, unit: "Gbit/s", aggregate: "mean" }); // throughput.pod2pod_single.avg
    // throughput/pod2pod_single_r<N>.json end.sum_received.bits_per_second / 1e9
    expect(single.samples).toEqual([10.75, 10.754, 10.747, 10.756, 10.745, 10.752, 10.749, 10.753, 10.746, 10.751]);
    const short = one(r, "http.rps", { connection: "short", concurrency: 64, target: "service" });
    expect(short.value).toBe(14196); // rps.svc_short_c64.avg_qps
    expect(short.samples?.[0]).toBe(14193.123456); // rps/svc_short_c64_r1.json ActualQPS
    expect(short.samples?.[9]).toBe(14207.316455999999); // rps/svc_short_c64_r10.json ActualQPS
  });

  it("netperf rounds: tcp.rr.latency p50/p99 from latency/tcp_rr_r*.txt, averages from the summary", () => {
    const p50 = one(r, "tcp.rr.latency", { percentile: "p50" });
    expect(p50).toMatchObject({ value: 95, unit: "µs", aggregate: "mean" }); // latency.tcp_rr_p50_us (int of 95.9)
    expect(p50.samples).toEqual([95, 96, 97, 95, 96, 97, 95, 96, 97, 95]); // 3rd column of each round's value line
    expect(one(r, "tcp.rr.latency", { percentile: "p99" }).value).toBe(118); // latency.tcp_rr_p99_us
    expect(one(r, "tcp.crr.latency", { percentile: "p99" }).value).toBe(558); // latency.tcp_crr_p99_us
    expect(one(r, "tcp.rr.latency", { percentile: "p90" })).toMatchObject({ value: 103.9, aggregate: "mean" });
    expect(one(r, "tcp.rr.rate").aggregate).toBe("mean");
  });

  it("HTTP p99 at 1000 QPS in ms from the summary, its round from latency/http_1k_qps.json", () => {
    expect(one(r, "http.latency", { percentile: "p99", qps: 1000 })).toMatchObject({
      value: 0.99, // latency.http_p99_1k_qps_ms
      unit: "ms",
      samples: [0.99],
    });
    expect(one(r, "http.latency", { percentile: "p50", qps: 1000 })).toMatchObject({ value: 0.00041, unit: "s" });
    expect(one(r, "http.qps.achieved", { qps: 1000 }).value).toBe(999.93);
  });

  it("Hubble and NetworkPolicy runs, Service scale steps with their 0-Service baselines", () => {
    expect(one(r, "http.rps", { connection: "keepalive", concurrency: 64, hubble: "on" }).value).toBe(101434.5);
    expect(one(r, "http.rps", { connection: "keepalive", concurrency: 64, policy: "l7" }).value).toBe(11483.25);
    const at = (connection: string, services: number) =>
      one(r, "http.rps", { connection, concurrency: 64, target: "service", services });
    expect(at("short", 0).value).toBe(14196); // service_scale.short_conn_baseline_qps (= rps.svc_short_c64.avg_qps)
    expect(at("short", 5000).value).toBe(13125); // service_scale.steps[0].short_conn_qps
    expect(at("keepalive", 20000).samples).toHaveLength(10);
    expect(one(r, "tcp.crr.latency", { percentile: "p99", services: 20000 }).value).toBe(570); // steps[1].tcp_crr_p99_us
    expect(one(r, "lb.entries", { services: 5000 })).toMatchObject({ value: 30042, unit: "count" });
  });

  it("resources: component CPU and memory, BPF maps, agent RSS", () => {
    expect(one(r, "cpu.usage", { component: "cilium-agent", stat: "avg" })).toMatchObject({
      value: 25.5,
      unit: "millicores",
    });
    expect(one(r, "memory.usage", { component: "cilium-agent", stat: "max" })).toMatchObject({
      value: 1110,
      unit: "MiB",
    });
    expect(one(r, "bpf.map.memory", { map: "total" })).toMatchObject({ value: 289700000, unit: "B" });
    expect(one(r, "bpf.map.memory", { map: "cilium_lb4_affinity", maxEntries: 1020000 }).value).toBe(93800000);
    expect(one(r, "memory.usage", { component: "cilium-agent", measure: "rss" })).toMatchObject({
      value: 1038336,
      unit: "KiB",
    });
    expect(run.skipped).toEqual([]);
  });

  it("without the raw files, the summary's text-ordered round lists are put back in number order", () => {
    expect(roundsInNumberOrder([1, 10, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const summaryOnly = new Map([...tkeDirectory()].filter(([p]) => p === "benchmark-summary.json"));
    const fromSummary = parseTkeDirectory(summaryOnly);
    expect(fromSummary.derived.cluster).toBe("tke-c-synthetic"); // summary.cluster.cluster_name
    const single = one(fromSummary.results, "tcp.throughput", { path: "pod-pod", streams: 1 });
    // throughput.pod2pod_single.gbps is [r1, r10, r2, …]: r10 = 10.751 → 10.75, r2 = 10.754 → 10.75
    expect(single.samples).toEqual([10.75, 10.75, 10.75, 10.76, 10.74, 10.75, 10.75, 10.75, 10.75, 10.75]);
  });

  it("without the summary, component CPU and memory come from the monitor CSVs", () => {
    const files = tkeDirectory();
    files.delete("benchmark-summary.json");
    const fromCsv = parseTkeDirectory(files).results;
    // resources/cilium_throughput.csv: every row's cpu_millicores and memory_mib
    expect(one(fromCsv, "cpu.usage", { component: "cilium-agent", stat: "avg" }).value).toBe(25.5);
    expect(one(fromCsv, "memory.usage", { component: "cilium-agent", stat: "max" }).value).toBe(1110);
    const csv = (text: string) => {
      files.set("resources/cilium_throughput.csv", new TextEncoder().encode(text));
      const run = parseTkeDirectory(files);
      return { cpu: run.results.find((x) => x.metric === "cpu.usage")?.value, skipped: run.skipped };
    };
    expect(csv('pod,cpu_millicores,memory_mib\r\n"cilium-a,b",12,900\r\n').cpu).toBe(12);
    expect(csv('pod,cpu_millicores,memory_mib\n"cilium-a,12,900\n').skipped).toEqual([
      expect.stringMatching(/^resources\/cilium_throughput\.csv: .*Quote Not Closed/),
    ]);
  });

  it("a broken raw file is skipped and named, the rest imported", () => {
    const files = tkeDirectory();
    files.set("throughput/pod2pod_single_r3.json", new TextEncoder().encode('{"start": {"version": "iperf 3.16"'));
    const broken = parseTkeDirectory(files);
    expect(broken.skipped).toEqual([
      expect.stringMatching(/^throughput\/pod2pod_single_r3\.json: iperf3 JSON: malformed JSON/),
      expect.stringMatching(/summary lists 10 rounds, the raw files hold 9/),
    ]);
    expect(one(broken.results, "tcp.throughput", { path: "pod-pod", streams: 1 }).samples).toHaveLength(9);
  });
});
