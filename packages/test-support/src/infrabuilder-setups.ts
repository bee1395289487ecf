// Twenty-odd setups of one benchmark, three runs each: what a user sees after uploading InfraBuilder's
// whole 2024 result tree. The fixture holds the real runs of three setups (flannel, antrea-ipsec,
// baremetal) and the CNI script of all 24; every other setup here is SYNTHETIC: flannel's three real
// run folders with their throughput, CPU and memory scaled by the factors below, so each keeps real
// run-to-run noise and the importer reads it as it reads a real tree. The factors give the article's
// shape, not InfraBuilder's figures: with 8 streams every unencrypted setup saturates the 40 Gbit/s
// line as flannel does (38.8–39.0 Gbit/s × a factor of 0.98 to 1); with 1 stream they differ, the best
// (cilium-custom, 25.4 Gbit/s) 12 % above the next (calico-ebpf, 22.6), as in the article; encrypted
// setups reach 5–11 Gbit/s either way; encryption and VPP's poll mode cost CPU. Each synthetic test
// also has statexec's <test>-{client,server}.prom, two samples of 4 CPUs' counters whose user and
// system time are the scaled all.results figures and whose softirq time is 2.3 times that for an
// encrypted setup (encryption runs in softirq) and 0.6 times for a plain one.

import type { EnvironmentInput, ImportFile } from "@cnibench/importers";
import { strToU8 } from "fflate";
import { fixtureText, fixtureTree } from "./fixtures.ts";

const root = "real/infrabuilder-2024";

/**
 * Throughput and CPU of a synthetic setup as multiples of flannel's: `tcp` 8-stream TCP (dtm, stm),
 * `single` 1-stream TCP (dts, sts), `udp` both UDP tests, `cpu` bench.sh's user + system.
 */
type Factors = { tcp: number; single: number; udp: number; cpu: number };

// Single-stream: flannel's median dts is 19.80 Gbit/s; cilium-custom × 1.283 = 25.4, calico-ebpf
// × 1.141 = 22.6, every other unencrypted setup below that; encrypted ones × 0.27–0.5 = 5.3–9.9.
export const syntheticSetups: Record<string, Factors> = {
  antrea: { tcp: 0.98, single: 0.97, udp: 0.97, cpu: 1.05 },
  "antrea-noencap": { tcp: 1.0, single: 1.05, udp: 1.0, cpu: 0.95 },
  "antrea-wg": { tcp: 0.27, single: 0.45, udp: 0.42, cpu: 2.1 },
  calico: { tcp: 0.98, single: 1.0, udp: 0.96, cpu: 1.0 },
  "calico-ebpf": { tcp: 0.99, single: 1.141, udp: 1.02, cpu: 0.9 },
  "calico-ebpf-wg": { tcp: 0.25, single: 0.42, udp: 0.38, cpu: 2.2 },
  "calico-vpp": { tcp: 0.98, single: 0.8, udp: 0.8, cpu: 1.8 },
  "calico-vpp-ipsec": { tcp: 0.14, single: 0.27, udp: 0.2, cpu: 2.6 },
  "calico-vpp-wg": { tcp: 0.2, single: 0.33, udp: 0.3, cpu: 2.4 },
  "calico-wg": { tcp: 0.26, single: 0.44, udp: 0.4, cpu: 2.1 },
  canal: { tcp: 0.98, single: 0.96, udp: 0.95, cpu: 1.05 },
  cilium: { tcp: 0.99, single: 1.02, udp: 1.01, cpu: 0.95 },
  "cilium-custom": { tcp: 1.0, single: 1.283, udp: 1.02, cpu: 0.9 },
  "cilium-hubble-full": { tcp: 0.98, single: 0.9, udp: 0.9, cpu: 1.25 },
  "cilium-ipsec": { tcp: 0.16, single: 0.3, udp: 0.24, cpu: 2.5 },
  "cilium-nohubble": { tcp: 0.99, single: 1.03, udp: 1.0, cpu: 0.92 },
  "cilium-nokproxy": { tcp: 0.99, single: 1.06, udp: 1.0, cpu: 0.94 },
  "cilium-wg": { tcp: 0.29, single: 0.5, udp: 0.45, cpu: 2.0 },
  hybridnet: { tcp: 0.98, single: 0.95, udp: 0.93, cpu: 1.1 },
  kubeovn: { tcp: 0.98, single: 0.88, udp: 0.85, cpu: 1.3 },
  kuberouter: { tcp: 0.98, single: 0.99, udp: 0.96, cpu: 1.0 },
  "kuberouter-all": { tcp: 0.98, single: 0.98, udp: 0.95, cpu: 1.05 },
};

/** Encrypted setups (WireGuard, IPsec): their softirq time is the larger. */
export const isEncryptedSetup = (setup: string) => /-(wg|ipsec)$/.test(setup);

/** Softirq CPU time of a synthetic test as a multiple of its user + system time. */
export const softirqShare = (setup: string) => (isEncryptedSetup(setup) ? 2.3 : 0.6);

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

/** The factor of a test's throughput: "DTS", "stm", … */
function throughputFactor(test: string, f: Factors): number {
  const t = test.toLowerCase();
  if (t[1] === "u") return f.udp;
  return t[2] === "s" ? f.single : f.tcp;
}

/** all.results (KEY=value) with bandwidth and CPU scaled; memory and loss kept. */
function scaledResults(text: string, f: Factors): string {
  return text.replace(/^([A-Z]+)_([A-Z_]+)=(.*)$/gm, (line, test: string, key: string, raw: string) => {
    const value = Number(raw);
    if (raw === "" || !Number.isFinite(value)) return line;
    if (key === "BW") return `${test}_${key}=${value * throughputFactor(test, f)}`;
    if (key.endsWith("_SYSTEM") || key.endsWith("_USER")) return `${test}_${key}=${value * f.cpu}`;
    return line;
  });
}

/** A text file of a run folder as the synthetic setup has it: its id in commands, its figures scaled. */
function synthetic(setup: string, file: string, text: string, f: Factors): string {
  if (file.endsWith(".cmd")) return text.replaceAll("id=flannel", `id=${setup}`);
  if (file === "all.results" || file.endsWith(".results")) return scaledResults(text, f);
  if (file.endsWith("-client.stdout") && !file.startsWith("idle")) {
    return scaledIperf3(text, throughputFactor(file.slice(0, 3), f));
  }
  return text;
}

const CPUS = 4;
/** statexec's window: 10 s before the test, its 60 s, 10 s after. */
const WINDOW_S = 80;

/**
 * The busy cores statexec's files of a test and role show, by mode: user and system as all.results
 * gives them (`<TEST>_<ROLE>_USER`, `_SYSTEM`), softirq `softirqShare` times their sum; null where
 * all.results has no such figures.
 */
export function busyCores(
  setup: string,
  test: string,
  role: string,
  summary: string,
): { user: number; system: number; softirq: number } | null {
  const key = `${test.toUpperCase()}_${role.toUpperCase()}`;
  // An empty figure (KEY=) is none, not 0.
  const cores = (name: string) => Number(new RegExp(`^${key}_${name}=(.+)$`, "m").exec(summary)?.[1] ?? Number.NaN);
  const user = cores("USER");
  const system = cores("SYSTEM");
  if (!Number.isFinite(user) || !Number.isFinite(system)) return null;
  return { user, system, softirq: softirqShare(setup) * (user + system) };
}

/**
 * statexec's per-second text of one test and role, cut to two samples (the first and the last) of 4
 * CPUs' user, system, softirq and idle counters: user and system are all.results' cores over the
 * window, softirq `softirqShare` times their sum, spread evenly over the CPUs. A synthetic node, not a
 * physical one: an encrypted setup's busy time may exceed 4 cores, idle then stays at 0.
 */
export function syntheticProm(setup: string, run: string, test: string, role: string, summary: string): string {
  const cores = busyCores(setup, test, role, summary);
  if (!cores) return "";
  const seconds: Record<string, number> = Object.fromEntries(
    Object.entries(cores).map(([mode, busy]) => [mode, busy * WINDOW_S]),
  );
  seconds.idle = Math.max(0, CPUS * WINDOW_S - seconds.user! - seconds.system! - seconds.softirq!);
  const labels = `instance="${test}",job="statexec",role="${role}"`;
  const lines = ["# Collector: blackswift/statexec (synthetic: cnibench test-support)"];
  for (const [at, share] of [
    [1704067200000, 0],
    [1704067200000 + WINDOW_S * 1000, 1],
  ] as const) {
    for (let cpu = 0; cpu < CPUS; cpu++) {
      for (const [mode, total] of Object.entries(seconds)) {
        const value = 1000 + cpu + (share * total) / CPUS;
        lines.push(
          `statexec_cpu_seconds_total{${labels},cpu="cpu${cpu}",mode="${mode}",id="${setup}",run="${run}"} ${value.toFixed(6)} ${at}`,
        );
      }
    }
  }
  return `${lines.join("\n")}\n`;
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
    const summaries = new Map<string, string>();
    for (const f of template) {
      const [, run, file] = f.name.split("/") as [string, string, string];
      const text = synthetic(setup, file, new TextDecoder().decode(f.bytes), factors);
      if (file === "all.results") summaries.set(run, text);
      add(`results/${setup}/${run}/${file}`, text);
    }
    for (const f of template) {
      const [, run, file] = f.name.split("/") as [string, string, string];
      const test = /^([a-z]+)-client\.cmd$/.exec(file)?.[1];
      if (!test) continue;
      for (const role of ["client", "server"]) {
        const prom = syntheticProm(setup, run, test, role, summaries.get(run) ?? "");
        if (prom !== "") add(`results/${setup}/${run}/${test}-${role}.prom`, prom);
      }
    }
  }
  for (const setup of [...Object.keys(syntheticSetups), "flannel", "antrea-ipsec"]) {
    add(`setup/cni-configs/${setup}.sh`, fixtureText(`${root}/setup/cni-configs/${setup}.sh`));
  }
  return files;
}
