/**
 * The lab's I/O: prerequisites, throwaway network namespaces, rule loading and the measurements.
 *
 * Nothing here touches the host's own network namespace: every `ip`, `iptables-restore`, `nft`, `wrk`
 * and `iperf3` runs through `ip netns exec <lab namespace>` or `ip -n <lab namespace>`, and the veth
 * pair is created inside the lab namespaces. Namespaces are named `cnb-lab-<pid>-<n>-c|s`; each run of
 * each step gets a fresh pair (so no conntrack entry, TIME_WAIT socket or rule of one step can skew
 * the next), torn down in `finally`, on SIGINT/SIGTERM, and — when the process that made them died —
 * on the next start (`removeStaleNamespaces`).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProxyMode, StepMeasurement } from "./bundle.ts";
import { iptablesRules } from "./iptables.ts";
import { nftablesRules } from "./nftables.ts";
import { parseIperf3Gbps, parseWrk, percentile } from "./parse.ts";
import { CLIENT_IP, HTTP_PORT, IPERF_PORT, POD_CIDR, SERVER_IP, SERVICE_CIDR, targetOf } from "./plan.ts";

const NAMESPACE_PREFIX = "cnb-lab-";
const serverScript = fileURLToPath(new URL("./http-server.mjs", import.meta.url));
const probeScript = fileURLToPath(new URL("./connect-probe.mjs", import.meta.url));

function has(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function firstLine(command: string, args: string[]): string | undefined {
  const out = spawnSync(command, args, { encoding: "utf8" });
  return out.status === 0 ? out.stdout.split("\n")[0]?.trim() || undefined : undefined;
}

/** The modes one may ask for: those the lab builds, and IPVS, which it says it cannot (ipvsWords). */
export type LabMode = ProxyMode | "ipvs";

/**
 * Why there is no IPVS mode, in the lab's words. kube-proxy's IPVS mode needs the kernel's ip_vs (a
 * kube-ipvs0 dummy interface holding the ClusterIPs, one virtual server per Service port, ipset and a
 * few iptables rules beside it); the lab does not build it yet, and cannot where the kernel lacks ip_vs.
 */
export function ipvsWords(kernelHasIpVs: boolean): string {
  return kernelHasIpVs
    ? "IPVS: not built yet (the kernel has ip_vs; docs/lab.md)"
    : "IPVS: not available on this kernel (no ip_vs)";
}

/** ip_vs loaded or built in (/proc/net/ip_vs), or a module modprobe could load. */
function kernelHasIpVs(): boolean {
  return existsSync("/proc/net/ip_vs") || spawnSync("modinfo", ["ip_vs"], { stdio: "ignore" }).status === 0;
}

export type Prerequisites = {
  /** Why the lab cannot run at all (each with the Debian package that provides what is missing). */
  problems: string[];
  /** Modes it can build, and for each mode it cannot, why. */
  modes: ProxyMode[];
  skipped: { mode: LabMode; reason: string }[];
  /** What the lab says of IPVS on this host (ipvsWords). */
  ipvs: string;
  iptablesRestore?: string;
  iptablesBackend?: "legacy" | "nft";
  iptablesVersion?: string;
  nftVersion?: string;
};

/**
 * What is missing to run the lab here, named with its Debian package. iptables mode prefers the legacy
 * backend (iptables-legacy-restore, the classic xtables linear match) when present — iptables-nft 1.8.9
 * takes ~35 s to restore 10,000 Services — unless `backend` asks for "nft".
 */
export function checkPrerequisites(wanted: LabMode[], backend?: "legacy" | "nft"): Prerequisites {
  const problems: string[] = [];
  if (process.platform !== "linux") problems.push("the lab needs Linux (network namespaces)");
  if (typeof process.getuid === "function" && process.getuid() !== 0) {
    problems.push("the lab needs root (it creates network namespaces): run it with sudo");
  }
  const tools: [string, string][] = [
    ["ip", "iproute2"],
    ["wrk", "wrk"],
    ["iperf3", "iperf3"],
  ];
  for (const [tool, pkg] of tools) if (!has(tool)) problems.push(`\`${tool}\` is missing: apt-get install -y ${pkg}`);
  const result: Prerequisites = { problems, modes: [], skipped: [], ipvs: ipvsWords(kernelHasIpVs()) };
  if (wanted.includes("ipvs")) result.skipped.push({ mode: "ipvs", reason: result.ipvs });
  if (wanted.includes("iptables")) {
    const legacy = has("iptables-legacy-restore");
    const chosen =
      backend === "nft"
        ? has("iptables-nft-restore")
          ? "iptables-nft-restore"
          : undefined
        : legacy
          ? "iptables-legacy-restore"
          : backend === "legacy"
            ? undefined
            : has("iptables-restore")
              ? "iptables-restore"
              : undefined;
    if (chosen) {
      result.modes.push("iptables");
      result.iptablesRestore = chosen;
      const version = firstLine(chosen.replace("-restore", ""), ["--version"]);
      result.iptablesVersion = version;
      result.iptablesBackend = /legacy/.test(version ?? chosen) ? "legacy" : "nft";
    } else {
      result.skipped.push({
        mode: "iptables",
        reason: `\`${backend === "nft" ? "iptables-nft-restore" : backend === "legacy" ? "iptables-legacy-restore" : "iptables-restore"}\` is missing: apt-get install -y iptables`,
      });
    }
  }
  if (wanted.includes("nftables")) {
    if (has("nft")) {
      result.modes.push("nftables");
      result.nftVersion = firstLine("nft", ["--version"]);
    } else {
      result.skipped.push({ mode: "nftables", reason: "`nft` is missing: apt-get install -y nftables" });
    }
  }
  if (problems.length === 0 && result.modes.length > 0) {
    // Root is not always enough (a container without CAP_SYS_ADMIN): try one namespace.
    const probe = `${NAMESPACE_PREFIX}${process.pid}-probe`;
    const made = spawnSync("ip", ["netns", "add", probe], { encoding: "utf8" });
    if (made.status !== 0) problems.push(`cannot create a network namespace: ${made.stderr.trim()}`);
    else spawnSync("ip", ["netns", "del", probe]);
  }
  return result;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function labNamespaces(): string[] {
  const out = spawnSync("ip", ["netns", "list"], { encoding: "utf8" });
  return (out.stdout ?? "")
    .split("\n")
    .map((l) => l.split(" ")[0] ?? "")
    .filter((name) => name.startsWith(NAMESPACE_PREFIX));
}

/** Kills what runs in a lab namespace (only processes we started there), then deletes it. */
function destroyNamespace(name: string): void {
  const pids = spawnSync("ip", ["netns", "pids", name], { encoding: "utf8" });
  for (const pid of (pids.stdout ?? "").split(/\s+/).filter(Boolean)) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {}
  }
  spawnSync("ip", ["netns", "del", name], { stdio: "ignore" });
}

/** Namespaces left by a lab whose process is gone (a crash, a kill -9): removed, and listed. */
export function removeStaleNamespaces(): string[] {
  const stale = labNamespaces().filter((name) => {
    const pid = Number(/^cnb-lab-(\d+)-/.exec(name)?.[1]);
    return Number.isInteger(pid) && pid !== process.pid && !pidAlive(pid);
  });
  for (const name of stale) destroyNamespace(name);
  return stale;
}

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

/** A command run inside a lab namespace. */
function inNamespace(ns: string, ...command: string[]): string[] {
  return ["ip", "netns", "exec", ns, ...command];
}

export class Lab {
  private readonly children = new Set<ChildProcess>();
  private readonly namespaces = new Set<string>();
  private counter = 0;
  private readonly tmp = mkdtempSync(join(tmpdir(), "cnibench-lab-"));
  private closed = false;

  constructor(private readonly log: (line: string) => void) {}

  private run(args: string[], options: { stdinFile?: string; timeoutMs?: number } = {}): Promise<Run> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error("the lab was stopped"));
      const stdin = options.stdinFile ? openSync(options.stdinFile, "r") : "ignore";
      const start = performance.now();
      const child = spawn(args[0]!, args.slice(1), { stdio: [stdin, "pipe", "pipe"] });
      if (typeof stdin === "number") closeSync(stdin);
      this.children.add(child);
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (d) => {
        stdout += d;
      });
      child.stderr?.on("data", (d) => {
        stderr += d;
      });
      const timer = options.timeoutMs ? setTimeout(() => child.kill("SIGKILL"), options.timeoutMs) : undefined;
      child.on("error", reject);
      child.on("close", (code) => {
        if (timer) clearTimeout(timer);
        this.children.delete(child);
        resolve({ code, stdout, stderr, ms: performance.now() - start });
      });
    });
  }

  private async must(args: string[], what: string, options?: { stdinFile?: string; timeoutMs?: number }) {
    const out = await this.run(args, options);
    if (out.code !== 0) throw new Error(`${what} failed (${args.join(" ")}): ${(out.stderr || out.stdout).trim()}`);
    return out;
  }

  /** Starts a long-running process in a namespace; resolves once it printed `ready` (or after `settleMs`). */
  private startDaemon(ns: string, command: string[], settleMs?: number): Promise<ChildProcess> {
    return new Promise((resolve, reject) => {
      const child = spawn("ip", ["netns", "exec", ns, ...command], { stdio: ["ignore", "pipe", "pipe"] });
      this.children.add(child);
      let stderr = "";
      child.stderr?.on("data", (d) => {
        stderr += d;
      });
      child.on("exit", (code) => {
        this.children.delete(child);
        reject(new Error(`${command[0]} exited early (${code}): ${stderr.trim()}`));
      });
      if (settleMs !== undefined) setTimeout(() => resolve(child), settleMs);
      else child.stdout?.on("data", (d) => String(d).includes("ready") && resolve(child));
    });
  }

  /** A client and a server namespace joined by a veth pair, with the HTTP and iperf3 servers running. */
  async createPair(): Promise<{ client: string; server: string }> {
    const id = `${NAMESPACE_PREFIX}${process.pid}-${++this.counter}`;
    const client = `${id}-c`;
    const server = `${id}-s`;
    for (const ns of [client, server]) {
      await this.must(["ip", "netns", "add", ns], "creating a namespace");
      this.namespaces.add(ns);
    }
    const prefix = POD_CIDR.split("/")[1];
    const steps: string[][] = [
      // Made inside the lab namespaces: the host's namespace never sees the veth.
      ["ip", "-n", client, "link", "add", "eth0", "type", "veth", "peer", "name", "eth0", "netns", server],
      ["ip", "-n", client, "addr", "add", `${CLIENT_IP}/${prefix}`, "dev", "eth0"],
      ["ip", "-n", server, "addr", "add", `${SERVER_IP}/${prefix}`, "dev", "eth0"],
      ["ip", "-n", client, "link", "set", "lo", "up"],
      ["ip", "-n", server, "link", "set", "lo", "up"],
      ["ip", "-n", client, "link", "set", "eth0", "up"],
      ["ip", "-n", server, "link", "set", "eth0", "up"],
      // ClusterIPs are routed towards the node's interface, as a node's default route would.
      ["ip", "-n", client, "route", "add", SERVICE_CIDR, "dev", "eth0"],
      inNamespace(client, "sysctl", "-qw", "net.ipv4.ip_local_port_range=1024 65535"),
      inNamespace(client, "sysctl", "-qw", "net.ipv4.tcp_tw_reuse=1"),
      inNamespace(server, "sysctl", "-qw", "net.core.somaxconn=4096"),
      inNamespace(server, "sysctl", "-qw", "net.ipv4.tcp_max_syn_backlog=4096"),
    ];
    for (const args of steps) await this.must(args, "building the namespaces");
    await this.startDaemon(server, [process.execPath, serverScript, String(HTTP_PORT)]);
    await this.startDaemon(server, ["iperf3", "-s", "-p", String(IPERF_PORT)], 300);
    return { client, server };
  }

  destroyPair(pair: { client: string; server: string }): void {
    for (const ns of [pair.client, pair.server]) {
      destroyNamespace(ns);
      this.namespaces.delete(ns);
    }
  }

  /** Loads a mode's rules for N Services into the client namespace; resolves with the wall time in ms. */
  async loadRules(
    client: string,
    mode: ProxyMode,
    services: number,
    iptablesRestore: string,
  ): Promise<{ ms: number; counts?: { natRules: number; kubeServicesRules: number } }> {
    const file = join(this.tmp, `${mode}-${services}.rules`);
    if (mode === "iptables") {
      const rules = iptablesRules(services);
      writeFileSync(file, rules.text);
      const out = await this.must(inNamespace(client, iptablesRestore, "--noflush"), "iptables-restore", {
        stdinFile: file,
        timeoutMs: 600_000,
      });
      return { ms: out.ms, counts: { natRules: rules.natRules, kubeServicesRules: rules.kubeServicesRules } };
    }
    writeFileSync(file, nftablesRules(services).text);
    const out = await this.must(inNamespace(client, "nft", "-f", file), "nft -f", { timeoutMs: 600_000 });
    return { ms: out.ms };
  }

  private wrk(client: string, url: string, seconds: number, concurrency: number, short: boolean) {
    const args = inNamespace(client, "wrk", "-t2", `-c${concurrency}`, `-d${seconds}s`, "--latency");
    if (short) args.push("-H", "Connection: close");
    return this.must([...args, url], "wrk", { timeoutMs: (seconds + 30) * 1000 }).then((o) => parseWrk(o.stdout));
  }

  /** One run of one step: fresh namespaces, rules loaded and timed, a warm-up, then each measurement. */
  async measure(options: {
    mode: ProxyMode;
    services: number;
    run: number;
    durationSec: number;
    warmupSec: number;
    concurrency: number;
    iptablesRestore: string;
  }): Promise<StepMeasurement> {
    const { mode, services, durationSec, concurrency } = options;
    const pair = await this.createPair();
    try {
      const load = await this.loadRules(pair.client, mode, services, options.iptablesRestore);
      const target = targetOf(services);
      const url = `http://${target.http.ip}:${target.http.port}/`;
      const node = (...args: string[]) => inNamespace(pair.client, process.execPath, probeScript, ...args);
      const check = await this.must(node("check", target.http.ip, String(target.http.port)), "reaching the target");
      const answer = JSON.parse(check.stdout) as { status?: number; error?: string };
      if (answer.status !== 200) throw new Error(`the target ${url} does not answer: ${answer.error ?? answer.status}`);
      // Warm-up: the first connections pay one-time costs (ARP, route and socket caches, the server's
      // JIT); without it a short step measures them instead of the datapath.
      // Both kinds of load are warmed up: the server's keep-alive path has its own first-use costs.
      if (options.warmupSec > 0) {
        await this.wrk(pair.client, url, options.warmupSec, concurrency, true);
        await this.wrk(pair.client, url, options.warmupSec, concurrency, false);
      }
      const short = await this.wrk(pair.client, url, durationSec, concurrency, true);
      const keepalive = await this.wrk(pair.client, url, durationSec, concurrency, false);
      const probeMs = String(Math.min(durationSec, 2) * 1000);
      const probe = await this.must(node(target.http.ip, String(target.http.port), probeMs), "the connect probe");
      const { samples, errors } = JSON.parse(probe.stdout) as { samples: number[]; errors: number };
      if (samples.length === 0) throw new Error(`no connection to ${url} succeeded (${errors} errors)`);
      const iperfArgs = ["-c", target.iperf.ip, "-p", String(target.iperf.port), "-t", String(durationSec), "-J"];
      const iperf = await this.must(inNamespace(pair.client, "iperf3", ...iperfArgs), "iperf3", {
        timeoutMs: (durationSec + 30) * 1000,
      });
      const errorsOf = (w: ReturnType<typeof parseWrk>) =>
        w.socketErrors.connect + w.socketErrors.read + w.socketErrors.write + w.socketErrors.timeout + w.non2xx;
      const trouble = errorsOf(short) + errorsOf(keepalive) + errors;
      if (trouble > 0) this.log(`    note: ${trouble} socket errors or non-2xx answers in this run`);
      return {
        mode,
        services,
        run: options.run,
        loadMs: load.ms,
        shortRps: short.requestsPerSecond,
        shortLatencyMs: {
          p50: short.latencyMs["50"] ?? Number.NaN,
          p90: short.latencyMs["90"] ?? Number.NaN,
          p99: short.latencyMs["99"] ?? Number.NaN,
        },
        keepaliveRps: keepalive.requestsPerSecond,
        connectUs: { p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99) },
        throughputGbps: parseIperf3Gbps(iperf.stdout),
        ...(load.counts ? { ruleCounts: load.counts } : {}),
      };
    } finally {
      this.destroyPair(pair);
    }
  }

  /** Stops every process the lab started and deletes its namespaces and files. Idempotent, synchronous. */
  close(): void {
    this.closed = true;
    for (const child of this.children) child.kill("SIGKILL");
    this.children.clear();
    for (const ns of this.namespaces) destroyNamespace(ns);
    this.namespaces.clear();
    rmSync(this.tmp, { recursive: true, force: true });
  }
}
