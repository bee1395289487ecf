// Waits for the machine to be idle before a timed part. The part before it has just deleted its
// database folder (several GB after the 10M reads): the kernel's writeback of what was still dirty
// and the reclaim of its page cache then ran beside Chromium. In the seventh pass of issue 46 the
// interaction part missed at 4× throttling in the whole run and met every target run alone right
// after it. The wait is printed, so a run says when it had to wait and how long.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Busy share of all CPUs, from /proc/stat's aggregate line, over `ms`. */
async function busyOver(ms: number): Promise<number> {
  const read = () => {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are not work.
    const idle = fields[3]! + fields[4]!;
    return { idle, total: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
  };
  const a = read();
  await sleep(ms);
  const b = read();
  return b.total === a.total ? 0 : 1 - (b.idle - a.idle) / (b.total - a.total);
}

/** Dirty and under-writeback page cache, in MiB (/proc/meminfo). */
function unwrittenMiB(): number {
  const info = fs.readFileSync("/proc/meminfo", "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(info)?.[1] ?? 0);
  return (kb("Dirty") + kb("Writeback")) / 1024;
}

/**
 * Flushes the page cache's dirty pages, then waits (at most `maxMs`) until two seconds in a row are
 * under 10 % busy with under 32 MiB left to write. Off Linux it does nothing.
 */
export async function settle(before: string, maxMs = 90_000): Promise<void> {
  if (!fs.existsSync("/proc/stat")) return;
  const started = performance.now();
  execFileSync("sync");
  let quiet = 0;
  let busy = 1;
  while (quiet < 2 && performance.now() - started < maxMs) {
    busy = await busyOver(1000);
    quiet = busy < 0.1 && unwrittenMiB() < 32 ? quiet + 1 : 0;
  }
  const waited = (performance.now() - started) / 1000;
  const state = quiet >= 2 ? "idle" : `still ${(busy * 100).toFixed(0)} % busy`;
  console.log(`bench: ${waited.toFixed(1)} s until ${state}, before ${before}`);
}
