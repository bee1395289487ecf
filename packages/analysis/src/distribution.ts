import { mean, median, sampleStandardDeviation } from "simple-statistics";

/**
 * What a figure's runs say together: the latest campaign of a series (docs/design.md, "series and
 * campaigns"). `sd` is the sample standard deviation (n − 1), null below two runs; `cv` is sd / |mean|,
 * null when the mean is 0. The same runs give the same summary whether they came as one bundle's
 * rounds or as several bundles of one campaign.
 */
export type Distribution = {
  n: number;
  median: number;
  mean: number;
  min: number;
  max: number;
  sd: number | null;
  cv: number | null;
};

/** The distribution of a series' runs; null for none. */
export function distributionOf(runs: readonly number[]): Distribution | null {
  const finite = runs.filter(Number.isFinite);
  if (finite.length === 0) return null;
  const m = mean(finite);
  const sd = finite.length >= 2 ? sampleStandardDeviation(finite) : null;
  return {
    n: finite.length,
    median: median(finite),
    mean: m,
    min: Math.min(...finite),
    max: Math.max(...finite),
    sd,
    cv: sd === null || m === 0 ? null : sd / Math.abs(m),
  };
}
