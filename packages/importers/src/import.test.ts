import { parseBundle } from "@cnibench/schema";
import { fixtureBytes, fixtureText, fixtureTree, labEnvironment } from "@cnibench/test-support/fixtures";
import { gzipSync, strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { safeEntryName } from "./archive.ts";
import { environmentFromJson, environmentFromStrings, matchesFile } from "./environment.ts";
import { importFiles } from "./import.ts";
import { ArchiveLimitError, type EnvironmentInput, type ImportFile } from "./types.ts";

const environment: EnvironmentInput = labEnvironment;
const file = (name: string, relative = name): ImportFile => ({ name, bytes: fixtureBytes(relative) });
const text = (name: string, content: string): ImportFile => ({ name, bytes: strToU8(content) });

describe("importFiles", () => {
  it("detects each real fixture's format and builds bundles that pass the contract", () => {
    const files = [
      file("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json"),
      file("real/iperf3/iperf3_udp_1stream_v3.1.3_0complexity_doc.json"),
      file("real/fortio/fortio_http_rest_run_json_from_readme.json"),
      file("real/fortio/fortio_load_text_output_from_readme.txt"),
      file("real/netperf/netperf_omni_csv_example_from_manual.txt"),
      file("real/netperf/netperf_omni_keyval_example_from_manual.txt"),
      file("real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt"),
      file("real/netperf/netperf_tcp_rr_and_stream_with_percentiles_talosmobile_fixture.txt"),
      file("real/knb/knb_text_output_example_calico_ipip.txt"),
      file("real/eks-devfloor9/scenario-a-vpccni.json"),
    ];
    const { bundles, files: reports } = importFiles(files, environment);
    expect(reports.map((r) => [r.file.split("/").pop(), r.format, r.status, r.bundles])).toEqual([
      ["iperf3_tcp_1stream_k8s_pod_cloudpilot.json", "iperf3", "imported", 1],
      ["iperf3_udp_1stream_v3.1.3_0complexity_doc.json", "iperf3", "imported", 1],
      ["fortio_http_rest_run_json_from_readme.json", "fortio", "imported", 1],
      ["fortio_load_text_output_from_readme.txt", "fortio", "imported", 1],
      ["netperf_omni_csv_example_from_manual.txt", "netperf", "imported", 1],
      ["netperf_omni_keyval_example_from_manual.txt", "netperf", "imported", 1],
      ["netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt", "netperf", "imported", 2],
      ["netperf_tcp_rr_and_stream_with_percentiles_talosmobile_fixture.txt", "netperf", "imported", 1],
      ["knb_text_output_example_calico_ipip.txt", "knb", "imported", 1],
      ["scenario-a-vpccni.json", "eks", "imported", 1],
    ]);
    expect(bundles).toHaveLength(11);
    for (const b of bundles) expect(parseBundle(b.bundle).ok, b.file).toBe(true);
    expect(bundles[7]?.file).toBe("real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt#run 2");
  });

  it("users' environment wins over what a file says; the file fills the rest", () => {
    const [iperf] = importFiles([file("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json")], {
      ...environment,
      kernel: undefined,
      params: { path: "pod-pod" },
    }).bundles;
    expect(iperf?.bundle.node.kernel).toBe("5.4.104+"); // from start.system_info
    expect(iperf?.bundle.results[0]).toMatchObject({
      metric: "tcp.throughput",
      params: { path: "pod-pod", streams: 1 },
    });
    const [eks] = importFiles([file("real/eks-devfloor9/scenario-b-cilium-kp.json")], {
      ...environment,
      cluster: "mine",
    }).bundles;
    expect(eks?.bundle.cluster).toMatchObject({ name: "mine", provider: "on-prem", region: "ap-northeast-2" });
    expect(eks?.bundle.cni.label).toBe("scenario-b-cilium-kp");
    expect(eks?.bundle.runAt).toBe("2026-02-09T21:41:48Z");
  });

  it("names every required field nobody supplied, with the input that supplies it", () => {
    const { bundles, files } = importFiles([file("real/eks-devfloor9/scenario-a-vpccni.json")], { sku: "m6i.xlarge" });
    expect(bundles).toEqual([]);
    expect(files[0]).toMatchObject({
      status: "failed",
      format: "eks",
      missing: [
        { path: "node.kernel", input: "kernel" },
        { path: "cni.name", input: "cni" },
        { path: "cni.mode", input: "mode" },
      ],
    });
    expect(files[0]?.error).toMatch(
      /^missing required environment: node\.kernel \(kernel\), cni\.name \(cni\), cni\.mode \(mode\)/,
    );
  });

  it('"unknown" counts only when a user passes it, never from a file', () => {
    const context = fixtureText("synthetic/tke-benchmark-results-synthetic/context.yaml").replace(
      "node_model: SA5.LARGE8",
      "node_model: unknown",
    );
    const dir = fixtureTree("synthetic/tke-benchmark-results-synthetic", "run").map((f) =>
      f.name === "run/context.yaml" ? text(f.name, context) : f,
    );
    const failed = importFiles(dir, { provider: "tke" });
    expect(failed.files[0]?.missing).toEqual([{ path: "node.sku", input: "sku" }]);
    const passed = importFiles(dir, { provider: "tke", sku: "unknown" });
    expect(passed.bundles[0]?.bundle.node.sku).toBe("unknown");
  });

  it("a TKE result directory, its .tar.gz and its .zip give the same bundle", () => {
    const env = { provider: "tke", kubeProxy: "ebpf" };
    const fromDir = importFiles(
      fixtureTree("synthetic/tke-benchmark-results-synthetic", "tke-benchmark-results-synthetic"),
      env,
    );
    const fromTar = importFiles([file("r.tar.gz", "synthetic/tke-benchmark-results-synthetic.tar.gz")], env);
    const fromZip = importFiles([file("r.zip", "synthetic/tke-benchmark-results-synthetic.zip")], env);
    expect(fromDir.files).toEqual([
      { file: "tke-benchmark-results-synthetic", format: "tke", status: "imported", bundles: 1 },
    ]);
    expect(fromTar.files[0]).toMatchObject({ file: "r.tar.gz/tke-benchmark-results-synthetic", status: "imported" });
    expect(fromZip.files[0]).toMatchObject({ file: "r.zip/tke-benchmark-results-synthetic", status: "imported" });
    const bundle = fromDir.bundles[0]!.bundle;
    expect(fromTar.bundles[0]!.bundle).toEqual(bundle);
    expect(fromZip.bundles[0]!.bundle).toEqual(bundle);
    expect(bundle).toMatchObject({
      collector: { name: "network-benchmark.sh" },
      cluster: { name: "tke-c-synthetic", provider: "tke", kubernetesVersion: "v1.34.1-tke.5", nodeCount: 3 },
      node: { sku: "SA5.LARGE8", os: "TencentOS Server 4", kernel: "6.6.117-45.11.2.tl4.x86_64" },
      cni: { name: "cilium", mode: "overlay", kubeProxy: "ebpf" },
    });
    // Warnings from the contract (none: every slug is in the vocabulary).
    expect(fromDir.bundles[0]!.warnings).toEqual([]);
  });

  it("reads a benchmark-summary.json sent alone under any name; refuses other files as tke", () => {
    const summary = file("upload", "synthetic/tke-benchmark-results-synthetic/benchmark-summary.json");
    const { bundles, files } = importFiles([summary], { provider: "tke" });
    expect(files[0]).toMatchObject({ file: "upload", format: "tke", status: "imported" });
    expect(bundles[0]?.bundle.cluster.name).toBe("tke-c-synthetic"); // summary.cluster.cluster_name
    const other = importFiles([file("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json")], environment, {
      format: "tke",
    });
    expect(other.files[0]?.error).toMatch(
      /^not a network-benchmark\.sh result: send its result directory as an archive/,
    );
  });

  it("a folder mixing good and bad files: per-file errors, good files imported", () => {
    const iperf = fixtureText("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json");
    const { bundles, files } = importFiles(
      [
        file("mixed/good-iperf3.json", "real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json"),
        text("mixed/truncated-iperf3.json", iperf.slice(0, iperf.length / 2)),
        text("mixed/README.md", "# notes\nnothing to import here\n"),
        text("mixed/empty.json", ""),
        file("mixed/fortio.json", "real/fortio/fortio_http_rest_run_json_from_readme.json"),
        text(
          "mixed/netperf-garbled.txt",
          "MIGRATED TCP REQUEST/RESPONSE TEST\nMean Latency Microseconds,Throughput\nfast,slow\n",
        ),
        text("mixed/bundle-invalid.json", JSON.stringify({ schema: "cnibench/bundle@1", cluster: {}, results: [] })),
      ],
      environment,
    );
    expect(files.map((f) => [f.file, f.status])).toEqual([
      ["mixed/good-iperf3.json", "imported"],
      ["mixed/truncated-iperf3.json", "failed"],
      ["mixed/README.md", "skipped"],
      ["mixed/empty.json", "skipped"],
      ["mixed/fortio.json", "imported"],
      ["mixed/netperf-garbled.txt", "failed"],
      ["mixed/bundle-invalid.json", "failed"],
    ]);
    expect(files[1]?.error).toMatch(/^iperf3 JSON: malformed JSON at line \d+, column \d+/);
    expect(files[2]?.error).toBe("not a format cnibench imports");
    expect(files[3]?.error).toBe("the file is empty");
    expect(files[5]?.error).toMatch(/netperf output without a measurement/);
    expect(files[6]?.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(["cluster.name", "node", "results"]));
    expect(bundles.map((b) => b.file)).toEqual(["mixed/good-iperf3.json", "mixed/fortio.json"]);
  });

  it("an explicit format parses every file as that format and says when one is not", () => {
    const { files } = importFiles([file("real/fortio/fortio_http_rest_run_json_from_readme.json")], environment, {
      format: "iperf3",
    });
    expect(files[0]).toMatchObject({
      status: "failed",
      format: "iperf3",
      error: expect.stringMatching(/not iperf3 -J output/),
    });
  });

  it("passes a contract bundle through", () => {
    const bundle = {
      schema: "cnibench/bundle@1",
      cluster: { name: "c", provider: "eks" },
      node: { sku: "m6i.xlarge", kernel: "6.1" },
      cni: { name: "VPC CNI", mode: "eni" },
      results: [{ metric: "tcp.throughput", value: 9.4, unit: "Gbps" }],
    };
    const { bundles, files } = importFiles([text("b.json", JSON.stringify(bundle))]);
    expect(bundles[0]?.bundle).toEqual(bundle);
    expect(files[0]).toMatchObject({ format: "bundle", status: "imported" });
  });

  it("cnibench-environment.json gives per-file environments (the EKS results folder: one CNI per scenario)", () => {
    const sidecar = {
      provider: "eks",
      sku: "m6i.xlarge",
      kernel: "6.1.159-182.297.amzn2023",
      files: {
        "scenario-a-*.json": { cni: "aws-vpc-cni", mode: "eni", kubeProxy: "iptables" },
        "scenario-b-cilium-kp.json": { cni: "cilium", mode: "native", kubeProxy: "iptables" },
      },
    };
    const { bundles, files } = importFiles([
      text("results/cnibench-environment.json", JSON.stringify(sidecar)),
      file("results/scenario-a-vpccni.json", "real/eks-devfloor9/scenario-a-vpccni.json"),
      file("results/scenario-b-cilium-kp.json", "real/eks-devfloor9/scenario-b-cilium-kp.json"),
      file("results/scenario-c-kpless.json", "real/eks-devfloor9/scenario-c-kpless.json"),
    ]);
    expect(files.map((f) => f.status)).toEqual(["skipped", "imported", "imported", "failed"]);
    expect(bundles.map((b) => b.bundle.cni)).toEqual([
      { name: "aws-vpc-cni", mode: "eni", kubeProxy: "iptables", label: "scenario-a-vpccni" },
      { name: "cilium", mode: "native", kubeProxy: "iptables", label: "scenario-b-cilium-kp" },
    ]);
    expect(files[3]?.missing?.map((m) => m.input)).toEqual(["cni", "mode"]);

    // The more specific entry weighs more: a per-file entry beats a value given for every file.
    const withFlags = importFiles(
      [
        text("results/cnibench-environment.json", JSON.stringify(sidecar)),
        file("results/scenario-a-vpccni.json", "real/eks-devfloor9/scenario-a-vpccni.json"),
        file("results/scenario-c-kpless.json", "real/eks-devfloor9/scenario-c-kpless.json"),
      ],
      { cni: "cilium", mode: "native", kernel: "6.1-from-flags" },
    );
    expect(withFlags.bundles.map((b) => [b.bundle.cni.name, b.bundle.node.kernel])).toEqual([
      ["aws-vpc-cni", "6.1-from-flags"],
      ["cilium", "6.1-from-flags"],
    ]);
  });

  it("is deterministic: the same files give the same bundles (idempotent uploads)", () => {
    const files = fixtureTree("synthetic/tke-benchmark-results-synthetic", "x");
    expect(importFiles(files, { provider: "tke" }).bundles).toEqual(importFiles(files, { provider: "tke" }).bundles);
  });
});

describe("archives", () => {
  it("refuses entries that leave the archive", () => {
    const zip = zipSync({ "results/ok.json": strToU8("{}"), "../escape.json": strToU8("{}") });
    const { files } = importFiles([{ name: "evil.zip", bytes: zip }], environment);
    expect(files).toEqual([
      expect.objectContaining({
        file: "evil.zip",
        status: "failed",
        error: expect.stringMatching(/"\.\.\/escape\.json" points outside/),
      }),
    ]);
    expect(() => safeEntryName("a.tar", "/etc/passwd")).toThrow(/points outside/);
    expect(safeEntryName("a.tar", "./run/./context.yaml")).toBe("run/context.yaml");
  });

  it("stops at the entry-count limit", () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, strToU8("x")]));
    expect(() =>
      importFiles([{ name: "many.zip", bytes: zipSync(many) }], environment, { limits: { maxEntries: 10 } }),
    ).toThrow(ArchiveLimitError);
  });

  it("stops a gzip bomb while inflating, and a zip above the unpacked-size limit before inflating", () => {
    const bomb = gzipSync(new Uint8Array(20 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    let error: unknown;
    try {
      importFiles([{ name: "bomb.gz", bytes: bomb }], environment, { limits: { maxUnpackedBytes: 1024 * 1024 } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ArchiveLimitError);
    expect((error as ArchiveLimitError).limit).toBe("unpacked-bytes");
    const zip = zipSync({ "big.txt": new Uint8Array(2 * 1024 * 1024) });
    expect(() =>
      importFiles([{ name: "big.zip", bytes: zip }], environment, { limits: { maxUnpackedBytes: 1024 * 1024 } }),
    ).toThrow(/expands beyond 1048576 bytes/);
  });

  it("says when an archive is truncated", () => {
    const tgz = fixtureBytes("synthetic/tke-benchmark-results-synthetic.tar.gz");
    const { files } = importFiles([{ name: "cut.tar.gz", bytes: tgz.subarray(0, tgz.length - 100) }], environment);
    expect(files[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/truncated|corrupt/) });
  });
});

describe("environment inputs", () => {
  it("reads strings (query parameters, flags): numbers checked, settings and params as key=value", () => {
    expect(
      environmentFromStrings({
        provider: "tke",
        nodeCount: "3",
        vcpus: "four",
        setting: ["bpf.hostLegacyRouting=false", "ipam=eni"],
        param: "path=pod-pod",
        page: "2",
      }),
    ).toEqual({
      environment: {
        provider: "tke",
        nodeCount: 3,
        settings: { "bpf.hostLegacyRouting": false, ipam: "eni" },
        params: { path: "pod-pod" },
      },
      issues: [{ key: "vcpus", message: 'must be a positive number, not "four"' }],
    });
  });

  it("reads JSON (header, sidecar) and names what is wrong", () => {
    expect(
      environmentFromJson({ provider: "eks", nodeCount: 2.5, colour: "red", files: { "a.json": { cni: "" } } }).issues,
    ).toEqual([
      { key: "nodeCount", message: "must be a positive number" },
      { key: "colour", message: expect.stringMatching(/^is not an environment field/) },
      { key: "files.a.json.cni", message: "must be a non-empty string" },
    ]);
    expect(matchesFile("scenario-*.json", "results/scenario-a.json")).toBe(true);
    expect(matchesFile("scenario-a.json", "results/scenario-a.json")).toBe(true);
    expect(matchesFile("a.json", "results/xa.json")).toBe(false);
  });
});
