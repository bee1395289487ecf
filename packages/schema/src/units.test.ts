import { describe, expect, it } from "vitest";
import { canConvert, canonicalUnitSymbol, convertValue, unitDimension } from "./units.ts";

describe("convertValue with figures from the seeds", () => {
  it.each([
    // TKE: "10.77 Gbps" pod-to-pod; EKS: m6i.xlarge NIC "12.5 Gbps"
    [10.77, "Gbps", "Gbit/s", 10.77],
    [12.5, "Gbps", "Mbit/s", 12500],
    [9400, "Mbps", "Gbit/s", 9.4],
    [9400, "Mbit/s", "Gbit/s", 9.4],
    [12_410_000_000, "bits/s", "Gbit/s", 12.41],
    [1250, "MB/s", "Gbit/s", 10],
    // TKE: HTTP p99 @1000 QPS "0.99 ms"; TCP_RR p99 "118 µs"; EKS: RTT "4,894 µs", conn setup "164us"
    [0.99, "ms", "µs", 990],
    [4894, "µs", "ms", 4.894],
    [164, "us", "µs", 164],
    [118, "μs", "µs", 118],
    [1.5, "s", "ms", 1500],
    [2, "min", "s", 120],
    // TKE: BPF map total "289.7 MB" (decimal) vs component memory "926 MiB"; EKS: "82Mi"
    [289.7, "MB", "MiB", 276.279449463],
    [926, "MiB", "GiB", 0.904296875],
    [82, "Mi", "MiB", 82],
    [1, "GiB", "MiB", 1024],
    // TKE: kube-proxy CPU "8.2m"; AKS: "not exceeding 100 milli cores"
    [8.2, "m", "millicores", 8.2],
    [100, "milli cores", "cores", 0.1],
    [0.2, "vCPU", "millicores", 200],
    // AKS: "from 16,003.7 to 20,396.9" transactions per second; one per-second dimension
    [16003.7, "tps", "trans/s", 16003.7],
    [20396.9, "Transactions/sec", "trans/s", 20396.9],
    [999.6, "QPS", "req/s", 999.6],
    [20.39, "percent", "%", 20.39],
    [10059, "rules", "count", 10059],
  ] as const)("%d %s → %s = %d", (value, from, to, expected) => {
    expect(convertValue(value, from, to)).toBe(expected);
  });

  it("rounds away float noise", () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(convertValue(300, "ms", "s")).toBe(0.3);
    expect(convertValue(10.43, "Gbit/s", "Mbit/s")).toBe(10430);
  });

  it("throws a clear error across dimensions or for unknown units", () => {
    expect(() => convertValue(1, "ms", "Gbit/s")).toThrow("cannot convert time (ms) to bitrate (Gbit/s)");
    expect(() => convertValue(1, "furlongs", "s")).toThrow('unknown unit "furlongs"');
    expect(() => convertValue(1, "s", "fortnights")).toThrow('unknown unit "fortnights"');
  });
});

describe("unit lookup", () => {
  it("tells bits from bytes by case", () => {
    expect(convertValue(1, "Mb/s", "Mbit/s")).toBe(1);
    expect(convertValue(1, "MB/s", "Mbit/s")).toBe(8);
    expect(convertValue(1, "Bps", "bit/s")).toBe(8);
    expect(convertValue(1, "bps", "bit/s")).toBe(1);
    // lower-cased "mb/s" could be either, so it is not guessed
    expect(unitDimension("mb/s")).toBeUndefined();
  });

  it("folds case only when unambiguous and longer than two characters", () => {
    expect(canonicalUnitSymbol("GBIT/S")).toBe("Gbit/s");
    // Gbps or GBps: eight times apart, so not guessed
    expect(canonicalUnitSymbol("GBPS")).toBeUndefined();
    expect(canonicalUnitSymbol("mib")).toBe("MiB");
    expect(canonicalUnitSymbol("M")).toBeUndefined();
  });

  it.each([
    ["Gbps", "Gbit/s"],
    ["us", "µs"],
    ["μs", "µs"],
    ["m", "millicores"],
    ["mcores", "millicores"],
    ["core", "cores"],
    ["rps", "req/s"],
    ["requests/s", "req/s"],
    ["transactions/s", "trans/s"],
    ["transactions/sec", "trans/s"],
    ["bytes", "B"],
    ["Mbit / s", "Mbit/s"],
    ["entries", "count"],
  ])("canonical symbol of %j is %j", (unit, symbol) => {
    expect(canonicalUnitSymbol(unit)).toBe(symbol);
  });

  it("groups units by dimension", () => {
    expect(unitDimension("Gbps")).toBe("bitrate");
    expect(unitDimension("GB/s")).toBe("bitrate");
    expect(unitDimension("GB")).toBe("memory");
    expect(unitDimension("ns")).toBe("time");
    expect(unitDimension("conn/s")).toBe("rate");
    expect(unitDimension("ops/s")).toBe("rate");
    expect(unitDimension("%")).toBe("percent");
    expect(unitDimension("services")).toBe("count");
    expect(unitDimension("parsecs")).toBeUndefined();
  });

  it("canConvert follows the dimensions", () => {
    expect(canConvert("Mbps", "Gbit/s")).toBe(true);
    expect(canConvert("MiB", "MB")).toBe(true);
    expect(canConvert("req/s", "trans/s")).toBe(true);
    expect(canConvert("MB", "MB/s")).toBe(false);
    expect(canConvert("ms", "millicores")).toBe(false);
    expect(canConvert("Gbps", "furlongs")).toBe(false);
  });
});
