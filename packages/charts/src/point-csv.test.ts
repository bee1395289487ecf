import { describe, expect, it } from "vitest";
import { barCsv, lineCsv, pointCells, pointColumns } from "./point-csv";

describe("a plotted figure in a chart's CSV", () => {
  it("fills every column, empty where the figure says nothing, params in words", () => {
    const cells = pointCells(
      {
        y: 9.41,
        n: 3,
        whisker: [9.3, 9.52],
        params: { streams: 8, path: "pod-pod" },
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
      params: "path pod-pod · streams 8",
      verdict_vs_baseline: "worse",
      change_percent: -4.5,
    });
    expect(pointCells({ y: 1 }, "ms")).toHaveLength(pointColumns.length);
    expect(pointCells({ y: 1, params: {} }, "ms")[8]).toBe("");
  });
});

describe("a chart's CSV", () => {
  it("names the scenario on every line point's row, one params column", () => {
    const rows = lineCsv(
      [
        {
          id: "s1|concurrency=64",
          label: "Cilium · concurrency 64",
          scenario: { id: "s1", name: "Cilium" },
          points: [
            { x: 0, y: 100, params: { services: 0, concurrency: 64 } },
            { x: 10, y: 90, params: { services: 10, concurrency: 64 } },
          ],
        },
        { id: "s2", label: "Calico", points: [{ x: 0, y: 80 }] },
      ],
      "req/s",
    );
    expect(rows[0]).toEqual(["scenario_id", "scenario", "series", "x", ...pointColumns]);
    expect(rows[0]?.filter((c) => c === "params")).toHaveLength(1);
    expect(rows.slice(1).map((r) => r.slice(0, 5))).toEqual([
      ["s1", "Cilium", "Cilium · concurrency 64", 0, 100],
      ["s1", "Cilium", "Cilium · concurrency 64", 10, 90],
      ["s2", "Calico", "Calico", 0, 80],
    ]);
    expect(rows[1]?.[4 + 8]).toBe("concurrency 64 · services 0");
  });

  it("gives every bar, hidden or not, and each group's reference its scenario", () => {
    const rows = barCsv(
      [
        { id: "flannel", label: "flannel" },
        { id: "cilium-wg", label: "cilium-wg" },
      ],
      [
        {
          category: "path pod-pod · streams 8",
          values: { flannel: { y: 38.9, params: { path: "pod-pod", streams: 8 } }, "cilium-wg": undefined },
          reference: {
            y: 39.59,
            label: "node-to-node reference (baremetal)",
            scenarioId: "baremetal",
            scenario: "baremetal",
            params: { path: "node-node", streams: 8 },
          },
        },
        { category: "path pod-pod · streams 1", values: { "cilium-wg": { y: 5.1 } } },
      ],
      "Gbit/s",
    );
    expect(rows[0]).toEqual(["scenario_id", "scenario", "series", "group", ...pointColumns]);
    expect(rows[0]?.filter((c) => c === "params")).toHaveLength(1);
    const params = 4 + pointColumns.indexOf("params");
    expect(rows.slice(1).map((r) => [...r.slice(0, 5), r[params]])).toEqual([
      ["flannel", "flannel", "flannel", "path pod-pod · streams 8", 38.9, "path pod-pod · streams 8"],
      ["cilium-wg", "cilium-wg", "cilium-wg", "path pod-pod · streams 1", 5.1, ""],
      [
        "baremetal",
        "baremetal",
        "node-to-node reference (baremetal)",
        "path pod-pod · streams 8",
        39.59,
        "path node-node · streams 8",
      ],
    ]);
  });
});
