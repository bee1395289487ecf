import { canonicalJson } from "@cnibench/schema";
import { resolveBetter } from "./better.ts";
import type { Better, Measurement, Params, ParamValue } from "./types.ts";

/**
 * Overhead of turning a feature on (NetworkPolicy l3l4/l7 vs none, Hubble on vs off), always from the
 * raw figures (docs/design.md: derived figures are never stored). Positive means the feature costs:
 * - better "higher" (RPS, throughput): (base − with) / base × 100;
 * - better "lower" (latency, CPU): (with − base) / base × 100;
 * - better "none": no overhead is defined → null. A base of 0 also gives null.
 */
export function overheadPercent(base: number, withFeature: number, better: Better = "higher"): number | null {
  if (better === "none" || base === 0) return null;
  const cost = better === "higher" ? base - withFeature : withFeature - base;
  return (cost / Math.abs(base)) * 100;
}

export type FeatureOverhead = {
  metric: string;
  /** The params the pair shares (everything but the feature param). */
  params: Params;
  variant: ParamValue;
  base: Measurement;
  with: Measurement;
  better: Better;
  overheadPercent: number | null;
  /** Either figure is approximate or bounded, so the overhead is too. */
  approximate: boolean;
};

/**
 * Pairs each measurement whose `param` is not `base` with the measurement of the same metric whose
 * params are equal except `param` = `base`, and computes its overhead. E.g. param "policy", base
 * "none" gives the l3l4 and l7 overheads; param "hubble", base "off" gives Hubble's. Measurements
 * without the param, or without a base to pair with, are left out. Two base figures for the same
 * pair are a caller error (the database's latest-figure query already picks one).
 */
export function featureOverheads(
  measurements: readonly Measurement[],
  options: { param: string; base: ParamValue },
): FeatureOverhead[] {
  const keyOf = (m: Measurement) => {
    const { [options.param]: _feature, ...rest } = m.params ?? {};
    return { rest, key: `${m.metric}\u0000${canonicalJson(rest)}` };
  };
  const bases = new Map<string, Measurement>();
  for (const m of measurements) {
    if (m.params?.[options.param] !== options.base) continue;
    const { key } = keyOf(m);
    if (bases.has(key)) throw new RangeError(`two base figures for ${key.replace("\u0000", " ")}`);
    bases.set(key, m);
  }
  const out: FeatureOverhead[] = [];
  for (const m of measurements) {
    const variant = m.params?.[options.param];
    if (variant === undefined || variant === options.base) continue;
    const { rest, key } = keyOf(m);
    const base = bases.get(key);
    if (!base) continue;
    const better = resolveBetter(m.metric, m.better ?? base.better);
    out.push({
      metric: m.metric,
      params: rest,
      variant,
      base,
      with: m,
      better,
      overheadPercent: overheadPercent(base.value, m.value, better),
      approximate: Boolean(m.qualifier || base.qualifier),
    });
  }
  return out;
}
