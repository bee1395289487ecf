// A current figure's summary, in one place: which runs its series' latest campaign holds
// (asCampaignDistribution, run by packages/db on every current figure it reads), and what every view
// says of them besides the value (summaryOf, headline, whiskerOf, runsShown).
import { type Distribution, distributionOf, median } from "./distribution.ts";

/**
 * A measurement of a campaign as packages/db reads it: bundle, value, rounds (samples), qualifier,
 * what the samples are. Each is one run, or one per round.
 */
export type CampaignMeasurement = [
  bundleId: string,
  value: number,
  samples: readonly number[],
  qualifier: string | null,
  samplesAre: string | null,
];

/** The fields of a current figure (packages/db's) that its campaign's runs decide. */
export type CampaignFigure = {
  bundleId: string;
  value: number;
  samples: readonly number[];
  samplesAre?: "runs" | "clients" | null;
  summaryStatistics?: object | null;
  /** Runs in the series' latest campaign: `samples` holds them (one run: the value itself, n = 1). */
  n: number;
  /** The bundles of that campaign, newest first (the figure's own `bundleId` is the first). */
  campaignBundleIds: readonly string[];
};

/**
 * Makes a current figure the distribution of its series' latest campaign (docs/design.md): the runs are
 * every bundle's rounds (its samples) or else its value; qualified figures (≈, ≤, ≥, ranges) are no
 * runs of a spread. With several bundles in the campaign the headline becomes the runs' median; a
 * bundle alone keeps the figure its source published (whose samples are already its runs). Samples
 * of concurrent clients are one run: the bundle's value. A campaign's distribution replaces the
 * holder's own summary statistics, which are of its bundle only. `campaign` holds the campaign's
 * measurements, newest first, when it has more than the holder. Writes onto the figure, without
 * copying it: packages/db reads thousands per request (its earlierCampaigns counts the runs alike in
 * SQL).
 */
export function asCampaignDistribution(
  figure: CampaignFigure,
  campaign: readonly CampaignMeasurement[] | null | undefined,
): void {
  if (!campaign || campaign.length < 2) {
    figure.n = figure.samples.length > 0 && figure.samplesAre !== "clients" ? figure.samples.length : 1;
    figure.campaignBundleIds = [figure.bundleId];
    return;
  }
  // One pass over the runs, no intermediate arrays: this runs for every current figure read.
  const runs: number[] = [];
  const bundleIds: string[] = [];
  for (const [bundleId, value, samples, qualifier, samplesAre] of campaign) {
    // A campaign has a few bundles: a linear search dedupes them cheaper than a Set.
    if (!bundleIds.includes(bundleId)) bundleIds.push(bundleId);
    if (qualifier !== null) continue;
    if (samples.length === 0 || samplesAre === "clients") runs.push(value);
    else for (const s of samples) runs.push(s);
  }
  figure.campaignBundleIds = bundleIds;
  if (runs.length === 0) {
    figure.n = 1;
    return;
  }
  figure.samples = runs;
  figure.n = runs.length;
  figure.summaryStatistics = null;
  figure.samplesAre = null;
  figure.value = median(runs);
}

/**
 * What every view says of a current figure besides its value: how many runs its series' latest
 * campaign holds, which bundles they came from, and their distribution (null for a single run, whose
 * value is the figure itself). packages/db's figureSummarySchema is its output contract.
 */
export type FigureSummary = {
  n: number;
  campaignBundleIds: string[];
  distribution: Distribution | null;
};

/** A current figure's runs without their bundles: what a comparison shows (it links the figure's own bundle). */
export type RunsSummary = Omit<FigureSummary, "campaignBundleIds">;

/** A current figure's runs, from its `n` and `samples` (its runs). */
export function runsSummaryOf(figure: Pick<CampaignFigure, "n" | "samples">): RunsSummary {
  const distribution = figure.n > 1 ? distributionOf(figure.samples) : null;
  return { n: figure.n, distribution: distribution && distribution.n > 1 ? distribution : null };
}

/** A current figure's summary, from its `n`, `campaignBundleIds` and `samples` (its runs). */
export function summaryOf(figure: Pick<CampaignFigure, "n" | "campaignBundleIds" | "samples">): FigureSummary {
  const { n, distribution } = runsSummaryOf(figure);
  return { n, campaignBundleIds: [...figure.campaignBundleIds], distribution };
}

/** The figure's headline: the runs' median when there are several, else its value. */
export const headline = (figure: { value: number }, summary: RunsSummary): number =>
  summary.distribution?.median ?? figure.value;

/** The min–max whisker of a figure on its own scale; null for a single run. */
export const whiskerOf = (summary: RunsSummary): [number, number] | null =>
  summary.distribution ? [summary.distribution.min, summary.distribution.max] : null;

/**
 * How many runs a shown figure stands for: its campaign's, or, for one bundle that published summary
 * statistics of n runs instead of the runs (k8s-netperf), that n.
 */
export const runsShown = (figure: {
  summary: RunsSummary;
  summaryStatistics?: { n: number; of: "runs" | "clients" } | null;
}): number =>
  figure.summary.n === 1 && figure.summaryStatistics?.of === "runs" ? figure.summaryStatistics.n : figure.summary.n;
