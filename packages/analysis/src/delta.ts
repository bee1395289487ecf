import type { Delta } from "./types.ts";

/**
 * Change of `candidate` against `baseline`. The percent divides by |baseline| so its sign always
 * follows the direction of the change, also for negative baselines.
 */
export function percentDelta(candidate: number, baseline: number): Delta {
  const absolute = candidate - baseline;
  return { absolute, percent: baseline === 0 ? null : (absolute * 100) / Math.abs(baseline) };
}
