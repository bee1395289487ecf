// The guide's words for verdicts that find no clear difference, and how such ties score. The runs are
// verdict.test.ts's, whose intervals and p-values were checked with scipy there.
import { describe, expect, it } from "vitest";
import type { Figure } from "../types.ts";
import { compareFigures } from "../verdict.ts";
import { scoreAgainstBest, tieWords, weakestTie } from "./figures.ts";

const rps = (value: number, samples?: number[]): Figure => ({
  metric: "http.rps",
  unit: "req/s",
  value,
  ...(samples ? { samples } : {}),
});

// Steady runs 0.65 % apart (p ≈ 0.0013, 95 % interval 1.0042–1.0088): small but real.
const smallButReal = compareFigures(rps(100, [100, 100.1, 99.9]), rps(100.65, [100.65, 100.75, 100.55]));
// +2.5 % at p ≈ 0.36, 95 % interval 0.959–1.096: inconclusive.
const inconclusive = compareFigures(rps(100, [100, 103, 97.1]), rps(102.5, [102.5, 105.6, 99.6]));
// ±1 % runs around the same mean: equivalent.
const equivalent = compareFigures(rps(100, [99, 100, 101]), rps(100, [101, 100, 99]));
// One run a side, 3 % apart: equivalent by the ±5 % margin alone.
const singleRun = compareFigures(rps(100), rps(103));

describe("tieWords", () => {
  it("says what the verdict says, and that a single run is one", () => {
    expect([smallButReal, inconclusive, equivalent, singleRun].map((r) => r.verdict)).toEqual([
      "small-but-real",
      "inconclusive",
      "equivalent",
      "equivalent",
    ]);
    expect(tieWords(smallButReal)).toBe("a small but real difference");
    expect(tieWords(inconclusive)).toBe("inconclusive at these runs");
    expect(tieWords(equivalent)).toBe("equivalent within ±5 %");
    expect(tieWords(singleRun)).toBe("equivalent within ±5 % on a single value");
  });

  it("has no words for a clear difference", () => {
    // −10 % at p ≈ 0.011: worse.
    expect(() => tieWords(compareFigures(rps(100, [100, 103, 97]), rps(90, [90, 92.5, 87.8])))).toThrow();
  });
});

describe("weakestTie", () => {
  it("words a set by its least certain tie", () => {
    expect(weakestTie([equivalent, singleRun])).toBe(singleRun);
    expect(weakestTie([equivalent, smallButReal, singleRun])).toBe(smallButReal);
    expect(weakestTie([smallButReal, inconclusive, equivalent])).toBe(inconclusive);
    expect(weakestTie([])).toBeNull();
  });
});

describe("scoreAgainstBest", () => {
  it("counts an inconclusive difference as no win: both score 1 and the set is level", () => {
    // The best is the 102.5 side; against it the 100 side is the inconclusive pair above, reversed
    // (the same p, the interval inverted: still not within ±5 %).
    const r = scoreAgainstBest(
      [
        { item: "a", figure: rps(100, [100, 103, 97.1]) },
        { item: "b", figure: rps(102.5, [102.5, 105.6, 99.6]) },
      ],
      "higher",
    );
    // The best is not compared with itself: its own ±3 % runs would not show it equivalent to itself.
    expect(r.scored.map((s) => [s.item, s.score, s.versusBest?.verdict ?? null])).toEqual([
      ["a", 1, "inconclusive"],
      ["b", 1, null],
    ]);
    expect(r.level).toBe(true);
  });

  it("counts a pair level when one way finds no clear difference, as the ranking does", () => {
    // Single runs of p99 latency (lower is better, band ±10 %): 11.05 against the best 10.0 is +10.5 %,
    // beyond the band; 10.0 against 11.05 is −9.5 %, within it. The ranking calls the pair level
    // (ranking.ts comparePair), so the card does too.
    const p99 = (value: number): Figure => ({
      metric: "http.latency",
      unit: "ms",
      value,
      params: { percentile: "p99" },
    });
    expect(compareFigures(p99(10.0), p99(11.05)).verdict).toBe("worse");
    expect(compareFigures(p99(11.05), p99(10.0)).verdict).toBe("equivalent");
    const r = scoreAgainstBest(
      [
        { item: "best", figure: p99(10.0) },
        { item: "next", figure: p99(11.05) },
      ],
      "lower",
    );
    const next = r.scored.find((s) => s.item === "next")!;
    expect([next.levelWithBest, next.score, next.versusBest?.verdict]).toEqual([true, 1, "equivalent"]);
    expect(tieWords(next.versusBest!)).toBe("equivalent within ±10 % on a single value");
  });

  it("places a clearly worse value by its distance from the best", () => {
    const r = scoreAgainstBest(
      [
        { item: "a", figure: rps(100, [100, 103, 97]) },
        { item: "c", figure: rps(90, [90, 92.5, 87.8]) },
      ],
      "higher",
    );
    expect(r.level).toBe(false);
    const c = r.scored.find((s) => s.item === "c")!;
    expect([c.score, c.versusBest?.verdict, c.levelWithBest]).toEqual([0, "worse", false]);
  });
});
