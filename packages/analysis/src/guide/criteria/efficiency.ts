// Efficiency, a figure derived here and never stored: the CPU both nodes spent during a TCP
// throughput test per Gbit/s it moved (millicores per Gbit/s, the charts' unit), from cpu.usage
// and tcp.throughput of the same test and params; and, where a component's memory was measured at a
// Service count, its memory per 1,000 Services.

import { formatComputed, formatCount, formatFigure, formatNumber, withUnit } from "@cnibench/format";
import { cpuAccountingOf, type CpuAccounting as SchemaCpuAccounting } from "@cnibench/schema";
import { median } from "../../distribution.ts";
import type { Figure } from "../../types.ts";
import { listWords, reason, type Scored, scoreAgainstBest, type Testbed, withRest } from "../figures.ts";
import type { DatapathOption } from "../options.ts";
import type { GuideFigure, GuideScenario, Reason } from "../types.ts";
import { selectedFigures } from "./figure-criterion.ts";
import {
  addTo,
  type CriterionResult,
  caveat,
  emptyCriterion,
  encryptionOf,
  evidenceOf,
  finding,
  type GuideContext,
  isReference,
  levelTie,
  levelWithIt,
  optionScenarios,
  scoreEffect,
  standingScenarios,
  wordsOf,
} from "./shared.ts";
import { referenceFigure, referenceName, throughputSelectors, throughputShort } from "./throughput.ts";

/** The unit of CPU per Gbit/s moved, as the resources chart writes it (a cpu.usage unit per Gbit/s). */
const cpuPerGbitUnit = "millicores per Gbit/s";

/**
 * How much of the CPU a total counts (@cnibench/schema's cpuAccountingOf): "all-modes" (every busy
 * mode, softirq and irq included, as statexec's per-second samples give it), "user+system" (what a
 * collector's summary often gives), "unstated"; "mode" figures are one mode's share, never summed.
 */
export type CpuAccounting = Exclude<SchemaCpuAccounting, "mode">;

/** What a partial CPU figure leaves out, for the sentences that refuse to rank on it. */
export const accountingWords: Record<CpuAccounting, string> = {
  "all-modes": "every CPU mode, softirq and irq included",
  "user+system": "user + system only; softirq and irq, where encryption and packet processing run, not counted",
  unstated: "CPU accounting not stated, so softirq may be missing",
};

/** A derived figure, the raw figures it was computed from, and how much of the CPU they count. */
export type Derived = { figure: Figure; from: GuideFigure[]; scenario: GuideScenario; accounting: CpuAccounting };

// cpu.usage is stored in millicores (the catalogue unit); a figure in cores is converted all the same.
const millicores = (f: GuideFigure, v: number) => (f.unit === "millicores" ? v : v * 1000);

/**
 * The node CPU figures of a throughput test, every role once, counted the most complete way measured:
 * every CPU mode where it covers each role the test measured, else the partial figures, said so.
 */
function nodeCpu(
  ctx: GuideContext,
  tput: GuideFigure,
  want?: CpuAccounting,
): { cpu: GuideFigure[]; accounting: CpuAccounting } {
  const protocol = tput.metric.split(".")[0];
  const node = ctx
    .figuresOf(tput.scenarioId, "cpu.usage")
    .filter(
      (f) =>
        f.params.component === "node" &&
        f.params.protocol === protocol &&
        !f.qualifier &&
        cpuAccountingOf(f.params) !== "mode" &&
        Object.entries(tput.params).every(([k, v]) => f.params[k] === v),
    );
  if (want) return { cpu: node.filter((f) => cpuAccountingOf(f.params) === want), accounting: want };
  const roles = new Set(node.map((f) => String(f.params.role ?? "node")));
  const whole = node.filter((f) => cpuAccountingOf(f.params) === "all-modes");
  if (whole.length > 0 && new Set(whole.map((f) => String(f.params.role ?? "node"))).size === roles.size) {
    return { cpu: whole, accounting: "all-modes" };
  }
  const partial = node.filter((f) => cpuAccountingOf(f.params) !== "all-modes");
  const accounting = partial.every((f) => cpuAccountingOf(f.params) === "user+system") ? "user+system" : "unstated";
  return { cpu: partial, accounting };
}

/**
 * CPU per Gbit/s moved in a throughput test: the node CPU (every role measured, client and server
 * summed) during the test whose params the throughput figure has, over its throughput. The runs are
 * paired by position, as a campaign lists every series of a scenario in the same bundle order; when
 * their counts differ the figure keeps its value alone (a single run, for the verdicts).
 */
function cpuPerGbit(ctx: GuideContext, tput: GuideFigure, want?: CpuAccounting): Derived | undefined {
  if (tput.unit !== "Gbit/s" || tput.value <= 0 || tput.qualifier) return undefined;
  const { cpu, accounting } = nodeCpu(ctx, tput, want);
  if (cpu.length === 0) return undefined;
  const runs = [tput, ...cpu].map((f) =>
    f === tput ? (f.samples ?? []) : (f.samples ?? []).map((v) => millicores(f, v)),
  );
  const n = runs[0]!.length;
  const paired = n >= 2 && runs.every((r) => r.length === n);
  const value = cpu.reduce((sum, f) => sum + millicores(f, f.value), 0) / tput.value;
  const samples = paired ? runs[0]!.map((t, i) => runs.slice(1).reduce((sum, r) => sum + r[i]!, 0) / t) : undefined;
  return {
    figure: {
      metric: "x.cpu.per.gbit",
      unit: cpuPerGbitUnit,
      value,
      better: "lower",
      ...(samples ? { samples } : {}),
    },
    from: [tput, ...cpu],
    scenario: ctx.scenario(tput.scenarioId)!,
    accounting,
  };
}

/**
 * CPU per Gbit/s of two throughput figures counted the same way — every mode where both have it, else
 * what both have — so that a ratio of the two never sets softirq against none; null when they share none.
 */
export function comparableCpu(ctx: GuideContext, a: GuideFigure, b: GuideFigure): [Derived, Derived] | null {
  for (const accounting of ["all-modes", "user+system", "unstated"] as const) {
    const da = cpuPerGbit(ctx, a, accounting);
    const db = cpuPerGbit(ctx, b, accounting);
    if (da && db) return [da, db];
  }
  return null;
}

/** An option's setups' derived figures as one: pooled as runs (pooledFigure's rule), never the best. */
function pooledDerived(all: readonly Derived[]): Derived | undefined {
  if (all.length <= 1) return all[0];
  const runs = all.flatMap((d) =>
    d.figure.samples && d.figure.samples.length > 0 ? d.figure.samples : [d.figure.value],
  );
  return {
    ...all[0]!,
    figure: { ...all[0]!.figure, value: median(runs), samples: runs },
    from: all.flatMap((d) => d.from),
  };
}

/** "76.2 millicores per Gbit/s": three significant digits, as the CPU and throughput it comes from deserve. */
export const cpuPerGbitWords = (d: Derived) => withUnit(formatNumber(d.figure.value, 3), cpuPerGbitUnit);

/** "5.93 cores at 11.28 Gbit/s (client and server nodes)" */
function partsWords(d: Derived): string {
  const [tput, ...cpu] = d.from;
  const total = cpu.reduce((sum, f) => sum + millicores(f, f.value), 0) / 1000;
  const roles = cpu.map((f) => String(f.params.role ?? "node"));
  return `${formatComputed(total)} cores at ${formatFigure(tput!)}, ${listWords(roles)} node${roles.length === 1 ? "" : "s"}`;
}

type Table = {
  testbed: Testbed;
  title: string;
  /** The throughput test, in a few words: "8-stream TCP". */
  test: string;
  accounting: CpuAccounting;
  entries: (Scored<DatapathOption> & { derived: Derived })[];
  /** Options measured on this test with part of the CPU only, left out of a whole-CPU table. */
  partial: { option: DatapathOption; derived: Derived }[];
};

/**
 * Per testbed, CPU per Gbit/s of each option (its standing setups pooled) on one throughput test,
 * counted on every CPU mode where at least two options were measured so, else on what was measured.
 */
function efficiencyTables(ctx: GuideContext, testbeds: readonly Testbed[]): Table[] {
  const selectors = throughputSelectors(ctx, "tcp");
  const tables: Table[] = [];
  for (const t of testbeds) {
    for (const selector of selectors) {
      const all = ctx.options.flatMap((option) => {
        // Without node CPU figures a setup has no CPU per Gbit/s: its throughput figures are not looked at.
        const derived = standingScenarios(ctx, option, t)
          .filter((s) => ctx.figuresOf(s.id, "cpu.usage").length > 0)
          .flatMap((s) => selectedFigures(ctx, s.id, selector))
          .flatMap((f) => cpuPerGbit(ctx, f) ?? []);
        return derived.length > 0 ? [{ option, derived }] : [];
      });
      const whole = all
        .map(({ option, derived }) => ({ option, derived: derived.filter((d) => d.accounting === "all-modes") }))
        .filter((r) => r.derived.length > 0);
      const use = whole.length >= 2 ? whole : all;
      const raw = use.map(({ option, derived }) => ({ option, derived: pooledDerived(derived)! }));
      if (raw.length < 2) continue;
      const { scored } = scoreAgainstBest(
        raw.map((r) => ({ item: r, figure: r.derived.figure })),
        "lower",
      );
      const accounting: CpuAccounting = raw.every((r) => r.derived.accounting === "all-modes")
        ? "all-modes"
        : raw.every((r) => r.derived.accounting === "user+system")
          ? "user+system"
          : "unstated";
      const params = raw[0]!.derived.from[0]!.params;
      tables.push({
        testbed: t,
        title: `CPU per Gbit/s moved (${selector.title.replace(/ throughput \((.*)\)$/, ", $1").replace(/ throughput$/, "")})`,
        test: throughputShort(params, "tcp"),
        accounting,
        entries: scored.map((s) => ({ ...s, item: s.item.option, derived: s.item.derived })),
        partial: all
          .filter((r) => !use.some((u) => u.option === r.option))
          .map(({ option, derived }) => ({ option, derived: pooledDerived(derived)! })),
      });
      break;
    }
  }
  return tables.sort((a, b) => b.entries.length - a.entries.length);
}

/** The reference's CPU per Gbit/s in the same test, where one was measured. */
function referenceEfficiency(ctx: GuideContext, t: Testbed, d: Derived): Derived | undefined {
  const ref = referenceFigure(ctx, t, d.from[0]!);
  // Counted as the table counts it, or not at all: bare metal's user + system beside every mode misleads.
  return ref ? cpuPerGbit(ctx, ref, d.accounting) : undefined;
}

/**
 * Efficiency as a criterion (weight 1 where measured in scope): CPU per Gbit/s moved, lower is better,
 * compared on one throughput test per testbed; with encryption asked for, of the encrypted setups. Memory per
 * 1,000 Services is said where measured, never scored: the components measured (kube-proxy, an
 * agent doing much more) are not like for like.
 */
export function efficiencyCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const result = emptyCriterion("efficiency", weight, "CPU per Gbit/s moved");
  // Read for every answer, asked for or not: only where the scope measured it, never from elsewhere.
  const tables = efficiencyTables(ctx, ctx.scopedTestbeds);
  // Ranked only on the whole CPU: a figure that leaves out softirq leaves out most of what encryption
  // and packet processing cost, and would call the costliest datapaths the most efficient.
  const whole = tables.filter((t) => t.accounting === "all-modes");
  if (tables.length > 0) {
    result.measured = whole.length > 0;
    const entries = whole.flatMap((t) => t.entries);
    result.level = entries.every((e) => e.levelWithBest);
    result.levelWords = wordsOf(result.level && entries.length > 0 ? levelTie(entries) : null);
    for (const table of tables) {
      const ranked = table.accounting === "all-modes";
      const level = ranked ? wordsOf(levelTie(table.entries)) : null;
      const sorted = [...table.entries].sort((a, b) => a.derived.figure.value - b.derived.figure.value);
      const ref = referenceEfficiency(ctx, table.testbed, sorted[0]!.derived);
      const refText = ref ? `${referenceName(ref.scenario)} ${cpuPerGbitWords(ref)}` : "";
      const counted = ranked ? accountingWords["all-modes"] : `${accountingWords[table.accounting]}: not ranked on`;
      if (ranked) {
        result.tests.push({
          key: `efficiency ${table.testbed.key} ${table.title}`,
          what: `CPU per Gbit/s (${table.test})`,
          testbed: table.testbed.label,
          weight,
          better: "lower",
          entries: table.entries.map((e) => ({
            optionId: e.item.id,
            figure: e.derived.figure,
            evidence: e.derived.from.map((f) => evidenceOf(ctx, f)),
          })),
          ceiling: null,
        });
      }
      // One table per testbed: a reason per option and testbed, for the card listed under each.
      for (const e of table.entries) {
        const s = e.derived.scenario;
        const standing = !ranked
          ? "not ranked on"
          : level
            ? `against the others: ${level}`
            : e.versusBest === null
              ? `the most efficient here${levelWithIt(table.entries, e)}`
              : `${formatComputed(e.derived.figure.value / sorted[0]!.derived.figure.value)}× the most efficient's${e.levelWithBest ? ` (${wordsOf(e.versusBest)})` : ""}`;
        const variant = encryptionOf(s) ? `, with ${encryptionOf(s)}` : "";
        addTo(
          result.reasons,
          e.item.id,
          reason(
            "measured",
            ranked ? scoreEffect(e.score, table.entries.length) : "neutral",
            `${table.title}, ${ranked ? "every CPU mode" : accountingWords[table.accounting]}: ${cpuPerGbitWords(e.derived)} (${s.label}${variant}: ${partsWords(e.derived)}) on ${table.testbed.label}${refText ? `, against ${refText}` : ""}; ${standing}`,
            [...e.derived.from, ...(ref?.from ?? [])].map((f) => evidenceOf(ctx, f)),
          ),
        );
      }
      // Measured, but on part of the CPU only: said, with what it leaves out, and never ranked.
      for (const p of table.partial) {
        addTo(
          result.reasons,
          p.option.id,
          finding(
            `${table.title}, ${accountingWords[p.derived.accounting]}: ${cpuPerGbitWords(p.derived)} (${p.derived.scenario.label}: ${partsWords(p.derived)}) on ${table.testbed.label}; not ranked on, as the others count every CPU mode`,
            p.derived.from.map((f) => evidenceOf(ctx, f)),
          ),
        );
      }
      // The range just named the unit: the list gives the figures alone ("cilium-custom 110, calico-ebpf
      // 111, …"), as "110 millicores per Gbit/s" four times over buried the names.
      const named = sorted.map((e) => `${e.derived.scenario.label} ${formatNumber(e.derived.figure.value, 3)}`);
      result.summary.push(
        withRest(
          finding(
            `${table.title} on ${table.testbed.label}, both nodes' CPU (${counted}) over the throughput: ${formatNumber(sorted[0]!.derived.figure.value, 3)} to ${cpuPerGbitWords(sorted.at(-1)!.derived)} across ${sorted.length} datapaths${level ? `, ${level}` : ""}${refText ? `; ${refText}` : ""}. ${ranked ? "Most efficient first" : "Lowest first"}: ${listWords(named)}.`,
            [...sorted.flatMap((e) => e.derived.from), ...(ref?.from ?? [])].map((f) => evidenceOf(ctx, f)),
          ),
          sorted.map((e) => e.derived.scenario),
        ),
      );
    }
    for (const option of ctx.options) {
      if (!result.reasons.has(option.id) && ctx.options.length > 1) {
        addTo(
          result.reasons,
          option.id,
          caveat(`CPU per Gbit/s moved: not measured for this datapath${ctx.encryption ? " with encryption" : ""}.`),
        );
      }
    }
  }
  const memory = memoryPerServices(ctx);
  for (const [id, reasons] of memory.reasons) for (const r of reasons) addTo(result.reasons, id, r);
  result.summary.push(...memory.summary);
  return result;
}

/** A component's memory against the Service count: per 1,000 Services, from a slope or a single count. */
type MemoryLine = { scenario: GuideScenario; component: string; figures: GuideFigure[]; perThousand: number };

function memoryLines(ctx: GuideContext, s: GuideScenario): MemoryLine[] {
  const groups = new Map<string, GuideFigure[]>();
  for (const f of ctx.figuresOf(s.id, "memory.usage")) {
    const p = f.params;
    if (typeof p.services !== "number" || f.qualifier) continue;
    // Only the Service count may vary: Pods, policies or a peak (max) would be another measure.
    if (p.pods !== undefined || p.networkPolicies !== undefined || (p.stat !== undefined && p.stat !== "avg")) continue;
    const key = `${String(p.component)} ${String(p.measure ?? "")}`;
    addTo(groups, key, f);
  }
  return [...groups.values()].flatMap((figs) => {
    const sorted = [...figs].sort((a, b) => (a.params.services as number) - (b.params.services as number));
    const first = sorted[0]!;
    const last = sorted.at(-1)!;
    const n0 = first.params.services as number;
    const n1 = last.params.services as number;
    if (sorted.length >= 2 && n1 > n0) {
      return [
        {
          scenario: s,
          component: String(first.params.component),
          figures: [first, last],
          perThousand: ((last.value - first.value) / (n1 - n0)) * 1000,
        },
      ];
    }
    return n1 >= 1000
      ? [
          {
            scenario: s,
            component: String(last.params.component),
            figures: [last],
            perThousand: (last.value / n1) * 1000,
          },
        ]
      : [];
  });
}

function memoryWords(l: MemoryLine): string {
  const [a, b] = l.figures;
  const per = withUnit(formatComputed(l.perThousand), a!.unit);
  return b
    ? `${l.component} ${per} per 1,000 Services (${formatFigure(a!)} at ${formatCount(a!.params.services as number)} to ${formatFigure(b)} at ${formatCount(b.params.services as number)} Services; ${l.scenario.label})`
    : `${l.component} at most ${per} per 1,000 Services (${formatFigure(a!)} at ${formatCount(a!.params.services as number)} Services, its memory with none included; ${l.scenario.label})`;
}

/** Memory per 1,000 Services where measured in scope: said on each option and once per testbed. */
function memoryPerServices(ctx: GuideContext): { reasons: Map<string, Reason[]>; summary: Reason[] } {
  const reasons = new Map<string, Reason[]>();
  const summary: Reason[] = [];
  for (const t of ctx.scopedTestbeds) {
    const lines: MemoryLine[] = [];
    for (const option of ctx.options) {
      for (const s of optionScenarios(option, t)) {
        for (const l of memoryLines(ctx, s)) {
          lines.push(l);
          addTo(
            reasons,
            option.id,
            finding(
              `Memory on ${t.label}: ${memoryWords(l)}.`,
              l.figures.map((f) => evidenceOf(ctx, f)),
            ),
          );
        }
      }
    }
    if (lines.length === 0) continue;
    summary.push(
      withRest(
        finding(
          `Memory per 1,000 Services on ${t.label}: ${listWords(lines.map(memoryWords))}.`,
          lines.flatMap((l) => l.figures).map((f) => evidenceOf(ctx, f)),
        ),
        lines.map((l) => l.scenario).filter((s) => !isReference(s)),
      ),
    );
  }
  return { reasons, summary };
}
