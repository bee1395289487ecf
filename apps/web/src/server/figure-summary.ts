// What every view says of a current figure besides its value: how many runs its series' latest
// campaign holds, which bundles they came from, and their distribution. Declared once here; every
// router's output schema reuses it.
import { distributionOf } from "@cnibench/analysis";
import { z } from "zod";

export const figureSummarySchema = z.object({
  /** Runs in the series' latest campaign (a bundle's rounds, or its value). */
  n: z.number().int().min(1),
  /** The campaign's bundles, newest first. */
  campaignBundleIds: z.array(z.string()),
  /** The runs' distribution; null for a single run, whose value is the figure itself. */
  distribution: z
    .object({
      n: z.number().int(),
      median: z.number(),
      mean: z.number(),
      min: z.number(),
      max: z.number(),
      sd: z.number().nullable(),
      cv: z.number().nullable(),
    })
    .nullable(),
});

export type FigureSummary = z.infer<typeof figureSummarySchema>;

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
