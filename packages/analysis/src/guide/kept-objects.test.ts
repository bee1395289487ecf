// The guide keeps what it works out per scenario, figure and reason object (pools, verdicts, Service
// lines, evidence keys), because a server hands out the same objects until an upload touches them.
// An answer after an upload must be the answer a fresh read of every figure gives.
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { askGuide } from "@cnibench/test-support/guide-input";
import { describe, expect, it } from "vitest";
import { paramsKey } from "../params-key.ts";
import { type FigureSelector, selectedFigures } from "./criteria/figure-criterion.ts";
import type { GuideContext } from "./criteria/index.ts";
import { figuresByScenario } from "./figures.ts";
import type { GuideFigure } from "./types.ts";

const demo = loadDemoData();

/** An upload of one scenario: its figures are new objects, and `changed` ones measured anew. */
function upload(changed: (f: GuideFigure) => boolean, factor: number) {
  const { scenarioId } = demo.figures.find(changed)!;
  const figures = demo.figures.map((f) =>
    f.scenarioId !== scenarioId
      ? f
      : changed(f)
        ? { ...f, value: f.value * factor, samples: f.samples?.map((x) => x * factor) ?? f.samples }
        : { ...f },
  );
  return { scenarios: demo.scenarios, figures };
}

describe("an answer after an upload", () => {
  const shortRps = (f: GuideFigure) =>
    f.metric === "http.rps" && f.params.connection === "short" && typeof f.params.services === "number";
  const singleStream = (f: GuideFigure) => f.metric === "tcp.throughput" && f.params.streams === 1;

  for (const [what, changed, answers] of [
    ["a short-connection RPS step", shortRps, { connections: "short", services: 5000 }],
    ["a single-stream TCP throughput", singleStream, { connections: "keepalive", needs: ["udpHeavy"] }],
  ] as const) {
    it(`is the answer of a fresh read when ${what} moved`, () => {
      const before = askGuide(demo, answers);
      const after = upload(changed, 0.5);
      const kept = askGuide(after, answers);
      // Every object new: nothing kept can answer for it.
      expect(kept).toEqual(askGuide(structuredClone(after), answers));
      // The upload mattered: an answer that ignored it would fail the line above only by chance.
      expect(kept).not.toEqual(before);
    });
  }
});

describe("figuresByScenario", () => {
  const scenarios = new Map(demo.scenarios.map((s) => [s.id, s]));
  // Independently: each scenario's figures filtered out of the list, in its order.
  const expected = (figures: readonly GuideFigure[]) =>
    new Map(
      [...new Set(figures.map((f) => f.scenarioId))].map((id) => {
        const all = figures.filter((f) => f.scenarioId === id);
        const metrics = [...new Set(all.map((f) => f.metric))];
        return [id, { all, byMetric: new Map(metrics.map((m) => [m, all.filter((f) => f.metric === m)])) }];
      }),
    );

  it("sorts figures whether or not a scenario's come together", () => {
    const byMetricFirst = [...demo.figures].sort((a, b) => a.metric.localeCompare(b.metric));
    expect(byMetricFirst.map((f) => f.scenarioId)).not.toEqual(demo.figures.map((f) => f.scenarioId));
    expect(figuresByScenario(demo.figures, scenarios)).toEqual(expected(demo.figures));
    expect(figuresByScenario(byMetricFirst, scenarios)).toEqual(expected(byMetricFirst));
  });

  it("hands out a scenario's kept lists until one of its figures is a new object", () => {
    const first = figuresByScenario(demo.figures, scenarios);
    const again = figuresByScenario([...demo.figures], scenarios);
    for (const [id, lists] of first) expect(again.get(id)).toBe(lists);
    const touched = demo.figures[0]!;
    const replaced = { ...touched, value: touched.value * 2 };
    const after = figuresByScenario(
      demo.figures.map((f) => (f === touched ? replaced : f)),
      scenarios,
    );
    expect(after.get(touched.scenarioId)!.all).toContain(replaced);
    expect(after.get(touched.scenarioId)!.all).not.toContain(touched);
    for (const [id, lists] of first) if (id !== touched.scenarioId) expect(after.get(id)).toBe(lists);
  });
});

describe("selectedFigures", () => {
  it("picks from a scenario's kept lists by params key what the selector's own test picks", () => {
    const lists = figuresByScenario(demo.figures, new Map(demo.scenarios.map((s) => [s.id, s])));
    // The one part of a guide context it reads.
    const ctx = {
      figuresOf: (id: string, metric?: string) =>
        (metric === undefined ? lists.get(id)?.all : lists.get(id)?.byMetric.get(metric)) ?? [],
    } as GuideContext;
    let picked = 0;
    for (const { metric, params } of demo.figures) {
      const key = paramsKey(params);
      const selector: FigureSelector = {
        title: key,
        metric,
        select: (f) => f.metric === metric && paramsKey(f.params) === key,
        paramsKey: key,
      };
      for (const s of demo.scenarios) {
        const expected = ctx.figuresOf(s.id, metric).filter(selector.select);
        expect(selectedFigures(ctx, s.id, selector)).toEqual(expected);
        picked += expected.length;
      }
    }
    expect(picked).toBeGreaterThanOrEqual(demo.figures.length);
  });
});
