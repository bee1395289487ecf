import { describe, expect, it } from "vitest";
import {
  formatChange,
  formatCompact,
  formatComputed,
  formatCount,
  formatFigure,
  formatNumber,
  formatParam,
  formatParams,
  formatPercent,
  formatValue,
  natural,
  spreadWords,
  summaryStatisticsWords,
  verdictLabel,
  withUnit,
} from "./format.ts";

// Figures as the TKE seed publishes them (tke-iptables-vs-cilium-2026.txt) and as analysis derives them.
describe("figures read as published", () => {
  it.each([
    [115_903, "115,903"], // keepalive RPS, req/s
    [16_003.7, "16,004"],
    [289.7, "289.7"], // BPF map memory, MB
    [107, "107"], // TCP_RR p99, µs
    [10.4, "10.4"], // throughput, Gbit/s
    [0.99, "0.99"], // HTTP p99 @1000 QPS, ms
    [0.0123, "0.0123"],
    [-29.1, "−29.1"], // a degradation, with a Unicode minus
    [100.04, "100"],
    [0, "0"],
  ])("%d → %s", (value, shown) => {
    expect(formatNumber(value)).toBe(shown);
  });

  it("gives an interpolated crossing the significant digits asked for", () => {
    expect(formatNumber(19_649.498, 4)).toBe("19,650");
    expect(formatNumber(13_068.29, 6)).toBe("13,068.3");
    expect(formatNumber(-1_101, 4)).toBe("−1,101");
  });

  it("shows computed numbers with no more precision than they deserve", () => {
    expect(formatComputed(12_345.67)).toBe("12,346");
    expect(formatComputed(9.4151)).toBe("9.42");
    expect(formatComputed(-0.5)).toBe("−0.5");
  });

  it("shows qualifiers and ranges", () => {
    const bare = { qualifier: null, low: null, high: null };
    expect(formatValue({ ...bare, value: 1.5, qualifier: "approx" })).toBe("≈1.5");
    expect(formatValue({ ...bare, value: 100, qualifier: "at-most" })).toBe("≤100");
    expect(formatValue({ value: 5, qualifier: "range", low: 4, high: 6 })).toBe("4–6");
    expect(formatValue({ value: 5, qualifier: "range" })).toBe("5");
    expect(formatFigure({ ...bare, value: 31_365, unit: "req/s" })).toBe("31,365 req/s");
    expect(formatFigure({ value: 1.5, unit: "s", qualifier: "at-least" })).toBe("≥1.5 s");
  });

  it("puts a space before every unit, % included", () => {
    expect(formatFigure({ value: 0.03, unit: "%" })).toBe("0.03 %");
    expect(withUnit("12", "%")).toBe("12 %");
    expect(withUnit("12", "")).toBe("12");
    expect(formatPercent(-29.103)).toBe("−29.1 %");
    expect(formatPercent(2.231)).toBe("+2.2 %");
    expect(formatPercent(0)).toBe("0.0 %");
    expect(formatPercent(86.115, 1, false)).toBe("86.1 %");
    // Three significant digits (issue 40): the compare rows printed "−0.7209 %" and "+2,134 %".
    expect(formatChange(12.345)).toBe("+12.3 %");
    expect(formatChange(-54.748923959827835)).toBe("−54.7 %");
    expect(formatChange(-0.72094)).toBe("−0.721 %");
    expect(formatChange(2_134.2)).toBe("+2,130 %");
    expect(formatChange(2.831)).toBe("+2.83 %");
    expect(formatChange(0)).toBe("0 %");
    expect(spreadWords({ n: 3, median: 9.41, min: 9.3, max: 9.52, sd: 0.11, cv: 0.0117 }, "Gbit/s")).toBe(
      "median 9.41 of n=3 runs, min–max 9.3–9.52 Gbit/s, sd 0.11, CV 1.2 %",
    );
  });

  it("words params and counts with grouped digits, in their names' order; axis ticks compactly", () => {
    expect(formatParams({ services: 20_000, connection: "short", concurrency: 64 })).toBe(
      "concurrency 64 · connection short · services 20,000",
    );
    expect(formatParams({})).toBe("—");
    expect(formatParams({ connection: "keepalive" }, { omit: ["connection"], empty: "(no other params)" })).toBe(
      "(no other params)",
    );
    expect(formatParams({ connection: "keepalive", concurrency: 64 }, { omit: ["connection"] })).toBe("concurrency 64");
    expect(formatCount(30_000)).toBe("30,000");
    expect(formatParam("hubble", false)).toBe("hubble false");
    expect(formatCompact(20_000)).toBe("20K");
    expect(formatCompact(1_500_000)).toBe("1.5M");
    expect(formatCompact(0.25)).toBe("0.25");
    expect(["pods 10", "pods 2", "Pods 3"].sort(natural)).toEqual(["pods 2", "Pods 3", "pods 10"]);
  });

  it("labels verdicts as the compare table's badges do", () => {
    expect(verdictLabel("small-but-real", false)).toBe("small but real");
    expect(verdictLabel("equivalent", true)).toBe("equivalent · single value");
    expect(verdictLabel("missing", true)).toBe("—");
  });
});

// k8s-netperf's documented result.csv, TCP_STREAM row: mean 873.606667 of 3 samples, 95 % interval
// 861.939…–885.274… (k8s-netperf.test.ts). Half-widths by hand: 11.66753 below, 11.66752 above.
describe("summary statistics read as what they are", () => {
  const row = { mean: 873.606667, n: 3, of: "runs" as const, ci95: [861.9391413991156, 885.2741919342178] as const };
  it("a centred interval as ± its half-width, with n, what they are of and the tool", () => {
    expect(summaryStatisticsWords(row, "Mbit/s", "k8s-netperf")).toBe(
      "mean 873.6 Mbit/s ± 11.67 (95 % CI, 3 runs, k8s-netperf)",
    );
  });
  it("an interval off-centre whole; an sd as such; clients named", () => {
    expect(summaryStatisticsWords({ ...row, ci95: [860, 880] }, "Mbit/s")).toBe(
      "mean 873.6 Mbit/s, 95 % CI 860–880 (3 runs)",
    );
    expect(summaryStatisticsWords({ mean: 9.41, sd: 0.12, n: 50, of: "clients" }, "Gbit/s", "vegeta")).toBe(
      "mean 9.41 Gbit/s ± 0.12 (sd, 50 clients, vegeta)",
    );
    expect(summaryStatisticsWords({ mean: 12, n: 1, of: "runs" }, "ms")).toBe("mean 12 ms (1 run)");
  });
});
