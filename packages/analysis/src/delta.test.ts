import { formatNumber, formatPercent } from "@cnibench/format";
import { describe, expect, it } from "vitest";
import { percentDelta } from "./delta.ts";

describe("percentDelta", () => {
  it("gives absolute and percent change against the baseline", () => {
    // TKE short-conn RPS at 20,000 Services: Overlay 13,080 vs iptables 12,916 → +164, +1.2697 %.
    const d = percentDelta(13_080, 12_916);
    expect(d.absolute).toBe(164);
    expect(d.percent).toBeCloseTo(1.2697, 4);
    expect(percentDelta(90, 100)).toEqual({ absolute: -10, percent: -10 });
  });

  it("keeps the sign of the change for negative baselines and has no percent against 0", () => {
    expect(percentDelta(-5, -10).percent).toBe(50);
    expect(percentDelta(3, 0)).toEqual({ absolute: 3, percent: null });
  });
});

describe("formatting", () => {
  it("formats en-US numbers and signed percentages", () => {
    expect(formatNumber(19_649.498)).toBe("19,649");
    expect(formatNumber(13_068.29, 6)).toBe("13,068.3");
    expect(formatNumber(-1_101)).toBe("−1,101");
    expect(formatPercent(-29.103)).toBe("−29.1 %");
    expect(formatPercent(2.231)).toBe("+2.2 %");
    expect(formatPercent(0)).toBe("0.0 %");
    expect(formatPercent(86.115, 1, false)).toBe("86.1 %");
  });
});
