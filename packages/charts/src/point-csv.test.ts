import { describe, expect, it } from "vitest";
import { pointCells, pointColumns } from "./point-csv";

describe("a plotted figure in a chart's CSV", () => {
  it("fills every column, empty where the figure says nothing", () => {
    const cells = pointCells(
      {
        y: 9.41,
        n: 3,
        whisker: [9.3, 9.52],
        params: { path: "pod-pod" },
        versus: { baseline: "a", verdict: "worse", indicative: false, percent: -4.5, words: "" },
      },
      "Gbit/s",
    );
    expect(Object.fromEntries(pointColumns.map((c, i) => [c, cells[i]]))).toEqual({
      value: 9.41,
      unit: "Gbit/s",
      qualifier: "",
      low: "",
      high: "",
      n: 3,
      min: 9.3,
      max: 9.52,
      params: '{"path":"pod-pod"}',
      verdict_vs_baseline: "worse",
      change_percent: -4.5,
    });
    expect(pointCells({ y: 1 }, "ms")).toHaveLength(pointColumns.length);
  });
});
