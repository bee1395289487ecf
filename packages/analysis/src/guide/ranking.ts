// How the guide orders the datapaths (issue 39; docs/guide.md is the rule book). Each criterion hands
// over its tests: one figure (metric + params) on one testbed, a figure per option. Two options are
// compared test by test with the verdict the compare page gives; a test where both sit at the ceiling
// (the NIC's line rate or the bare-metal reference, within the metric's margin) does not separate
// them, whatever the verdict. The options no other beats across the board (at least as good on every
// test both were measured in and better on one) come first — the not-beaten set — then the next such
// set among the rest; only within a set do the answers' weights order them, and each option below the
// first says what puts it there.
import { formatNumber, withUnit } from "@cnibench/format";
import { marginPercent } from "../noise-bands.ts";
import type { Better, Figure } from "../types.ts";
import { noClearDifference, type VerdictResult } from "../verdict.ts";
import { judged, judgedBothWays, listWords, scoreAgainstBest, tieWords } from "./figures.ts";
import type { Evidence } from "./types.ts";

/** Where a figure cannot go higher: the NIC's line rate or what bare metal moved in the same test. */
export type Ceiling = { value: number; words: string };

type RankEntry = {
  optionId: string;
  figure: Figure;
  evidence: Evidence[];
  /** Another datapath's figure standing in for this one (a Service-count line read by Service proxy). */
  standIn?: boolean;
};

export type RankTest = {
  /** Unique per answer: criterion, testbed and params. */
  key: string;
  /** The figure in a few words, for the reason lines: "single-stream TCP", "CPU per Gbit/s". */
  what: string;
  /** Where its figures were measured. */
  testbed: string;
  /**
   * Options of other testbeds read it too, by their Service proxy (the Service-count lines): it ranks
   * on every testbed, and says whose figures it reads where they are not that testbed's.
   */
  byProxy?: boolean;
  /** The traffic's own test (short connections against the Service count, or keepalive latency). */
  traffic?: boolean;
  /** The criterion's weight, shared among its tests. */
  weight: number;
  better: Better;
  entries: RankEntry[];
  ceiling: Ceiling | null;
};

/** One test's answer for a pair: who is ahead (null: neither), and why. */
export type PairOutcome = {
  test: RankTest;
  winner: string | null;
  loser: string | null;
  /** Both at the ceiling: the test cannot tell them apart. */
  saturated: boolean;
  /** The loser against the winner, as the verdict judged it (the ratio of the effect, or the headline change). */
  verdict: VerdictResult | null;
};

/** Within the metric's margin of the ceiling: a figure that could not have gone higher. */
export const atCeiling = (ceiling: Ceiling | null, f: Figure): boolean =>
  ceiling !== null && f.value >= ceiling.value * (1 - marginPercent(f.metric) / 100);

/** The pair's outcome in one test, or null when one of them was not measured in it. */
export function comparePair(test: RankTest, a: string, b: string): PairOutcome | null {
  const ea = test.entries.find((e) => e.optionId === a);
  const eb = test.entries.find((e) => e.optionId === b);
  if (!ea || !eb) return null;
  if (atCeiling(test.ceiling, ea.figure) && atCeiling(test.ceiling, eb.figure)) {
    return { test, winner: null, loser: null, saturated: true, verdict: null };
  }
  // Judged both ways: judged one way, the ranking (pairs in the test's order) and a reason line (the
  // winner first) could disagree, and EKS's single runs gave "beaten across the board by …" with no
  // figure to name.
  const v = judgedBothWays(eb.figure, ea.figure);
  if (v.verdict === "better") {
    return { test, winner: a, loser: b, saturated: false, verdict: judged(ea.figure, eb.figure) };
  }
  if (v.verdict === "worse") return { test, winner: b, loser: a, saturated: false, verdict: v };
  return { test, winner: null, loser: null, saturated: false, verdict: v };
}

/**
 * Whether the test puts this option alone at the top: its verdict against every other option there is
 * a win. One level with it (both at the ceiling, or no verdict between them, whichever figure is the
 * higher) shares the top, and one ahead of it tops it: either way the test does not say it measures
 * best (InfraBuilder's 8-stream UDP loss: 22 setups at the same 10.14 %; CPU per Gbit/s: 110 against
 * 111 millicores per Gbit/s, equivalent within ±10 %).
 */
export function topsAlone(test: RankTest, id: string): boolean {
  if (!test.entries.some((e) => e.optionId === id)) return false;
  return test.entries.every((e) => e.optionId === id || comparePair(test, id, e.optionId)?.winner === id);
}

/** What a test can say of the options in it: whether it separates any two, and in words why not. */
export function testStanding(test: RankTest): { separates: boolean; words: string | null } {
  const ids = test.entries.map((e) => e.optionId);
  const saturated = test.entries.filter((e) => atCeiling(test.ceiling, e.figure)).length;
  let separates = false;
  const ties: VerdictResult[] = [];
  for (let i = 0; i < ids.length && !separates; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const o = comparePair(test, ids[i]!, ids[j]!);
      if (o?.winner) {
        separates = true;
        break;
      }
      if (o?.verdict && noClearDifference(o.verdict.verdict)) ties.push(o.verdict);
    }
  }
  if (test.ceiling && saturated === test.entries.length) {
    return { separates: false, words: `all ${test.entries.length} reach ${test.ceiling.words}` };
  }
  if (separates) {
    return {
      separates,
      words:
        test.ceiling && saturated > 1
          ? `${saturated} of ${test.entries.length} reach ${test.ceiling.words} and are not told apart by it`
          : null,
    };
  }
  const weakest = ties.find((t) => t.verdict === "inconclusive") ?? ties[0];
  return { separates: false, words: weakest ? tieWords(weakest) : null };
}

/** "−12 %": the loser against the winner, as the verdict judged it. */
function effectPercent(v: VerdictResult): number | null {
  const e = v.evidence;
  if (e.method === "interval") return (e.ratio - 1) * 100;
  return v.delta?.percent ?? null;
}

const signed = (percent: number) =>
  withUnit(`${percent > 0 ? "+" : percent < 0 ? "−" : ""}${formatNumber(Math.abs(percent), 2)}`, "%");

function pWords(v: VerdictResult): string {
  const e = v.evidence;
  if (e.method === "interval") {
    return e.pAdjusted < 0.001 ? "p < 0.001" : `p = ${formatNumber(e.pAdjusted, 2)}`;
  }
  if (e.method === "noise-band") return `single values, beyond ±${e.marginPercent} %`;
  return "by the published bounds";
}

/**
 * "single-stream TCP −12 % (p = 0.004)": one test a winner takes, from the loser's side; a rate in %
 * (loss) in points, as 10 % against 88 % loss is not "+780 %".
 */
function outcomeWords(o: PairOutcome, side: "loser" | "winner" = "loser"): string {
  const entry = (id: string | null) => o.test.entries.find((e) => e.optionId === id)?.figure;
  const winner = entry(o.winner);
  const loser = entry(o.loser);
  const p = o.verdict ? ` (${pWords(o.verdict)})` : "";
  if (winner?.unit === "%" && loser) {
    const points = (loser.value - winner.value) * (side === "loser" ? 1 : -1);
    return `${o.test.what} ${signed(points).replace(" %", " points")}${p}`;
  }
  const percent = o.verdict ? effectPercent(o.verdict) : null;
  if (percent === null) return `${o.test.what} ${side === "loser" ? "worse" : "better"}${p}`;
  // From the winner's side, the same effect the other way: 1 / ratio.
  return `${o.test.what} ${signed(side === "loser" ? percent : 100 / (1 + percent / 100) - 100)}${p}`;
}

/** The tests a winner takes from a loser, largest effect first. */
function winsOver(tests: readonly RankTest[], winner: string, loser: string): PairOutcome[] {
  return tests
    .flatMap((t) => {
      const o = comparePair(t, winner, loser);
      return o && o.winner === winner ? [o] : [];
    })
    .sort((x, y) => Math.abs(effectPercent(y.verdict!) ?? 0) - Math.abs(effectPercent(x.verdict!) ?? 0));
}

export type Ranking = {
  /**
   * Options measured in a test, with a figure of their own in one asked about and, where the traffic's
   * own test was read, in that one too.
   */
  measured: Set<string>;
  /** Of the others, those measured but not for the traffic, and the traffic's test in words. */
  notForTraffic: { ids: Set<string>; what: string };
  /** Option ids, best first. */
  order: string[];
  /** 1 for the non-dominated set, 2 for the set after it among the rest, … */
  tier: Map<string, number>;
  /** The first-ranked option that beats it across the board, if any. */
  dominatedBy: Map<string, string>;
  /** Whether a beats b across the board: a wins a test from b and b wins none from a. */
  dominates: (a: string, b: string) => boolean;
  /** Whether a and b ran side by side in a test and none of those tests has a winner between them. */
  level: (a: string, b: string) => boolean;
  /** The weighted score that orders options within a tier: 0 (worst) to 1 (best in every test). */
  score: Map<string, number>;
};

/**
 * The options in order: by `group` first (the needs they meet), then by tier, then by score within a
 * tier, then by `tieBreak` (features, name). Options no test reaches keep score 0 and tier 1 of their group.
 * `askedIn` is every test asked about: an option with no figure of its own there, or none in the
 * traffic's own tests when others have one, is not measured.
 */
export function rankOptions(
  ids: readonly string[],
  tests: readonly RankTest[],
  group: (id: string) => number,
  tieBreak: (a: string, b: string) => number,
  askedIn: readonly RankTest[] = tests,
): Ranking {
  const wins = new Map<string, Map<string, number>>();
  for (const a of ids) wins.set(a, new Map());
  for (const test of tests) {
    const here = test.entries.map((e) => e.optionId).filter((id) => wins.has(id));
    for (let i = 0; i < here.length; i++) {
      for (let j = i + 1; j < here.length; j++) {
        const o = comparePair(test, here[i]!, here[j]!);
        if (!o?.winner) continue;
        const loser = o.winner === here[i] ? here[j]! : here[i]!;
        const row = wins.get(o.winner)!;
        row.set(loser, (row.get(loser) ?? 0) + 1);
      }
    }
  }
  const beats = (a: string, b: string) => (wins.get(a)!.get(b) ?? 0) > 0;
  const dominates = (a: string, b: string) => beats(a, b) && !beats(b, a);
  const level = (a: string, b: string) =>
    !beats(a, b) &&
    !beats(b, a) &&
    tests.some((t) => t.entries.some((e) => e.optionId === a) && t.entries.some((e) => e.optionId === b));

  const score = new Map<string, number>();
  const weightSum = new Map<string, number>();
  for (const test of tests) {
    const { scored } = scoreAgainstBest(
      test.entries.map((e) => ({ item: e, figure: e.figure })),
      test.better,
    );
    for (const s of scored) {
      // At the ceiling is as good as the best: the test cannot tell.
      const value = atCeiling(test.ceiling, s.item.figure) ? 1 : s.score;
      score.set(s.item.optionId, (score.get(s.item.optionId) ?? 0) + test.weight * value);
      weightSum.set(s.item.optionId, (weightSum.get(s.item.optionId) ?? 0) + test.weight);
    }
  }
  for (const [id, sum] of score) score.set(id, sum / (weightSum.get(id) || 1));

  const tier = new Map<string, number>();
  const dominatedBy = new Map<string, string>();
  const byGroup = new Map<number, string[]>();
  for (const id of ids) byGroup.set(group(id), [...(byGroup.get(group(id)) ?? []), id]);
  // An option no test measured is beaten by nothing only for want of figures: it comes after every
  // measured one of its group, in a tier of its own, never among the not-beaten. So is one with no
  // figure of its own in any test asked about, whatever stands in for it: Flannel, never measured with
  // encryption, was "not beaten" with encryption asked for on kube-proxy's Service-count line alone.
  // And so is one missing from the traffic's own test while others were read there: kube-router's own
  // Service proxy, never measured with short connections, beat a datapath that was on throughput alone.
  const ran = (ts: readonly RankTest[], standIns: boolean) =>
    new Set(ts.flatMap((t) => t.entries.filter((e) => standIns || !e.standIn).map((e) => e.optionId)));
  const own = ran(askedIn, false);
  const traffic = askedIn.filter((t) => t.traffic);
  const forTraffic = traffic.length > 0 ? ran(traffic, true) : own;
  const inTests = [...ran(tests, true)].filter((id) => own.has(id));
  const measured = new Set(inTests.filter((id) => forTraffic.has(id)));
  const notForTraffic = {
    ids: new Set(inTests.filter((id) => !forTraffic.has(id))),
    what: listWords([...new Set(traffic.map((t) => t.what))]),
  };
  for (const members of byGroup.values()) {
    let rest = members.filter((id) => measured.has(id) || tests.length === 0);
    let level = 1;
    for (; rest.length > 0; level++) {
      const front = rest.filter((b) => !rest.some((a) => a !== b && dominates(a, b)));
      for (const id of front) tier.set(id, level);
      rest = rest.filter((id) => !front.includes(id));
    }
    for (const id of members) if (!tier.has(id)) tier.set(id, Math.max(level, 2));
  }
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  const order = [...ids].sort(
    (a, b) =>
      group(a) - group(b) ||
      tier.get(a)! - tier.get(b)! ||
      (near(score.get(a) ?? 0, score.get(b) ?? 0) ? 0 : (score.get(b) ?? 0) - (score.get(a) ?? 0)) ||
      tieBreak(a, b),
  );
  for (const id of order) {
    // Only a measured option placed anything: an unmeasured one's wins are on the figures it has.
    const by = order.find((a) => a !== id && group(a) === group(id) && measured.has(a) && dominates(a, id));
    if (by) dominatedBy.set(id, by);
  }
  return { measured, notForTraffic, order, tier, dominatedBy, dominates, level, score };
}

/** At most this many tests a reason line names; the rest are counted. */
const namedAtMost = 2;

/** "single-stream TCP −12 % (p = 0.004) and CPU per Gbit/s +30 % (…)" */
function outcomesWords(outcomes: readonly PairOutcome[], side: "loser" | "winner" = "loser"): string {
  const named = outcomes.slice(0, namedAtMost).map((o) => outcomeWords(o, side));
  const more = outcomes.length - named.length;
  return `${listWords(named, namedAtMost)}${more > 0 ? ` and ${more} more figure${more === 1 ? "" : "s"}` : ""}`;
}

/** What the reason line of an option needs to know of it and of its neighbours. */
export type LineSubject = {
  label: string;
  features: number;
  /** Its hard needs not met, in a few words ("misses L7 (HTTP) policy"); null when it meets them all. */
  needsShort: string | null;
};

/**
 * `kind` where the line does not rest on figures: "caveat" when it says the option was not measured
 * where the others were, "capability" when the needs (documentation, or a setup that proves one) put
 * it below.
 */
export type ReasonLine = { text: string; evidence: Evidence[]; kind?: "caveat" | "capability" };

const evidenceOfOutcomes = (outcomes: readonly PairOutcome[], ids: readonly string[]) =>
  outcomes.flatMap((o) => o.test.entries.filter((e) => ids.includes(e.optionId)).flatMap((e) => e.evidence));

/**
 * One line per option: for the first, that nothing beats it across the board and what the next one
 * trails it by; for each below, what puts it below the one above it — the figures that one wins
 * (largest effect first, with the verdict's p-value), else (a tier below it) an option that beats it
 * across the board and not the one above, else that no figure separates the two and what ordered
 * them. `measuredIn` is every test asked about, separating or not: two options no test ran both of
 * (another testbed) are not "level", they were never compared, and the line says so.
 */
export function reasonLines(
  ranking: Ranking,
  tests: readonly RankTest[],
  subject: (id: string) => LineSubject,
  group: (id: string) => number,
  measuredIn: readonly RankTest[] = tests,
): Map<string, ReasonLine> {
  const lines = new Map<string, ReasonLine>();
  const { order } = ranking;
  const ran = (t: RankTest, id: string) => t.entries.some((e) => e.optionId === id);
  const apart = (a: string, b: string) => !measuredIn.some((t) => ran(t, a) && ran(t, b));
  order.forEach((id, i) => {
    const me = subject(id);
    if (i === 0) {
      const next = order[1];
      const trails = next ? winsOver(tests, id, next) : [];
      const lead =
        tests.length === 0
          ? "No figure separates the datapaths for your traffic: first on the needs you ticked and the features it offers"
          : me.needsShort
            ? `Closest to what you asked (${me.needsShort}), and not beaten across the board on the figures`
            : "Not beaten across the board: no datapath is at least as good on every figure you asked about and better on one";
      const after =
        next && trails.length > 0 ? `; ${subject(next).label}, next, trails it: ${outcomesWords(trails)}` : "";
      lines.set(id, { text: `${lead}${after}.`, evidence: evidenceOfOutcomes(trails, [id, next ?? ""]) });
      return;
    }
    const above = order[i - 1]!;
    const them = subject(above);
    if (group(above) !== group(id)) {
      lines.set(id, {
        text: `Below ${them.label} on your needs: it ${me.needsShort ?? "meets fewer of them"}${them.needsShort ? `, where that one ${them.needsShort}` : ""}.`,
        evidence: [],
        kind: "capability",
      });
      return;
    }
    if (tests.length > 0 && !ranking.measured.has(id)) {
      const { ids, what } = ranking.notForTraffic;
      lines.set(id, {
        text: ids.has(id)
          ? `Not measured for your traffic (${what}): listed after those that were.`
          : "Not measured in any figure that separates the datapaths for your question: listed after those that were.",
        evidence: [],
        kind: "caveat",
      });
      return;
    }
    const lost = winsOver(tests, above, id);
    if (lost.length > 0) {
      // Still not beaten across the board? Then it wins something back: say what, or the line reads as a defeat.
      const won = ranking.tier.get(id) === ranking.tier.get(above) ? winsOver(tests, id, above) : [];
      const back = won.length > 0 ? `; ahead of it on ${outcomesWords(won, "winner")}` : "";
      lines.set(id, {
        text: `Behind ${them.label}: ${outcomesWords(lost)}${back}.`,
        evidence: evidenceOfOutcomes([...lost, ...won], [id, above]),
      });
      return;
    }
    const neverBeside = apart(above, id) ? `Not measured beside ${them.label} (no test ran both)` : null;
    const level = neverBeside ?? `Level with ${them.label} on every figure both were measured in`;
    // A tier below the one above: an option of that tier or later beats it across the board, and not
    // the one above, which nothing left at its tier beat. That, not the first option that beats both,
    // is what puts it below ("level with Flannel … beaten by the leader" did not say why it trailed).
    const keeper =
      (ranking.tier.get(id) ?? 0) > (ranking.tier.get(above) ?? 0)
        ? order.find(
            (z) =>
              z !== id &&
              group(z) === group(id) &&
              (ranking.tier.get(z) ?? 0) >= (ranking.tier.get(above) ?? 0) &&
              ranking.dominates(z, id),
          )
        : undefined;
    if (keeper) {
      const beaten = winsOver(tests, keeper, id);
      lines.set(id, {
        text: `${level}; unlike it, beaten across the board by ${subject(keeper).label}: ${outcomesWords(beaten)}.`,
        evidence: evidenceOfOutcomes(beaten, [id, keeper]),
      });
      return;
    }
    const a = ranking.score.get(above) ?? 0;
    const b = ranking.score.get(id) ?? 0;
    const why =
      tests.length > 0 && Math.abs(a - b) > 1e-9
        ? `listed after it as further from the best${neverBeside ? " of its own testbed" : ""} on the figures your answers weigh`
        : Math.abs(them.features - me.features) > 1e-9
          ? `listed after it on features (${formatNumber(me.features, 2)} against ${formatNumber(them.features, 2)} of those counted)`
          : "listed after it by name";
    // In the same tier as the one above: what beats it across the board beats it out of the first places,
    // not below that one; the order within the tier says why it comes after.
    const by = ranking.dominatedBy.get(id);
    if (by) {
      const beaten = winsOver(tests, by, id);
      lines.set(id, {
        text: `${level}: ${why}; beaten across the board by ${subject(by).label}: ${outcomesWords(beaten)}.`,
        evidence: evidenceOfOutcomes(beaten, [id, by]),
      });
      return;
    }
    lines.set(id, { text: `${neverBeside ?? `No figure separates it from ${them.label}`}: ${why}.`, evidence: [] });
  });
  return lines;
}
