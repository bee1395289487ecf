// The guide keeps what it works out per scenario, figure and reason object (pools, verdicts, Service
// lines, evidence keys), because a server hands out the same objects until an upload touches them.
// An answer after an upload must be the answer a fresh read of every figure gives.
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { askGuide } from "@cnibench/test-support/guide-input";
import { describe, expect, it } from "vitest";
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
