// Setups on other testbeds beside InfraBuilder's 40 G bare metal (issue 40): four on an older 10 G
// bare-metal bench and two on a 12.5 G cloud instance, derived from InfraBuilder's imported bundles so
// their figures keep real runs' shape. Their throughputs are scaled under their NIC (a 10 G setup at
// 0.235 of the 40 G one's: ≈9.2 Gbit/s for flannel) and the cloud ones lose UDP packets, as the
// issue's many-testbed dataset did. Synthetic: for views, never for findings.
import { importFiles } from "@cnibench/importers";
import type { BundleInput } from "@cnibench/schema";
import { infrabuilderEnvironment, infrabuilderSetups } from "./infrabuilder-setups.ts";

type Testbed = {
  cluster: string;
  provider: string;
  region: string;
  sku: string;
  nicGbps: number;
  /** Throughput factor against the 40 G runs, and what multiplies UDP loss. */
  throughput: number;
  loss: number;
  setups: readonly string[];
};

export const otherTestbeds: readonly Testbed[] = [
  {
    cluster: "older-bench-10g",
    provider: "on-prem",
    region: "older-lab",
    sku: "bare-metal-10g",
    nicGbps: 10,
    throughput: 0.235,
    loss: 1,
    setups: ["flannel", "calico", "cilium", "antrea"],
  },
  {
    cluster: "cloud-12g",
    provider: "aws",
    region: "eu-west-1",
    sku: "c6in.xlarge",
    nicGbps: 12.5,
    throughput: 0.31,
    loss: 40,
    setups: ["cilium", "cilium-wg"],
  },
];

const throughputMetrics = new Set([
  "tcp.throughput",
  "udp.throughput",
  "x.tcp.throughput.sent",
  "x.udp.throughput.sent",
]);

/** The bundles of the other testbeds' setups, three runs each, as JSON bundles to upload. */
export function otherTestbedBundles(): BundleInput[] {
  const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  return otherTestbeds.flatMap((t) =>
    bundles
      .map(({ bundle }) => bundle as unknown as BundleInput)
      .filter((b) => t.setups.includes(b.cni.label ?? ""))
      .map((b) => ({
        ...b,
        // A setup's three runs are one campaign, as an archive import makes them.
        campaign: `${t.cluster}-${b.cni.label}`,
        cluster: { ...b.cluster, name: t.cluster, provider: t.provider, region: t.region },
        node: { ...b.node, sku: t.sku, nicGbps: t.nicGbps },
        source: { ...(b.source ?? {}), title: `Synthetic ${t.sku} setups derived from InfraBuilder's runs` },
        results: b.results.map((r) => {
          const scale = throughputMetrics.has(r.metric) ? t.throughput : r.metric === "udp.loss" ? t.loss : 1;
          if (scale === 1) return r;
          const cap = r.metric === "udp.loss" ? (v: number) => Math.min(100, v * scale) : (v: number) => v * scale;
          return {
            ...r,
            value: cap(r.value),
            ...(r.samples ? { samples: r.samples.map(cap) } : {}),
          };
        }),
      })),
  );
}
