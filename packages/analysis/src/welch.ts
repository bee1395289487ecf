import tCdf from "@stdlib/stats-base-dists-t-cdf";
import { mean, sampleVariance } from "simple-statistics";

export type WelchTest = {
  /** (mean(x) − mean(y)) / standard error. */
  t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  df: number;
  /** Two-sided p-value. */
  p: number;
  meanX: number;
  meanY: number;
  varianceX: number;
  varianceY: number;
  nX: number;
  nY: number;
};

/**
 * Welch's unequal-variance t-test, two-sided. simple-statistics only ships Student's pooled-variance
 * test (tTestTwoSample), which assumes equal variances across two clusters — not something benchmark
 * rounds on different datapaths give us — so the statistic and the Welch–Satterthwaite df are written
 * out here; the p-value comes from @stdlib's Student t CDF.
 *
 * When both samples have zero variance (identical rounds) the standard error is 0: equal means give
 * t = 0 and p = 1, different means t = ±∞ and p = 0, and df falls back to nX + nY − 2.
 */
export function welchTTest(x: readonly number[], y: readonly number[]): WelchTest {
  if (x.length < 2 || y.length < 2) throw new RangeError("Welch's t-test needs at least 2 samples on each side");
  const nX = x.length;
  const nY = y.length;
  const meanX = mean([...x]);
  const meanY = mean([...y]);
  const varianceX = sampleVariance([...x]);
  const varianceY = sampleVariance([...y]);
  const seX = varianceX / nX;
  const seY = varianceY / nY;
  const se2 = seX + seY;
  const diff = meanX - meanY;
  if (se2 === 0) {
    const t = diff === 0 ? 0 : diff > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    return { t, df: nX + nY - 2, p: diff === 0 ? 1 : 0, meanX, meanY, varianceX, varianceY, nX, nY };
  }
  const t = diff / Math.sqrt(se2);
  const df = (se2 * se2) / ((seX * seX) / (nX - 1) + (seY * seY) / (nY - 1));
  // 2·F(−|t|) rather than 2·(1 − F(|t|)): the lower tail keeps its precision for large |t|.
  const p = Math.min(1, 2 * tCdf(-Math.abs(t), df));
  return { t, df, p, meanX, meanY, varianceX, varianceY, nX, nY };
}
