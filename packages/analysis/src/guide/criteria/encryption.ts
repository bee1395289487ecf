// The cost of encryption in transit: throughput and CPU of a CNI with WireGuard or IPsec against the
// same CNI without it, from scenarios on one testbed whose cni.settings.encryption differs and whose
// configuration otherwise matches as closely as the data allow (mode, Service proxy, other settings);
// what still differs is said.
import { formatComputed, formatCount, formatFigure, formatPercent } from "@cnibench/format";
import type { Figure } from "../../types.ts";
import { listWords, reason, type Scored, scoreAgainstBest, type Testbed, withRest } from "../figures.ts";
import type { DatapathOption } from "../options.ts";
import type { GuideFigure, GuideScenario, Reason } from "../types.ts";
import { accountingWords, comparableCpu, cpuPerGbitWords, type Derived } from "./efficiency.ts";
import { closestCaveat, type FigureSelector, figureRange, selectedFigures } from "./figure-criterion.ts";
import {
  addTo,
  type CriterionResult,
  caveat,
  emptyCriterion,
  encryptionOf,
  evidenceOf,
  finding,
  type GuideContext,
  inTestbed,
  isReference,
  levelTie,
  scoreEffect,
  wordsOf,
} from "./shared.ts";
import { testWords, throughputSelectors } from "./throughput.ts";

/** Settings that say encryption, which a pair differs in by definition. */
const isEncryptionSetting = (key: string) => /^encryption(\.|$)/i.test(key);

const family = (mode: string) => (mode.startsWith("overlay") ? "overlay" : mode);

/**
 * How an unencrypted scenario's configuration differs from an encrypted one's, encryption aside, in
 * words; and how far apart that is (a mode or Service proxy counts twice, within the overlay family once).
 */
function differences(encrypted: GuideScenario, plain: GuideScenario): { words: string[]; distance: number } {
  const words: string[] = [];
  let distance = 0;
  if (encrypted.cni.mode !== plain.cni.mode) {
    words.push(`mode ${plain.cni.mode} against ${encrypted.cni.mode}`);
    distance += family(encrypted.cni.mode) === family(plain.cni.mode) ? 1 : 2;
  }
  if (encrypted.cni.kubeProxy !== plain.cni.kubeProxy) {
    words.push(`Service proxy ${plain.cni.kubeProxy} against ${encrypted.cni.kubeProxy}`);
    distance += 2;
  }
  const keys = new Set([...Object.keys(encrypted.cni.settings), ...Object.keys(plain.cni.settings)]);
  const settings = [...keys].filter(
    (k) => !isEncryptionSetting(k) && encrypted.cni.settings[k] !== plain.cni.settings[k],
  );
  if (settings.length > 0) words.push(`settings ${listWords(settings)}`);
  distance += settings.length;
  if (encrypted.kernel !== plain.kernel) {
    words.push(`kernel ${plain.kernel} against ${encrypted.kernel}`);
    distance += 1;
  }
  return { words, distance };
}

/** An encrypted setup and the closest setup of the same CNI without encryption on its testbed. */
export type EncryptionPair = { testbed: Testbed; encrypted: GuideScenario; plain: GuideScenario; differs: string[] };

/** Every encrypted setup on the testbeds, each with its closest unencrypted partner of the same CNI. */
export function encryptionPairs(testbeds: readonly Testbed[]): EncryptionPair[] {
  return testbeds.flatMap((t) =>
    t.scenarios.flatMap((encrypted) => {
      if (isReference(encrypted) || encryptionOf(encrypted) === null) return [];
      const partners = t.scenarios
        .filter((s) => s.cni.name === encrypted.cni.name && encryptionOf(s) === null && !isReference(s))
        .map((plain) => ({ plain, ...differences(encrypted, plain) }))
        .sort((a, b) => a.distance - b.distance || a.plain.label.localeCompare(b.plain.label));
      const best = partners[0];
      return best ? [{ testbed: t, encrypted, plain: best.plain, differs: best.words }] : [];
    }),
  );
}

/** What a pair measured: the same test on both sides, and the derived shares. */
type PairCost = {
  pair: EncryptionPair;
  selector: FigureSelector;
  encrypted: GuideFigure;
  plain: GuideFigure;
  /** The share of the throughput kept, in %, with the encrypted runs over the unencrypted median. */
  kept: Figure;
  udp: { encrypted: GuideFigure; plain: GuideFigure } | null;
  cpu: { encrypted: Derived; plain: Derived } | null;
};

/** The first selector both sides have a figure for. */
function sameTest(ctx: GuideContext, selectors: readonly FigureSelector[], a: GuideScenario, b: GuideScenario) {
  for (const selector of selectors) {
    const fa = selectedFigures(ctx, a.id, selector)[0];
    const fb = selectedFigures(ctx, b.id, selector)[0];
    if (fa && fb) return { selector, a: fa, b: fb };
  }
  return undefined;
}

/**
 * The share of throughput kept: the encrypted figure over the unencrypted one, in %. Its runs are the
 * encrypted runs over the unencrypted median (runs of two setups are not paired), so the verdicts
 * between options see the encrypted side's run-to-run noise.
 */
function keptShare(encrypted: GuideFigure, plain: GuideFigure): Figure {
  const share = (v: number) => (v / plain.value) * 100;
  return {
    metric: "x.encryption.kept",
    unit: "%",
    value: share(encrypted.value),
    better: "higher",
    ...(encrypted.samples && encrypted.samples.length > 1 ? { samples: encrypted.samples.map(share) } : {}),
  };
}

function pairCost(ctx: GuideContext, pair: EncryptionPair): PairCost | undefined {
  const tcp = sameTest(ctx, throughputSelectors(ctx, "tcp"), pair.encrypted, pair.plain);
  if (!tcp || tcp.b.value <= 0) return undefined;
  const udp = sameTest(ctx, throughputSelectors(ctx, "udp"), pair.encrypted, pair.plain);
  const both = comparableCpu(ctx, tcp.a, tcp.b);
  const [cpuE, cpuP] = both ?? [undefined, undefined];
  return {
    pair,
    selector: tcp.selector,
    encrypted: tcp.a,
    plain: tcp.b,
    kept: keptShare(tcp.a, tcp.b),
    udp: udp ? { encrypted: udp.a, plain: udp.b } : null,
    cpu: cpuE && cpuP ? { encrypted: cpuE, plain: cpuP } : null,
  };
}

const percent = (v: number) => formatPercent(v, 0, false);

function costWords(c: PairCost): string {
  const { encrypted: e, plain: p } = c.pair;
  const test = testWords(c.encrypted.params);
  const parts = [
    `${e.label} keeps ${percent(c.kept.value)} of ${p.label}'s TCP throughput (${formatFigure(c.encrypted)} against ${formatFigure(c.plain)}${test ? `, ${test}` : ""})`,
  ];
  if (c.cpu) {
    parts.push(
      `spends ${formatComputed(c.cpu.encrypted.figure.value / c.cpu.plain.figure.value)}× the CPU per Gbit/s (${cpuPerGbitWords(c.cpu.encrypted)} against ${cpuPerGbitWords(c.cpu.plain)}; ${c.cpu.encrypted.accounting === "all-modes" ? "every CPU mode" : accountingWords[c.cpu.encrypted.accounting]})`,
    );
  }
  if (c.udp) {
    parts.push(
      `keeps ${percent((c.udp.encrypted.value / c.udp.plain.value) * 100)} of its UDP throughput received (${formatFigure(c.udp.encrypted)} against ${formatFigure(c.udp.plain)})`,
    );
  }
  const differs = c.pair.differs.length > 0 ? `; the pair also differs in ${c.pair.differs.join(", ")}` : "";
  return `With ${encryptionOf(e)}, ${listWords(parts, parts.length)} on ${c.pair.testbed.label}${differs}`;
}

const costEvidence = (ctx: GuideContext, c: PairCost) =>
  [
    c.plain,
    c.encrypted,
    ...(c.udp ? [c.udp.plain, c.udp.encrypted] : []),
    ...(c.cpu ? [...c.cpu.plain.from.slice(1), ...c.cpu.encrypted.from.slice(1)] : []),
  ].map((f) => evidenceOf(ctx, f));

/**
 * The cost of encryption as a criterion (when encryption in transit is asked for): each option scored
 * by the share of TCP throughput its best-measured encrypted setup keeps against the same CNI without
 * encryption; each pair said with its throughput, CPU per Gbit/s and UDP throughput.
 */
export function encryptionCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const result = emptyCriterion("encryption", weight, "the cost of encryption");
  const measure = (testbeds: readonly Testbed[]) => encryptionPairs(testbeds).flatMap((p) => pairCost(ctx, p) ?? []);
  const scoped = measure(ctx.scopedTestbeds);
  const costs = scoped.length > 0 ? scoped : measure(ctx.allTestbeds);
  if (costs.length === 0) {
    result.caveats.push(
      caveat(
        "No setup was measured both with and without encryption: the guide cannot say what WireGuard or IPsec costs on these datapaths.",
      ),
    );
    return result;
  }
  if (scoped.length === 0) {
    result.closest = true;
    result.caveats.push(
      closestCaveat(
        ctx,
        "cost of encryption",
        costs.map((c) => c.pair.testbed),
      ),
    );
  }
  result.measured = true;
  const optionOf = (s: GuideScenario): DatapathOption | undefined => ctx.options.find((o) => o.scenarios.includes(s));

  const testbeds = [...new Set(costs.map((c) => c.pair.testbed))];
  const scoredAll: Scored<string>[] = [];
  // The options a pair costed: the others are told why none did.
  const costed = new Set<string>();
  for (const t of testbeds) {
    const here = costs.filter((c) => c.pair.testbed === t).sort((a, b) => b.kept.value - a.kept.value);
    // Each option by its setup that keeps the most.
    const best = new Map<string, PairCost>();
    for (const c of here) {
      const o = optionOf(c.pair.encrypted);
      if (o && !best.has(o.id)) best.set(o.id, c);
    }
    const { scored } = scoreAgainstBest(
      [...best.entries()].map(([id, c]) => ({ item: id, figure: c.kept })),
      "higher",
    );
    scoredAll.push(...scored);
    if (!result.closest) {
      result.tests.push({
        key: `encryption ${t.key}`,
        what: "throughput kept with encryption",
        testbed: t.label,
        weight,
        better: "higher",
        entries: [...best.entries()].map(([optionId, c]) => ({
          optionId,
          figure: c.kept,
          evidence: costEvidence(ctx, c),
        })),
        ceiling: null,
      });
    }
    const scoreOf = new Map(scored.map((s) => [s.item, s]));
    for (const c of here) {
      const o = optionOf(c.pair.encrypted);
      if (!o) continue;
      const s = scoreOf.get(o.id)!;
      costed.add(o.id);
      const effect = best.get(o.id) === c ? scoreEffect(s.score, scored.length) : "neutral";
      addTo(result.reasons, o.id, reason("measured", effect, costWords(c), costEvidence(ctx, c)));
    }
    result.summary.push(testbedSummary(ctx, t, here));
  }
  result.level = scoredAll.every((s) => s.levelWithBest);
  result.levelWords = wordsOf(result.level ? levelTie(scoredAll) : null);
  for (const option of ctx.options) {
    if (costed.has(option.id)) continue;
    const measured = option.scenarios.filter((s) => encryptionOf(s) !== null && inAny(ctx, s));
    addTo(
      result.reasons,
      option.id,
      caveat(
        measured.length > 0
          ? `The cost of encryption: ${listWords(measured.map((s) => s.label))} ran with encryption, but no setup of the same CNI ran without it on the same testbed.`
          : "The cost of encryption: not measured for this datapath (no setup with and without WireGuard or IPsec).",
      ),
    );
  }
  return result;
}

const inAny = (ctx: GuideContext, s: GuideScenario) => ctx.scopedTestbeds.some((t) => inTestbed(t, s.id));

/** "Encryption costs most of the throughput on …": the range kept, the CPU, the setups from the least cost. */
function testbedSummary(ctx: GuideContext, t: Testbed, here: readonly PairCost[]): Reason {
  const kept = here.map((c) => c.kept.value);
  const kinds = [...new Set(here.map((c) => encryptionOf(c.pair.encrypted)!))].sort();
  // The CPU ratios of pairs counted on every mode where any pair was; a partial one would read as cheap.
  const whole = here.some((c) => c.cpu?.encrypted.accounting === "all-modes");
  const cpu = here.flatMap((c) =>
    c.cpu && (!whole || c.cpu.encrypted.accounting === "all-modes")
      ? [c.cpu.encrypted.figure.value / c.cpu.plain.figure.value]
      : [],
  );
  const encrypted = here.map((c) => c.encrypted);
  const plain = here.map((c) => c.plain);
  // The unit once, as figureRange says it ("12 to 29 %", "13.47 to 33.58×"); one figure where both ends read alike.
  const range = (vs: readonly number[], number: (v: number) => string, unit: string) => {
    const [lo, hi] = [number(Math.min(...vs)), number(Math.max(...vs))];
    return `${lo === hi ? hi : `${lo} to ${hi}`}${unit}`;
  };
  const most = Math.max(...kept) < 50;
  const test = testWords(here[0]!.encrypted.params);
  const text =
    `Encryption costs ${most ? "most" : "part"} of the throughput on ${t.label}: with ${listWords(kinds)} the setups keep ${range(kept, (v) => formatCount(Math.round(v)), " %")} of their TCP throughput without it (${figureRange(encrypted)} against ${figureRange(plain)}${test ? `, ${test}` : ""})` +
    `${cpu.length > 0 ? ` and spend ${range(cpu, formatComputed, "×")} the CPU per Gbit/s (${whole ? "every CPU mode" : accountingWords[here.find((c) => c.cpu)!.cpu!.encrypted.accounting]})` : ""}. ` +
    `From the least cost: ${listWords(here.map((c) => `${c.pair.encrypted.label} keeps ${percent(c.kept.value)}`))}.`;
  return withRest(
    finding(
      text,
      here.flatMap((c) => costEvidence(ctx, c)),
    ),
    here.map((c) => c.pair.encrypted),
  );
}
