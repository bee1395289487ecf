import { parseBundle } from "@cnibench/schema";
import { describe, expect, it } from "vitest";
import { bundleIssues, type HostEnvironment, labBundle, type StepMeasurement } from "./bundle.ts";

const host: HostEnvironment = {
  hostname: "bench-1",
  kernel: "6.18.44",
  cpuModel: "AMD EPYC 9B14",
  vcpus: 2,
  memoryGiB: 7.75,
  os: "Debian GNU/Linux 12 (bookworm)",
  nftVersion: "nftables v1.0.6 (Lester Gooch #5)",
  iptablesVersion: "iptables v1.8.9 (legacy)",
  iptablesBackend: "legacy",
};
const settings = {
  concurrency: 16,
  durationSec: 2,
  warmupSec: 1,
  runs: 2,
  command: "cnibench lab --runs 2",
  version: "0.1.0",
  campaign: "lab-bench-1-2026-11-26T08:00:00Z",
  runAt: "2026-11-26T08:00:00Z",
};

function step(mode: "iptables" | "nftables", services: number, run: number, shortRps: number): StepMeasurement {
  return {
    mode,
    services,
    run,
    loadMs: 10 + services / 100,
    shortRps,
    shortLatencyMs: { p50: 2.4, p90: 3.7, p99: 6.1 },
    keepaliveRps: 25000,
    connectUs: { p50: 80, p90: 120, p99: 300 },
    throughputGbps: 12.5,
    ...(mode === "iptables" ? { ruleCounts: { natRules: 5 * services + 13, kubeServicesRules: services + 2 } } : {}),
  };
}

describe("labBundle", () => {
  const steps = [
    step("iptables", 0, 1, 5000),
    step("iptables", 0, 2, 5200),
    step("iptables", 1000, 1, 4000),
    step("iptables", 1000, 2, 4400),
    step("nftables", 0, 1, 5100),
    step("nftables", 1000, 1, 5000),
  ];

  it("validates against the contract and says lab everywhere a reader looks", () => {
    const bundle = labBundle("iptables", steps, host, settings);
    expect(bundleIssues(bundle)).toEqual([]);
    expect(bundle.cluster).toMatchObject({ provider: "lab", name: "lab-bench-1" });
    expect(bundle.cni).toMatchObject({ name: "kube-proxy-lab", mode: "iptables", kubeProxy: "iptables" });
    expect(bundle.cni.label).toMatch(/^Lab: /);
    expect(bundle.cni.settings).toMatchObject({ lab: true, iptablesBackend: "legacy" });
    expect(bundle.node).toMatchObject({ kernel: "6.18.44", vcpus: 2, sku: "AMD EPYC 9B14" });
  });

  it("keeps the runs as samples with their median, per Service count and connection kind", () => {
    const bundle = labBundle("iptables", steps, host, settings);
    const short1000 = bundle.results.find(
      (r) => r.metric === "http.rps" && r.params?.connection === "short" && r.params?.services === 1000,
    );
    expect(short1000).toMatchObject({ value: 4200, samples: [4000, 4400], aggregate: "median", unit: "req/s" });
    const metrics = new Set(bundle.results.map((r) => r.metric));
    expect([...metrics].sort()).toEqual([
      "conn.setup.latency",
      "http.latency",
      "http.rps",
      "iptables.rules",
      "kube-services.chain",
      "tcp.throughput",
      "x.rules.load",
    ]);
    // 2 rps + 3 latency + 3 connect + throughput + load + 2 counts, for each of 2 Service counts.
    expect(bundle.results).toHaveLength(2 * 12);
  });

  it("gives nftables its own bundle, without iptables counts", () => {
    const bundle = labBundle("nftables", steps, host, settings);
    expect(bundleIssues(bundle)).toEqual([]);
    expect(bundle.results.some((r) => r.metric === "iptables.rules")).toBe(false);
    expect(bundle.results.find((r) => r.metric === "http.rps")).toMatchObject({ aggregate: "single", samples: [5100] });
    expect(bundle.cni.settings).toMatchObject({ nftVersion: "nftables v1.0.6 (Lester Gooch #5)" });
  });

  it("is stored without vocabulary warnings: provider, CNI and both modes are known words", () => {
    for (const mode of ["iptables", "nftables"] as const) {
      const parsed = parseBundle(labBundle(mode, steps, host, settings));
      expect(parsed.ok && parsed.warnings).toEqual([]);
      expect(parsed.ok && parsed.bundle.cni).toMatchObject({ name: "kube-proxy-lab", mode, kubeProxy: mode });
      expect(parsed.ok && parsed.bundle.cluster.provider).toBe("lab");
    }
  });
});
