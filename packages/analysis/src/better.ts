import { findMetric } from "@cnibench/schema";
import type { Better } from "./types.ts";

/**
 * The better-direction of a metric: what the figure declares, else the catalogue's, else "none"
 * (an undeclared `x.…` metric has no winner rather than a guessed one).
 */
export function resolveBetter(metric: string, declared?: Better | null): Better {
  return declared ?? findMetric(metric)?.better ?? "none";
}
