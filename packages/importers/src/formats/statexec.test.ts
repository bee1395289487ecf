import { fixtureBytes } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { busyModes, readStatexecCpu, StatexecCpuReader, statexecSummaryText } from "./statexec.ts";

const encode = (text: string) => new TextEncoder().encode(text);

describe("statexec .prom CPU counters", () => {
  it("reads antrea-ipsec run 3's Service TCP 8-stream server node as the hand computation does", () => {
    // By hand (awk over the file): for every (cpu, mode) of statexec_cpu_seconds_total lines with a value
    // and a timestamp, last minus first value, summed over the 32 CPUs: softirq 70.04, system 26.72,
    // user 3.74, iowait 0.47, idle 2408.17, the rest 0; samples from 1704067200000 to 1704067279000 ms
    // (79 s). The file is cut mid-line at its end, as published: that line is not a sample.
    const cpu = readStatexecCpu(fixtureBytes("real/infrabuilder-2024/antrea-ipsec/3/stm-server.prom"));
    expect(cpu).toBeDefined();
    expect(cpu!.cpus).toBe(32);
    expect(cpu!.windowSeconds).toBe(79);
    expect(cpu!.seconds.softirq).toBeCloseTo(70.04, 6);
    expect(cpu!.seconds.system).toBeCloseTo(26.72, 6);
    expect(cpu!.seconds.user).toBeCloseTo(3.74, 6);
    expect(cpu!.seconds.iowait).toBeCloseTo(0.47, 6);
    expect(cpu!.seconds.idle).toBeCloseTo(2408.17, 6);
    expect(cpu!.seconds.irq).toBe(0);
    // Every mode over the window is the whole machine: (70.04 + 26.72 + 3.74 + 0.47 + 2408.17) / 79 =
    // 31.76 of 32 cores; the last sample is a partial one (only some CPUs), hence a bit under 32.
    const all = Object.values(cpu!.seconds).reduce((a, b) => a + b, 0);
    expect(all / cpu!.windowSeconds).toBeCloseTo(31.761, 3);
  });

  it("gives the same figures whatever the chunks (a line split across them, a multi-byte character)", () => {
    const text = [
      "# HELP statexec_cpu_seconds_total CPU time spent in seconds",
      'statexec_command_status{instance="x"} 1 1000',
      'statexec_cpu_seconds_total{cpu="cpu0",mode="user",id="é"} 1.50 1000',
      'statexec_cpu_seconds_total{cpu="cpu1",mode="user"} 2.00 1000',
      'statexec_cpu_seconds_total{instance="x",cpu="cpu0",mode="softirq"} 10.00 1000',
      'statexec_cpu_seconds_total{cpu="cpu0",mode="user",id="é"} 2.25 2000',
      'statexec_cpu_seconds_total{cpu="cpu1",mode="user"} 3.00 3000',
      'statexec_cpu_seconds_total{instance="x",cpu="cpu0",mode="softirq"} 13.00 3000',
      'statexec_memory_used_bytes{instance="x"} 123 3000',
      'statexec_cpu_seconds_total{cpu="cpu0",mode="softirq"} 99',
    ].join("\n");
    // By hand: user (2.25 − 1.50) + (3.00 − 2.00) = 1.75; softirq 13 − 10 = 3 (the last line has no
    // timestamp: not a sample); window 1000 → 3000 ms = 2 s.
    const bytes = encode(text);
    for (const size of [1, 7, 64, bytes.length]) {
      const reader = new StatexecCpuReader();
      for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
      expect(reader.result(), `chunks of ${size}`).toEqual({
        seconds: { user: 1.75, softirq: 3 },
        windowSeconds: 2,
        cpus: 2,
      });
    }
  });

  it("drops a line longer than statexec writes, to its end, and reads on", () => {
    const sample = (v: number, t: number) => `statexec_cpu_seconds_total{cpu="cpu0",mode="user"} ${v} ${t}\n`;
    // The overlong line hides a sample-looking text where the reader drops it (after the 17th chunk of
    // 4,096 bytes, past 64 KiB): read as a line start, its timestamp 9000 would make the window 8 s.
    const first = sample(1, 1000);
    const junk = `# ${"x".repeat(17 * 4096 - first.length - 2)}${sample(500, 9000)}`;
    const bytes = encode(first + junk + sample(2, 3000));
    const reader = new StatexecCpuReader();
    for (let at = 0; at < bytes.length; at += 4096) reader.push(bytes.subarray(at, at + 4096));
    // By hand: 2 − 1 = 1 s of user over 1000 → 3000 ms.
    expect(reader.result()).toEqual({ seconds: { user: 1 }, windowSeconds: 2, cpus: 1 });
  });

  it("holds no figure with fewer than two sample times", () => {
    expect(readStatexecCpu(encode('statexec_cpu_seconds_total{cpu="cpu0",mode="user"} 1 1000\n'))).toBeUndefined();
    expect(readStatexecCpu(encode("not prometheus at all\n"))).toBeUndefined();
  });

  it("writes a summary that reads back to the same figures", () => {
    const cpu = readStatexecCpu(fixtureBytes("real/infrabuilder-2024/antrea-ipsec/3/stm-server.prom"))!;
    const summary = encode(statexecSummaryText(cpu));
    expect(summary.length).toBeLessThan(2000);
    expect(readStatexecCpu(summary)).toEqual(cpu);
  });

  it("counts neither idle, iowait nor guest time as busy", () => {
    expect(busyModes).not.toContain("idle");
    expect(busyModes).not.toContain("iowait");
    expect(busyModes).not.toContain("guest");
    expect(busyModes).toContain("softirq");
  });
});
