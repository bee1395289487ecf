// `cnibench lab --summary` on a real sweep (test-support's lab fixture: 0 and 5,000 Services, three runs
// per step, on the shared development VM). Medians and ranges are read off the fixture's samples by
// hand; the verdicts are checked against Welch's t-test on the logs (scipy.stats.ttest_ind,
// equal_var=False), the test docs/verdicts.md names for three runs a side.

import type { BundleInput } from "@cnibench/schema";
import { labSweep } from "@cnibench/test-support/lab-figures";
import { describe, expect, it } from "vitest";
import { labSummary } from "./summary.ts";

const sweep = labSweep() as unknown as BundleInput[];
const text = labSummary(sweep);
const section = (title: string) => {
  const start = text.indexOf(`## ${title}`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
};

describe("labSummary", () => {
  it("names the machine, the runs and what the verdicts compare", () => {
    expect(text).toMatch(/^# cnibench lab on lab-vm: iptables and nftables\n/);
    expect(text).toContain("AMD EPYC, 2 vCPUs, kernel 6.18.44-fc-v657; up to 3 run(s) per step");
    expect(text).toContain("Verdicts: nftables against iptables at each step.");
  });

  it("gives each mode's curve as medians with the runs' min–max, and the verdict at each step", () => {
    // Short connections at 5,000 Services: iptables 4,288.93 · 7,468.38 · 8,848.67, nftables 5,437.92 ·
    // 5,908.45 · 6,398.22; Welch p = 0.68, so inconclusive; medians' ratio 5,908.45 / 7,468.38 = 0.791.
    expect(section("Short-connection request rate (req/s)")).toContain(
      "| 5,000 | 7,468 (4,289–8,849) | 5,908 (5,438–6,398) | inconclusive, ×0.791 |",
    );
    // Connect p50 at 5,000 Services: 44.857 · 56.1735 · 56.594 µs against 34.131 · 36.515 · 39.729 µs;
    // Welch p = 0.025 and a ratio of 0.650, far past the 5 % margin: nftables better (lower).
    expect(section("Connect latency p50 (µs)")).toContain(
      "| 5,000 | 56.17 (44.86–56.59) | 36.52 (34.13–39.73) | better, ×0.65 |",
    );
    // Rule load at 5,000 Services: 227.8 · 294.9 · 342.0 ms against 3,464 · 4,094 · 4,585 ms; p = 0.0001.
    expect(section("Rule load time (ms)")).toContain(
      "| 5,000 | 294.9 (227.8–342) | 4,094 (3,464–4,585) | worse, ×13.9 |",
    );
    for (const title of ["Keep-alive request rate (req/s)", "Connect latency p99 (µs)", "TCP throughput (Gbit/s)"]) {
      expect(
        section(title)
          .split("\n")
          .filter((l) => /^\| [\d,]+ \|/.test(l)),
      ).toHaveLength(2);
    }
  });

  it("says where one curve overtakes the other, and nothing where none does", () => {
    // Two modes whose short-connection lines cross between 0 and 1,000 Services: a at 100 then 50,
    // b at 80 then 70; 100 − 50t = 80 − 10t at t = 0.5, i.e. 500 Services.
    const line = (mode: string, values: [number, number]): BundleInput => ({
      ...sweep[0]!,
      cni: { ...sweep[0]!.cni, mode },
      results: values.map((value, i) => ({
        metric: "http.rps",
        unit: "req/s",
        value,
        params: { connection: "short", concurrency: 16, services: i * 1000 },
      })),
    });
    // Single runs: 80 against 100 (−20 %) and 70 against 50 (+40 %) are both beyond the 5 % margin.
    expect(labSummary([line("iptables", [100, 50]), line("nftables", [80, 70])])).toContain(
      "Crossover: nftables overtakes iptables at ≈500 Services, interpolated between 0 and 1,000.",
    );
    expect(text).not.toContain("Crossover:");
    // 98 against 100 at 0 is within the 5 % margin: the medians cross (at 1,000 × 2/22 ≈ 91), but
    // which mode is ahead at 0 is not decided, so no crossover is claimed (issue 40).
    const noise = labSummary([line("iptables", [100, 50]), line("nftables", [98, 70])]);
    expect(noise).not.toContain("Crossover:");
    expect(noise).toContain(
      "No crossover: nftables and iptables: within 5 % at 0 Services, nftables ahead from 1,000 on.",
    );
  });
});
