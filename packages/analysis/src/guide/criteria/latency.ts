// Latency-sensitive traffic: round trips compared across the datapaths, and what tuning a datapath's
// settings gained where a scenario measured both sides.

import { formatFigure, formatPercent } from "@cnibench/format";
import { paramsKey } from "../../params-key.ts";
import { compareFigures } from "../../verdict.ts";
import { paramsMatch, reason } from "../figures.ts";
import type { GuideScenario } from "../types.ts";
import {
  type FigureSelector,
  figureCriterion,
  noServiceLoad,
  rangeText,
  realisticLatency,
  standing,
} from "./figure-criterion.ts";
import {
  addTo,
  type CriterionResult,
  capitalise,
  evidenceOf,
  finding,
  type GuideContext,
  levelTie,
  optionScenarios,
  wordsOf,
} from "./shared.ts";

const latencySelectors: FigureSelector[] = [
  {
    title: "pod-to-pod RTT",
    metric: "pod.rtt",
    select: (f) => f.metric === "pod.rtt" && f.params.services === undefined,
  },
  {
    title: "TCP_RR p99 latency",
    metric: "tcp.rr.latency",
    select: (f) => f.metric === "tcp.rr.latency" && paramsMatch(f.params, { percentile: "p99" }, noServiceLoad),
  },
  realisticLatency,
];

const tuningMetrics: FigureSelector[] = [
  { title: "pod-to-pod RTT", metric: "pod.rtt", select: (f) => f.metric === "pod.rtt" },
  { title: "TCP_RR latency", metric: "tcp.rr.latency", select: (f) => f.metric === "tcp.rr.latency" },
  { title: "TCP_RR rate", metric: "tcp.rr.rate", select: (f) => f.metric === "tcp.rr.rate" },
  realisticLatency,
];

function settingsDiff(base: GuideScenario, tuned: GuideScenario): string {
  const keys = [...new Set([...Object.keys(base.cni.settings), ...Object.keys(tuned.cni.settings)])];
  const changed = keys
    .filter((k) => base.cni.settings[k] !== tuned.cni.settings[k] && tuned.cni.settings[k] !== undefined)
    .map((k) => {
      const v = tuned.cni.settings[k];
      const parts = k.replace(/\.enabled$/, "").split(".");
      const short = parts.length > 2 ? parts.at(-1)! : parts.join(".");
      return v === true ? short : `${short}=${String(v)}`;
    });
  const shown = changed.slice(0, 4).join(", ");
  return changed.length > 4 ? `${shown} and ${changed.length - 4} more` : shown;
}

export function latencyCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const result = figureCriterion(ctx, {
    key: "latency",
    weight,
    what: "round-trip latency",
    selectors: latencySelectors,
    describe: (e, t) =>
      `${capitalise(t.selector.title)}: ${formatFigure(e.figure)} on ${t.testbed.label} (${ctx.scenario(e.figure.scenarioId)?.label}), ${standing(e, t)}`,
  });
  for (const table of result.tables) {
    const level = wordsOf(levelTie(table.entries));
    result.summary.push(
      finding(
        `${capitalise(table.selector.title)} on ${table.testbed.label}: ${rangeText(table.entries)} across ${table.entries.length} datapaths${level ? `, ${level}` : ""}.`,
        table.entries.map((e) => evidenceOf(ctx, e.figure)),
      ),
    );
  }
  // Tuning: two scenarios of one datapath on one testbed that differ only in settings.
  const testbeds = [...ctx.scopedTestbeds];
  for (const option of ctx.options) {
    for (const t of testbeds) {
      const here = optionScenarios(option, t);
      for (const tuned of here) {
        for (const base of here) {
          if (base === tuned || !isBaseOf(base, tuned)) continue;
          for (const m of tuningMetrics) {
            const pairs = ctx.figuresOf(tuned.id, m.metric).flatMap((tf) => {
              if (!m.select(tf)) return [];
              const bf = ctx.figuresOf(base.id, tf.metric).find((f) => paramsKey(f.params) === paramsKey(tf.params));
              return bf ? [{ bf, tf }] : [];
            });
            const pair = pairs[0];
            if (!pair) continue;
            const verdict = compareFigures(pair.bf, pair.tf);
            const d = verdict.delta?.percent ?? 0;
            const text = `Tuning measured on ${t.label}: ${settingsDiff(base, tuned)} took ${m.title} from ${formatFigure(pair.bf)} to ${formatFigure(pair.tf)} (${formatPercent(d)}; ${tuned.label} against ${base.label})`;
            addTo(
              result.reasons,
              option.id,
              reason("measured", verdict.verdict === "better" ? "for" : "neutral", text, [
                evidenceOf(ctx, pair.bf),
                evidenceOf(ctx, pair.tf),
              ]),
            );
          }
        }
      }
    }
  }
  return result;
}

/** `base` is the untuned side of a pair: fewer settings, or the same ones with a feature off. */
function isBaseOf(base: GuideScenario, tuned: GuideScenario): boolean {
  const b = Object.keys(base.cni.settings).length;
  const t = Object.keys(tuned.cni.settings).length;
  if (b !== t) return b < t;
  const off = (s: GuideScenario) => Object.values(s.cni.settings).filter((v) => v === false).length;
  return off(base) > off(tuned);
}
