import { describe, expect, it } from "vitest";
import { figureSummarySchema, headline, summaryOf, whiskerOf } from "./figure-summary";
import { barsOutputSchema } from "./routers/charts.types";
import { exploreOutputSchema } from "./routers/scenarios.types";

describe("summaryOf", () => {
  it("gives a campaign of several runs its distribution", () => {
    const s = summaryOf({ n: 3, campaignBundleIds: ["b3", "b2", "b1"], samples: [9.3, 9.41, 9.52] });
    expect(s.n).toBe(3);
    expect(s.campaignBundleIds).toEqual(["b3", "b2", "b1"]);
    expect(s.distribution).toMatchObject({ n: 3, median: 9.41, min: 9.3, max: 9.52 });
    expect(s.distribution?.mean).toBeCloseTo(9.41, 10);
    expect(s.distribution?.sd).toBeCloseTo(0.11, 10);
    expect(s.distribution?.cv).toBeCloseTo(0.11 / 9.41, 10);
    expect(headline({ value: 9.5 }, s)).toBe(9.41);
    expect(whiskerOf(s)).toEqual([9.3, 9.52]);
  });

  it("says only n and leaves the value for a single run", () => {
    const s = summaryOf({ n: 1, campaignBundleIds: ["b1"], samples: [] });
    expect(s).toEqual({ n: 1, campaignBundleIds: ["b1"], distribution: null });
    expect(headline({ value: 9.5 }, s)).toBe(9.5);
    expect(whiskerOf(s)).toBeNull();
  });

  it("is one schema that every router's output keeps (zod strips what a schema does not name)", () => {
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
