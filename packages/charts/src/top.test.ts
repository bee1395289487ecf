import { describe, expect, it } from "vitest";
import { barScores, inScope, lineScores, rankByScore, topCount } from "./top";

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

  it("scores bars by their mean rank within each group, each group counted once", () => {
    // Streams 1 in single Gbit/s, streams 8 in tens: a's 9 beats b's 30 in its own group only.
    const data = [
      { category: "streams 1", values: { a: { y: 9 }, b: { y: 6 }, c: { y: 3 } } },
      { category: "streams 8", values: { a: { y: 20 }, b: { y: 30 }, c: { y: 10 }, d: { y: 40 } } },
    ];
    // a: (1 + 3) / 2 = 2; b: (2 + 2) / 2 = 2; c: (3 + 4) / 2 = 3.5; d: 1 (one group).
    expect(barScores(data, "higher")).toEqual(
      new Map([
        ["a", 2],
        ["b", 2],
        ["c", 3.5],
        ["d", 1],
      ]),
    );
    expect(rankByScore(ids, barScores(data, "higher"), "lower")).toEqual(["d", "a", "b", "c"]);
    // Lower is better (latency): the order turns round.
    expect(rankByScore(ids, barScores(data, "lower"), "lower")).toEqual(["c", "a", "b", "d"]);
    expect(barScores(data, "none").size).toBe(0);
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

  it("draws the top 8 of 24 until all are asked for, and all of 8 or fewer", () => {
    const many = Array.from({ length: 24 }, (_, i) => `s${i}`);
    expect(topCount).toBe(8);
    expect([...inScope(many, false)]).toEqual(many.slice(0, 8));
    expect(inScope(many, true).size).toBe(24);
    expect(inScope(many.slice(0, 5), false).size).toBe(5);
  });
});
