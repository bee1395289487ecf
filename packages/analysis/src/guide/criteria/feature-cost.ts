// Feature costs: what L7 policy and flow observability cost in RPS where they were measured, from
// pairs of figures with the feature off and on.
import { formatFigure, formatParams, formatPercent } from "@cnibench/format";
import { featureOverheads } from "../../overhead.ts";
import { listWords, reason } from "../figures.ts";
import type { DatapathOption } from "../options.ts";
import type { GuideFigure, GuideScenario, Reason } from "../types.ts";
import { addTo, changePercent, evidenceOf, type GuideContext, inTestbed } from "./shared.ts";

const featureNames: Record<string, Record<string, string>> = {
  policy: { l3l4: "L3/L4 policy", l7: "L7 policy" },
  hubble: { on: "Hubble flow observability" },
};

const featureName = (param: string, variant: string) => featureNames[param]?.[variant] ?? `${param} ${variant}`;

export type FeatureCost = { reasons: Map<string, Reason[]>; summary: Reason[] };

/** One measured pair: the feature off (`base`) and on (`with`), all else equal. */
type Cost = ReturnType<typeof featureOverheads>[number];

const costPercent = (o: Cost) => changePercent(o.with.value, o.base.value);

const costEvidence = (ctx: GuideContext, o: Cost) => [o.base, o.with].map((f) => evidenceOf(ctx, f as GuideFigure));

/**
 * What a feature cost where it was measured (featureOverheads: policy none vs l3l4/l7, Hubble off vs
 * on, all else equal). An option without its own pair borrows one measured with the same CNI
 * (the feature's implementation), and says where it was measured.
 */
export function featureCost(
  ctx: GuideContext,
  spec: { param: "policy" | "hubble"; base: string; offers: (option: DatapathOption) => boolean },
): FeatureCost {
  const out: FeatureCost = { reasons: new Map(), summary: [] };
  const scopedIds = new Set(ctx.scopedTestbeds.flatMap((t) => t.scenarios.map((s) => s.id)));
  const allScenarios = ctx.allTestbeds.flatMap((t) => t.scenarios);
  const costsOf = (s: GuideScenario) =>
    featureOverheads(ctx.figuresOf(s.id, "http.rps"), { param: spec.param, base: spec.base }).filter(
      (o) => o.overheadPercent !== null,
    );
  const describe = (s: GuideScenario, o: Cost, where: string) => {
    const name = featureName(spec.param, String(o.variant));
    const d = costPercent(o);
    return `${name}: ${formatPercent(d)} RPS on the pods it applies to (${formatFigure(o.base)} → ${formatFigure(o.with)}, ${formatParams(o.params, { omit: ["connection"] })}; ${s.label} on ${where})`;
  };
  const seen = new Map<string, Reason>();
  for (const option of ctx.options) {
    if (!spec.offers(option)) continue;
    const own = option.scenarios.filter((s) => costsOf(s).length > 0);
    const ownScoped = own.filter((s) => scopedIds.has(s.id));
    const chosen =
      ownScoped.length > 0
        ? ownScoped
        : own.length > 0
          ? own
          : allScenarios.filter((s) => s.cni.name === option.cni && costsOf(s).length > 0);
    for (const s of chosen) {
      const where = scopedIds.has(s.id)
        ? testbedLabel(ctx, s)
        : `${testbedLabel(ctx, s)}, measured outside your scope${own.includes(s) ? "" : ` with the same CNI (${option.cni})`}`;
      for (const o of costsOf(s)) {
        const effect = String(o.variant) === "l7" ? "against" : "neutral";
        const r = reason("measured", effect, describe(s, o, where), costEvidence(ctx, o));
        addTo(out.reasons, option.id, r);
        seen.set(`${s.id} ${String(o.variant)}`, r);
      }
    }
  }
  // Summary: every pair seen, grouped by variant.
  const byVariant = new Map<string, { s: GuideScenario; o: Cost }[]>();
  for (const s of allScenarios) {
    for (const o of costsOf(s)) {
      if (!seen.has(`${s.id} ${String(o.variant)}`)) continue;
      const v = String(o.variant);
      byVariant.set(v, [...(byVariant.get(v) ?? []), { s, o }]);
    }
  }
  for (const [variant, list] of byVariant) {
    const name = featureName(spec.param, variant);
    const parts = list.map(({ s, o }) => `${formatPercent(costPercent(o))} (${s.label}, ${testbedLabel(ctx, s)})`);
    const l7 = variant === "l7";
    const text = l7
      ? `${name} is a performance cliff where it applies: RPS on the policed pods changed ${listWords(parts)}, because matching traffic is redirected through a per-node proxy. Put L7 rules only on the pods that need them.`
      : `${name} cost ${listWords(parts)} in RPS.`;
    out.summary.push(
      reason(
        "measured",
        l7 ? "against" : "neutral",
        text,
        list.flatMap(({ o }) => costEvidence(ctx, o)),
      ),
    );
  }
  return out;
}

/** The label of the testbed a scenario is on; its cloud when none is known. */
function testbedLabel(ctx: GuideContext, s: GuideScenario): string {
  return [...ctx.allTestbeds].find((t) => inTestbed(t, s.id))?.label ?? s.provider;
}
