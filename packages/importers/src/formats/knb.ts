/**
 * knb (InfraBuilder k8s-bench-suite) reports: `-o json`, `-o yaml` and the default text. knb prints
 * its JSON with echo, so a monitor file without a second line gives `"user": ,` and a subset of
 * tests (-ot tcp) gives trailing commas: such JSON is repaired for reading, the empty values are
 * skipped and named. Bandwidth is iperf3's receiver line in Mbit/s (`-f m`, column 7), for TCP and for
 * UDP (`-u -b 0`), so UDP is the received rate: udp.throughput, as a headline means what arrived. CPU is the node's usage
 * in percent and RAM its used memory in MB, averaged by knb's monitor over the test.
 */
import { resolveSlug } from "@cnibench/schema";
import { parse as parseYaml } from "yaml";
import { type EnvironmentFields, ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { at, finite, isObject, type Json } from "../util.ts";

// Line-anchored patterns use [^\S\n] (blanks other than a newline), never \s: a \s* after ^ spans
// blank lines, so each of n blank lines rescanned all that follow: O(n²), hours for a 5 MiB upload.
export function looksLikeKnbText(text: string): boolean {
  return /^[^\S\n]*Generator[^\S\n]*:[^\S\n]*knb[^\S\n]*$/m.test(text);
}

export function looksLikeKnbDocument(text: string): boolean {
  return /"generator"\s*:\s*"knb"/.test(text) || /^[^\S\n]+generator:[^\S\n]*"?knb"?[^\S\n]*$/m.test(text);
}

/** What to do with knb's data file (`knb -o data`, a .knbdata tar.gz of its raw outputs). */
export const KNBDATA_HINT =
  "a knb data file (.knbdata): its raw outputs are no report; render it with `knb -fd <file> -o json > report.json` and upload the JSON";

/** An entry of a .knbdata archive: knb's per-test client outputs (knb-client-tcp-p2p-30619.bw, …). */
export function isKnbDataEntry(name: string): boolean {
  return /(^|\/)knb-client-[a-z]+(-[a-z0-9]+)*\.(bw|avg|metrics|log)$/.test(name);
}

const sections = [
  { key: "idle", path: "idle" },
  { key: "pod2pod.tcp", path: "pod-pod", protocol: "tcp" },
  { key: "pod2pod.udp", path: "pod-pod", protocol: "udp" },
  { key: "pod2svc.tcp", path: "service", protocol: "tcp" },
  { key: "pod2svc.udp", path: "service", protocol: "udp" },
] as const;

/**
 * Makes knb's echo-built JSON parseable: control characters go (knb 1.4.1 copies the CR of
 * `/proc/cpuinfo` and `uname` read through `kubectl exec -t` into its "cpu" and "kernel" strings),
 * a missing comma between two lines is put back (1.4.1 prints "client-node" and "socket-buffer-size"
 * without one), empty values become null and trailing commas go.
 */
export function repairKnbJson(text: string): { text: string; repaired: boolean } {
  const repaired = text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f]/g, "")
    .replace(/("|\d|true|false|null)([^\S\n]*\n[^\S\n]*"[^"\n]*"[^\S\n]*:)/g, "$1,$2")
    .replace(/:\s*(?=[,}\]])/g, ": null")
    .replace(/,(\s*[}\]])/g, "$1");
  return { text: repaired, repaired: repaired !== text };
}

const MAX_YAML_CHARS = 64 * 1024;

export function parseKnbDocument(text: string): ParsedRun {
  const trimmed = text.trimStart();
  let doc: unknown;
  const skipped: string[] = [];
  if (trimmed.startsWith("{")) {
    try {
      doc = JSON.parse(text);
    } catch {
      const { text: fixed } = repairKnbJson(text);
      try {
        doc = JSON.parse(fixed);
        skipped.push(
          "the JSON was not valid as knb wrote it (control characters in strings, a missing comma, or values left empty when a monitor file is empty); it was repaired and empty values were skipped",
        );
      } catch (error) {
        throw new ImportError(`knb JSON is malformed beyond knb's known defects: ${(error as Error).message}`);
      }
    }
  } else {
    // The yaml parser takes seconds per MiB of hostile input (flow collections, blank lines) and
    // blocks the server meanwhile; knb's YAML report is a few KiB.
    if (text.length > MAX_YAML_CHARS) {
      throw new ImportError(
        `knb YAML of ${text.length} characters: a knb report is a few KiB, at most ${MAX_YAML_CHARS}`,
      );
    }
    try {
      // Warnings (unknown tags, directives) would go to process warnings for every odd upload.
      doc = parseYaml(text, { logLevel: "error" });
    } catch (error) {
      throw new ImportError(`knb YAML is malformed: ${(error as Error).message}`);
    }
  }
  if (!isObject(doc) || at(doc, "metadata.generator") !== "knb" || !isObject(doc.data)) {
    throw new ImportError('not a knb report: no metadata.generator "knb" and data');
  }
  return knbRun(doc, skipped);
}

function knbRun(doc: Json, skipped: string[]): ParsedRun {
  const results: Result[] = [];
  const number = (path: string): number | undefined => {
    const raw = at(doc, path);
    if (raw === undefined) return undefined;
    const value = finite(raw);
    if (value === undefined) skipped.push(`${path} is empty (knb wrote no value)`);
    return value;
  };
  for (const section of sections) {
    const base = `data.${section.key}`;
    if (!isObject(at(doc, base))) continue;
    const protocol = "protocol" in section ? section.protocol : undefined;
    const params: Params = protocol ? { path: section.path, protocol } : { test: "idle" };
    if (protocol) {
      const bandwidth = number(`${base}.bandwidth`);
      if (bandwidth !== undefined) {
        results.push(
          protocol === "tcp"
            ? { metric: "tcp.throughput", value: bandwidth, unit: "Mbit/s", params: { path: section.path, streams: 1 } }
            : {
                metric: "udp.throughput",
                value: bandwidth,
                unit: "Mbit/s",
                params: { path: section.path, streams: 1 },
                note: "iperf3 -u -b 0, receiver line",
              },
        );
      }
    }
    for (const role of ["client", "server"] as const) {
      const cpuPath = `${base}.${role}.cpu`;
      if (isObject(at(doc, cpuPath))) {
        const parts = ["user", "nice", "system", "iowait", "steal"].map((k) => finite(at(doc, `${cpuPath}.${k}`)));
        const total = finite(at(doc, `${cpuPath}.total`));
        // With an empty monitor file knb still prints "total": 0.00; without its parts that zero means nothing.
        if (total === undefined || parts.some((p) => p === undefined)) {
          skipped.push(`${cpuPath} is empty (knb's monitor recorded nothing)`);
        } else {
          results.push({
            metric: "x.node.cpu.usage",
            value: total,
            unit: "%",
            better: "lower",
            params: { ...params, role },
          });
        }
      }
      const ram = number(`${base}.${role}.ram`);
      if (ram !== undefined) {
        results.push({
          metric: "x.node.memory.used",
          value: ram,
          unit: "MB",
          better: "lower",
          params: { ...params, role },
        });
      }
    }
  }
  if (results.length === 0)
    throw new ImportError(`knb report without any figure${skipped.length ? `: ${skipped.join("; ")}` : ""}`);
  const date = String(at(doc, "metadata.date") ?? "");
  const version = String(at(doc, "metadata.version") ?? "");
  return {
    results,
    derived: {
      kernel: String(at(doc, "data.kernel") ?? ""),
      k8s: String(at(doc, "data.k8s-version") ?? ""),
      ...environmentFromRunName(String(at(doc, "metadata.name") ?? "")),
    },
    collector: { name: "knb", ...(version ? { version } : {}) },
    ...(isoFromKnbDate(date) ? { runAt: isoFromKnbDate(date) } : {}),
    skipped,
  };
}

/** CNIs a run name may name, as one word of it (kube-router and weave-net are looked for whole). */
const NAMED_CNIS = ["calico", "canal", "flannel", "cilium", "antrea", "weave", "kube-router", "kindnet", "terway"];
/** Encapsulation words a run name may state (vxlan, ipip, geneve, host-gw, bgp): the mode, when it says one. */
const NAMED_MODES = ["vxlan", "ipip", "geneve", "host-gw", "hostgw", "bgp"];

/**
 * What knb's run name (`knb -n`, metadata.name) says of the environment. InfraBuilder's 2020 benchmark
 * names runs "<OS> - Kernel <kernel> - <setup> - Run <n>" ("Ubuntu 18.04 - Kernel default -
 * doc-flannel - Run 1"): the OS, and the setup as label. The CNI when exactly one known CNI is a word
 * of the name; the mode only when the name states an encapsulation — a setup's defaults are not
 * guessed, so without one the import asks for `mode` by name.
 */
export function environmentFromRunName(name: string): EnvironmentFields {
  const out: EnvironmentFields = {};
  const parts = /^(.+?) - Kernel (.+?) - (.+?) - Run (\d+)$/.exec(name.trim());
  if (parts) {
    out.os = parts[1]!;
    out.label = parts[3]!;
  }
  const lower = name.toLowerCase();
  const words = new Set(lower.split(/[^a-z0-9]+/).filter(Boolean));
  const cnis = NAMED_CNIS.filter((c) => (c.includes("-") ? lower.includes(c) : words.has(c)));
  if (cnis.length === 1) out.cni = resolveSlug("cniName", cnis[0]!).slug;
  const modes = NAMED_MODES.filter((m) => (m.includes("-") ? lower.includes(m) : words.has(m)));
  if (modes.length === 1) out.mode = resolveSlug("cniMode", modes[0]!).slug;
  return out;
}

/** knb's date is `date -u "+%Y-%m-%d %H:%M:%S"` (UTC). */
function isoFromKnbDate(date: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?: UTC)?$/.exec(date.trim());
  return m ? `${m[1]}T${m[2]}Z` : undefined;
}

/** The text report: reads it into the JSON tree, then maps it like the JSON. */
export function parseKnbText(text: string): ParsedRun {
  if (!looksLikeKnbText(text)) throw new ImportError('not a knb text report: no "Generator : knb" line');
  const meta = (label: string) =>
    new RegExp(`^[^\\S\\n]*${label}[^\\S\\n]*:[^\\S\\n]*(.*)$`, "m").exec(text)?.[1]?.trim() ?? "";
  const doc: Json = {
    metadata: {
      name: meta("Name"),
      generator: "knb",
      version: meta("Version"),
      date: meta("Date"),
    },
    data: { kernel: meta("Discovered Kernel"), "k8s-version": meta("Discovered k8s version") },
  };
  const data = doc.data as Json;
  let current: Json | undefined;
  let group: string | undefined;
  const cpu = (raw: string): Json | null => {
    const m =
      /total ([\d.]+)% \(user ([\d.]+)%, nice ([\d.]+)%, system ([\d.]+)%, iowait ([\d.]+)%, steal ([\d.]+)%\)/.exec(
        raw,
      );
    if (!m) return null;
    const [, total, user, nice, system, iowait, steal] = m.map(Number);
    return { total, user, nice, system, iowait, steal };
  };
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (/^Idle\s*:$/.test(line)) {
      current = {};
      data.idle = current;
      group = undefined;
    } else if (/^Pod to pod\s*:$/i.test(line)) {
      group = "pod2pod";
      data.pod2pod = {};
    } else if (/^Pod to Service\s*:$/i.test(line)) {
      group = "pod2svc";
      data.pod2svc = {};
    } else if (/^(TCP|UDP)\s*:$/.test(line) && group) {
      current = {};
      (data[group] as Json)[line.slice(0, 3).toLowerCase()] = current;
    } else if (current) {
      const m = /^(bandwidth|client cpu|server cpu|client ram|server ram) =\s*(.*)$/.exec(line);
      if (!m) continue;
      const [, field, value] = m as unknown as [string, string, string];
      if (field === "bandwidth") current.bandwidth = finite(value.replace(/\s*Mbit\/s$/, "")) ?? null;
      else {
        const [role, kind] = field.split(" ") as ["client" | "server", "cpu" | "ram"];
        if (!isObject(current[role])) current[role] = {};
        const holder = current[role] as Json;
        holder[kind] = kind === "cpu" ? cpu(value) : (finite(value.replace(/\s*MB$/, "")) ?? null);
      }
    }
  }
  const skipped: string[] = [];
  // A blank cpu line in the text ("client cpu = ") is knb's empty monitor file: say so per field.
  for (const section of sections) {
    for (const role of ["client", "server"] as const) {
      const holder = at(data, `${section.key}.${role}`);
      if (isObject(holder) && holder.cpu === null) {
        skipped.push(`data.${section.key}.${role}.cpu is empty (knb's monitor recorded nothing)`);
        delete holder.cpu;
      }
    }
  }
  return knbRun(doc, skipped);
}
