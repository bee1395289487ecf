import { mean, sampleStandardDeviation } from "simple-statistics";

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

/**
 * The middle value of the runs, the mean of the two middle ones for an even count: what every layer
 * calls a figure's median (the database's current figures, the gate, the lab). A typed array sorts
 * numbers natively, without a comparator call per pair: packages/db runs it for every figure it reads.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of no values");
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

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
