import { findMetric } from "@cnibench/schema";

/**
 * The practical margin δ of a metric's verdicts, in ± % of the baseline: an override (a compare
 * page's `margin=` parameters), else the catalogue's `margin` (where the defaults and their reasons
 * live), else `fallbackMarginPercent` for metrics outside the catalogue (x.… metrics). Metrics with
 * better "none" (counts such as iptables.rules) never reach a margin: they have no winner.
 */
export const fallbackMarginPercent = 10;

export function marginPercent(metric: string, overrides?: Readonly<Record<string, number>>): number {
  return overrides?.[metric] ?? findMetric(metric)?.margin ?? fallbackMarginPercent;
}
