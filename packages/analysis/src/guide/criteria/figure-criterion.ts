// The form of criterion most of them take: one figure per option, compared on a testbed. The
// keepalive, UDP and latency criteria are built on it.

import { formatCount, formatFigure, formatNumber, formatPercent, formatValue } from "@cnibench/format";
import { resolveBetter } from "../../better.ts";
import { percentDelta } from "../../delta.ts";
import { paramsKey } from "../../params-key.ts";
import type { Better, Params } from "../../types.ts";
import type { VerdictResult } from "../../verdict.ts";
import {
  listWords,
  paramsMatch,
  pooledFigure,
  reason,
  scoreAgainstBest,
  type Testbed,
  weakestTie,
} from "../figures.ts";
import type { DatapathOption } from "../options.ts";
import { atCeiling, type Ceiling, type RankTest } from "../ranking.ts";
import type { GuideFigure, GuideScenario, Reason } from "../types.ts";
import {
  addTo,
  type CriterionResult,
  capitalise,
  caveat,
  emptyCriterion,
  evidenceOf,
  type GuideContext,
  keptIn,
  levelTie,
  levelWithIt,
  optionScenarios,
  scoreEffect,
  wordsOf,
} from "./shared.ts";

export type FigureSelector = {
  /** What the figure is, in words: "p99 latency at 1,000 QPS". */
  title: string;
  /** The metric of the figures it selects: only those are looked at. */
  metric: string;
  select: (f: GuideFigure) => boolean;
  /** The one params set it selects, when it is one (paramsSelectors): its figures are looked up by it. */
  paramsKey?: string;
};

// A scenario's figures of a metric by params key, kept per list: figuresByScenario keeps the lists
// across answers, and every table, criterion and pair of options picks from them again.
const byParams = new WeakMap<readonly GuideFigure[], Map<string, GuideFigure[]>>();

/** The figures of a scenario a selector picks, in their order. */
export function selectedFigures(
  ctx: GuideContext,
  scenarioId: string,
  selector: FigureSelector,
): readonly GuideFigure[] {
  const figures = ctx.figuresOf(scenarioId, selector.metric);
  if (selector.paramsKey === undefined) return figures.filter(selector.select);
  if (figures.length === 0) return figures;
  const lists = keptIn(byParams, figures, () => {
    const out = new Map<string, GuideFigure[]>();
    for (const f of figures) addTo(out, paramsKey(f.params), f);
    return out;
  });
  return lists.get(selector.paramsKey) ?? [];
}

export type FigureEntry = {
  option: DatapathOption;
  /** The option's figure: one setup's, or its setups' runs pooled (pooledFigure). */
  figure: GuideFigure;
  /** The figures it was made from, one per setup. */
  from: GuideFigure[];
  score: number;
  levelWithBest: boolean;
  versusBest: VerdictResult | null;
};
export type FigureTable = {
  testbed: Testbed;
  selector: FigureSelector;
  better: Better;
  entries: FigureEntry[];
  /** What its figures cannot exceed on the testbed (throughput's line rate); figureCriterion sets it. */
  ceiling?: Ceiling | null;
};

// Params that put extra load or features on a figure: what a baseline comparison leaves out.
export const noServiceLoad = ["services", "policy", "hubble"] as const;

/** What applications feel: read by the keepalive criterion and the latency one. */
export const realisticLatency: FigureSelector = {
  title: "p99 HTTP latency at 1,000 QPS",
  metric: "http.latency",
  select: (f) =>
    f.metric === "http.latency" &&
    paramsMatch(f.params, { percentile: "p99", qps: 1000 }, noServiceLoad) &&
    (f.params.connection === undefined || f.params.connection === "keepalive"),
};

/**
 * Like with like: one selector per params set of a metric (figures are compared only when they share
 * every param), the sets that most options measured first, then in `prefer`'s order.
 */
export function paramsSelectors(
  ctx: GuideContext,
  spec: {
    metric: string;
    accept: (params: Params) => boolean;
    prefer: (a: Params, b: Params) => number;
    title: (params: Params) => string;
  },
): FigureSelector[] {
  const sets = new Map<string, { params: Params; options: Set<string> }>();
  for (const o of ctx.options) {
    for (const s of o.scenarios) {
      for (const f of ctx.figuresOf(s.id, spec.metric)) {
        if (!spec.accept(f.params)) continue;
        const key = paramsKey(f.params);
        const entry = sets.get(key) ?? { params: f.params, options: new Set<string>() };
        entry.options.add(o.id);
        sets.set(key, entry);
      }
    }
  }
  return [...sets.entries()]
    .sort(([, a], [, b]) => b.options.size - a.options.size || spec.prefer(a.params, b.params))
    .map(([key, { params }]) => ({
      title: spec.title(params),
      metric: spec.metric,
      select: (f: GuideFigure) => f.metric === spec.metric && paramsKey(f.params) === key,
      paramsKey: key,
    }));
}

/**
 * For each testbed, the first selector that at least two options have figures for (with `every`, each
 * such selector), and each option's figure (pooledFigure). Testbeds in scope first; if none has a
 * comparison, every testbed (the caller says that this is a fallback). Each option is scored on the
 * testbed with the most options it appears on.
 */
function figureTables(
  ctx: GuideContext,
  selectors: readonly FigureSelector[],
  scenariosOf: (o: DatapathOption, t: Testbed) => readonly GuideScenario[] = optionScenarios,
  elsewhere = true,
  every = false,
): { tables: FigureTable[]; fallback: boolean } {
  const build = (testbeds: readonly Testbed[]) =>
    testbeds.flatMap((t): FigureTable[] => {
      // Each option's scenarios on the testbed, gathered once for all selectors.
      const scenariosOn = ctx.options.map((option) => ({ option, scenarios: scenariosOf(option, t) }));
      const found: FigureTable[] = [];
      for (const selector of selectors) {
        const raw = scenariosOn.flatMap(({ option, scenarios }) => {
          const from = scenarios.flatMap((s) => selectedFigures(ctx, s.id, selector));
          const figure = pooledFigure(from);
          return figure ? [{ option, figure, from }] : [];
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
        found.push({ testbed: t, selector, better, entries });
        if (!every) break;
      }
      return found;
    });
  const scoped = build(ctx.scopedTestbeds);
  const tables = scoped.length > 0 || !elsewhere ? scoped : build(ctx.allTestbeds);
  tables.sort((a, b) => b.entries.length - a.entries.length);
  return { tables, fallback: scoped.length === 0 && tables.length > 0 };
}

/**
 * Each option's entry from the first table that has it on each testbed: with several testbeds in
 * scope the guide lists a card per testbed, each with that testbed's figures. Figures from outside
 * the scope (the closest evidence) give the first only.
 */
function assign(tables: readonly FigureTable[], fallback: boolean): Map<string, FigureTable[]> {
  const out = new Map<string, FigureTable[]>();
  for (const table of tables) {
    for (const entry of table.entries) {
      const mine = out.get(entry.option.id);
      if (!mine) out.set(entry.option.id, [table]);
      else if (!fallback && !mine.some((t) => t.testbed === table.testbed)) mine.push(table);
    }
  }
  return out;
}

/**
 * The lowest and highest of some figures, in words: one figure when they are equal, else "12 to
 * 15 ms", "0.1 to 0.7 %" (the unit once, as a reader says it).
 */
export function figureRange(figures: readonly GuideFigure[]): string {
  const values = figures.map((f) => f.value);
  const lo = figures.find((f) => f.value === Math.min(...values))!;
  const hi = figures.find((f) => f.value === Math.max(...values))!;
  if (lo.value === hi.value) return formatFigure(hi);
  return `${lo.unit === hi.unit ? formatValue(lo) : formatFigure(lo)} to ${formatFigure(hi)}`;
}

export const rangeText = (entries: readonly FigureEntry[]) => figureRange(entries.map((e) => e.figure));

/** "No p99 HTTP latency measured on On-premises; closest evidence: TKE SA5.LARGE8, not ranked on." */
export function closestCaveat(ctx: GuideContext, what: string, testbeds: readonly Testbed[]): Reason {
  const where = listWords([...new Set(testbeds.map((t) => t.label))]);
  return caveat(
    `No ${what} measured on ${ctx.scopeLabel}; closest evidence: ${where}, shown for information and not ranked on.`,
  );
}

/**
 * A criterion from one figure per option: its tests, one reason per option, a summary per testbed.
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
    /** Each option's scenarios on a testbed that count (optionScenarios, or standingScenarios). */
    scenariosOf?: (o: DatapathOption, t: Testbed) => readonly GuideScenario[];
    /** Nothing to say when nothing was measured: a criterion the user did not ask for. */
    quiet?: boolean;
    /** Show figures from outside the scope as the closest evidence when the scope has none (default). */
    elsewhere?: boolean;
    /** Compare on every selector two options share on a testbed, not only the first (throughput's tests). */
    every?: boolean;
    /** What the figure cannot exceed on a table's testbed (a line rate, the bare-metal reference). */
    ceiling?: (table: FigureTable) => Ceiling | null;
    /** The figure in a few words for reason lines ("single-stream TCP"); the selector's title otherwise. */
    short?: (table: FigureTable) => string;
  },
): CriterionResult & { tables: FigureTable[] } {
  const result = { ...emptyCriterion(spec.key, spec.weight, spec.what), tables: [] as FigureTable[] };
  const found = figureTables(ctx, spec.selectors, spec.scenariosOf, spec.elsewhere ?? true, spec.every ?? false);
  const { fallback } = found;
  const tables = found.tables.map((t) => ({ ...t, ceiling: spec.ceiling?.(t) ?? null }));
  result.tables = tables;
  // Each testbed's tables, in their order: asked for per table and per option, a filter of every table
  // each time grew with the square of the testbeds (59 of them, 236 tables on the bench store).
  const onTestbed = new Map<Testbed, FigureTable[]>();
  for (const t of tables) addTo(onTestbed, t.testbed, t);
  // Figures from outside the scope are shown, never ranked on.
  if (!fallback) result.tests = tables.map((t) => rankTest(ctx, spec, t, onTestbed.get(t.testbed)!.length));
  if (tables.length === 0) {
    if (!spec.quiet) result.caveats.push(caveat(`No ${spec.what} figures to compare the datapaths by.`));
    return result;
  }
  if (fallback) {
    result.closest = true;
    result.caveats.push(
      closestCaveat(
        ctx,
        spec.what,
        tables.map((t) => t.testbed),
      ),
    );
  }
  result.measured = true;
  const entries = tables.flatMap((t) => t.entries);
  result.level = entries.every((e) => e.levelWithBest);
  result.levelWords = wordsOf(result.level ? weakestTie(entries.map((e) => e.versusBest)) : null);
  const assigned = assign(tables, fallback);
  for (const option of ctx.options) {
    const firsts = assigned.get(option.id);
    if (!firsts) {
      addTo(result.reasons, option.id, caveat(`${capitalise(spec.what)}: not measured for this datapath.`));
      continue;
    }
    // One reason for its first table of a testbed; with `every`, one for each test of that testbed it was measured in.
    const own = spec.every ? firsts.flatMap((a) => onTestbed.get(a.testbed)!) : firsts;
    for (const table of own) {
      const entry = table.entries.find((e) => e.option.id === option.id);
      if (!entry) continue;
      // At the ceiling it speaks for the option as the ranking reads it: nothing could have done better.
      const score = atCeiling(table.ceiling ?? null, entry.figure) ? 1 : entry.score;
      addTo(
        result.reasons,
        option.id,
        reason(
          "measured",
          scoreEffect(score, table.entries.length),
          spec.describe(entry, table),
          entry.from.map((f) => evidenceOf(ctx, f)),
        ),
      );
    }
  }
  return result;
}

/** A table as the ranking reads it (ranking.ts): its weight shared among the tables of its testbed. */
function rankTest(
  ctx: GuideContext,
  spec: {
    key: string;
    weight: number;
    short?: (table: FigureTable) => string;
  },
  table: FigureTable,
  onTestbed: number,
): RankTest {
  return {
    key: `${spec.key} ${table.testbed.key} ${table.selector.title}`,
    what: spec.short?.(table) ?? table.selector.title,
    testbed: table.testbed.label,
    weight: spec.weight / onTestbed,
    better: table.better,
    entries: table.entries.map((e) => ({
      optionId: e.option.id,
      figure: e.figure,
      evidence: e.from.map((f) => evidenceOf(ctx, f)),
    })),
    ceiling: table.ceiling ?? null,
  };
}

/**
 * "against the others: equivalent within ±10 % on a single run", "the best here", "12.3% lower than
 * the best"; at a ceiling others reach too, that the test does not tell them apart.
 */
export function standing(entry: FigureEntry, table: FigureTable): string {
  const level = wordsOf(levelTie(table.entries));
  if (level) return `against the others: ${level}`;
  const lower = table.better === "lower";
  const best = table.entries.reduce((a, e) =>
    (lower ? e.figure.value < a.figure.value : e.figure.value > a.figure.value) ? e : a,
  ).figure;
  const ceiling = table.ceiling ?? null;
  const alongside = atCeiling(ceiling, entry.figure)
    ? table.entries.filter((e) => e !== entry && atCeiling(ceiling, e.figure)).length
    : 0;
  if (alongside > 0) {
    // A verdict's "small but real" between two figures at the line rate is no datapath's doing.
    return `${entry.figure === best ? "the best here" : gapToBest(entry, best, lower)}; with ${formatCount(alongside)} other${alongside === 1 ? "" : "s"} it reaches ${ceiling!.words}: this test does not tell them apart`;
  }
  if (entry.figure === best) return `the best here${levelWithIt(table.entries, entry)}`;
  const tie = entry.levelWithBest ? wordsOf(entry.versusBest) : null;
  return `${gapToBest(entry, best, lower)}${tie ? ` (${tie})` : ""}`;
}

/** "12.3 % lower than the best", "0.66 points higher than the best", "level with the best". */
function gapToBest(entry: FigureEntry, best: GuideFigure, lower: boolean): string {
  const word = lower ? "higher" : "lower";
  // A rate in % (loss) is compared in points: 0.69 % against 0.03 % is not "2,200 % higher".
  if (entry.figure.unit === "%") {
    if (Math.abs(entry.figure.value - best.value) < 1e-9) return "level with the best";
    return `${formatNumber(Math.abs(entry.figure.value - best.value))} points ${word} than the best`;
  }
  const d = percentDelta(entry.figure.value, best.value).percent;
  // Equal to the shown precision: another setup measured the same (e.g. the same runs).
  if (d !== null && Math.abs(d) < 0.05) return "level with the best";
  return d === null ? "behind the best" : `${formatPercent(Math.abs(d), 1, false)} ${word} than the best`;
}
