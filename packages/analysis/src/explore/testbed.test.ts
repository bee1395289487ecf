import { describe, expect, it } from "vitest";
import { allTestbeds, scopeToTestbed, testbedsOf } from "./testbed.ts";

// 23 bare-metal 40 G setups, 4 bare-metal 10 G ones from an older benchmark, 2 cloud setups: the mix
// that drew 12.5 G cloud bars beside 40 G ones under one 10 G NIC line (issue 40).
const setups = [
  ...Array.from({ length: 23 }, (_, i) => ({
    id: `b40-${i}`,
    provider: "on-prem",
    sku: "bare-metal-40g",
    nicGbps: 40,
  })),
  ...Array.from({ length: 4 }, (_, i) => ({ id: `b10-${i}`, provider: "on-prem", sku: "bare-metal-10g", nicGbps: 10 })),
  { id: "tke-a", provider: "tencent", sku: "SA5.LARGE8", nicGbps: 12.5 },
  { id: "tke-c", provider: "tencent", sku: "SA5.LARGE8", nicGbps: 12.5 },
];

describe("testbeds: one per cloud, instance type and NIC", () => {
  it("lists them, the largest first", () => {
    expect(testbedsOf(setups)).toEqual([
      { key: "on-prem/bare-metal-40g/40", label: "on-prem · bare-metal-40g · NIC 40 Gbit/s", scenarios: 23 },
      { key: "on-prem/bare-metal-10g/10", label: "on-prem · bare-metal-10g · NIC 10 Gbit/s", scenarios: 4 },
      { key: "tencent/SA5.LARGE8/12.5", label: "tencent · SA5.LARGE8 · NIC 12.5 Gbit/s", scenarios: 2 },
    ]);
  });

  it("draws the largest testbed by default, a chosen one, or all when asked", () => {
    const byDefault = scopeToTestbed(setups, undefined);
    expect([byDefault.chosen, byDefault.scenarios.length]).toEqual(["on-prem/bare-metal-40g/40", 23]);
    const cloud = scopeToTestbed(setups, "tencent/SA5.LARGE8/12.5");
    expect(cloud.scenarios.map((s) => s.id)).toEqual(["tke-a", "tke-c"]);
    // A testbed no scenario is on (an old address): the default, not an empty chart.
    expect(scopeToTestbed(setups, "aws/m5.large/10").chosen).toBe("on-prem/bare-metal-40g/40");
    const all = scopeToTestbed(setups, allTestbeds);
    expect([all.chosen, all.scenarios.length]).toEqual(["all", 29]);
    // One testbed: nothing to choose.
    expect(scopeToTestbed(setups.slice(0, 3), undefined).chosen).toBe("on-prem/bare-metal-40g/40");
  });
});
