/**
 * statexec's per-second Prometheus text (<test>-<role>.prom of InfraBuilder's bench.sh): only the
 * CPU counters, `statexec_cpu_seconds_total{cpu,mode}`, one per CPU and mode and sample. What a test
 * cost is each counter's last minus first sample, summed over CPUs, over the time between the first
 * and the last sample (statexec samples from its -d delay before the command to a while after it,
 * the window its own summary means and bench.sh's user + system figure cover too). The timestamps,
 * not the sample count: samples are not exactly a second apart (flannel/1/idle-server.prom holds 84
 * sample times over 81 s), and over the timestamps' span every mode together comes to 31.95 of the
 * node's 32 CPUs, as statexec's own summary says (idle 31.951102).
 *
 * Read line by line from chunks, keeping the first and last value of each (cpu, mode) and nothing
 * else: a file is 4–8 MB of 26,000-odd samples and only two of each series matter. A hand-written
 * reader rather than parse-prometheus-text-format (the ingest API's dependency): that one builds the
 * whole family of every sample in memory, here one metric family is read and everything else is
 * passed over at the first bytes of its line.
 */

/**
 * Busy modes, whose time the whole CPU figure adds up. Left out: idle, and iowait (idle time while
 * a disk request is pending: no instruction runs, and it is counted per CPU only by convention), and
 * guest and guestNice, which Linux already counts inside user and nice (/proc/stat, proc(5)): adding
 * them would count a virtual machine's time twice.
 */
export const busyModes = ["user", "nice", "system", "irq", "softirq", "steal"] as const;

export type StatexecCpu = {
  /** CPU seconds spent in each mode over the window, summed over CPUs (every mode the file names). */
  seconds: Record<string, number>;
  /** Seconds between the first and the last sample. */
  windowSeconds: number;
  /** CPUs the file has counters for. */
  cpus: number;
};

const PREFIX = "statexec_cpu_seconds_total{";

type Series = { first: number; last: number };

/** Feeds a .prom file chunk by chunk; `result()` once it is all read. Memory: one partial line and the series. */
export class StatexecCpuReader {
  private readonly series = new Map<string, Series>();
  private readonly cpuNames = new Set<string>();
  private readonly decoder = new TextDecoder();
  private rest = "";
  private overlong = false;
  private start = Number.POSITIVE_INFINITY;
  private end = Number.NEGATIVE_INFINITY;

  push(chunk: Uint8Array): void {
    const text = this.rest + this.decoder.decode(chunk, { stream: true });
    let from = 0;
    if (this.overlong) {
      const end = text.indexOf("\n");
      if (end === -1) return;
      this.overlong = false;
      from = end + 1;
    }
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", from)) {
      this.line(text, from, at);
      from = at + 1;
    }
    this.rest = text.slice(from);
    // A line longer than any statexec writes is not one: dropped rather than held, up to its end.
    if (this.rest.length > 64 * 1024) {
      this.rest = "";
      this.overlong = true;
    }
  }

  /** The figures, or undefined when the file holds fewer than two samples of the CPU counters. */
  result(): StatexecCpu | undefined {
    const tail = this.rest + this.decoder.decode();
    // A last line without its newline counts only when complete (a cut file ends mid-line).
    if (tail !== "") this.line(tail, 0, tail.length);
    this.rest = "";
    const windowSeconds = (this.end - this.start) / 1000;
    if (!(windowSeconds > 0)) return undefined;
    const seconds: Record<string, number> = {};
    for (const [key, { first, last }] of this.series) {
      const mode = key.slice(key.indexOf("\u0000") + 1);
      seconds[mode] = (seconds[mode] ?? 0) + (last - first);
    }
    // Counters are printed with two decimals: the sums are rounded back to what the file can say.
    for (const mode of Object.keys(seconds)) seconds[mode] = Number(seconds[mode]!.toFixed(6));
    return { seconds, windowSeconds, cpus: this.cpuNames.size };
  }

  private line(text: string, from: number, to: number): void {
    if (!text.startsWith(PREFIX, from)) return;
    const open = from + PREFIX.length;
    const close = text.indexOf("}", open);
    if (close === -1 || close > to) return;
    const cpu = label(text, open, close, "cpu");
    const mode = label(text, open, close, "mode");
    if (cpu === undefined || mode === undefined) return;
    // "} <value> <timestamp>": read by hand, a RegExp or a split per line costs more than the rest.
    let at = close + 1;
    while (text.charCodeAt(at) === 32) at++;
    const space = text.indexOf(" ", at);
    if (space === -1 || space >= to) return;
    const v = Number(text.slice(at, space));
    const stamp = text.slice(space + 1, to).trim();
    const t = Number(stamp);
    // A sample without its timestamp cannot be placed in the window: statexec always writes one.
    if (stamp === "" || !Number.isFinite(v) || !Number.isFinite(t)) return;
    const key = `${cpu}\u0000${mode}`;
    const known = this.series.get(key);
    if (known) known.last = v;
    else {
      this.series.set(key, { first: v, last: v });
      this.cpuNames.add(cpu);
    }
    if (t < this.start) this.start = t;
    if (t > this.end) this.end = t;
  }
}

/** A label's value between the braces at [open, close); indexOf, not a RegExp: a tree has millions of lines. */
function label(text: string, open: number, close: number, name: string): string | undefined {
  const key = `${name}="`;
  let at = text.startsWith(key, open) ? open : text.indexOf(`,${key}`, open);
  if (at === -1 || at >= close) return undefined;
  at = text.indexOf('"', at) + 1;
  const end = text.indexOf('"', at);
  return end === -1 || end > close ? undefined : text.slice(at, end);
}

/** A whole .prom file's CPU figures (a test, or a file already in memory). */
export function readStatexecCpu(bytes: Uint8Array): StatexecCpu | undefined {
  const reader = new StatexecCpuReader();
  // In slices, as an archive hands them over: one code path.
  for (let at = 0; at < bytes.length; at += 1 << 20) reader.push(bytes.subarray(at, at + (1 << 20)));
  const cpu = reader.result();
  const summed = summaryCpus(bytes);
  return cpu && summed !== undefined ? { ...cpu, cpus: summed } : cpu;
}

/**
 * The figures again as statexec text that `readStatexecCpu` reads back to the same numbers: two
 * samples per mode of one pseudo-CPU "all" (first at 0, last at the totals), the window's ends as
 * their timestamps. An archive streams a large .prom through a reader and keeps this instead of its
 * megabytes; `cpus` travels in a comment.
 */
export function statexecSummaryText(cpu: StatexecCpu): string {
  const lines = [`# cnibench: statexec CPU counters summed over ${cpu.cpus} CPUs (first and last sample)`];
  const end = Math.round(cpu.windowSeconds * 1000);
  for (const [mode, seconds] of Object.entries(cpu.seconds)) {
    lines.push(`${PREFIX}cpu="all",mode="${mode}"} 0 0`, `${PREFIX}cpu="all",mode="${mode}"} ${seconds} ${end}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The CPU count of a summary written by statexecSummaryText; undefined for any other text. */
function summaryCpus(bytes: Uint8Array): number | undefined {
  const head = new TextDecoder().decode(bytes.subarray(0, 200));
  const n = /^# cnibench: statexec CPU counters summed over (\d+) CPUs/.exec(head)?.[1];
  return n === undefined ? undefined : Number(n);
}
