// The measured criteria of the guide: each reads the current figures of the scenarios in scope,
// places every datapath option between the worst (0) and the best (1), and says why, with the
// figures it used. Comparisons are made within one testbed (cloud + instance type) only.
// One file per criterion; shared.ts and figure-criterion.ts hold what they share.
import type { CapabilityKey } from "../capabilities.ts";
import type { DatapathOption } from "../options.ts";
import { efficiencyCriterion } from "./efficiency.ts";
import { encryptionCriterion } from "./encryption.ts";
import { type FeatureCost, featureCost } from "./feature-cost.ts";
import { keepaliveCriterion } from "./keepalive.ts";
import { latencyCriterion } from "./latency.ts";
import { serviceScaleCriterion } from "./service-scale.ts";
import type { CriterionResult, GuideContext } from "./shared.ts";
import { throughputCriterion } from "./throughput.ts";
import { udpCriterion } from "./udp.ts";

export type { FeatureCost } from "./feature-cost.ts";
export { lineValueAt } from "./service-lines.ts";
export { type CriterionResult, encryptionOf, type GuideContext, isReference } from "./shared.ts";
export { hasBandwidthManager } from "./udp.ts";

/**
 * The criteria the answers call for, in the order the guide reads them: the traffic first (weight 2),
 * then the cost of encryption, TCP throughput and the other needs (weight 1), then CPU per Gbit/s
 * moved (weight 1). Keepalive is
 * always measured: with mixed traffic its findings follow as information. TCP throughput and
 * efficiency are read for every answer and say nothing where nothing was measured. Feature costs are
 * not scored, only said, for the options that offer the feature.
 */
export function measuredCriteria(
  ctx: GuideContext,
  offers: (option: DatapathOption, key: CapabilityKey) => boolean,
): {
  criteria: CriterionResult[];
  /** The traffic's own criterion, first of `criteria`. */
  traffic: CriterionResult;
  keepalive: CriterionResult | null;
  costs: FeatureCost[];
} {
  const { connections, needs } = ctx.answers;
  // Keepalive figures rank keepalive traffic and are information beside mixed traffic's ranking
  // (`keepalive`, unweighted). Short traffic never reads them: a sixth of its ranking went on them.
  const traffic = connections === "keepalive" ? keepaliveCriterion(ctx, 2) : serviceScaleCriterion(ctx, 2);
  const criteria: CriterionResult[] = [traffic];
  const keepalive = connections === "mixed" ? keepaliveCriterion(ctx, 0) : null;
  // What encryption costs leads the needs: it decides more than any other figure where it is asked for.
  if (needs.includes("encryptionInTransit")) criteria.push(encryptionCriterion(ctx, 1));
  criteria.push(throughputCriterion(ctx, 1, "tcp"));
  if (needs.includes("udpHeavy")) criteria.push(throughputCriterion(ctx, 1, "udp"), udpCriterion(ctx, 1));
  if (needs.includes("latencySensitive")) criteria.push(latencyCriterion(ctx, 1));
  criteria.push(efficiencyCriterion(ctx, 1));
  const costs = [
    ...(needs.includes("l7Policy")
      ? [featureCost(ctx, { param: "policy", base: "none", offers: (o) => offers(o, "l7_http_policy") })]
      : []),
    ...(needs.includes("flowObservability")
      ? [featureCost(ctx, { param: "hubble", base: "off", offers: (o) => offers(o, "flow_observability") })]
      : []),
  ];
  return { criteria, traffic, keepalive, costs };
}
