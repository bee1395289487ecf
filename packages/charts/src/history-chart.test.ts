import { describe, expect, it } from "vitest";
import { type HistoryPoint, markerGroups, segmentSteps, shiftWords, stackLabels, timeTicks } from "./geometry";
import { historyCsv } from "./history-chart";

const day = 24 * 3600 * 1000;
const start = Date.UTC(2026, 10, 1, 2);
/** Twelve nightly campaigns, 9.4 then 8.6 from the ninth. */
const points: HistoryPoint[] = Array.from({ length: 12 }, (_, i) => ({
  campaign: `night-${i + 1}`,
  x: start + i * day,
  y: i < 8 ? 9.4 : 8.6,
  min: i < 8 ? 9.2 : 8.4,
  max: i < 8 ? 9.6 : 8.8,
  n: 3,
}));
const ninth = start + 8 * day;
const annotations = [{ x: ninth, label: "kernel 6.1.0 → 6.8.0" }];
const shifts = [{ x: ninth, changePercent: -8.51, verdict: "worse" as const, p: 5.6e-7 }];

describe("the history chart's pure parts", () => {
  it("words a change point", () => {
    expect(shiftWords(shifts[0]!)).toBe("−8.5 % · worse");
  });

  it("puts the kernel upgrade and the shift at the ninth campaign on one marker, halfway from the eighth", () => {
    const groups = markerGroups(points, annotations, shifts);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ at: ninth, x: ninth - day / 2, annotations: ["kernel 6.1.0 → 6.8.0"] });
    expect(groups[0]?.shift?.verdict).toBe("worse");
  });

  it("stacks labels that would overlap and keeps apart ones side by side", () => {
    const near = markerGroups(points, [...annotations, { x: ninth + day, label: "Cilium 1.15 → 1.16" }], shifts);
    // 30 px a day: the two markers are 30 px apart, their labels ~130 px wide.
    const toPx = (x: number) => ((x - start) / day) * 30;
    const stacked = stackLabels(near, toPx, 1000);
    expect(stacked.groups.map((g) => g.row)).toEqual([0, 2]);
    expect(stacked.rows).toBe(3);
    const wide = stackLabels(near, (x) => ((x - start) / day) * 300, 10_000);
    expect(wide.groups.map((g) => g.row)).toEqual([0, 0]);
    expect(wide.rows).toBe(2);
    // Labels start at their marker, or end at it where they would run past the right edge.
    expect(wide.groups.map((g) => g.before)).toEqual([false, false]);
    const narrow = stackLabels(near, (x) => ((x - start) / day) * 30, 300);
    expect(narrow.groups.map((g) => g.before)).toEqual([true, true]);
  });

  it("steps at the means between change points", () => {
    // Means of the medians: 8 × 9.4, then 4 × 8.6.
    expect(segmentSteps(points, shifts)).toEqual([
      { from: start, to: start + 7 * day, mean: 9.4 },
      { from: ninth, to: start + 11 * day, mean: expect.closeTo(8.6, 10) },
    ]);
    expect(segmentSteps(points, [])).toEqual([]);
  });

  it("thins the date ticks to the width and keeps the last campaign", () => {
    expect(timeTicks(points, 1200, 64)).toHaveLength(12);
    const narrow = timeTicks(points, 300, 64);
    expect(narrow.length).toBeLessThanOrEqual(5);
    expect(narrow.at(-1)).toBe(start + 11 * day);
  });

  it("exports a row per campaign with what changed and the change point", () => {
    const csv = historyCsv(points, annotations, shifts, "Gbit/s");
    expect(csv[0]).toEqual([
      "campaign",
      "date",
      "median",
      "min",
      "max",
      "n",
      "unit",
      "annotations",
      "change_point",
      "change_percent",
      "p",
    ]);
    expect(csv).toHaveLength(13);
    expect(csv[9]).toEqual([
      "night-9",
      "2026-11-09T02:00:00.000Z",
      8.6,
      8.4,
      8.8,
      3,
      "Gbit/s",
      "kernel 6.1.0 → 6.8.0",
      "−8.5 % · worse",
      -8.51,
      5.6e-7,
    ]);
    expect(csv[1]?.slice(7)).toEqual(["", "", "", ""]);
  });
});
