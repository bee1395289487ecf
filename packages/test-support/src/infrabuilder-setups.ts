// Twenty-odd setups of one benchmark, three runs each: what a user sees after uploading InfraBuilder's
// whole 2024 result tree. The fixture holds the real runs of three setups (flannel, antrea-ipsec,
// baremetal) and the CNI script of all 24; every other setup here is SYNTHETIC: flannel's three real
// run folders with their throughput, CPU and memory scaled by the factors below, so each keeps real
// run-to-run noise and the importer reads it as it reads a real tree. The factors only give the
// article's shape (encrypted setups at 5–11 Gbit/s against about 39; Calico VPP and Kube-OVN a little
// slower; encryption and VPP's poll mode costing CPU); they are not InfraBuilder's figures.

import type { EnvironmentInput, ImportFile } from "@cnibench/importers";
import { strToU8 } from "fflate";
import { fixtureText, fixtureTree } from "./fixtures.ts";

const root = "real/infrabuilder-2024";

/** Throughput (TCP, UDP) and CPU of a synthetic setup as multiples of flannel's. */
type Factors = { tcp: number; udp: number; cpu: number };

export const syntheticSetups: Record<string, Factors> = {
  antrea: { tcp: 0.98, udp: 0.97, cpu: 1.05 },
  "antrea-noencap": { tcp: 1.0, udp: 1.0, cpu: 0.95 },
  "antrea-wg": { tcp: 0.27, udp: 0.42, cpu: 2.1 },
  calico: { tcp: 0.98, udp: 0.96, cpu: 1.0 },
  "calico-ebpf": { tcp: 0.99, udp: 1.02, cpu: 0.9 },
  "calico-ebpf-wg": { tcp: 0.25, udp: 0.38, cpu: 2.2 },
  "calico-vpp": { tcp: 0.72, udp: 0.8, cpu: 1.8 },
  "calico-vpp-ipsec": { tcp: 0.14, udp: 0.2, cpu: 2.6 },
  "calico-vpp-wg": { tcp: 0.2, udp: 0.3, cpu: 2.4 },
  "calico-wg": { tcp: 0.26, udp: 0.4, cpu: 2.1 },
  canal: { tcp: 0.97, udp: 0.95, cpu: 1.05 },
  cilium: { tcp: 0.99, udp: 1.01, cpu: 0.95 },
  "cilium-custom": { tcp: 1.0, udp: 1.02, cpu: 0.9 },
  "cilium-hubble-full": { tcp: 0.93, udp: 0.9, cpu: 1.25 },
  "cilium-ipsec": { tcp: 0.16, udp: 0.24, cpu: 2.5 },
  "cilium-nohubble": { tcp: 0.99, udp: 1.0, cpu: 0.92 },
  "cilium-nokproxy": { tcp: 0.99, udp: 1.0, cpu: 0.94 },
  "cilium-wg": { tcp: 0.29, udp: 0.45, cpu: 2.0 },
  hybridnet: { tcp: 0.96, udp: 0.93, cpu: 1.1 },
  kubeovn: { tcp: 0.9, udp: 0.85, cpu: 1.3 },
  kuberouter: { tcp: 0.97, udp: 0.96, cpu: 1.0 },
  "kuberouter-all": { tcp: 0.97, udp: 0.95, cpu: 1.05 },
};

/**
 * What the tree does not say, as a user gives it on upload: the testbed (three bare-metal nodes on a
 * 40 Gbit/s network, per the article) and hybridnet's mode, which its script leaves at the default
 * (VXLAN overlay) without naming it.
 */
export const infrabuilderEnvironment: EnvironmentInput = {
  cluster: "infrabuilder-2024",
  provider: "on-prem",
  region: "infrabuilder-lab",
  sku: "bare-metal-40g",
  nicGbps: 40,
  sourceTitle: "InfraBuilder benchmark-k8s-cni-2024-01 (most setups synthetic, derived from its runs)",
  files: { "*/hybridnet/*": { mode: "overlay-vxlan" } },
};

/** The setups whose runs the fixture holds as InfraBuilder published them. */
export const realSetups = ["flannel", "antrea-ipsec", "baremetal"] as const;

/** iperf3's JSON, cut to what the importer reads (start, end's sums) and with its rates scaled. */
function scaledIperf3(text: string, factor: number): string {
  if (text.trim() === "") return text;
  const doc = JSON.parse(text) as { end?: Record<string, unknown>; intervals?: unknown };
  const end = doc.end ?? {};
  for (const key of ["sum", "sum_sent", "sum_received"]) {
    const sum = end[key] as Record<string, number> | undefined;
    if (!sum) continue;
    for (const field of ["bits_per_second", "bytes"]) if (typeof sum[field] === "number") sum[field] *= factor;
  }
  delete end.streams;
  return JSON.stringify({ ...doc, intervals: [] });
}

/** all.results (KEY=value) with bandwidth and CPU scaled; memory and loss kept. */
function scaledResults(text: string, f: Factors): string {
  return text.replace(/^([A-Z]+)_([A-Z_]+)=(.*)$/gm, (line, test: string, key: string, raw: string) => {
    const value = Number(raw);
    if (raw === "" || !Number.isFinite(value)) return line;
    const udp = test.startsWith("DU") || test.startsWith("SU");
    if (key === "BW") return `${test}_${key}=${value * (udp ? f.udp : f.tcp)}`;
    if (key.endsWith("_SYSTEM") || key.endsWith("_USER")) return `${test}_${key}=${value * f.cpu}`;
    return line;
  });
}

/** A text file of a run folder as the synthetic setup has it: its id in commands, its figures scaled. */
function synthetic(setup: string, file: string, text: string, f: Factors): string {
  if (file.endsWith(".cmd")) return text.replaceAll("id=flannel", `id=${setup}`);
  if (file === "all.results" || file.endsWith(".results")) return scaledResults(text, f);
  if (file.endsWith("-client.stdout") && !file.startsWith("idle")) {
    return scaledIperf3(text, file.startsWith("du") || file.startsWith("su") ? f.udp : f.tcp);
  }
  return text;
}

/**
 * The whole tree as `tar czf ib.tgz results setup/cni-configs` gives it, 25 setups × 3 runs:
 * `results/<setup>/<run>/…` and `setup/cni-configs/<setup>.sh`, under `prefix`. Real setups keep their
 * files byte for byte (their iperf3 intervals cut, as for the synthetic ones, to keep the upload small).
 */
export function infrabuilderSetups(prefix = "ib"): ImportFile[] {
  const files: ImportFile[] = [];
  const add = (name: string, text: string) => files.push({ name: `${prefix}/${name}`, bytes: strToU8(text) });
  const trimmed = (name: string, text: string) =>
    name.endsWith("-client.stdout") && !name.includes("/idle") && text.trim().startsWith("{")
      ? scaledIperf3(text, 1)
      : text;
  for (const setup of realSetups) {
    for (const f of fixtureTree(`${root}/${setup}`, setup)) {
      if (f.name.endsWith(".csv")) continue;
      add(`results/${f.name}`, trimmed(f.name, new TextDecoder().decode(f.bytes)));
    }
  }
  const template = fixtureTree(`${root}/flannel`, "").filter((f) => !f.name.endsWith(".csv"));
  for (const [setup, factors] of Object.entries(syntheticSetups)) {
    for (const f of template) {
      const [, run, file] = f.name.split("/") as [string, string, string];
      add(`results/${setup}/${run}/${file}`, synthetic(setup, file, new TextDecoder().decode(f.bytes), factors));
    }
  }
  for (const setup of [...Object.keys(syntheticSetups), "flannel", "antrea-ipsec"]) {
    add(`setup/cni-configs/${setup}.sh`, fixtureText(`${root}/setup/cni-configs/${setup}.sh`));
  }
  return files;
}
