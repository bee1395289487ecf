// The measured criteria of the guide: each reads the current figures of the scenarios in scope,
// places every datapath option between the worst (0) and the best (1), and says why, with the
// figures it used. Comparisons are made within one testbed (cloud + instance type) only.
import { resolveBetter } from "../better.ts";
import { type CrossoverResult, findCrossovers } from "../crossover.ts";
import { percentDelta } from "../delta.ts";
import { formatNumber, formatPercent } from "../format.ts";
import { featureOverheads } from "../overhead.ts";
import { paramsKey, paramsKeyWithout } from "../params-key.ts";
import { readAt, sortedPoints } from "../series.ts";
import type { Better, Measurement, Point, Series } from "../types.ts";
import { compareFigures, noClearDifference, type VerdictResult } from "../verdict.ts";
import {
  bestOf,
  formatComputed,
  formatCount,
  formatFigure,
  formatValue,
  listWords,
  paramsMatch,
  reason,
  scoreAgainstBest,
  type Testbed,
  tieWords,
  toEvidence,
  weakestTie,
  withUnit,
} from "./figures.ts";
import type { Datapath, DatapathOption } from "./options.ts";
import type { Evidence, GuideAnswers, GuideFigure, GuideScenario, Reason } from "./types.ts";

export type GuideContext = {
  answers: GuideAnswers;
  /** The input's scenarios and figures: what depends on them alone is kept with them (see keptLines). */
  input: { scenarios: readonly GuideScenario[]; figures: readonly GuideFigure[] };
  scenario: (id: string) => GuideScenario | undefined;
  figuresOf: (scenarioId: string) => readonly GuideFigure[];
  datapathOf: (scenarioId: string) => Datapath | undefined;
  /** Testbeds of the scenarios in scope (the chosen cloud and instance type, or their fallback). */
  scopedTestbeds: Testbed[];
  /** Every testbed, for criteria nothing in scope measured. */
  allTestbeds: Testbed[];
  /** The options being ranked. */
  options: DatapathOption[];
};

export type CriterionResult = {
  key: string;
  weight: number;
  /** Some option has a score. */
  measured: boolean;
  /** No verdict against the best separates the options measured: this measurement does not rank them. */
  level: boolean;
  /** When level, why in the verdicts' words ("equivalent within ±10 % on a single run"); else null. */
  levelWords: string | null;
  scores: Map<string, number>;
  reasons: Map<string, Reason[]>;
  summary: Reason[];
  caveats: Reason[];
};

function emptyCriterion(key: string, weight: number): CriterionResult {
  return {
    key,
    weight,
    measured: false,
    level: true,
    levelWords: null,
    scores: new Map(),
    reasons: new Map(),
    summary: [],
    caveats: [],
  };
}

function push(map: Map<string, Reason[]>, id: string, r: Reason) {
  const list = map.get(id);
  if (list) list.push(r);
  else map.set(id, [r]);
}

const evidenceOf = (ctx: GuideContext, f: GuideFigure): Evidence => toEvidence(f, ctx.scenario(f.scenarioId));

// Looked up in a set: a search of the testbed's scenarios per scenario made the guide quadratic in them.
const testbedIds = new WeakMap<Testbed, Set<string>>();
function inTestbed(t: Testbed, id: string): boolean {
  let ids = testbedIds.get(t);
  if (!ids) {
    ids = new Set(t.scenarios.map((s) => s.id));
    testbedIds.set(t, ids);
  }
  return ids.has(id);
}

/** The option's scenarios on a testbed. */
const optionScenarios = (o: DatapathOption, t: Testbed) => o.scenarios.filter((s) => inTestbed(t, s.id));

// ---------------------------------------------------------------------------------------------
// One figure per option, compared on a testbed.

export type FigureSelector = {
  /** What the figure is, in words: "p99 latency at 1,000 QPS". */
  title: string;
  select: (f: GuideFigure) => boolean;
};

type Entry = {
  option: DatapathOption;
  figure: GuideFigure;
  score: number;
  levelWithBest: boolean;
  versusBest: VerdictResult | null;
};
export type FigureTable = { testbed: Testbed; selector: FigureSelector; better: Better; entries: Entry[] };

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
function assign(tables: readonly FigureTable[]): Map<string, { table: FigureTable; entry: Entry }> {
  const out = new Map<string, { table: FigureTable; entry: Entry }>();
  for (const table of tables) {
    for (const entry of table.entries) if (!out.has(entry.option.id)) out.set(entry.option.id, { table, entry });
  }
  return out;
}

function rangeText(entries: readonly Entry[]): string {
  const values = entries.map((e) => e.figure.value);
  const lo = entries.find((e) => e.figure.value === Math.min(...values))!.figure;
  const hi = entries.find((e) => e.figure.value === Math.max(...values))!.figure;
  return lo.value === hi.value ? formatFigure(lo) : `${formatFigure(lo)} to ${formatFigure(hi)}`;
}

function fallbackCaveat(ctx: GuideContext, what: string, tables: readonly FigureTable[]): Reason {
  const where = listWords([...new Set(tables.map((t) => t.testbed.label))]);
  const asked = ctx.answers.cloud ? "your cloud" : "the scope you chose";
  return reason("caveat", "neutral", `No ${what} measured on ${asked}: the comparison uses ${where} instead.`);
}

/**
 * A criterion from one figure per option: scores, one reason per option, a summary per testbed.
 * `describe` words an option's reason; the summary lists the range and says whether it separates.
 */
function figureCriterion(
  ctx: GuideContext,
  spec: {
    key: string;
    weight: number;
    what: string;
    selectors: readonly FigureSelector[];
    describe: (entry: Entry, table: FigureTable) => string;
  },
): CriterionResult & { tables: FigureTable[] } {
  const result = { ...emptyCriterion(spec.key, spec.weight), tables: [] as FigureTable[] };
  const { tables, fallback } = figureTables(ctx, spec.selectors);
  result.tables = tables;
  if (tables.length === 0) {
    result.caveats.push(reason("caveat", "neutral", `No ${spec.what} figures to compare the datapaths by.`));
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
      push(
        result.reasons,
        option.id,
        reason("caveat", "neutral", `${capitalise(spec.what)}: not measured for this datapath.`),
      );
      continue;
    }
    result.scores.set(option.id, a.entry.score);
    const effect =
      a.table.entries.length < 2
        ? "neutral"
        : a.entry.score >= 0.999
          ? "for"
          : a.entry.score <= 0.001
            ? "against"
            : "neutral";
    push(
      result.reasons,
      option.id,
      reason("measured", effect, spec.describe(a.entry, a.table), [evidenceOf(ctx, a.entry.figure)]),
    );
  }
  return result;
}

/** "Pod-to-pod RTT"; percentiles keep their lower-case p ("p99 HTTP latency"). */
function capitalise(s: string): string {
  return /^p\d/.test(s) ? s : s.charAt(0).toUpperCase() + s.slice(1);
}

/** The tie that words a table no verdict separates; null when some option is apart from the best. */
function levelTie(
  entries: readonly { levelWithBest: boolean; versusBest: VerdictResult | null }[],
): VerdictResult | null {
  return entries.every((e) => e.levelWithBest) ? weakestTie(entries.map((e) => e.versusBest)) : null;
}

const wordsOf = (tie: VerdictResult | null) => (tie ? tieWords(tie) : null);

/** "against the others: equivalent within ±10 % on a single run", "the best here", "12.3% lower than the best". */
function standing(entry: Entry, table: FigureTable): string {
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
  // A rate in % (loss) is compared in points: 0.69% against 0.03% is not "2,200% higher".
  if (entry.figure.unit === "%") {
    return `${formatValue(Math.abs(entry.figure.value - best.value))} points ${word} than the best${noise}`;
  }
  const d = percentDelta(entry.figure.value, best.value).percent;
  return d === null
    ? `behind the best${noise}`
    : `${formatPercent(Math.abs(d), 1, false)} ${word} than the best${noise}`;
}

// ---------------------------------------------------------------------------------------------
// Short-lived connections against the Service count: the crossover.

type Line = { scenario: GuideScenario; datapath: Datapath | undefined; series: Series; figs: Map<number, GuideFigure> };

// A testbed's lines and their crossings depend on its scenarios and figures, not on the answers: kept
// with the input's lists (a server keeps them between uploads), so each answer does not redraw
// hundreds of lines.
const keptLines = new WeakMap<object, WeakMap<object, Map<string, Line[]>>>();
const keptCrossings = new WeakMap<readonly Line[], CrossoverResult>();

/** The value under `key`, made and stored first if there is none. */
function keptIn<K extends object | string, V>(
  map: { get(k: K): V | undefined; set(k: K, v: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

function testbedLines(ctx: GuideContext, t: Testbed): Line[] {
  const byFigures = keptIn(keptLines, ctx.input.scenarios, () => new WeakMap<object, Map<string, Line[]>>());
  const byTestbed = keptIn(byFigures, ctx.input.figures, () => new Map<string, Line[]>());
  return keptIn(byTestbed, t.key, () => scaleLines(ctx, t));
}

function crossingsOf(lines: readonly Line[]): CrossoverResult {
  return keptIn(keptCrossings, lines, () =>
    findCrossovers(
      lines.map((l) => l.series),
      "higher",
    ),
  );
}

/** The short-connection RPS lines of a testbed: one per scenario, for the params most of them share. */
function scaleLines(ctx: GuideContext, t: Testbed): Line[] {
  const groups = new Map<string, Map<string, GuideFigure[]>>();
  for (const s of t.scenarios) {
    for (const f of ctx.figuresOf(s.id)) {
      if (f.metric !== "http.rps" || f.params.connection !== "short" || typeof f.params.services !== "number") continue;
      const key = paramsKeyWithout(f.params, "services");
      const byScenario = groups.get(key) ?? new Map<string, GuideFigure[]>();
      const figs = byScenario.get(s.id);
      if (figs) figs.push(f);
      else byScenario.set(s.id, [f]);
      groups.set(key, byScenario);
    }
  }
  const usable = [...groups.values()]
    .map((byScenario) => [...byScenario.entries()].filter(([, figs]) => figs.length >= 2))
    .sort((a, b) => b.length - a.length);
  return (usable[0] ?? []).map(([id, figs]) => {
    const scenario = ctx.scenario(id)!;
    const points: Point[] = figs.map((f) => ({
      x: f.params.services as number,
      value: f.value,
      qualifier: f.qualifier ?? null,
    }));
    return {
      scenario,
      datapath: ctx.datapathOf(id),
      series: { id, label: scenario.label, points: sortedPoints({ id, label: scenario.label, points }) },
      figs: new Map(figs.map((f) => [f.params.services as number, f])),
    };
  });
}

type Reading = { value: number; extrapolated: boolean; support: GuideFigure[]; how: string };

/** A line's value at x: measured, interpolated between steps, or extrapolated past the last one. */
export function lineValueAt(
  points: readonly Point[],
  x: number,
): { value: number; extrapolated: boolean; support: Point[] } {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) throw new RangeError("an empty line has no value");
  if (x < first.x) return { value: first.value, extrapolated: false, support: [first] };
  if (x <= last.x) {
    const r = readAt(points, x)!;
    return { value: r.value, extrapolated: false, support: r.support };
  }
  const prev = points.at(-2);
  if (!prev) return { value: last.value, extrapolated: true, support: [last] };
  const slope = (last.value - prev.value) / (last.x - prev.x);
  // A rate cannot fall below zero, however steep the last step.
  return { value: Math.max(0, last.value + slope * (x - last.x)), extrapolated: true, support: [prev, last] };
}

/** A line's value at x, without the words: what comparisons of many lines need. */
const valueAt = (line: Line, x: number) => lineValueAt(line.series.points, x).value;

function readLine(line: Line, x: number): Reading {
  const points = line.series.points;
  const r = lineValueAt(points, x);
  const support = r.support.map((p) => line.figs.get(p.x)!);
  const first = points[0]!;
  const last = points.at(-1)!;
  let how: string;
  if (r.extrapolated) {
    const prev = points.at(-2) ?? last;
    how = `extrapolated linearly from the steps at ${formatCount(prev.x)} and ${formatCount(last.x)} Services, past the measured range`;
  } else if (x < first.x) {
    how = `read at ${formatCount(first.x)} Services, the smallest count measured`;
  } else if (r.support.length === 1) {
    how = "measured";
  } else {
    how = `interpolated between ${formatCount(r.support[0]!.x)} and ${formatCount(r.support[1]!.x)} Services`;
  }
  return { value: r.value, extrapolated: r.extrapolated, support, how };
}

/** The figures of a line between two x values, plus the nearest samples outside when an end is interpolated. */
function bracket(line: Line, from: number, to: number): GuideFigure[] {
  const xs = line.series.points.map((p) => p.x);
  const inside = xs.filter((x) => x >= from && x <= to);
  const below = xs.filter((x) => x < from).at(-1);
  const above = xs.find((x) => x > to);
  const picked = [...(xs.includes(from) || below === undefined ? [] : [below]), ...inside];
  if (!xs.includes(to) && above !== undefined) picked.push(above);
  return picked.map((x) => line.figs.get(x)!);
}

function lineForOption(
  option: DatapathOption,
  lines: readonly Line[],
  n: number,
): { line: Line; borrowed: boolean } | undefined {
  const ids = new Set(option.scenarios.map((s) => s.id));
  const own = lines.filter((l) => ids.has(l.scenario.id));
  if (own.length > 0) {
    const best = own.reduce((a, l) => (valueAt(l, n) > valueAt(a, n) ? l : a));
    return { line: best, borrowed: false };
  }
  if (option.proxy === "unknown") return undefined;
  const similar =
    lines.find((l) => l.datapath?.proxy === option.proxy && l.datapath.routing === option.routing) ??
    lines.find((l) => l.datapath?.proxy === option.proxy);
  return similar ? { line: similar, borrowed: true } : undefined;
}

const proxyNames: Record<string, string> = {
  iptables: "kube-proxy iptables",
  ipvs: "kube-proxy IPVS",
  nftables: "kube-proxy nftables",
  ebpf: "eBPF kube-proxy replacement",
};

/**
 * Short-lived connections at the expected Service count: every line read at that count (interpolated
 * between steps, or extrapolated past the last one and said so), the crossovers computed by
 * findCrossovers, and crossings past the measured range by linear extrapolation, labelled as such.
 * An option with no line of its own borrows the line of a scenario with the same Service proxy
 * (and routing, when there is one), since the Service lookup is what the count slows down; it says so.
 */
export function serviceScaleCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const result = emptyCriterion("serviceScale", weight);
  const n = ctx.answers.services;
  const pick = (testbeds: readonly Testbed[]) =>
    testbeds
      .map((t) => ({ t, lines: testbedLines(ctx, t) }))
      .filter((x) => x.lines.length >= 2)
      .sort((a, b) => b.lines.length - a.lines.length)[0];
  const scoped = pick(ctx.scopedTestbeds);
  const chosen = scoped ?? pick(ctx.allTestbeds);
  if (!chosen) {
    result.caveats.push(
      reason(
        "caveat",
        "neutral",
        "No short-connection measurements at several Service counts: the guide cannot say how the Service count affects these datapaths.",
      ),
    );
    return result;
  }
  const { t, lines } = chosen;
  if (!scoped) {
    result.caveats.push(
      reason(
        "caveat",
        "neutral",
        `No short-connection Service-scale figures on ${ctx.answers.cloud ? "your cloud" : "the chosen scope"}: the crossover comes from ${t.label}, and each datapath is matched to a line there by its Service proxy.`,
      ),
    );
  }
  result.measured = true;
  const better: Better = "higher";
  const crossings = crossingsOf(lines);
  const unit = lines[0]!.figs.values().next().value!.unit;
  const maxMeasured = Math.min(...lines.map((l) => l.series.points.at(-1)!.x));

  // Crossovers inside the measured range.
  const crossoverReasons: { reason: Reason; overtaker: string; overtaken: string; x: number }[] = [];
  for (const c of crossings.crossovers) {
    const a = lines.find((l) => l.series.id === c.overtaker.id)!;
    const b = lines.find((l) => l.series.id === c.overtaken.id)!;
    const evidence = [...bracket(a, c.from.x, c.to.x), ...bracket(b, c.from.x, c.to.x)].map((f) => evidenceOf(ctx, f));
    const text =
      `${c.overtaker.label} overtakes ${c.overtaken.label} at ≈${formatNumber(c.x, 5)} Services on ${t.label} ` +
      `(short-lived connections; interpolated between the measured ${formatCount(c.from.x)} and ${formatCount(c.to.x)})`;
    crossoverReasons.push({
      reason: reason("measured", "neutral", text, evidence),
      overtaker: c.overtaker.id,
      overtaken: c.overtaken.id,
      x: c.x,
    });
  }
  for (const u of crossings.undecided) {
    const a = lines.find((l) => l.series.id === u.overtaker.id)!;
    const b = lines.find((l) => l.series.id === u.overtaken.id)!;
    const evidence = [...bracket(a, u.from.x, u.to.x), ...bracket(b, u.from.x, u.to.x)].map((f) => evidenceOf(ctx, f));
    result.caveats.push(
      reason(
        "caveat",
        "neutral",
        `${u.overtaker.label} may overtake ${u.overtaken.label} between ${formatCount(u.from.x)} and ${formatCount(u.to.x)} Services on ${t.label}, but that rests on approximate or bounded figures, so no crossover is computed`,
        evidence,
      ),
    );
  }
  // Crossings past the measured range, when the expected count lies there.
  if (n > maxMeasured) {
    result.caveats.push(
      reason(
        "caveat",
        "neutral",
        `The Service-scale measurements on ${t.label} stop at ${formatCount(maxMeasured)} Services: figures at ${formatCount(n)} are extrapolated in a straight line from the last two steps, not measured.`,
      ),
    );
    // Each line read once at both ends, not once per pair: a testbed can hold hundreds of lines.
    const atEnd = lines.map((l) => valueAt(l, maxMeasured));
    const atN = lines.map((l) => valueAt(l, n));
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const a = lines[i]!;
        const b = lines[j]!;
        const d0 = atEnd[i]! - atEnd[j]!;
        const d1 = atN[i]! - atN[j]!;
        if (d0 === 0 || d1 === 0 || Math.sign(d0) === Math.sign(d1)) continue;
        const x = maxMeasured + ((n - maxMeasured) * d0) / (d0 - d1);
        const [winner, loser] = d1 > 0 ? [a, b] : [b, a];
        const evidence = [...readLine(a, n).support, ...readLine(b, n).support].map((f) => evidenceOf(ctx, f));
        crossoverReasons.push({
          reason: reason(
            "extrapolated",
            "neutral",
            `Extrapolated, not measured: continuing the last measured steps in a straight line, ${winner.scenario.label} would overtake ${loser.scenario.label} at ≈${formatNumber(x, 5)} Services on ${t.label} (the measurements stop at ${formatCount(maxMeasured)})`,
            evidence,
          ),
          overtaker: winner.series.id,
          overtaken: loser.series.id,
          x,
        });
      }
    }
  }

  // Each option read at n.
  const readings = new Map<string, { line: Line; reading: Reading; borrowed: boolean }>();
  for (const option of ctx.options) {
    const found = lineForOption(option, lines, n);
    if (found) readings.set(option.id, { ...found, reading: readLine(found.line, n) });
  }
  // Score on the lines, so two options borrowing one line tie.
  const uniqueLines = [...new Map([...readings.values()].map((r) => [r.line.series.id, r])).values()];
  const { scored, level } = scoreAgainstBest(
    uniqueLines.map((r) => ({
      item: r.line.series.id,
      figure: {
        metric: "http.rps",
        unit,
        value: r.reading.value,
        qualifier: r.reading.support.some((f) => f.qualifier) ? ("approx" as const) : null,
      } satisfies Measurement,
    })),
    better,
  );
  const scoreOf = new Map(scored.map((s) => [s.item, s]));
  result.level = level;
  result.levelWords = wordsOf(levelTie(scored));
  const countText = `${formatCount(n)} Services`;

  for (const option of ctx.options) {
    const r = readings.get(option.id);
    if (!r) {
      push(
        result.reasons,
        option.id,
        reason(
          "caveat",
          "neutral",
          `Short-lived connections against the Service count: not measured for this datapath or for its Service proxy (${proxyNames[option.proxy] ?? "unknown"}).`,
        ),
      );
      continue;
    }
    const s = scoreOf.get(r.line.series.id)!;
    result.scores.set(option.id, s.score);
    const base = r.line.series.points[0]!;
    const baseFigure = r.line.figs.get(base.x)!;
    const change = percentDelta(r.reading.value, base.value).percent;
    const changeText =
      change === null || base.x >= n
        ? ""
        : `, ${formatPercent(change)} from ${formatFigure(baseFigure)} at ${formatCount(base.x)} Services`;
    const rank = [...uniqueLines]
      .sort((x, y) => y.reading.value - x.reading.value)
      .findIndex((x) => x.line.series.id === r.line.series.id);
    const place =
      uniqueLines.length < 2
        ? ""
        : result.levelWords
          ? `; against the others: ${result.levelWords}`
          : rank === 0 || !s.versusBest
            ? "; the highest"
            : s.levelWithBest
              ? `; against the highest: ${tieWords(s.versusBest)}`
              : `; ${ordinal(rank + 1)} of ${uniqueLines.length}`;
    const who = r.borrowed
      ? `${r.line.scenario.label} on ${t.label}, standing in for this datapath (same Service proxy: ${proxyNames[option.proxy] ?? option.proxy})`
      : `${r.line.scenario.label} on ${t.label}`;
    const value = withUnit(formatComputed(r.reading.value), unit);
    const text = `Short-lived connections at ${countText}: ${r.reading.extrapolated ? "≈" : ""}${value} (${who}; ${r.reading.how}${changeText})${place}`;
    const evidence = [...new Set([baseFigure, ...r.reading.support])].map((f) => evidenceOf(ctx, f));
    const effect =
      uniqueLines.length < 2 ? "neutral" : s.score >= 0.999 ? "for" : s.score <= 0.001 ? "against" : "neutral";
    push(
      result.reasons,
      option.id,
      reason(r.reading.extrapolated ? "extrapolated" : "measured", effect, text, evidence),
    );
    if (r.borrowed) {
      push(
        result.reasons,
        option.id,
        reason(
          "caveat",
          "neutral",
          `This datapath has no Service-scale figures of its own: the line is ${r.line.scenario.label}'s on ${t.label}. The count slows the Service lookup, which both share, but check it on your setup.`,
        ),
      );
    }
    for (const c of crossoverReasons) {
      const id = r.line.series.id;
      if (c.overtaker !== id && c.overtaken !== id) continue;
      const past = n >= c.x;
      const ahead = c.overtaker === id ? past : !past;
      const tail = past ? `; at ${countText} you are past it` : `; at ${countText} you are below it`;
      push(result.reasons, option.id, {
        ...c.reason,
        text: `${c.reason.text}${tail}`,
        effect: ahead ? "for" : "against",
      });
    }
  }

  for (const option of ctx.options) {
    for (const r of newConnectionScaling(ctx, option)) push(result.reasons, option.id, r);
  }

  // Summary: the lines at n, best first, and the crossovers.
  const ordered = [...uniqueLines].sort((a, b) => b.reading.value - a.reading.value);
  const anyExtrapolated = ordered.some((r) => r.reading.extrapolated);
  const listing = ordered
    .map((r) => `${r.line.scenario.label} ${withUnit(formatComputed(r.reading.value), unit)}`)
    .join(", ");
  result.summary.push(
    reason(
      anyExtrapolated ? "extrapolated" : "measured",
      "neutral",
      `Short-lived connections at ${countText} on ${t.label}: ${listing}${anyExtrapolated ? ` (extrapolated past the measured ${formatCount(maxMeasured)} Services)` : ""}${result.levelWords ? ` — ${result.levelWords}` : ""}.`,
      [...new Set(ordered.flatMap((r) => r.reading.support))].map((f) => evidenceOf(ctx, f)),
    ),
  );
  for (const c of crossoverReasons) result.summary.push(c.reason);
  if (crossoverReasons.length === 0 && crossings.undecided.length === 0) {
    result.summary.push(
      reason(
        "measured",
        "neutral",
        `No line overtakes another between ${formatCount(lines.reduce((m, l) => Math.max(m, l.series.points[0]!.x), 0))} and ${formatCount(maxMeasured)} Services on ${t.label}.`,
      ),
    );
  }
  return result;
}

const newConnectionMetrics: Record<string, string> = {
  "http.latency": "short-connection HTTP latency",
  "conn.setup.latency": "connection setup latency",
  "tcp.crr.latency": "TCP_CRR latency",
};

/**
 * Other new-connection figures a scenario in scope measured at several Service counts (e.g. EKS's
 * Connection: close latency and connection setup at 4 and 1,000 Services): how they moved, as
 * information beside the crossover, which may come from another testbed.
 */
function newConnectionScaling(ctx: GuideContext, option: DatapathOption): Reason[] {
  const out: Reason[] = [];
  for (const t of ctx.scopedTestbeds) {
    for (const s of optionScenarios(option, t)) {
      const groups = new Map<string, GuideFigure[]>();
      for (const f of ctx.figuresOf(s.id)) {
        if (!newConnectionMetrics[f.metric] || typeof f.params.services !== "number") continue;
        if (f.metric === "http.latency" && f.params.connection !== "short") continue;
        const key = `${f.metric} ${paramsKeyWithout(f.params, "services")}`;
        const figs = groups.get(key);
        if (figs) figs.push(f);
        else groups.set(key, [f]);
      }
      for (const figs of groups.values()) {
        if (figs.length < 2) continue;
        const sorted = [...figs].sort((a, b) => (a.params.services as number) - (b.params.services as number));
        const first = sorted[0]!;
        const last = sorted.at(-1)!;
        const d = percentDelta(last.value, first.value).percent ?? 0;
        const verdict = compareFigures(first, last);
        const tie = noClearDifference(verdict.verdict) ? `, ${tieWords(verdict)}` : "";
        const stat = first.params.percentile ?? (first.params.stat === "avg" ? "average" : first.params.stat);
        out.push(
          reason(
            "measured",
            "neutral",
            `${capitalise(`${stat ? `${String(stat)} ` : ""}${newConnectionMetrics[first.metric]}`)} went from ${formatFigure(first)} at ${formatCount(first.params.services as number)} to ${formatFigure(last)} at ${formatCount(last.params.services as number)} Services (${formatPercent(d)}${tie}; ${s.label} on ${t.label})`,
            [evidenceOf(ctx, first), evidenceOf(ctx, last)],
          ),
        );
      }
    }
  }
  return out;
}

function ordinal(n: number): string {
  return n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

// ---------------------------------------------------------------------------------------------
// Keepalive connections.

const noServiceLoad = ["services", "policy", "hubble"] as const;

const realisticLatency: FigureSelector = {
  title: "p99 HTTP latency at 1,000 QPS",
  select: (f) =>
    f.metric === "http.latency" &&
    paramsMatch(f.params, { percentile: "p99", qps: 1000 }, noServiceLoad) &&
    (f.params.connection === undefined || f.params.connection === "keepalive"),
};

/** Saturated keepalive RPS: the params set most options share, via Service and at the lowest concurrency first. */
function saturationSelectors(ctx: GuideContext): FigureSelector[] {
  const sets = new Map<string, { params: Record<string, unknown>; options: Set<string> }>();
  for (const o of ctx.options) {
    for (const s of o.scenarios) {
      for (const f of ctx.figuresOf(s.id)) {
        if (f.metric !== "http.rps" || f.params.connection !== "keepalive") continue;
        if (noServiceLoad.some((k) => f.params[k] !== undefined)) continue;
        const key = paramsKey(f.params);
        const entry = sets.get(key) ?? { params: f.params, options: new Set<string>() };
        entry.options.add(o.id);
        sets.set(key, entry);
      }
    }
  }
  return [...sets.entries()]
    .sort(
      ([, a], [, b]) =>
        b.options.size - a.options.size ||
        Number(b.params.target === "service") - Number(a.params.target === "service") ||
        Number(a.params.concurrency ?? 0) - Number(b.params.concurrency ?? 0),
    )
    .map(([key, { params }]) => ({
      title: `saturated keepalive RPS (${paramWords(params)})`,
      select: (f: GuideFigure) => f.metric === "http.rps" && paramsKey(f.params) === key,
    }));
}

function paramWords(params: Record<string, unknown>): string {
  return Object.entries(params)
    .filter(([k]) => k !== "connection")
    .map(([k, v]) =>
      k === "concurrency" ? `c${v}` : k === "target" ? `via ${v === "service" ? "Service" : v}` : `${k} ${v}`,
    )
    .join(", ");
}

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
      `Keepalive RPS at CPU saturation (${paramWords(e.figure.params)}): ${formatFigure(e.figure)} on ${t.testbed.label}, ${standing(e, t)}`,
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
      reason(
        "measured",
        "neutral",
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
    const gap = percentDelta(top.figure.value, bottom.figure.value).percent ?? 0;
    const verdict = compareFigures(top.figure, bottom.figure);
    const context = latency.measured
      ? " Only a CPU-saturating benchmark shows it; at 1,000 QPS the latency comparison above is what applications feel."
      : "";
    result.summary.push(
      reason(
        "measured",
        "neutral",
        noClearDifference(verdict.verdict)
          ? `Saturated keepalive RPS on ${table.testbed.label} (${paramWords(top.figure.params)}) across the datapaths: ${rangeText(table.entries)}, ${tieWords(verdict)}.`
          : `At CPU saturation ${top.option.label} leads keepalive RPS on ${table.testbed.label} by ${formatPercent(gap, 1, false)} over ${bottom.option.label} (${formatFigure(top.figure)} vs ${formatFigure(bottom.figure)}, ${paramWords(top.figure.params)}).${context}`,
        table.entries.map((e) => evidenceOf(ctx, e.figure)),
      ),
    );
  }
  // Per-option reasons: the deciding figure, then the saturated one as information.
  for (const option of ctx.options) {
    for (const r of latency.reasons.get(option.id) ?? []) push(result.reasons, option.id, r);
    for (const r of saturation.reasons.get(option.id) ?? []) {
      if (r.kind === "caveat" && latency.measured) continue;
      push(result.reasons, option.id, primary === saturation ? r : { ...r, effect: "neutral" });
    }
  }
  const sensitivity = keepaliveServiceSensitivity(ctx);
  result.summary.push(...sensitivity);
  return result;
}

/** Where a scenario measured keepalive RPS at several Service counts: how much it moved up to n. */
function keepaliveServiceSensitivity(ctx: GuideContext): Reason[] {
  const n = ctx.answers.services;
  const measure = (testbeds: readonly Testbed[]) =>
    testbeds.flatMap((t) =>
      t.scenarios.flatMap((s) => {
        const figs = ctx
          .figuresOf(s.id)
          .filter(
            (f) =>
              f.metric === "http.rps" && f.params.connection === "keepalive" && typeof f.params.services === "number",
          )
          .sort((a, b) => (a.params.services as number) - (b.params.services as number));
        if (figs.length < 2) return [];
        const base = figs[0]!;
        const upTo = figs.filter((f) => (f.params.services as number) <= n);
        const target = upTo.length >= 2 ? upTo.at(-1)! : figs[1]!;
        return [{ t, s, base, target }];
      }),
    );
  const scoped = measure(ctx.scopedTestbeds);
  const found = scoped.length > 0 ? scoped : measure(ctx.allTestbeds);
  return found.map(({ t, s, base, target }) => {
    const d = percentDelta(target.value, base.value).percent ?? 0;
    const verdict = compareFigures(base, target);
    const tie = noClearDifference(verdict.verdict);
    const moves = !tie ? "moves" : verdict.verdict === "inconclusive" ? "may move" : "hardly moves";
    const where = scoped.length > 0 ? t.label : `${t.label} (not your cloud or instance type)`;
    return reason(
      "measured",
      "neutral",
      `Keepalive RPS ${moves} with the Service count: ${formatFigure(base)} at ${formatCount(base.params.services as number)} and ${formatFigure(target)} at ${formatCount(target.params.services as number)} Services (${formatPercent(d)}${tie ? `, ${tieWords(verdict)}` : ""}), ${s.label} on ${where}.`,
      [evidenceOf(ctx, base), evidenceOf(ctx, target)],
    );
  });
}

// ---------------------------------------------------------------------------------------------
// UDP-heavy traffic: loss, with and without a bandwidth manager.

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
    selectors: [{ title: "UDP loss", select: (f) => f.metric === "udp.loss" && f.params.services === undefined }],
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
      push(
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
      ctx
        .figuresOf(s.id)
        .flatMap((f) => (f.metric === "udp.loss" && f.params.services === undefined ? [{ s, f }] : [])),
    );
    const withBwm = scenarioLoss.filter((x) => hasBandwidthManager(x.s));
    const without = scenarioLoss.filter((x) => !hasBandwidthManager(x.s));
    const span = (xs: typeof scenarioLoss) => {
      const v = xs.map((x) => x.f.value);
      const lo = xs.find((x) => x.f.value === Math.min(...v))!.f;
      const hi = xs.find((x) => x.f.value === Math.max(...v))!.f;
      return lo === hi ? formatFigure(lo) : `${formatFigure(lo)}–${formatFigure(hi)}`;
    };
    const names = (xs: typeof scenarioLoss) => listWords(xs.map((x) => x.s.label));
    const text =
      withBwm.length > 0 && without.length > 0
        ? `UDP loss on ${table.testbed.label}: ${span(withBwm)} with a bandwidth manager (${names(withBwm)}) against ${span(without)} without (${names(without)}). iperf3 sends UDP as fast as it can, so this is what happens when senders outrun receivers.`
        : withBwm.length === 0
          ? `UDP loss on ${table.testbed.label}: ${span(scenarioLoss)} (${names(scenarioLoss)}); none of these scenarios ran a bandwidth manager.`
          : `UDP loss on ${table.testbed.label}: ${span(scenarioLoss)}, every scenario with a bandwidth manager.`;
    result.summary.push(
      reason(
        "measured",
        "neutral",
        text,
        scenarioLoss.map((x) => evidenceOf(ctx, x.f)),
      ),
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Latency-sensitive: round trips, and what tuning gained.

const latencySelectors: FigureSelector[] = [
  { title: "pod-to-pod RTT", select: (f) => f.metric === "pod.rtt" && f.params.services === undefined },
  {
    title: "TCP_RR p99 latency",
    select: (f) => f.metric === "tcp.rr.latency" && paramsMatch(f.params, { percentile: "p99" }, noServiceLoad),
  },
  realisticLatency,
];

const tuningMetrics: FigureSelector[] = [
  { title: "pod-to-pod RTT", select: (f) => f.metric === "pod.rtt" },
  { title: "TCP_RR latency", select: (f) => f.metric === "tcp.rr.latency" },
  { title: "TCP_RR rate", select: (f) => f.metric === "tcp.rr.rate" },
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
      reason(
        "measured",
        "neutral",
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
            const pairs = ctx.figuresOf(tuned.id).flatMap((tf) => {
              if (!m.select(tf)) return [];
              const bf = ctx
                .figuresOf(base.id)
                .find((f) => f.metric === tf.metric && paramsKey(f.params) === paramsKey(tf.params));
              return bf ? [{ bf, tf }] : [];
            });
            const pair = pairs[0];
            if (!pair) continue;
            const verdict = compareFigures(pair.bf, pair.tf);
            const d = verdict.delta?.percent ?? 0;
            const text = `Tuning measured on ${t.label}: ${settingsDiff(base, tuned)} took ${m.title} from ${formatFigure(pair.bf)} to ${formatFigure(pair.tf)} (${formatPercent(d)}; ${tuned.label} against ${base.label})`;
            push(
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

// ---------------------------------------------------------------------------------------------
// Feature costs: policies and flow observability, from raw RPS pairs.

const featureNames: Record<string, Record<string, string>> = {
  policy: { l3l4: "L3/L4 policy", l7: "L7 policy" },
  hubble: { on: "Hubble flow observability" },
};

export type FeatureCost = { reasons: Map<string, Reason[]>; summary: Reason[] };

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
    featureOverheads(
      ctx.figuresOf(s.id).filter((f) => f.metric === "http.rps"),
      { param: spec.param, base: spec.base },
    ).filter((o) => o.overheadPercent !== null);
  const describe = (s: GuideScenario, o: ReturnType<typeof costsOf>[number], where: string) => {
    const name = featureNames[spec.param]?.[String(o.variant)] ?? `${spec.param} ${String(o.variant)}`;
    const d = percentDelta(o.with.value, o.base.value).percent ?? 0;
    return `${name}: ${formatPercent(d)} RPS on the pods it applies to (${formatFigure(o.base)} → ${formatFigure(o.with)}, ${paramWords(o.params)}; ${s.label} on ${where})`;
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
        ? ctxLabel(ctx, s)
        : `${ctxLabel(ctx, s)}, measured outside your scope${own.includes(s) ? "" : ` with the same CNI (${option.cni})`}`;
      for (const o of costsOf(s)) {
        const ev = [o.base, o.with].map((f) => evidenceOf(ctx, f as GuideFigure));
        const effect = String(o.variant) === "l7" ? "against" : "neutral";
        const r = reason("measured", effect, describe(s, o, where), ev);
        push(out.reasons, option.id, r);
        seen.set(`${s.id} ${String(o.variant)}`, r);
      }
    }
  }
  // Summary: every pair seen, grouped by variant.
  const byVariant = new Map<string, { s: GuideScenario; o: ReturnType<typeof costsOf>[number] }[]>();
  for (const s of allScenarios) {
    for (const o of costsOf(s)) {
      if (!seen.has(`${s.id} ${String(o.variant)}`)) continue;
      const v = String(o.variant);
      byVariant.set(v, [...(byVariant.get(v) ?? []), { s, o }]);
    }
  }
  for (const [variant, list] of byVariant) {
    const name = featureNames[spec.param]?.[variant] ?? `${spec.param} ${variant}`;
    const parts = list.map(({ s, o }) => {
      const d = percentDelta(o.with.value, o.base.value).percent ?? 0;
      return `${formatPercent(d)} (${s.label}, ${ctxLabel(ctx, s)})`;
    });
    const l7 = variant === "l7";
    const text = l7
      ? `${name} is a performance cliff where it applies: RPS on the policed pods changed ${listWords(parts)}, because matching traffic is redirected through a per-node proxy. Put L7 rules only on the pods that need them.`
      : `${name} cost ${listWords(parts)} in RPS.`;
    out.summary.push(
      reason(
        "measured",
        l7 ? "against" : "neutral",
        text,
        list.flatMap(({ o }) => [o.base, o.with].map((f) => evidenceOf(ctx, f as GuideFigure))),
      ),
    );
  }
  return out;
}

function ctxLabel(ctx: GuideContext, s: GuideScenario): string {
  return [...ctx.allTestbeds].find((t) => inTestbed(t, s.id))?.label ?? s.provider;
}
