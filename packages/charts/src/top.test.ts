import { describe, expect, it } from "vitest";
import { barScores, inScope, lineScores, rankByScore, scopeWords, topCount } from "./top";

const ids = ["a", "b", "c", "d"];

describe("the top series of a crowded chart", () => {
  it("ranks by score in the metric's better direction, ties and unscored in the given order", () => {
    const score = new Map([
      ["a", 5],
      ["b", 9],
      ["c", 5],
    ]);
    expect(rankByScore(ids, score, "higher")).toEqual(["b", "a", "c", "d"]);
    expect(rankByScore(ids, score, "lower")).toEqual(["a", "c", "b", "d"]);
    expect(rankByScore(ids, score, "none")).toEqual(ids);
    expect(rankByScore(ids, score, undefined)).toEqual(ids);
  });

  it("scores bars by their place within each group, each group counted once, absence as the middle", () => {
    // Streams 1 in single Gbit/s, streams 8 in tens: a's 9 beats b's 30 in its own group only.
    const data = [
      { category: "streams 1", values: { a: { y: 9 }, b: { y: 6 }, c: { y: 3 } } },
      { category: "streams 8", values: { a: { y: 20 }, b: { y: 30 }, c: { y: 10 }, d: { y: 40 } } },
      // One bar alone says nothing of its place: skipped.
      { category: "service", values: { e: { y: 1 } } },
    ];
    // Places 0 (best) to 1 (worst): streams 1 of 3 bars: a 0, b 0.5, c 1; streams 8 of 4: d 0,
    // b 1/3, a 2/3, c 1. d has no bar at streams 1: the middle, 0.5. Means by hand:
    // a (0 + 2/3) / 2 = 1/3; b (0.5 + 1/3) / 2 = 5/12; c 1; d (0.5 + 0) / 2 = 0.25.
    const scores = barScores(data, "higher");
    expect([...scores.keys()].sort()).toEqual(["a", "b", "c", "d"]);
    expect(scores.get("a")).toBeCloseTo(1 / 3, 12);
    expect(scores.get("b")).toBeCloseTo(5 / 12, 12);
    expect(scores.get("c")).toBe(1);
    expect(scores.get("d")).toBe(0.25);
    expect(rankByScore(ids, scores, "lower")).toEqual(["d", "a", "b", "c"]);
    // Lower is better (latency): the order turns round.
    expect(rankByScore(ids, barScores(data, "lower"), "lower")).toEqual(["c", "b", "a", "d"]);
    expect(barScores(data, "none").size).toBe(0);
  });

  it("gives no series the top place for a group of its own (issue 40)", () => {
    // "cloud" is the best of 2 bars in a group only it and "other" have, and absent from the 40 G
    // groups the 3 bare-metal setups share: the old mean rank made it 1 of every setup.
    const data = [
      { category: "pod-pod 1", values: { x: { y: 38 }, y: { y: 37 }, z: { y: 36 } } },
      { category: "pod-pod 8", values: { x: { y: 39 }, y: { y: 38 }, z: { y: 37 } } },
      { category: "cloud only", values: { cloud: { y: 12.4 }, other: { y: 9 } } },
    ];
    // x: (0 + 0 + 0.5) / 3 = 1/6; cloud: (0.5 + 0.5 + 0) / 3 = 1/3: x first.
    const ranked = rankByScore(["cloud", "other", "x", "y", "z"], barScores(data, "higher"), "lower");
    expect(ranked[0]).toBe("x");
    expect(barScores(data, "higher").get("cloud")).toBeCloseTo(1 / 3, 12);
  });

  it("scores a line by its value at its largest x, wherever that point is in the list", () => {
    const line = (id: string, points: [number, number][]) => ({
      id,
      label: id,
      points: points.map(([x, y]) => ({ x, y })),
    });
    const scores = lineScores([
      line("a", [
        [30_000, 50],
        [0, 100],
      ]),
      line("b", [
        [0, 90],
        [30_000, 70],
      ]),
      line("c", []),
    ]);
    expect(scores).toEqual(
      new Map([
        ["a", 50],
        ["b", 70],
      ]),
    );
    expect(rankByScore(["a", "b", "c"], scores, "higher")).toEqual(["b", "a", "c"]);
  });

  it("draws the 6 best and the 2 worst of 24 until all are asked for, and all of 8 or fewer", () => {
    const many = Array.from({ length: 24 }, (_, i) => `s${i}`);
    expect(topCount).toBe(8);
    const shown = inScope(many, false);
    expect([...shown]).toEqual([...many.slice(0, 6), "s22", "s23"]);
    expect(inScope(many, true).size).toBe(24);
    expect(inScope(many.slice(0, 5), false).size).toBe(5);
    expect(scopeWords(many, shown, (id) => id.toUpperCase(), "mean rank")).toBe(
      "The 6 best and the 2 worst of 24 by mean rank; not drawn: S6, S7, S8, S9, S10, S11 and 10 more (the CSV has all).",
    );
  });
});
