// UDP-heavy traffic: loss, with and without a bandwidth manager, beside the rate it was measured at.
import { formatFigure } from "@cnibench/format";
import { compareFigures } from "../../verdict.ts";
import { bestOf, handful, listWords, reason, restOf } from "../figures.ts";
import type { GuideFigure, GuideScenario } from "../types.ts";
import { figureCriterion, figureRange, paramsSelectors, selectedFigures, standing } from "./figure-criterion.ts";
import {
  addTo,
  type CriterionResult,
  capitalise,
  encryptedWords,
  encryptionOf,
  evidenceOf,
  finding,
  type GuideContext,
  optionScenarios,
  standingScenarios,
} from "./shared.ts";
import {
  podToPod,
  preferTest,
  referenceFigure,
  referenceName,
  sameTest,
  testWords,
  throughputShort,
} from "./throughput.ts";

/** UDP loss as the criterion compares it, like with like: one selector per params set, pod to pod. */
const lossSelectors = (ctx: GuideContext) =>
  paramsSelectors(ctx, {
    metric: "udp.loss",
    accept: podToPod,
    prefer: preferTest,
    title: (p) => `UDP loss${testWords(p) ? ` (${testWords(p)})` : ""}`,
  });

export function hasBandwidthManager(s: GuideScenario): boolean {
  return Object.entries(s.cni.settings).some(([k, v]) => /bandwidthmanager(\.enabled)?$/i.test(k) && v === true);
}

function settingsWords(s: GuideScenario): string {
  const on = Object.entries(s.cni.settings)
    .filter(([k, v]) => /bandwidthmanager|bbr/i.test(k) && v === true)
    .map(([k]) => k);
  return on.length > 0 ? on.join(", ") : "a bandwidth manager";
}

/** The rate a UDP loss was measured at: what arrived, else what was sent (EKS publishes only the sender's). */
const udpRateOf = (ctx: GuideContext, loss: GuideFigure): GuideFigure | undefined =>
  sameTest(ctx, loss, "udp.throughput") ?? sameTest(ctx, loss, "x.udp.throughput.sent");

const rateWords = (rate: GuideFigure) =>
  `${formatFigure(rate)}${rate.metric === "x.udp.throughput.sent" ? " sent" : " received"}`;

export function udpCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const result = figureCriterion(ctx, {
    key: "udp",
    weight,
    what: "UDP loss",
    selectors: lossSelectors(ctx),
    scenariosOf: ctx.encryption ? (o, t) => standingScenarios(ctx, o, t) : undefined,
    short: (table) => `${throughputShort(table.entries[0]!.figure.params, "udp")} loss`,
    describe: (e, t) => {
      const s = ctx.scenario(e.figure.scenarioId)!;
      const tp = udpRateOf(ctx, e.figure);
      const test = testWords(e.figure.params);
      const variant = encryptionOf(s) ? `, with ${encryptionOf(s)}` : "";
      return `UDP loss ${formatFigure(e.figure)}${tp ? ` at ${rateWords(tp)}` : ""}${test ? ` (${test})` : ""} on ${t.testbed.label} (${s.label}${variant}, ${hasBandwidthManager(s) ? `with ${settingsWords(s)}` : "no bandwidth manager"}), ${standing(e, t)}`;
    },
  });
  // Add the throughput beside each loss figure, since loss only means something at a rate.
  for (const table of result.tables) {
    for (const e of table.entries) {
      const tp = udpRateOf(ctx, e.figure);
      if (!tp) continue;
      result.reasons.set(
        e.option.id,
        (result.reasons.get(e.option.id) ?? []).map((r) =>
          r.evidence.some((x) => x.scenarioId === e.figure.scenarioId && x.metric === "udp.loss")
            ? { ...r, evidence: [...r.evidence, evidenceOf(ctx, tp)] }
            : r,
        ),
      );
    }
  }
  // Within one datapath and its variants (the same CNI, mode and Service proxy), scenarios with and
  // without a bandwidth manager: the setting to turn on, said on the option that runs it.
  for (const table of result.tables) {
    for (const option of ctx.options) {
      const siblings = ctx.options.filter((o) => o.baseId === option.baseId);
      const losses = siblings
        .flatMap((o) => optionScenarios(o, table.testbed))
        .flatMap((s) => selectedFigures(ctx, s.id, table.selector).map((f) => ({ s, f })));
      const on = bestOf(losses.filter((x) => hasBandwidthManager(x.s)).map((x) => x.f));
      const off = bestOf(losses.filter((x) => !hasBandwidthManager(x.s)).map((x) => x.f));
      if (!on || !off || !option.scenarios.some((s) => s.id === on.scenarioId)) continue;
      const sOn = ctx.scenario(on.scenarioId)!;
      const sOff = ctx.scenario(off.scenarioId)!;
      const helped = compareFigures(off, on).verdict === "better";
      addTo(
        result.reasons,
        option.id,
        reason(
          "measured",
          helped ? "for" : "neutral",
          `On this datapath the bandwidth manager is the difference: UDP loss ${formatFigure(off)} without it (${sOff.label}) and ${formatFigure(on)} with ${settingsWords(sOn)} (${sOn.label}) on ${table.testbed.label}${helped ? ": turn it on for UDP-heavy traffic" : ""}`,
          [evidenceOf(ctx, off), evidenceOf(ctx, on)],
        ),
      );
    }
  }
  for (const table of result.tables) {
    // The same test on every scenario of the testbed that stands for an option; the references apart.
    const scenarioLoss = ctx.options
      .flatMap((o) => (ctx.encryption ? standingScenarios(ctx, o, table.testbed) : optionScenarios(o, table.testbed)))
      .flatMap((s) => selectedFigures(ctx, s.id, table.selector).map((f) => ({ s, f })))
      .sort((a, b) => a.f.value - b.f.value);
    const withBwm = scenarioLoss.filter((x) => hasBandwidthManager(x.s));
    const without = scenarioLoss.filter((x) => !hasBandwidthManager(x.s));
    const span = (xs: typeof scenarioLoss) => figureRange(xs.map((x) => x.f));
    // A handful of names in all: up to two with a bandwidth manager when both kinds are there.
    const both = withBwm.length > 0 && without.length > 0;
    const atMostWith = both ? Math.min(withBwm.length, 2) : handful;
    const atMostWithout = handful - (both ? atMostWith : 0);
    // Each name with its loss (the range says a lone one's): an order alone reads as a ranking where
    // the values tie.
    const names = (xs: typeof scenarioLoss, atMost: number) =>
      listWords(
        xs.map((x) => (xs.length > 1 ? `${x.s.label} ${formatFigure(x.f)}` : x.s.label)),
        atMost,
      );
    const ref = scenarioLoss[0] && referenceFigure(ctx, table.testbed, scenarioLoss[0].f);
    const refText = ref
      ? ` ${capitalise(referenceName(ctx.scenario(ref.scenarioId)!))} loses ${formatFigure(ref)}.`
      : "";
    // Read from the encrypted setups alone, as the throughput summaries, it says so.
    const title = `${table.selector.title}${encryptedWords(
      ctx,
      scenarioLoss.map((x) => x.s),
    )}`;
    const text = both
      ? `${title} on ${table.testbed.label}: ${span(withBwm)} with a bandwidth manager (${names(withBwm, atMostWith)}) against ${span(without)} without (${names(without, atMostWithout)}). iperf3 sends UDP as fast as it can, so this is what happens when senders outrun receivers.`
      : withBwm.length === 0
        ? `${title} on ${table.testbed.label}: ${span(scenarioLoss)} (from the lowest: ${names(scenarioLoss, handful)}); none of these scenarios ran a bandwidth manager.`
        : `${title} on ${table.testbed.label}: ${span(scenarioLoss)}, every scenario with a bandwidth manager.`;
    const left = (
      both
        ? [...withBwm.slice(atMostWith), ...without.slice(atMostWithout)]
        : withBwm.length === 0
          ? scenarioLoss.slice(handful)
          : []
    ).map((x) => x.s);
    result.summary.push({
      ...finding(
        `${text}${refText}`,
        [...scenarioLoss.map((x) => x.f), ...(ref ? [ref] : [])].map((f) => evidenceOf(ctx, f)),
      ),
      rest: restOf(left, 0),
    });
  }
  return result;
}
