import { describe, expect, it } from "vitest";
import { parseAllowList } from "./allow-list.ts";

describe("the allow-list setting (CNIBENCH_WEBHOOK_ALLOW)", () => {
  it("reads ranges and single addresses, separated by commas or spaces", () => {
    const ranges = parseAllowList("10.20.0.0/16, 192.0.2.7 fd12::1");
    expect(ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      "10.20.0.0/16",
      "192.0.2.7/32",
      "fd12::1/128",
    ]);
  });

  it("names a bad entry", () => {
    expect(() => parseAllowList("10.0.0.0/33")).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseAllowList("intranet")).toThrow(/intranet/);
    expect(parseAllowList("")).toEqual([]);
  });
});
