/**
 * Doubtful figures (docs/design.md, "What a figure means"): possible, but worth a look, so they are
 * stored with a warning instead of refused. Impossible ones are refused by the contract (bundle.ts).
 */

import type { BundleWarning } from "./bundle.ts";
import type { NormalisedBundle } from "./normalise.ts";
import { canConvert, convertValue } from "./units.ts";

/** Published line rates are round numbers and tools count headers differently: 2 % passes as rounding. */
const ROUNDING = 1.02;

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

function isThroughput(metric: string): boolean {
  return metric === "tcp.throughput" || metric === "udp.throughput" || /^x\..*throughput/.test(metric);
}

/**
 * A throughput above the NIC line rate the bundle states (node.nicGbps): its value, bound or largest
 * round, named beside the line rate. Traffic between pods of one node (sameNode) never crosses the NIC.
 */
export function lineRateWarnings(bundle: NormalisedBundle): BundleWarning[] {
  const nicGbps = bundle.node.nicGbps;
  if (nicGbps === null) return [];
  const warnings: BundleWarning[] = [];
  for (const m of bundle.measurements) {
    if (!isThroughput(m.metric) || m.params.sameNode === true || !canConvert(m.unit, "Gbit/s")) continue;
    const peak = convertValue(Math.max(m.value, m.high ?? m.value, ...m.samples), m.unit, "Gbit/s");
    if (peak > nicGbps * ROUNDING) {
      const path = `results[${m.position}]`;
      warnings.push({
        path,
        message: `${m.metric} ${grouped.format(peak)} Gbit/s is above the NIC line rate of ${grouped.format(nicGbps)} Gbit/s (node.nicGbps)`,
      });
    }
  }
  return warnings;
}
