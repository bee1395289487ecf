// Keepalive connections: p99 latency at a realistic rate where measured, else saturated RPS; the
// saturated gap always, as information; and how RPS moved with the Service count.
import { formatCount, formatFigure, formatParams, formatPercent } from "@cnibench/format";
import type { Params } from "../../types.ts";
import { compareFigures, noClearDifference } from "../../verdict.ts";
import { listWords, type Testbed, tieWords, weakestTie, withRest } from "../figures.ts";
import type { Reason } from "../types.ts";
import {
  type FigureSelector,
  figureCriterion,
  noServiceLoad,
  paramsSelectors,
  rangeText,
  realisticLatency,
  standing,
} from "./figure-criterion.ts";
import {
  addTo,
  type CriterionResult,
  changePercent,
  evidenceOf,
  finding,
  type GuideContext,
  levelTie,
  servicesOf,
} from "./shared.ts";

/** A keepalive figure's params, less the connection the sentence names: "concurrency 64 · target service". */
const keepaliveParams = (params: Params) => formatParams(params, { omit: ["connection"] });

/** Saturated keepalive RPS: the params set most options share, via Service and at the lowest concurrency first. */
const saturationSelectors = (ctx: GuideContext): FigureSelector[] =>
  paramsSelectors(ctx, {
    metric: "http.rps",
    accept: (p) => p.connection === "keepalive" && noServiceLoad.every((k) => p[k] === undefined),
    prefer: (a, b) =>
      Number(b.target === "service") - Number(a.target === "service") ||
      Number(a.concurrency ?? 0) - Number(b.concurrency ?? 0),
    title: (p) => `saturated keepalive RPS (${keepaliveParams(p)})`,
  });

/**
 * Keepalive traffic: compared by p99 latency at a realistic 1,000 QPS where measured (the figure
 * the seed sources hold up as what applications feel), else by saturated keepalive RPS. The
 * saturated gap is always reported, as information. Whether RPS moves with the Service count is
 * reported where a scenario measured it.
 */
export function keepaliveCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const latency = figureCriterion(ctx, {
    key: "keepalive",
    weight,
    what: "p99 HTTP latency at 1,000 QPS",
    selectors: [realisticLatency],
    describe: (e, t) =>
      `p99 HTTP latency at 1,000 QPS: ${formatFigure(e.figure)} on ${t.testbed.label}, ${standing(e, t)}`,
  });
  const saturation = figureCriterion(ctx, {
    key: "keepalive",
    weight,
    what: "saturated keepalive RPS",
    selectors: saturationSelectors(ctx),
    describe: (e, t) =>
      `Keepalive RPS at CPU saturation (${keepaliveParams(e.figure.params)}): ${formatFigure(e.figure)} on ${t.testbed.label}, ${standing(e, t)}`,
  });
  const primary = latency.measured ? latency : saturation;
  const result: CriterionResult = {
    ...primary,
    reasons: new Map(),
    summary: [],
    caveats: primary === saturation ? [...latency.caveats, ...saturation.caveats] : [...latency.caveats],
  };

  for (const table of latency.tables) {
    const ev = table.entries.map((e) => evidenceOf(ctx, e.figure));
    const tie = levelTie(table.entries);
    const range = `${rangeText(table.entries)} across ${table.entries.length} datapaths`;
    result.summary.push(
      finding(
        // Inconclusive runs do not show that the datapath barely matters, only that these runs cannot tell.
        tie && tie.verdict !== "inconclusive"
          ? `With keepalive connections the datapath barely matters for performance on ${table.testbed.label}: p99 HTTP latency at a realistic 1,000 QPS is ${range}, ${tieWords(tie)}.`
          : tie
            ? `With keepalive connections, p99 HTTP latency at a realistic 1,000 QPS on ${table.testbed.label} is ${range}, ${tieWords(tie)}.`
            : `With keepalive connections, p99 HTTP latency at 1,000 QPS on ${table.testbed.label} ranges ${range}, some clearly apart.`,
        ev,
      ),
    );
  }
  // The saturated gap, as information (or as the criterion when no latency was measured).
  for (const table of saturation.tables) {
    const sorted = [...table.entries].sort((a, b) => b.figure.value - a.figure.value);
    const top = sorted[0]!;
    const bottom = sorted.at(-1)!;
    const gap = changePercent(top.figure.value, bottom.figure.value);
    const verdict = compareFigures(top.figure, bottom.figure);
    const context = latency.measured
      ? " Only a CPU-saturating benchmark shows it; at 1,000 QPS the latency comparison above is what applications feel."
      : "";
    result.summary.push(
      finding(
        noClearDifference(verdict.verdict)
          ? `Saturated keepalive RPS on ${table.testbed.label} (${keepaliveParams(top.figure.params)}) across the datapaths: ${rangeText(table.entries)}, ${tieWords(verdict)}.`
          : `At CPU saturation ${top.option.label} leads keepalive RPS on ${table.testbed.label} by ${formatPercent(gap, 1, false)} over ${bottom.option.label} (${formatFigure(top.figure)} vs ${formatFigure(bottom.figure)}, ${keepaliveParams(top.figure.params)}).${context}`,
        table.entries.map((e) => evidenceOf(ctx, e.figure)),
      ),
    );
  }
  // Per-option reasons: the deciding figure, then the saturated one as information.
  for (const option of ctx.options) {
    for (const r of latency.reasons.get(option.id) ?? []) addTo(result.reasons, option.id, r);
    for (const r of saturation.reasons.get(option.id) ?? []) {
      if (r.kind === "caveat" && latency.measured) continue;
      addTo(result.reasons, option.id, primary === saturation ? r : { ...r, effect: "neutral" });
    }
  }
  // Another testbed's only where the criterion itself reads another testbed's (the closest evidence).
  const sensitivity = keepaliveServiceSensitivity(ctx, result.closest);
  result.summary.push(...sensitivity);
  return result;
}

/**
 * Where scenarios measured keepalive RPS at several Service counts: how much it moved up to n, one
 * sentence per testbed and outcome. A sentence per setup said one fact once per datapath: twenty
 * setups that all hardly move read as twenty findings.
 */
function keepaliveServiceSensitivity(ctx: GuideContext, elsewhere: boolean): Reason[] {
  const n = ctx.answers.services;
  const measure = (testbeds: readonly Testbed[]) =>
    testbeds.flatMap((t) =>
      t.scenarios.flatMap((s) => {
        const figs = ctx
          .figuresOf(s.id, "http.rps")
          .filter((f) => f.params.connection === "keepalive" && typeof f.params.services === "number")
          .sort((a, b) => servicesOf(a) - servicesOf(b));
        if (figs.length < 2) return [];
        const base = figs[0]!;
        const upTo = figs.filter((f) => servicesOf(f) <= n);
        const target = upTo.length >= 2 ? upTo.at(-1)! : figs[1]!;
        const verdict = compareFigures(base, target);
        const moves = !noClearDifference(verdict.verdict)
          ? "moves"
          : verdict.verdict === "inconclusive"
            ? "may move"
            : "hardly moves";
        return [{ t, s, base, target, verdict, moves }];
      }),
    );
  const scoped = measure(ctx.scopedTestbeds);
  const found = scoped.length > 0 || !elsewhere ? scoped : measure(ctx.allTestbeds);
  const groups = new Map<string, typeof found>();
  for (const m of found) {
    const key = `${m.t.label}\u0000${m.moves}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [(typeof group)[number]];
    const { t, moves } = first;
    const where = scoped.length > 0 ? t.label : `${t.label} (not your cloud or instance type)`;
    // "→" in a list of several: its own "and" joins the datapaths.
    const steps = ({ base, target }: (typeof group)[number], to = "and") =>
      `${formatFigure(base)} at ${formatCount(servicesOf(base))} ${to} ${formatFigure(target)} at ${formatCount(servicesOf(target))} Services`;
    const change = ({ base, target }: (typeof group)[number]) => formatPercent(changePercent(target.value, base.value));
    const tie = weakestTie(group.map((m) => m.verdict));
    const tied = tie ? `, ${tieWords(tie)}` : "";
    const evidence = group.flatMap((m) => [evidenceOf(ctx, m.base), evidenceOf(ctx, m.target)]);
    if (group.length === 1) {
      return finding(
        `Keepalive RPS ${moves} with the Service count: ${steps(first)} (${change(first)}${tied}), ${first.s.label} on ${where}.`,
        evidence,
      );
    }
    const each = group.map((m) => `${m.s.label} ${steps(m, "→")} (${change(m)})`);
    return withRest(
      finding(
        `Keepalive RPS ${moves} with the Service count for ${group.length} datapaths on ${where}: ${listWords(each)}${tied}.`,
        evidence,
      ),
      group.map((m) => m.s),
    );
  });
}
