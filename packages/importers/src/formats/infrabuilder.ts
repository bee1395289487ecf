/**
 * One run folder of InfraBuilder's bench.sh (benchmark-k8s-cni-2024-01): results/<setup>/<run>/, one
 * bundle. Each test has a `<test>-client.cmd` (statexec … -l id=<setup> -l run=<n> -i <test> -- iperf3 …),
 * the client's `iperf3 --json` output (<test>-client.stdout) and bench.sh's KEY=value summary (all.results).
 *
 * Test codes: d = direct (pod to pod, or node to node when no Kubernetes runs), s = via a Service;
 * t = TCP, u = UDP; m = 8 streams, s = 1 (the -P of the command). Throughput is iperf3's, read like
 * any iperf3 output (UDP headline = end.sum_received, what bench.sh publishes as <TEST>_BW). CPU and
 * memory of the client and server nodes come from all.results (statexec's means: CPU seconds per
 * second, used bytes), the idle test being the baseline. bench.sh's CPU is user + system only, while
 * encryption and packet processing run mostly in softirq: where statexec's <test>-<role>.prom is in
 * the upload, the whole CPU (every busy mode) and each mode are read from it too. Each cpu.usage
 * says which with its `accounting` param: "all-modes" (whole CPU), "user+system" (bench.sh's), or
 * "mode" with `mode` naming one. A test whose iperf3 reported an error or wrote nothing is a missing
 * run: a warning, while the run's other figures are kept.
 */

import { type EnvironmentFields, ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { decodeText, finite, isObject, parseJson } from "../util.ts";
import { cniFromConfig } from "./infrabuilder-cni.ts";
import { iperf3FromJson, kernelFromUname } from "./iperf3.ts";
import { busyModes, readStatexecCpu } from "./statexec.ts";

/** InfraBuilder's 2024 benchmark, credited as its README asks. */
export const infrabuilder2024 = {
  sourceTitle:
    "Benchmark results of Kubernetes network plugins (CNI) over 40Gbit/s network [2024] — Alexis Ducastel, InfraBuilder",
  sourceUrl: "https://github.com/InfraBuilder/benchmark-k8s-cni-2024-01",
} as const satisfies EnvironmentFields;

export type ClientCommand = {
  setup: string;
  run: string;
  test: string;
  /** False when the command runs on the host (./maas.sh ssh), not through kubectl: the baremetal reference. */
  kubernetes: boolean;
  streams: number;
};

/** `<test>-client.cmd` as bench.sh writes it (one line of a few hundred bytes); undefined for any other text. */
export function readClientCommand(content: string): ClientCommand | undefined {
  // The lazy pattern rescans the line from every "statexec": bounded, a hostile file costs nothing.
  const text = content.slice(0, 4096);
  const labels = /\bstatexec\s.*?-l\s+id=(\S+)\s+-l\s+run=(\S+)\s+-i\s+(\S+)/.exec(text);
  if (!labels) return undefined;
  const [, setup, run, test] = labels as unknown as [string, string, string, string];
  const tool = text.slice(text.indexOf(" -- ") + 4);
  return {
    setup,
    run,
    test,
    kubernetes: /\bkubectl\b/.test(text),
    streams: Number(/(?:^|\s)-P\s+(\d+)/.exec(tool)?.[1] ?? 1),
  };
}

/** Files of a setup folder (beside its run folders) that summarise the runs bench.sh's way. */
export const SETUP_SUMMARIES = ["results-spreadsheet.csv", "results.prom"] as const;

/** bench.sh's order of tests, so a run's results come out the same whatever order the files came in. */
const testOrder = ["idle", "dts", "dtm", "dus", "dum", "sts", "stm", "sus", "sum"];

type Test = ClientCommand & { path: string; protocol: "tcp" | "udp" };

/**
 * A run folder (file name → bytes) into one run. `cniConfig` finds setup/cni-configs/<setup>.sh of
 * the same upload, when there is one.
 */
export function parseInfrabuilderRun(
  files: Map<string, Uint8Array>,
  cniConfig: (setup: string) => string | undefined = () => undefined,
): ParsedRun {
  const text = (name: string) => {
    const bytes = files.get(name);
    return bytes === undefined ? undefined : decodeText(bytes);
  };
  const commands = [...files.keys()]
    .filter((name) => name.endsWith("-client.cmd"))
    .flatMap((name) => readClientCommand(text(name) ?? "") ?? [])
    .sort((a, b) => rank(a.test) - rank(b.test) || a.test.localeCompare(b.test));
  const first = commands[0];
  if (!first) {
    throw new ImportError(
      "not a bench.sh run folder: no <test>-client.cmd with statexec's labels (-l id=<setup> -l run=<n> -i <test>)",
    );
  }
  const { setup, run } = first;
  const summary = readSummary(
    text("all.results") ??
      [...files.keys()]
        .filter((n) => n.endsWith(".results"))
        .map(text)
        .join("\n"),
  );
  const results: Result[] = [];
  const skipped: string[] = [];
  // Missing runs: a warning each (why), and a line of skippedParts (what was left out).
  const warnings: NonNullable<ParsedRun["warnings"]> = [];
  const leftOut: string[] = [];
  const read = new Set(["all.results", "info-client.uname"]);
  let iperfKernel: string | undefined;
  let runAt: string | undefined;

  for (const command of commands) {
    read.add(`${command.test}-client.cmd`);
    read.add(`${command.test}.results`);
    const test = testOf(command);
    if (command.test !== "idle" && !test) {
      skipped.push(`${command.test}-client.cmd: "${command.test}" is not a bench.sh test code`);
      continue;
    }
    if (test) {
      const stdout = `${test.test}-client.stdout`;
      read.add(stdout);
      const outcome = throughput(test, text(stdout), results);
      if (typeof outcome === "string") {
        const what = `${test.test} (${words(test)}) of ${setup} run ${run}`;
        warnings.push({ path: "", message: `missing run: ${what} — ${outcome}` });
        leftOut.push(
          `${stdout}: a missing run (see the warnings), so the test's CPU and memory figures are left out too`,
        );
        continue;
      }
      iperfKernel ??= outcome.kernel;
      if (outcome.runAt && (runAt === undefined || outcome.runAt < runAt)) runAt = outcome.runAt;
      skipped.push(...outcome.skipped.map((s) => `${stdout}: ${s}`));
    }
    const params: Params = test
      ? { component: "node", path: test.path, protocol: test.protocol, streams: test.streams }
      : { component: "node", test: "idle" };
    results.push(...resources(command.test.toUpperCase(), params, summary, skipped));
    for (const role of ["client", "server"] as const) {
      const prom = `${command.test}-${role}.prom`;
      const bytes = files.get(prom);
      if (bytes === undefined) continue;
      read.add(prom);
      const cpu = readStatexecCpu(bytes);
      if (cpu) results.push(...cpuByMode({ ...params, role }, cpu, prom));
      else skipped.push(`${prom}: fewer than two samples of statexec_cpu_seconds_total, so no CPU figure from it`);
    }
  }

  const unread = [...files.keys()].filter((name) => !read.has(name));
  if (unread.length > 0) {
    skipped.push(
      `${unread.length} file(s) not read, holding no figure bench.sh publishes (server-side outputs, stderr, interfaces, netpol)`,
    );
  }
  if (results.length === 0) {
    const why = [...warnings.map((w) => w.message), ...skipped];
    throw new ImportError(`run ${run} of setup ${setup} holds no figure: ${why.join("; ")}`);
  }

  const config = cniConfig(setup.replace(/^st_/, ""));
  if (config === undefined && first.kubernetes) {
    skipped.push(`setup/cni-configs/${setup.replace(/^st_/, "")}.sh is not in the upload: the CNI is the one you pass`);
  }
  const derived: EnvironmentFields = {
    kernel: kernelFromUname(text("info-client.uname")) ?? iperfKernel,
    label: setup,
    // No Kubernetes: the node-to-node reference, whatever a CNI script says.
    ...(first.kubernetes
      ? config === undefined
        ? {}
        : cniFromConfig(setup, config)
      : { cni: "none", mode: "host-network", kubeProxy: "none" }),
  };
  // bench.sh's tuned variants (st_<setup>) pin iperf3 to the NIC's NUMA node on tuned hosts.
  if (setup.startsWith("st_")) derived.settings = { ...derived.settings, tuned: true };
  // The published 2024 benchmark (its bench.sh starts statexec's clock at 2024-01-01, -mst 1704067200000)
  // asks to be credited wherever its figures are shown: its source, unless the user names their own.
  if (/\s-mst\s+1704067200000\b/.test(text(`${first.test}-client.cmd`) ?? "")) Object.assign(derived, infrabuilder2024);
  return {
    results,
    derived,
    asks: [
      {
        input: "nicGbps",
        why: "the tree does not state the NIC speed, so no throughput (received or sent) is checked against the line rate",
      },
    ],
    collector: { name: "bench.sh" },
    ...(runAt ? { runAt } : {}),
    skipped: [...leftOut, ...skipped],
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

function rank(test: string): number {
  const at = testOrder.indexOf(test);
  return at === -1 ? testOrder.length : at;
}

/** The test code's path and protocol; undefined for idle and codes bench.sh does not write. */
function testOf(command: ClientCommand): Test | undefined {
  const code = /^([ds])([tu])[ms]$/.exec(command.test);
  if (!code) return undefined;
  const path = code[1] === "s" ? "service" : command.kubernetes ? "pod-pod" : "node-node";
  return { ...command, path, protocol: code[2] === "t" ? "tcp" : "udp" };
}

/** "via Service, TCP, 1 stream": how a test is named in messages. */
function words(test: Test): string {
  const path = { "pod-pod": "pod to pod", "node-node": "node to node", service: "via Service" }[test.path];
  return `${path}, ${test.protocol.toUpperCase()}, ${test.streams} stream${test.streams === 1 ? "" : "s"}`;
}

/**
 * Adds a test's iperf3 figures to `results`; returns why there are none (a missing run), or what
 * else the output says. Malformed JSON is damaged input, not a failed test: it fails the folder.
 */
function throughput(
  test: Test,
  stdout: string | undefined,
  results: Result[],
): string | { kernel?: string; runAt?: string; skipped: string[] } {
  if (stdout === undefined) return `no ${test.test}-client.stdout in the run folder`;
  if (stdout.trim() === "") return `${test.test}-client.stdout is empty: iperf3 wrote nothing`;
  const doc = parseJson(stdout, `${test.test}-client.stdout (iperf3 JSON)`);
  if (isObject(doc) && typeof doc.error === "string" && doc.error !== "") return `iperf3: ${doc.error}`;
  try {
    const run = iperf3FromJson(doc, { path: test.path });
    results.push(...run.results);
    return { kernel: run.derived.kernel, runAt: run.runAt, skipped: run.skipped };
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    return error.message;
  }
}

/** all.results (or the <test>.results it is made of): KEY=value lines. */
function readSummary(text: string): Map<string, string> {
  const summary = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf("=");
    if (at > 0) summary.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return summary;
}

/**
 * CPU and memory of both nodes during a test: statexec's mean CPU seconds per second (system +
 * user, i.e. cores) and used memory in bytes, as bench.sh copied them into <TEST>_{CLIENT,SERVER}_*.
 */
function resources(prefix: string, params: Params, summary: Map<string, string>, skipped: string[]): Result[] {
  const results: Result[] = [];
  for (const role of ["client", "server"] as const) {
    const keys = ["SYSTEM", "USER", "MEM"].map((k) => `${prefix}_${role.toUpperCase()}_${k}`);
    if (keys.every((k) => !summary.has(k))) continue;
    const [system, user, memory] = keys.map((k) => finite(summary.get(k)));
    const empty = keys.filter((k) => finite(summary.get(k)) === undefined);
    if (empty.length > 0)
      skipped.push(`${empty.join(", ")}: no number in bench.sh's summary (statexec recorded nothing)`);
    const where = { ...params, role };
    if (system !== undefined && user !== undefined) {
      results.push({
        metric: "cpu.usage",
        value: Number((system + user).toPrecision(12)),
        unit: "cores",
        params: { ...where, accounting: "user+system" },
        note: `bench.sh's ${keys[0]} + ${keys[1]} (CPU seconds per second)`,
      });
    }
    if (memory !== undefined) {
      results.push({ metric: "memory.usage", value: memory, unit: "B", params: where, note: `bench.sh's ${keys[2]}` });
    }
  }
  return results;
}

/**
 * A test's CPU from statexec's counters: the whole CPU (every busy mode, `accounting: "all-modes"`)
 * and each busy mode that took time (`accounting: "mode"`), in cores over statexec's window.
 */
function cpuByMode(where: Params, cpu: NonNullable<ReturnType<typeof readStatexecCpu>>, file: string): Result[] {
  const cores = (seconds: number) => Number((seconds / cpu.windowSeconds).toPrecision(12));
  const busy = busyModes.filter((mode) => (cpu.seconds[mode] ?? 0) > 0);
  const total = busy.reduce((sum, mode) => sum + cpu.seconds[mode]!, 0);
  const over = `over ${cpu.cpus} CPUs and ${cpu.windowSeconds} s`;
  return [
    {
      metric: "cpu.usage",
      value: cores(total),
      unit: "cores",
      params: { ...where, accounting: "all-modes" },
      note: `${file}: CPU seconds of ${busyModes.join(", ")} ${over} (statexec_cpu_seconds_total, last minus first sample)`,
    },
    ...busy.map((mode) => ({
      metric: "cpu.usage",
      value: cores(cpu.seconds[mode]!),
      unit: "cores",
      params: { ...where, accounting: "mode", mode },
      note: `${file}: ${mode} CPU seconds ${over}`,
    })),
  ];
}
