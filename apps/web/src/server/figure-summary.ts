// What every view says of a current figure besides its value: how many runs its series' latest
// campaign holds, which bundles they came from, and their distribution; computed here.
import { distributionOf } from "@cnibench/analysis";
import { type FigureSummary, figureSummarySchema } from "@cnibench/db/read-models";

// The schema is declared with the other read models (@cnibench/db/read-models).
export { type FigureSummary, figureSummarySchema };

/** A current figure's summary, from latestFigures' `n`, `campaignBundleIds` and `samples` (its runs). */
export function summaryOf(figure: {
  n: number;
  campaignBundleIds: readonly string[];
  samples: readonly number[];
}): FigureSummary {
  const distribution = figure.n > 1 ? distributionOf(figure.samples) : null;
  return {
    n: figure.n,
    campaignBundleIds: [...figure.campaignBundleIds],
    distribution: distribution && distribution.n > 1 ? distribution : null,
  };
}

/** The figure's headline: the runs' median when there are several, else its value. */
export const headline = (figure: { value: number }, summary: FigureSummary): number =>
  summary.distribution?.median ?? figure.value;

/** The min–max whisker of a figure on its own scale; null for a single run. */
export const whiskerOf = (summary: FigureSummary): [number, number] | null =>
  summary.distribution ? [summary.distribution.min, summary.distribution.max] : null;

/**
 * How many runs a shown figure stands for: its campaign's, or, for one bundle that published summary
 * statistics of n runs instead of the runs (k8s-netperf), that n.
 */
export const runsShown = (figure: {
  summary: FigureSummary;
  summaryStatistics?: { n: number; of: "runs" | "clients" } | null;
}): number =>
  figure.summary.n === 1 && figure.summaryStatistics?.of === "runs" ? figure.summaryStatistics.n : figure.summary.n;
