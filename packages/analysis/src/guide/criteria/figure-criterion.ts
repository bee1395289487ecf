// The form of criterion most of them take: one figure per option, compared on a testbed. The
// keepalive, UDP and latency criteria are built on it.
import { resolveBetter } from "../../better.ts";
import { percentDelta } from "../../delta.ts";
import { formatFigure, formatNumber, formatPercent } from "../../format.ts";
import type { Better } from "../../types.ts";
import type { VerdictResult } from "../../verdict.ts";
import { bestOf, listWords, paramsMatch, reason, scoreAgainstBest, type Testbed, weakestTie } from "../figures.ts";
import type { DatapathOption } from "../options.ts";
import type { GuideFigure, Reason } from "../types.ts";
import {
  addTo,
  type CriterionResult,
  capitalise,
  caveat,
  emptyCriterion,
  evidenceOf,
  type GuideContext,
  levelTie,
  optionScenarios,
  scoreEffect,
  wordsOf,
} from "./shared.ts";

export type FigureSelector = {
  /** What the figure is, in words: "p99 latency at 1,000 QPS". */
  title: string;
  select: (f: GuideFigure) => boolean;
};

export type FigureEntry = {
  option: DatapathOption;
  figure: GuideFigure;
  score: number;
  levelWithBest: boolean;
  versusBest: VerdictResult | null;
};
export type FigureTable = { testbed: Testbed; selector: FigureSelector; better: Better; entries: FigureEntry[] };

// Params that put extra load or features on a figure: what a baseline comparison leaves out.
export const noServiceLoad = ["services", "policy", "hubble"] as const;

/** What applications feel: read by the keepalive criterion and the latency one. */
export const realisticLatency: FigureSelector = {
  title: "p99 HTTP latency at 1,000 QPS",
  select: (f) =>
    f.metric === "http.latency" &&
    paramsMatch(f.params, { percentile: "p99", qps: 1000 }, noServiceLoad) &&
    (f.params.connection === undefined || f.params.connection === "keepalive"),
};

/**
 * For each testbed, the first selector that at least two options have figures for, and each
 * option's best such figure. Testbeds in scope first; if none has a comparison, every testbed (the
 * caller says that this is a fallback). Each option is scored on the testbed with the most options
 * it appears on.
 */
export function figureTables(
  ctx: GuideContext,
  selectors: readonly FigureSelector[],
): { tables: FigureTable[]; fallback: boolean } {
  const build = (testbeds: readonly Testbed[]) =>
    testbeds.flatMap((t): FigureTable[] => {
      // Each option's figures on the testbed, gathered once for all selectors.
      const figuresOn = ctx.options.map((option) => ({
        option,
        figures: optionScenarios(option, t).flatMap((s) => ctx.figuresOf(s.id)),
      }));
      for (const selector of selectors) {
        const raw = figuresOn.flatMap(({ option, figures }) => {
          const figure = bestOf(figures.filter(selector.select));
          return figure ? [{ option, figure }] : [];
        });
        if (raw.length < 2) continue;
        const better = resolveBetter(raw[0]!.figure.metric, raw[0]!.figure.better);
        const { scored } = scoreAgainstBest(
          raw.map((r) => ({ item: r, figure: r.figure })),
          better,
        );
        const entries = scored.map(({ item, score, levelWithBest, versusBest }) => ({
          ...item,
          score,
          levelWithBest,
          versusBest,
        }));
        return [{ testbed: t, selector, better, entries }];
      }
      return [];
    });
  const scoped = build(ctx.scopedTestbeds);
  const tables = scoped.length > 0 ? scoped : build(ctx.allTestbeds);
  tables.sort((a, b) => b.entries.length - a.entries.length);
  return { tables, fallback: scoped.length === 0 && tables.length > 0 };
}

/** Each option's entry from the first table that has it. */
function assign(tables: readonly FigureTable[]): Map<string, { table: FigureTable; entry: FigureEntry }> {
  const out = new Map<string, { table: FigureTable; entry: FigureEntry }>();
  for (const table of tables) {
    for (const entry of table.entries) if (!out.has(entry.option.id)) out.set(entry.option.id, { table, entry });
  }
  return out;
}

/**
 * The lowest and highest of some figures, in words: one figure when they are equal, else "12 ms to
 * 15 ms", "0.1 % to 0.7 %".
 */
export function figureRange(figures: readonly GuideFigure[]): string {
  const values = figures.map((f) => f.value);
  const lo = figures.find((f) => f.value === Math.min(...values))!;
  const hi = figures.find((f) => f.value === Math.max(...values))!;
  return lo === hi ? formatFigure(lo) : `${formatFigure(lo)} to ${formatFigure(hi)}`;
}

export const rangeText = (entries: readonly FigureEntry[]) => figureRange(entries.map((e) => e.figure));

function fallbackCaveat(ctx: GuideContext, what: string, tables: readonly FigureTable[]): Reason {
  const where = listWords([...new Set(tables.map((t) => t.testbed.label))]);
  const asked = ctx.answers.cloud ? "your cloud" : "the scope you chose";
  return caveat(`No ${what} measured on ${asked}: the comparison uses ${where} instead.`);
}

/**
 * A criterion from one figure per option: scores, one reason per option, a summary per testbed.
 * `describe` words an option's reason; the summary lists the range and says whether it separates.
 */
export function figureCriterion(
  ctx: GuideContext,
  spec: {
    key: string;
    weight: number;
    what: string;
    selectors: readonly FigureSelector[];
    describe: (entry: FigureEntry, table: FigureTable) => string;
  },
): CriterionResult & { tables: FigureTable[] } {
  const result = { ...emptyCriterion(spec.key, spec.weight), tables: [] as FigureTable[] };
  const { tables, fallback } = figureTables(ctx, spec.selectors);
  result.tables = tables;
  if (tables.length === 0) {
    result.caveats.push(caveat(`No ${spec.what} figures to compare the datapaths by.`));
    return result;
  }
  if (fallback) result.caveats.push(fallbackCaveat(ctx, spec.what, tables));
  result.measured = true;
  const entries = tables.flatMap((t) => t.entries);
  result.level = entries.every((e) => e.levelWithBest);
  result.levelWords = wordsOf(result.level ? weakestTie(entries.map((e) => e.versusBest)) : null);
  const assigned = assign(tables);
  for (const option of ctx.options) {
    const a = assigned.get(option.id);
    if (!a) {
      addTo(result.reasons, option.id, caveat(`${capitalise(spec.what)}: not measured for this datapath.`));
      continue;
    }
    result.scores.set(option.id, a.entry.score);
    const effect = scoreEffect(a.entry.score, a.table.entries.length);
    addTo(
      result.reasons,
      option.id,
      reason("measured", effect, spec.describe(a.entry, a.table), [evidenceOf(ctx, a.entry.figure)]),
    );
  }
  return result;
}

/** "against the others: equivalent within ±10 % on a single run", "the best here", "12.3% lower than the best". */
export function standing(entry: FigureEntry, table: FigureTable): string {
  const level = wordsOf(levelTie(table.entries));
  if (level) return `against the others: ${level}`;
  const lower = table.better === "lower";
  const best = table.entries.reduce((a, e) =>
    (lower ? e.figure.value < a.figure.value : e.figure.value > a.figure.value) ? e : a,
  ).figure;
  if (entry.figure === best) return "the best here";
  const tie = entry.levelWithBest ? wordsOf(entry.versusBest) : null;
  const noise = tie ? ` (${tie})` : "";
  const word = lower ? "higher" : "lower";
  // A rate in % (loss) is compared in points: 0.69 % against 0.03 % is not "2,200 % higher".
  if (entry.figure.unit === "%") {
    return `${formatNumber(Math.abs(entry.figure.value - best.value))} points ${word} than the best${noise}`;
  }
  const d = percentDelta(entry.figure.value, best.value).percent;
  return d === null
    ? `behind the best${noise}`
    : `${formatPercent(Math.abs(d), 1, false)} ${word} than the best${noise}`;
}
