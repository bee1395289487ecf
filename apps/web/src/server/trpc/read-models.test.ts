// The read models' schemas against rows shaped as the query functions and chart shaping shape them
// (the seed bundles in demo-data/): a field added to a row but not to its schema, or typed otherwise,
// fails here before an output contract strips or rejects it.
import { summaryOf } from "@cnibench/analysis";
import {
  crossoverPointSchema,
  currentFigureSchema,
  figureSummarySchema,
  latestFigureSchema,
  measurementRowSchema,
  plottedFigureSchema,
  scenarioSummarySchema,
} from "@cnibench/db/read-models";
import { loadSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { barsOutputSchema } from "../routers/charts.types";
import { exploreOutputSchema } from "../routers/scenarios.types";
import { barView } from "../views/chart-data/bars";
import { crossoverOf } from "../views/chart-data/crossover";

const seeds = loadSeeds({
  a: ["tke-a-iptables-service-scale.json", "tke-a-iptables-main.json"],
  b: ["tke-b-cilium-native-service-scale.json", "tke-b-cilium-native-main.json"],
});

/** Parses with the schema and checks the row has every field it declares (none filled by a default). */
function parsesAs(schema: z.ZodObject, row: object): void {
  expect(schema.safeParse(row).error).toBeUndefined();
  expect(Object.keys(schema.shape).filter((key) => !(key in row))).toEqual([]);
}

describe("read models", () => {
  it("parse the seed scenarios and figures", () => {
    expect(seeds.figures.length).toBeGreaterThan(0);
    for (const s of seeds.scenarios) parsesAs(scenarioSummarySchema, s);
    for (const f of seeds.figures) {
      parsesAs(measurementRowSchema, f);
      parsesAs(latestFigureSchema, f);
      parsesAs(figureSummarySchema, summaryOf(f));
      parsesAs(currentFigureSchema, { ...f, summary: summaryOf(f) });
    }
  });

  it("parse the chart points, keeping every field", () => {
    const points = barView("latency", seeds.scenarios, seeds.figures, { percentile: "p99" }).flatMap((chart) =>
      chart.data.flatMap((d) => Object.values(d.values)),
    );
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) expect(plottedFigureSchema.parse(p)).toEqual(p);

    const lines = crossoverOf(seeds.scenarios, seeds.figures, {
      metric: "http.rps",
      x: "services",
      where: { connection: "short" },
      y: "absolute",
    }).series;
    expect(lines.length).toBeGreaterThan(0);
    for (const p of lines.flatMap((l) => l.points)) expect(crossoverPointSchema.parse(p)).toEqual(p);
  });

  it("keep a figure's summary in every router's output (zod strips what a schema does not name)", () => {
    const summary = summaryOf({ n: 2, campaignBundleIds: ["b2", "b1"], samples: [10, 12] });
    expect(figureSummarySchema.parse(summary)).toEqual(summary);
    const plotted = {
      y: 11,
      qualifier: null,
      low: null,
      high: null,
      params: {},
      bundleId: "b2",
      sourceTitle: null,
      sourceUrl: null,
      summary,
      whisker: [10, 12],
    };
    const bars = barsOutputSchema.parse([
      {
        metric: "m",
        title: "M",
        unit: "u",
        series: [],
        data: [{ category: "c", values: { s: plotted } }],
        references: [],
      },
    ]);
    expect(bars[0]?.data[0]?.values.s).toMatchObject({ summary, whisker: [10, 12] });
    const keyFigure = { value: 11, unit: "u", qualifier: null, low: null, high: null, params: {}, bundleId: "b2" };
    const explore = exploreOutputSchema.shape.scenarios.element.shape.keyFigures.parse({
      tcpPod1: { ...keyFigure, summary, samples: [10, 12] },
    });
    expect(explore.tcpPod1).toEqual({ ...keyFigure, summary });
  });
});
