import { describe, expect, it } from "vitest";
import { runsWords } from "./format";

describe("chart words", () => {
  it("says a point's runs", () => {
    expect(runsWords({ n: 3, whisker: [9.1, 9.6] })).toBe("n=3 runs, min–max 9.1–9.6");
    expect(runsWords({ n: 1 })).toBe("n=1 run");
    expect(runsWords({})).toBe("");
  });
});
