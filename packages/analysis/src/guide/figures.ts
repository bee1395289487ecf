// Small helpers the guide's criteria share: testbeds, picking figures, evidence, wording.
import { vocabularyLabel } from "@cnibench/schema";
import { resolveBetter } from "../better.ts";
import { median } from "../distribution.ts";
import { paramsKey } from "../params-key.ts";
import type { Better, Figure, Params } from "../types.ts";
import { compareFigures, noClearDifference, type VerdictResult } from "../verdict.ts";
import type { Evidence, GuideFigure, GuideScenario, Reason, ReasonEffect, ReasonKind } from "./types.ts";

/** Where figures can be compared: one cloud and one instance type. */
export type Testbed = { key: string; provider: string; sku: string; label: string; scenarios: GuideScenario[] };

const shortProviders: Record<string, string> = { tke: "TKE", eks: "EKS", aks: "AKS", gke: "GKE", ack: "ACK" };

export function providerName(slug: string): string {
  return shortProviders[slug] ?? vocabularyLabel("provider", slug) ?? slug;
}

// In parentheses where the source gave no instance type: "AKS instance type not published" read as
// one name in a list of testbeds.
function testbedOf(s: GuideScenario): { key: string; label: string } {
  const sku = s.sku === "unknown" ? "(instance type not published)" : s.sku;
  return { key: testbedKey(s), label: `${providerName(s.provider)} ${sku}` };
}

/** A testbed is a cloud and an instance type: what its key says. */
export const testbedKey = (s: GuideScenario) => `${s.provider}\u0000${s.sku}`;

/** Testbeds in the order their first scenario comes. */
export function testbedsOf(scenarios: readonly GuideScenario[]): Testbed[] {
  const out = new Map<string, Testbed>();
  for (const s of scenarios) {
    const { key, label } = testbedOf(s);
    const t = out.get(key);
    if (t) t.scenarios.push(s);
    else out.set(key, { key, provider: s.provider, sku: s.sku, label, scenarios: [s] });
  }
  return [...out.values()];
}

// Evidence kept per figure object (with the scenario it was named from): a figure is cited by many
// reasons, in each answer and the next (a server hands out the same objects until an upload touches
// them). Params keys are kept per params object by paramsKey itself.
const keptEvidence = new WeakMap<GuideFigure, { scenario: GuideScenario | undefined; evidence: Evidence }>();

export function toEvidence(f: GuideFigure, scenario: GuideScenario | undefined): Evidence {
  const kept = keptEvidence.get(f);
  if (kept && kept.scenario === scenario) return kept.evidence;
  const evidence = evidenceFrom(f, scenario);
  keptEvidence.set(f, { scenario, evidence });
  return evidence;
}

function evidenceFrom(f: GuideFigure, scenario: GuideScenario | undefined): Evidence {
  return {
    scenarioId: f.scenarioId,
    scenarioLabel: scenario?.label ?? f.scenarioId,
    bundleId: f.bundleId,
    metric: f.metric,
    params: { ...f.params },
    value: f.value,
    unit: f.unit,
    qualifier: f.qualifier ?? null,
    low: f.low ?? null,
    high: f.high ?? null,
  };
}

export function reason(
  kind: ReasonKind,
  effect: ReasonEffect,
  text: string,
  evidence: Evidence[] = [],
  sources: Reason["sources"] = [],
): Reason {
  const approximate = evidence.some((e) => e.qualifier !== null);
  // An approximate or bounded figure is never used without saying so.
  const said = approximate && !/approximate/.test(text) ? `${text} (rests on an approximate or bounded figure)` : text;
  return { text: said, kind, effect, evidence, evidenceCount: evidence.length, sources, approximate, rest: null };
}

/**
 * How many of a reason's figures, an option's scenarios, the summary's findings and an option's
 * measured reasons an answer lists; the rest are counted. A store of a thousand scenarios gave one
 * reason 2,247 figures and the answer 750 kB.
 */
export const listedAtMost = 12;

/**
 * Reasons saying the same words as one, their figures and sources together (scenarios that share a
 * label on one testbed give the same sentence), the first `shown` of them, and how many were left out.
 * `keep` reasons are always listed and never counted out.
 */
export function listFindings(
  reasons: readonly Reason[],
  shown: number,
  keep: (r: Reason) => boolean = () => false,
): { reasons: Reason[]; more: number } {
  const byText = new Map<string, Reason>();
  for (const r of reasons) {
    const same = byText.get(r.text);
    byText.set(
      r.text,
      same ? { ...same, evidence: [...same.evidence, ...r.evidence], sources: [...same.sources, ...r.sources] } : r,
    );
  }
  let counted = 0;
  const listed: Reason[] = [];
  for (const r of byText.values()) {
    if (keep(r)) listed.push(r);
    else if (++counted <= shown) listed.push(r);
  }
  return { reasons: listed.map(trimEvidence), more: Math.max(0, counted - shown) };
}

// Kept per evidence object, as the evidence itself is per figure: answers list the same figures again
// and again, and building each one's key per reason was a twentieth of the guide's ranking.
const evidenceKeys = new WeakMap<Evidence, string>();

function evidenceKey(e: Evidence): string {
  let key = evidenceKeys.get(e);
  if (key === undefined) {
    key = `${e.bundleId} ${e.metric} ${paramsKey(e.params)}`;
    evidenceKeys.set(e, key);
  }
  return key;
}

/** The reason with its figures deduplicated (the first per bundle, metric and params) and cut to `listedAtMost`. */
export function trimEvidence(r: Reason): Reason {
  const seen = new Set<string>();
  const distinct = r.evidence.filter((e) => {
    const key = evidenceKey(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { ...r, evidence: distinct.slice(0, listedAtMost), evidenceCount: distinct.length };
}

/** Params equal to `want` on every key of `want`, and without any of `absent`. */
export function paramsMatch(params: Params, want: Params, absent: readonly string[] = []): boolean {
  return Object.entries(want).every(([k, v]) => params[k] === v) && absent.every((k) => params[k] === undefined);
}

/**
 * The best of some figures by the metric's direction; exact figures win over qualified ones, which
 * count only when nothing exact exists (as in the explorer's key figures).
 */
export function bestOf(figures: readonly GuideFigure[], better?: Better): GuideFigure | undefined {
  const exact = figures.filter((f) => !f.qualifier);
  const pool = exact.length > 0 ? exact : figures;
  const first = pool[0];
  if (!first) return undefined;
  const direction = better ?? resolveBetter(first.metric, first.better);
  return pool.reduce((a, f) => ((direction === "lower" ? f.value < a.value : f.value > a.value) ? f : a));
}

/** A scenario's figures, all of them and by metric: the criteria read a metric or two, many times over. */
export type ScenarioFigures = { all: readonly GuideFigure[]; byMetric: ReadonlyMap<string, readonly GuideFigure[]> };

// Kept per scenario object with the figure objects they were sorted from: a server hands out the same
// ones until an upload touches them (apps/web guide-figures.ts), and sorting a 1,000-scenario store's
// 16,000 figures again for every answer was a fifth of the ranking. An entry goes with its scenario.
const keptFigures = new WeakMap<GuideScenario, ScenarioFigures>();

/**
 * Each scenario's figures. Stores hand out a scenario's figures together, and each such run is
 * compared with the one kept for its scenario; figures that are not together are sorted afresh.
 */
export function figuresByScenario(
  figures: readonly GuideFigure[],
  scenarios: ReadonlyMap<string, GuideScenario>,
): Map<string, ScenarioFigures> {
  const out = new Map<string, ScenarioFigures>();
  for (let i = 0; i < figures.length; ) {
    const id = figures[i]!.scenarioId;
    let end = i + 1;
    while (end < figures.length && figures[end]!.scenarioId === id) end++;
    if (out.has(id)) return sortedFigures(figures);
    const scenario = scenarios.get(id);
    const kept = scenario && keptFigures.get(scenario);
    if (kept && kept.all.length === end - i && kept.all.every((f, k) => f === figures[i + k])) out.set(id, kept);
    else {
      const made = byMetric(figures.slice(i, end));
      if (scenario) keptFigures.set(scenario, made);
      out.set(id, made);
    }
    i = end;
  }
  return out;
}

function sortedFigures(figures: readonly GuideFigure[]): Map<string, ScenarioFigures> {
  const lists = new Map<string, GuideFigure[]>();
  for (const f of figures) {
    const list = lists.get(f.scenarioId);
    if (list) list.push(f);
    else lists.set(f.scenarioId, [f]);
  }
  return new Map([...lists].map(([id, all]) => [id, byMetric(all)]));
}

function byMetric(all: readonly GuideFigure[]): ScenarioFigures {
  const lists = new Map<string, GuideFigure[]>();
  for (const f of all) {
    const list = lists.get(f.metric);
    if (list) list.push(f);
    else lists.set(f.metric, [f]);
  }
  return { all, byMetric: lists };
}

/**
 * One option's figure in one test from the figures of its setups: one setup's as it is; setups of the
 * same datapath (same CNI, mode, Service proxy, encryption and observability: options.ts) pooled as
 * runs — every run of each, their median the value — never the best of them, which would let luck or
 * another setting speak for the option. Exact figures are pooled; a bounded or approximate one counts
 * only when nothing exact exists, as bestOf has it.
 */
export function pooledFigure(figures: readonly GuideFigure[]): GuideFigure | undefined {
  const exact = figures.filter((f) => !f.qualifier);
  if (exact.length === 0) return bestOf(figures);
  if (exact.length === 1) return exact[0];
  const kept = keptPools.get(exact[0]!);
  if (kept?.from.length === exact.length && kept.from.every((f, i) => f === exact[i])) return kept.pooled;
  const runs = exact.flatMap((f) => (f.samples && f.samples.length > 0 ? f.samples : [f.value]));
  // A pooled series has no single history to take its noise from: its runs are the noise.
  const pooled = { ...exact[0]!, value: median(runs), samples: runs, history: null };
  keptPools.set(exact[0]!, { from: exact, pooled });
  return pooled;
}

// Pools kept under their first figure object with every figure they were made from, and verdicts per
// pair of figure objects: a server hands out the same figure objects until an upload touches them
// (apps/web guide-figures.ts), and the criteria, the ranking and its reason lines judge the same pairs
// again and again (a table's scores, every pair of a test, neighbours). An entry goes with its figures.
const keptPools = new WeakMap<GuideFigure, { from: readonly GuideFigure[]; pooled: GuideFigure }>();
const keptVerdicts = new WeakMap<Figure, WeakMap<Figure, VerdictResult>>();

/** compareFigures(baseline, candidate), computed once per pair of figure objects. */
export function judged(baseline: Figure, candidate: Figure): VerdictResult {
  let byCandidate = keptVerdicts.get(baseline);
  if (!byCandidate) {
    byCandidate = new WeakMap();
    keptVerdicts.set(baseline, byCandidate);
  }
  let verdict = byCandidate.get(candidate);
  if (!verdict) {
    verdict = compareFigures(baseline, candidate);
    byCandidate.set(candidate, verdict);
  }
  return verdict;
}

/**
 * The candidate against the baseline, a clear difference only when judged so both ways, else the tie
 * found (for its words): a single run's band is a share of its baseline, so 10.0 against 9.51 Gbit/s
 * is +5.15 %, beyond ±5 %, and 9.51 against 10.0 is −4.9 %, within. The ranking's pairs (comparePair)
 * and the cards' standing against the best (scoreAgainstBest) read the same answer.
 */
export function judgedBothWays(baseline: Figure, candidate: Figure): VerdictResult {
  const there = judged(baseline, candidate);
  if (noClearDifference(there.verdict)) return there;
  const back = judged(candidate, baseline);
  return noClearDifference(back.verdict) ? back : there;
}

export type Scored<T> = {
  item: T;
  score: number;
  /** The best itself, or its verdict against the best finds no clear difference (equivalent, small but real, inconclusive). */
  levelWithBest: boolean;
  /** Null for the best itself: compared with itself, noisy runs would read as inconclusive. */
  versusBest: VerdictResult | null;
};

/**
 * Places values between the worst (0) and the best (1) of a set. A value whose verdict against the
 * best (judgedBothWays) finds no clear difference scores 1: the data do not put the best ahead, and
 * an inconclusive difference is no win either. `level` says every value is so, i.e. the measurement
 * does not separate them.
 */
export function scoreAgainstBest<T>(
  entries: readonly { item: T; figure: Figure }[],
  better: Better,
): { scored: Scored<T>[]; level: boolean; best: Figure | undefined; worst: Figure | undefined } {
  if (entries.length === 0) return { scored: [], level: true, best: undefined, worst: undefined };
  const pick = (cmp: (a: number, b: number) => boolean) =>
    entries.reduce((a, e) => (cmp(e.figure.value, a.figure.value) ? e : a)).figure;
  const best = pick(better === "lower" ? (a, b) => a < b : (a, b) => a > b);
  const worst = pick(better === "lower" ? (a, b) => a > b : (a, b) => a < b);
  const span = best.value - worst.value;
  const scored = entries.map((e) => {
    const versusBest = e.figure === best ? null : judgedBothWays(best, e.figure);
    const levelWithBest = versusBest === null || noClearDifference(versusBest.verdict);
    const score = levelWithBest || span === 0 ? 1 : (e.figure.value - worst.value) / span;
    return { item: e.item, score, levelWithBest, versusBest };
  });
  return { scored, level: scored.every((s) => s.levelWithBest), best, worst };
}

/**
 * A verdict that finds no clear difference, in the guide's words: "equivalent within ±5 %" (and "on a
 * single value" when a side has one, an indicative verdict), "a small but real difference",
 * "inconclusive at these runs".
 */
export function tieWords(r: VerdictResult): string {
  if (r.verdict === "small-but-real") return "a small but real difference";
  if (r.verdict === "inconclusive") return "inconclusive at these runs";
  const e = r.evidence;
  if (r.verdict === "equivalent" && (e.method === "interval" || e.method === "noise-band")) {
    return `equivalent within ±${e.marginPercent} %${e.method === "noise-band" ? " on a single value" : ""}`;
  }
  throw new Error(`a ${r.verdict} verdict (${e.method}) is a clear difference or none at all, not a tie`);
}

// The least certain tie words a set: one inconclusive pair makes the set inconclusive, one single value indicative.
const tieOrder = (r: VerdictResult) =>
  r.verdict === "inconclusive" ? 0 : r.verdict === "small-but-real" ? 1 : r.evidence.method === "noise-band" ? 2 : 3;

/** Of the verdicts on a set, the tie that words it: the least certain one; null when none ties. */
export function weakestTie(results: readonly (VerdictResult | null)[]): VerdictResult | null {
  const ties = results.filter((r): r is VerdictResult => r !== null && noClearDifference(r.verdict));
  return ties.length === 0 ? null : ties.reduce((a, r) => (tieOrder(r) < tieOrder(a) ? r : a));
}

/**
 * How many names a sentence lists at most; the rest are counted ("and 5 more") and linked. One
 * sentence listing ninety scenario names reads as none.
 */
export const handful = 4;

/** "a, b and c"; past `atMost` (a handful) names, "a, b, c, d and 5 more". */
export function listWords(items: readonly string[], atMost = handful): string {
  if (items.length > atMost) return `${items.slice(0, atMost).join(", ")} and ${items.length - atMost} more`;
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * The explorer's filters that list the scenarios a sentence left out after the first handful, or
 * null when it left none out.
 */
export function restOf(scenarios: readonly GuideScenario[], atMost = handful): Reason["rest"] {
  const left = scenarios.slice(atMost);
  if (left.length === 0) return null;
  const values = (pick: (s: GuideScenario) => string) => [...new Set(left.map(pick))].sort();
  return {
    count: left.length,
    explore: {
      provider: values((s) => s.provider),
      sku: values((s) => s.sku),
      cni: values((s) => s.cni.name),
      mode: values((s) => s.cni.mode),
      kubeProxy: values((s) => s.cni.kubeProxy),
    },
  };
}

/** A reason with the scenarios its text left out linked (restOf). */
export const withRest = (r: Reason, scenarios: readonly GuideScenario[]): Reason => ({ ...r, rest: restOf(scenarios) });
