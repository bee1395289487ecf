// Expected values by hand: medians of the listed runs, sd as the sample standard deviation (n − 1),
// checked with Python's statistics module (median, stdev).
import { describe, expect, it } from "vitest";
import {
  asCampaignDistribution,
  type CampaignFigure,
  type CampaignMeasurement,
  headline,
  runsShown,
  summaryOf,
  whiskerOf,
} from "./figure-summary.ts";

/** The holder of a TCP throughput series (Gbit/s) as packages/db reads it, before its campaign is summarised. */
const holder = (over: Partial<CampaignFigure> = {}): CampaignFigure => ({
  bundleId: "b3",
  value: 9.41,
  samples: [],
  samplesAre: null,
  summaryStatistics: null,
  n: 0,
  campaignBundleIds: [],
  ...over,
});

describe("asCampaignDistribution", () => {
  it("makes three bundles of one campaign three runs, headed by their median", () => {
    const f = holder({ value: 9.52 });
    const campaign: CampaignMeasurement[] = [
      ["b3", 9.52, [], null, null],
      ["b2", 9.37, [], null, null],
      ["b1", 9.41, [], null, null],
    ];
    asCampaignDistribution(f, campaign);
    expect(f).toMatchObject({ n: 3, value: 9.41, samples: [9.52, 9.37, 9.41], campaignBundleIds: ["b3", "b2", "b1"] });
  });

  it("takes each bundle's rounds, counts clients as one run and leaves qualified figures out", () => {
    const f = holder({ samplesAre: "runs", summaryStatistics: { mean: 9.4, n: 3, of: "runs" } });
    asCampaignDistribution(f, [
      ["b3", 9.41, [9.41, 9.37], null, "runs"],
      // A vegeta attack of 4 workers: one run, its value.
      ["b2", 9.3, [2.3, 2.4, 2.3, 2.3], null, "clients"],
      ["b2", 9.52, [], null, null],
      // "≈ 10": no run of a spread, though its bundle is in the campaign.
      ["b1", 10, [], "approx", null],
    ]);
    // Runs 9.41, 9.37, 9.3, 9.52: median (9.37 + 9.41) / 2.
    expect(f).toMatchObject({ n: 4, samples: [9.41, 9.37, 9.3, 9.52], campaignBundleIds: ["b3", "b2", "b1"] });
    expect(f.value).toBeCloseTo(9.39, 12);
    // The campaign's spread replaces the holder's own published one.
    expect(f.summaryStatistics).toBeNull();
    expect(f.samplesAre).toBeNull();
  });

  it("keeps a lone bundle's figure as published, its rounds its runs", () => {
    const rounds = holder({ value: 30682.5, samples: [31365, 30000, 29000, 32000] });
    asCampaignDistribution(rounds, null);
    expect(rounds).toMatchObject({ n: 4, value: 30682.5, campaignBundleIds: ["b3"] });

    const clients = holder({ value: 9.3, samples: [2.3, 2.4, 2.3, 2.3], samplesAre: "clients" });
    asCampaignDistribution(clients, [["b3", 9.3, [2.3, 2.4, 2.3, 2.3], null, "clients"]]);
    expect(clients).toMatchObject({ n: 1, value: 9.3, campaignBundleIds: ["b3"] });
  });

  it("keeps the holder's value when every run of the campaign is qualified", () => {
    const f = holder({ value: 10 });
    asCampaignDistribution(f, [
      ["b3", 10, [], "at-most", null],
      ["b2", 12, [], "at-most", null],
    ]);
    expect(f).toMatchObject({ n: 1, value: 10, samples: [], campaignBundleIds: ["b3", "b2"] });
  });
});

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
    expect(runsShown({ summary: s })).toBe(3);
  });

  it("says only n and leaves the value for a single run", () => {
    const s = summaryOf({ n: 1, campaignBundleIds: ["b1"], samples: [] });
    expect(s).toEqual({ n: 1, campaignBundleIds: ["b1"], distribution: null });
    expect(headline({ value: 9.5 }, s)).toBe(9.5);
    expect(whiskerOf(s)).toBeNull();
    expect(runsShown({ summary: s })).toBe(1);
  });

  it("counts the runs a lone bundle's published summary statistics stand for (k8s-netperf), not clients", () => {
    const summary = summaryOf({ n: 1, campaignBundleIds: ["b1"], samples: [] });
    expect(runsShown({ summary, summaryStatistics: { n: 3, of: "runs" } })).toBe(3);
    expect(runsShown({ summary, summaryStatistics: { n: 16, of: "clients" } })).toBe(1);
  });
});
