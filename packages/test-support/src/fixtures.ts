import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { EnvironmentInput, ImportFile } from "@cnibench/importers";
import { repoRoot } from "./paths.ts";

/** packages/importers/fixtures: real tool outputs (real/) and labelled synthetic ones (synthetic/). */
export const fixturesDir = path.join(repoRoot, "packages/importers/fixtures");

export function fixtureBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(fixturesDir, relative)));
}

export function fixtureText(relative: string): string {
  return readFileSync(path.join(fixturesDir, relative), "utf8");
}

/** Every file under a fixture folder, named "<prefix>/<path inside the folder>", in sorted order. */
export function fixtureTree(relative: string, prefix: string): ImportFile[] {
  const root = path.join(fixturesDir, relative);
  const out: ImportFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ name: `${prefix}/${path.relative(root, full)}`, bytes: new Uint8Array(readFileSync(full)) });
    }
  };
  walk(root);
  return out;
}

/** The environment the tests give raw outputs that do not state it (?cluster=lab-1&provider=on-prem&…). */
export const labEnvironment = {
  cluster: "lab-1",
  provider: "on-prem",
  sku: "r6i.2xlarge",
  kernel: "6.1.0",
  cni: "cilium",
  mode: "native",
} satisfies EnvironmentInput;

/** An import's environment as query parameters (values percent-encoded): the lab's, on cluster "lab". */
export function environmentQuery(fields: Record<string, string | string[]>): string {
  const base: Record<string, string | string[]> = { ...labEnvironment, cluster: "lab", ...fields };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(base)) for (const v of [value].flat()) query.append(key, v);
  return query.toString();
}

/** A real iperf3 result (one TCP stream between pods), the file most import tests send. */
export function iperf3Fixture(): Uint8Array {
  return fixtureBytes("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json");
}

/** The example bundle of README's curl command, parsed: real TKE figures. */
export function exampleBundle(): Record<string, unknown> & { results: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
}

/**
 * Two columns of TKE's short-connection Service-scale table as bundles: Cilium Overlay (the example
 * bundle) and kube-proxy iptables (31,365 → 9,057 req/s), both dated to the published run.
 */
export function tkeServiceScale() {
  const overlay: ReturnType<typeof exampleBundle> = { ...exampleBundle(), runAt: "2026-02-09T22:23:39Z" };
  const iptables = {
    ...overlay,
    cluster: { ...(overlay.cluster as Record<string, unknown>), name: "tke-a" },
    cni: {
      name: "tke-vpc-cni",
      version: "unknown",
      mode: "iptables",
      kubeProxy: "iptables",
      label: "kube-proxy iptables",
    },
    results: [31365, 22237, 17261, 12916, 9057].map((value, i) => ({
      metric: "http.rps",
      unit: "req/s",
      value,
      params: { connection: "short", concurrency: 64, target: "service", services: [0, 5000, 10000, 20000, 30000][i] },
    })),
  };
  return { overlay, iptables };
}
