// The outage gate's probe (outage.ts) is asked once a second at most, however many pages arrive.
import { describe, expect, it } from "vitest";
import { freshFor } from "./fresh-for";

describe("freshFor", () => {
  it("asks once for any number of callers within the fresh time, and again after it", async () => {
    let clock = 0;
    let asked = 0;
    let answer = true;
    const probe = freshFor(
      1_000,
      async () => {
        asked++;
        return answer;
      },
      () => clock,
    );
    // 100 page requests at once and over the next 999 ms: one probe.
    expect(await Promise.all(Array.from({ length: 100 }, probe))).toEqual(Array(100).fill(true));
    clock = 999;
    answer = false;
    expect(await probe()).toBe(true);
    expect(asked).toBe(1);
    // A second after the answer: asked again, and the new answer stands.
    clock = 1_000;
    expect(await probe()).toBe(false);
    clock = 1_500;
    expect(await probe()).toBe(false);
    expect(asked).toBe(2);
  });

  it("keeps no answer of a call that failed", async () => {
    let calls = 0;
    const flaky = freshFor(1_000, async () => {
      calls++;
      if (calls === 1) throw new Error("down");
      return "up";
    });
    await expect(flaky()).rejects.toThrow("down");
    expect(await flaky()).toBe("up");
    expect(calls).toBe(2);
  });
});
