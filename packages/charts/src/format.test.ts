import { describe, expect, it } from "vitest";
import { compactNumber, runsWords } from "./format";

describe("chart words", () => {
  it("writes axis ticks compactly", () => {
    expect(compactNumber(20_000)).toBe("20K");
    expect(compactNumber(1_500_000)).toBe("1.5M");
    expect(compactNumber(0.25)).toBe("0.25");
  });

  it("says a point's runs", () => {
    expect(runsWords({ n: 3, whisker: [9.1, 9.6] })).toBe("n=3 runs, min–max 9.1–9.6");
    expect(runsWords({ n: 1 })).toBe("n=1 run");
    expect(runsWords({})).toBe("");
  });
});
