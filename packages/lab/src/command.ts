/**
 * `cnibench lab`: sweeps the Service count for each kube-proxy mode the host can build, in throwaway
 * network namespaces, and writes (--out) or uploads (--api, --token) one bundle per mode. The upload
 * function is the CLI's (packages/cli uploadBundle), passed in so that this package does not depend
 * on the CLI that depends on it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, hostname, release, totalmem } from "node:os";
import { parseArgs } from "node:util";
import type { BundleInput } from "@cnibench/schema";
import { bundleIssues, type HostEnvironment, labBundle, type StepMeasurement } from "./bundle.ts";
import { parseCounts } from "./parse.ts";
import { MAX_SERVICES } from "./plan.ts";
import { checkPrerequisites, Lab, type LabMode, removeStaleNamespaces } from "./runner.ts";
import { labSummary } from "./summary.ts";

export type LabIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** The CLI's upload (POST /v1/bundles with retries). */
  upload?: (
    bundle: BundleInput,
    options: { server: string; token: string },
  ) => Promise<{ status: "created" | "exists"; id: string } | { status: "failed"; error: string }>;
};

const DEFAULT_SERVICES = "0,1000,5000,10000,20000,30000";

export const labUsage = `Usage: cnibench lab [options]

Builds a client and a server network namespace joined by a veth pair, loads kube-proxy's rules for N
Services into the client (iptables mode as iptables-restore input, nftables mode as its nft table),
and measures, against the last Service's ClusterIP: short-connection and keep-alive request rates
(wrk), request latency percentiles, TCP connect latency percentiles, TCP throughput (iperf3) and the
rule load time. Each (mode, N) is measured --runs times, each run in fresh namespaces; everything is
removed at the end, on Ctrl-C, and (after a crash) on the next start. Needs root on Linux with
iproute2, iptables, nftables, iperf3 and wrk (apt-get install -y iproute2 iptables nftables iperf3 wrk).

Options:
  --services <list>        Service counts (default ${DEFAULT_SERVICES}; at most ${MAX_SERVICES})
  --modes <list>           iptables,nftables (default both); ipvs says why it is not built
  --runs <n>               runs per step (default 3)
  --duration <s>           seconds per measurement (default 4)
  --warmup <s>             unmeasured seconds of load before each run (default 1)
  --concurrency <n>        wrk connections (default 16)
  --iptables-backend <b>   legacy (default when iptables-legacy-restore exists) or nft
  --out <file>             write the bundles (a JSON array, one per mode)
  --api <url>              upload the bundles to this cnibench ingest API
  --token <token>          upload token (default: $CNIBENCH_TOKEN)
  --dry-run                check the prerequisites and print the plan, measure nothing
  --summary <file>         print a sweep written with --out as Markdown: each mode's median and
                           min–max at each step, the verdict between the modes, the crossovers

docs/lab.md says what is built, what is measured, and how to read the figures.
`;

function whole(value: string | undefined, fallback: number, name: string, min = 1): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isFinite(n) || n < min || !Number.isInteger(n))
    throw new Error(`--${name} must be a whole number ≥ ${min}`);
  return n;
}

export function hostEnvironment(): HostEnvironment {
  let os: string | undefined;
  try {
    os = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1];
  } catch {}
  const cpu = cpus();
  return {
    hostname: hostname(),
    kernel: release(),
    cpuModel: (cpu[0]?.model ?? "unknown").replace(/\s+/g, " ").trim(),
    vcpus: cpu.length,
    memoryGiB: totalmem() / 2 ** 30,
    ...(os ? { os } : {}),
  };
}

export async function runLab(argv: string[], io: LabIo): Promise<number> {
  let values: ReturnType<typeof parse>["values"];
  function parse(args: string[]) {
    return parseArgs({
      args,
      strict: true,
      options: {
        services: { type: "string" },
        modes: { type: "string" },
        runs: { type: "string" },
        duration: { type: "string" },
        warmup: { type: "string" },
        concurrency: { type: "string" },
        "iptables-backend": { type: "string" },
        out: { type: "string" },
        api: { type: "string" },
        token: { type: "string" },
        "dry-run": { type: "boolean" },
        summary: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  }
  let services: number[];
  let modes: LabMode[];
  let runs: number;
  let durationSec: number;
  let warmupSec: number;
  let concurrency: number;
  let backend: "legacy" | "nft" | undefined;
  try {
    values = parse(argv).values;
    if (values.help) {
      io.stdout(labUsage);
      return 0;
    }
    if (values.summary !== undefined) {
      // Reads a sweep written before (--out): no root, nothing built.
      io.stdout(labSummary(JSON.parse(readFileSync(values.summary, "utf8")) as BundleInput[]));
      return 0;
    }
    services = parseCounts(values.services ?? DEFAULT_SERVICES);
    if (services.some((n) => n > MAX_SERVICES)) throw new Error(`--services: at most ${MAX_SERVICES}`);
    modes = (values.modes ?? "iptables,nftables").split(",").map((m) => m.trim()) as LabMode[];
    for (const m of modes) {
      if (m !== "iptables" && m !== "nftables" && m !== "ipvs") throw new Error(`--modes: unknown mode "${m}"`);
    }
    runs = whole(values.runs, 3, "runs");
    durationSec = whole(values.duration, 4, "duration");
    warmupSec = whole(values.warmup, 1, "warmup", 0);
    concurrency = whole(values.concurrency, 16, "concurrency");
    const b = values["iptables-backend"];
    if (b !== undefined && b !== "legacy" && b !== "nft") throw new Error("--iptables-backend must be legacy or nft");
    backend = b;
    if (values.api && !(values.token ?? io.env.CNIBENCH_TOKEN)) {
      throw new Error("--api needs an upload token: --token or $CNIBENCH_TOKEN");
    }
  } catch (error) {
    io.stderr(`cnibench lab: ${(error as Error).message}\n\n${labUsage}`);
    return 2;
  }

  const pre = checkPrerequisites(modes, backend);
  for (const s of pre.skipped) io.stderr(`cnibench lab: skipping ${s.mode} mode: ${s.reason}\n`);
  if (pre.problems.length > 0 || pre.modes.length === 0) {
    const lines = [...pre.problems, ...(pre.modes.length === 0 ? ["no proxy mode can be built here"] : [])];
    io.stderr(`cnibench lab cannot run here:\n${lines.map((l) => `  - ${l}`).join("\n")}\n`);
    return 1;
  }
  const stale = removeStaleNamespaces();
  if (stale.length > 0) io.stderr(`cnibench lab: removed ${stale.length} namespace(s) left by an earlier lab\n`);
  const plan = `modes ${pre.modes.join(", ")}; Services ${services.join(", ")}; ${runs} run(s) × ${durationSec} s (warm-up ${warmupSec} s), ${concurrency} connections${pre.iptablesRestore ? `; iptables via ${pre.iptablesRestore}` : ""}`;
  io.stdout(`cnibench lab: ${plan}\n`);
  // Asked for, IPVS is a skipped mode (stderr above); otherwise said once, so no reader wonders.
  if (!modes.includes("ipvs")) io.stdout(`cnibench lab: ${pre.ipvs}\n`);
  if (values["dry-run"]) return 0;

  const host = {
    ...hostEnvironment(),
    nftVersion: pre.nftVersion,
    iptablesVersion: pre.iptablesVersion,
    iptablesBackend: pre.iptablesBackend,
  };
  const runAt = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const lab = new Lab((line) => io.stdout(`${line}\n`));
  const onSignal = (signal: NodeJS.Signals) => {
    lab.close();
    io.stderr(`\ncnibench lab: ${signal}: namespaces and processes removed\n`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const steps: StepMeasurement[] = [];
  try {
    // Runs outermost: each round visits every (mode, N), so drift of a shared machine spreads over all
    // steps instead of biasing the last ones.
    for (let run = 1; run <= runs; run++) {
      for (const mode of pre.modes) {
        for (const n of services) {
          const m = await lab.measure({
            mode,
            services: n,
            run,
            durationSec,
            warmupSec,
            concurrency,
            iptablesRestore: pre.iptablesRestore ?? "iptables-restore",
          });
          steps.push(m);
          io.stdout(
            `  run ${run} ${mode.padEnd(8)} ${String(n).padStart(6)} Services: load ${m.loadMs.toFixed(0)} ms, short ${m.shortRps.toFixed(0)} req/s, keep-alive ${m.keepaliveRps.toFixed(0)} req/s, connect p50 ${m.connectUs.p50.toFixed(0)} µs, ${m.throughputGbps.toFixed(2)} Gbit/s\n`,
          );
        }
      }
    }
  } catch (error) {
    io.stderr(`cnibench lab: ${(error as Error).message}\n`);
    return 1;
  } finally {
    lab.close();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }

  const settings = {
    concurrency,
    durationSec,
    warmupSec,
    runs,
    command: `cnibench lab ${argv.join(" ")}`.trim(),
    version: "0.1.0",
    campaign: `lab-${host.hostname}-${runAt}`,
    runAt,
  };
  const bundles = pre.modes.map((mode) => labBundle(mode, steps, host, settings));
  const issues = bundles.flatMap((b) => bundleIssues(b).map((i) => `${b.cni.mode}: ${i}`));
  if (issues.length > 0) {
    io.stderr(`cnibench lab: the bundles break the contract:\n  ${issues.join("\n  ")}\n`);
    return 1;
  }
  if (values.out) {
    writeFileSync(values.out, `${JSON.stringify(bundles, null, 2)}\n`);
    io.stdout(`cnibench lab: ${bundles.length} bundle(s) written to ${values.out}\n`);
  }
  let failed = false;
  if (values.api) {
    const token = (values.token ?? io.env.CNIBENCH_TOKEN)!;
    if (!io.upload) throw new Error("no upload function");
    for (const bundle of bundles) {
      const outcome = await io.upload(bundle, { server: values.api, token });
      if (outcome.status === "failed") failed = true;
      io.stdout(
        `cnibench lab: ${bundle.cni.mode}: ${outcome.status === "failed" ? `upload failed: ${outcome.error}` : `${outcome.status} ${outcome.id}`}\n`,
      );
    }
  }
  if (!values.out && !values.api) io.stdout(`${JSON.stringify(bundles, null, 2)}\n`);
  return failed ? 1 : 0;
}
