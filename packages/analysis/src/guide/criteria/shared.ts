// What the guide's measured criteria share: the context they read, the result they return, and the
// helpers for testbeds, evidence and wording that more than one of them uses.
import { formatCount } from "@cnibench/format";
import { isReferenceCni } from "@cnibench/schema";
import { percentDelta } from "../../delta.ts";
import type { VerdictResult } from "../../verdict.ts";
import { reason, type Testbed, testbedKey, tieWords, toEvidence, weakestTie } from "../figures.ts";
import { type Datapath, type DatapathOption, encryptionOf } from "../options.ts";
import type { GuideAnswers } from "../questions.ts";
import type { RankTest } from "../ranking.ts";
import type { Evidence, GuideFigure, GuideScenario, Reason, ReasonEffect } from "../types.ts";

export type GuideContext = {
  answers: GuideAnswers;
  scenario: (id: string) => GuideScenario | undefined;
  /** A scenario's figures, in the input's order; with a metric, only that metric's. */
  figuresOf: (scenarioId: string, metric?: string) => readonly GuideFigure[];
  datapathOf: (scenarioId: string) => Datapath | undefined;
  /** Testbeds of the scenarios in scope (the chosen cloud and instance type, or their fallback). */
  scopedTestbeds: Testbed[];
  /** Every testbed, for criteria nothing in scope measured. */
  allTestbeds: Testbed[];
  /** The options being ranked (references never are). */
  options: DatapathOption[];
  /** The scope in words, as "no measurements on …" says it: "On-premises bare-metal-40g", "EKS". */
  scopeLabel: string;
  /** The user needs encryption in transit: throughput and CPU are read from encrypted setups. */
  encryption: boolean;
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
  /**
   * Its figures come from outside the scope asked about (another cloud or instance type): shown as the
   * closest evidence, named as such, and never ranked on.
   */
  closest: boolean;
  /** What it compares, for the lead sentence: "TCP throughput", "the cost of encryption". */
  what: string;
  /** The tests the ranking compares options in (ranking.ts): in scope only, never the closest evidence. */
  tests: RankTest[];
  reasons: Map<string, Reason[]>;
  summary: Reason[];
  caveats: Reason[];
};

export function emptyCriterion(key: string, weight: number, what = key): CriterionResult {
  return {
    key,
    weight,
    measured: false,
    level: true,
    levelWords: null,
    closest: false,
    what,
    tests: [],
    reasons: new Map(),
    summary: [],
    caveats: [],
  };
}

/** The value under `key`, made and stored first if there is none. */
export function keptIn<K extends object | string, V>(
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

/** Adds a value to the list under `key`, starting the list if there is none. */
export function addTo<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A caveat: said, never for or against an option. */
export const caveat = (text: string, evidence: Evidence[] = []): Reason => reason("caveat", "neutral", text, evidence);

/** A measured finding, said as information: neither for nor against an option. */
export const finding = (text: string, evidence: Evidence[] = []): Reason =>
  reason("measured", "neutral", text, evidence);

export { encryptionOf };

/** " with encryption" where encryption was asked for and every setup a summary reads ran with it; else "". */
export const encryptedWords = (ctx: GuideContext, scenarios: readonly GuideScenario[]): string =>
  ctx.encryption && scenarios.every((s) => encryptionOf(s) !== null) ? " with encryption" : "";

export const evidenceOf = (ctx: GuideContext, f: GuideFigure): Evidence => toEvidence(f, ctx.scenario(f.scenarioId));

// Looked up in a set: a search of the testbed's scenarios per scenario made the guide quadratic in them.
const testbedIds = new WeakMap<Testbed, Set<string>>();
export function inTestbed(t: Testbed, id: string): boolean {
  let ids = testbedIds.get(t);
  if (!ids) {
    ids = new Set(t.scenarios.map((s) => s.id));
    testbedIds.set(t, ids);
  }
  return ids.has(id);
}

// Kept per testbed and option: every criterion asks again for the same pairs. Each option's scenarios
// are sorted by testbed once: filtering all of them for every testbed was a twentieth of the ranking.
const scenariosOn = new WeakMap<Testbed, WeakMap<DatapathOption, readonly GuideScenario[]>>();
const byTestbed = new WeakMap<DatapathOption, Map<string, GuideScenario[]>>();

/** The option's scenarios on a testbed. */
export const optionScenarios = (o: DatapathOption, t: Testbed): readonly GuideScenario[] =>
  keptIn(
    keptIn(scenariosOn, t, () => new WeakMap()),
    o,
    () => {
      const grouped = keptIn(byTestbed, o, () => {
        const out = new Map<string, GuideScenario[]>();
        for (const s of o.scenarios) addTo(out, testbedKey(s), s);
        return out;
      });
      return (grouped.get(t.key) ?? []).filter((s) => inTestbed(t, s.id));
    },
  );

// Kept per CNI name (a store has a few dozen): resolving one takes a slug, and every scenario is asked about.
const referenceCnis = new Map<string, boolean>();

/** A reference (bare metal, host network): the yardstick datapaths are read against, never an option. */
export const isReference = (s: GuideScenario) => keptIn(referenceCnis, s.cni.name, () => isReferenceCni(s.cni.name));

// Kept per testbed: telling a reference by its CNI's name takes a slug, and each figure compared asks.
const references = new WeakMap<Testbed, readonly GuideScenario[]>();

/** The references measured on a testbed. */
export const referencesOn = (t: Testbed) => keptIn(references, t, () => t.scenarios.filter(isReference));

/**
 * The scenarios that stand for an option on a testbed in the throughput, UDP and CPU criteria: with
 * encryption in transit asked for, its encrypted setups (what the user will run); else every one.
 */
export function standingScenarios(ctx: GuideContext, o: DatapathOption, t: Testbed): readonly GuideScenario[] {
  const here = optionScenarios(o, t);
  return ctx.encryption ? here.filter((s) => encryptionOf(s) !== null) : here;
}

/** A figure's services param: the steps of a line against the Service count. */
export const servicesOf = (f: GuideFigure) => f.params.services as number;

/** A change in percent, 0 when there is no base to take it from. */
export const changePercent = (value: number, base: number) => percentDelta(value, base).percent ?? 0;

/**
 * ", level with 2 others": what the best of a table says when verdicts put others level with it, so
 * "the best here" never reads as a lone best (110 against 111 millicores per Gbit/s within ±10 %).
 */
export function levelWithIt(entries: readonly { levelWithBest: boolean }[], best: object): string {
  const others = entries.filter((e) => e !== best && e.levelWithBest).length;
  return others === 0 ? "" : `, level with ${formatCount(others)} other${others === 1 ? "" : "s"}`;
}

/**
 * For an option that scored: "for" at the best, "against" at the worst, else neutral; always neutral
 * when there was nothing to compare it with.
 */
export function scoreEffect(score: number, compared: number): ReasonEffect {
  if (compared < 2) return "neutral";
  return score >= 0.999 ? "for" : score <= 0.001 ? "against" : "neutral";
}

/** "Pod-to-pod RTT"; percentiles keep their lower-case p ("p99 HTTP latency"). */
export function capitalise(s: string): string {
  return /^p\d/.test(s) ? s : s.charAt(0).toUpperCase() + s.slice(1);
}

/** The tie that words a table no verdict separates; null when some option is apart from the best. */
export function levelTie(
  entries: readonly { levelWithBest: boolean; versusBest: VerdictResult | null }[],
): VerdictResult | null {
  return entries.every((e) => e.levelWithBest) ? weakestTie(entries.map((e) => e.versusBest)) : null;
}

export const wordsOf = (tie: VerdictResult | null) => (tie ? tieWords(tie) : null);
