import { describe, expect, it } from "vitest";
import {
  compactNumber,
  formatCount,
  formatFigure,
  formatNumber,
  formatParam,
  formatParams,
  formatValue,
} from "./format";

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
    [-29.1, "-29.1"], // a degradation
    [100.04, "100"],
    [0, "0"],
  ])("%d → %s", (value, shown) => {
    expect(formatNumber(value)).toBe(shown);
  });

  it("shows qualifiers and ranges", () => {
    const bare = { qualifier: null, low: null, high: null };
    expect(formatValue({ ...bare, value: 1.5, qualifier: "approx" })).toBe("≈1.5");
    expect(formatValue({ ...bare, value: 100, qualifier: "at-most" })).toBe("≤100");
    expect(formatValue({ value: 5, qualifier: "range", low: 4, high: 6 })).toBe("4–6");
    expect(formatFigure({ ...bare, value: 31_365, unit: "req/s" })).toBe("31,365 req/s");
  });

  it("words params and counts with grouped digits, axis ticks compactly", () => {
    expect(formatParams({ services: 20_000, connection: "short", concurrency: 64 })).toBe(
      "concurrency 64 · connection short · services 20,000",
    );
    expect(formatParams({})).toBe("—");
    expect(formatCount(30_000)).toBe("30,000");
    expect(formatParam("hubble", false)).toBe("hubble false");
    expect(compactNumber(20_000)).toBe("20K");
    expect(compactNumber(1_500_000)).toBe("1.5M");
    expect(compactNumber(0.25)).toBe("0.25");
  });
});
