import { describe, expect, it } from "vitest";
import { historyByTestbed, historyScenarios } from "./history-charts";

describe("historyScenarios", () => {
  it("keeps the address' order, drops repeats and empties, and counts those past the limit", () => {
    expect(historyScenarios(["b", "a", "b", "", "c"], 6)).toEqual({ ids: ["b", "a", "c"], more: 0 });
    expect(historyScenarios(["1", "2", "3", "4", "5", "6", "7", "8"])).toEqual({
      ids: ["1", "2", "3", "4", "5", "6"],
      more: 2,
    });
  });
  it("draws nothing when none is chosen", () => {
    expect(historyScenarios(null)).toEqual({ ids: [], more: 0 });
    expect(historyScenarios([])).toEqual({ ids: [], more: 0 });
  });
});

describe("historyByTestbed", () => {
  const view = (workspaceId: string, key: string, ids: string[]) => ({
    testbed: { workspaceId, key, scenarios: ids.map((id) => ({ id })) },
  });
  it("draws a testbed once for the chosen scenarios it holds, in the order first chosen", () => {
    const nightly = view("w1", "nightly", ["k61", "k68"]);
    const other = view("w1", "other", ["o"]);
    const { testbeds, missing } = historyByTestbed([
      { scenarioId: "k68", view: nightly },
      { scenarioId: "o", view: other },
      { scenarioId: "k61", view: nightly },
      { scenarioId: "gone", view: null },
    ]);
    expect(testbeds).toEqual([
      { scenarioIds: ["k68", "k61"], view: nightly },
      { scenarioIds: ["o"], view: other },
    ]);
    expect(missing).toEqual(["gone"]);
  });
  it("tells apart testbeds of one key in two workspaces", () => {
    const { testbeds } = historyByTestbed([
      { scenarioId: "a", view: view("w1", "k", ["a"]) },
      { scenarioId: "b", view: view("w2", "k", ["b"]) },
    ]);
    expect(testbeds.map((t) => t.scenarioIds)).toEqual([["a"], ["b"]]);
  });
});
