// UDP-heavy traffic: loss, with and without a bandwidth manager, beside the rate it was measured at.
import { formatFigure } from "../../format.ts";
import { paramsKey } from "../../params-key.ts";
import { compareFigures } from "../../verdict.ts";
import { bestOf, listWords, reason } from "../figures.ts";
import type { GuideFigure, GuideScenario } from "../types.ts";
import { figureCriterion, figureRange, standing } from "./figure-criterion.ts";
import { addTo, type CriterionResult, evidenceOf, finding, type GuideContext, optionScenarios } from "./shared.ts";

// UDP loss as the criterion compares it: not a step of a Service-count series.
const isUdpLoss = (f: GuideFigure) => f.metric === "udp.loss" && f.params.services === undefined;

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
function udpRateOf(ctx: GuideContext, loss: GuideFigure): GuideFigure | undefined {
  const figures = ctx.figuresOf(loss.scenarioId).filter((g) => paramsKey(g.params) === paramsKey(loss.params));
  return (
    figures.find((g) => g.metric === "udp.throughput") ?? figures.find((g) => g.metric === "x.udp.throughput.sent")
  );
}

const rateWords = (rate: GuideFigure) =>
  `${formatFigure(rate)}${rate.metric === "x.udp.throughput.sent" ? " sent" : " received"}`;

export function udpCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const result = figureCriterion(ctx, {
    key: "udp",
    weight,
    what: "UDP loss",
    selectors: [{ title: "UDP loss", select: isUdpLoss }],
    describe: (e, t) => {
      const s = ctx.scenario(e.figure.scenarioId)!;
      const tp = udpRateOf(ctx, e.figure);
      return `UDP loss ${formatFigure(e.figure)}${tp ? ` at ${rateWords(tp)}` : ""} on ${t.testbed.label} (${s.label}, ${hasBandwidthManager(s) ? `with ${settingsWords(s)}` : "no bandwidth manager"}), ${standing(e, t)}`;
    },
  });
  // Add the throughput beside each loss figure, since loss only means something at a rate.
  for (const [id, reasons] of result.reasons) {
    result.reasons.set(
      id,
      reasons.map((r) => {
        const loss = r.evidence.find((e) => e.metric === "udp.loss");
        const lossFigure = loss && ctx.figuresOf(loss.scenarioId).find((g) => g.metric === "udp.loss");
        const tp = lossFigure && udpRateOf(ctx, lossFigure);
        return tp ? { ...r, evidence: [...r.evidence, evidenceOf(ctx, tp)] } : r;
      }),
    );
  }
  // Within one datapath, scenarios with and without a bandwidth manager: the setting to turn on.
  for (const table of result.tables) {
    for (const option of ctx.options) {
      const losses = optionScenarios(option, table.testbed).flatMap((s) =>
        ctx.figuresOf(s.id).flatMap((f) => (table.selector.select(f) ? [{ s, f }] : [])),
      );
      const on = bestOf(losses.filter((x) => hasBandwidthManager(x.s)).map((x) => x.f));
      const off = bestOf(losses.filter((x) => !hasBandwidthManager(x.s)).map((x) => x.f));
      if (!on || !off) continue;
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
    const scenarioLoss = table.testbed.scenarios.flatMap((s) =>
      ctx.figuresOf(s.id).flatMap((f) => (isUdpLoss(f) ? [{ s, f }] : [])),
    );
    const withBwm = scenarioLoss.filter((x) => hasBandwidthManager(x.s));
    const without = scenarioLoss.filter((x) => !hasBandwidthManager(x.s));
    const span = (xs: typeof scenarioLoss) => figureRange(xs.map((x) => x.f));
    const names = (xs: typeof scenarioLoss) => listWords(xs.map((x) => x.s.label));
    const text =
      withBwm.length > 0 && without.length > 0
        ? `UDP loss on ${table.testbed.label}: ${span(withBwm)} with a bandwidth manager (${names(withBwm)}) against ${span(without)} without (${names(without)}). iperf3 sends UDP as fast as it can, so this is what happens when senders outrun receivers.`
        : withBwm.length === 0
          ? `UDP loss on ${table.testbed.label}: ${span(scenarioLoss)} (${names(scenarioLoss)}); none of these scenarios ran a bandwidth manager.`
          : `UDP loss on ${table.testbed.label}: ${span(scenarioLoss)}, every scenario with a bandwidth manager.`;
    result.summary.push(
      finding(
        text,
        scenarioLoss.map((x) => evidenceOf(ctx, x.f)),
      ),
    );
  }
  return result;
}
