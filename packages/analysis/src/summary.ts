import { formatChange, formatCount, formatParams, verdictWords } from "@cnibench/format";
import { catalogueRank, cpuAccountingOf, cpuAccountings, findMetric } from "@cnibench/schema";
import { paramsKey } from "./params-key.ts";
import type { Params } from "./types.ts";
import { type Verdict, type VerdictResult, verdicts } from "./verdict.ts";

export type VerdictCounts = Record<Verdict, number>;

export function countVerdicts(items: readonly (Verdict | { verdict: Verdict })[]): VerdictCounts {
  const counts = Object.fromEntries(verdicts.map((v) => [v, 0])) as VerdictCounts;
  for (const item of items) counts[typeof item === "string" ? item : item.verdict] += 1;
  return counts;
}

/** Better, worse and equivalent always (a zero is information), the others when present: "9 better, 6 worse, 14 equivalent". */
const countWords = (counts: VerdictCounts): string =>
  verdicts
    .filter((v) => counts[v] > 0 || v === "better" || v === "worse" || v === "equivalent")
    .map((v) => `${formatCount(counts[v])} ${verdictWords[v]}`)
    .join(", ");

/** "Cilium Overlay vs kube-proxy iptables: 9 better, 6 worse, 14 equivalent, 2 inconclusive". */
export function formatVerdictSummary(candidateLabel: string, baselineLabel: string, counts: VerdictCounts): string {
  return `${candidateLabel} vs ${baselineLabel}: ${countWords(counts)}`;
}

/**
 * The change the verdict judged, in % of the baseline (issue 40): with runs on both sides the ratio of
 * their geometric means (or means, on the linear scale) the interval test decided on, not the change
 * of medians beside it; with a single run the headline values' change; null with nothing to compare.
 */
export function judgedPercent(r: Pick<VerdictResult, "evidence" | "delta">): number | null {
  const e = r.evidence;
  if (e.method === "interval") return (e.ratio - 1) * 100;
  if (e.method === "noise-band") return e.deltaPercent;
  return r.delta?.percent ?? null;
}

/** What the judged change is of, for a label or a tooltip beside it. */
export function judgedPercentBasis(r: Pick<VerdictResult, "evidence">): string {
  const e = r.evidence;
  if (e.method === "interval")
    return e.scale === "log" ? "ratio of the runs' geometric means" : "ratio of the runs' means";
  return "change of the values";
}

/** The params that say which node a node-level figure is of; the rest name the test it was read during. */
const nodeParams = ["component", "role", "node"];

/**
 * A node-level fact's key, or null for a figure of one test: a node's memory (and BPF map memory) is
 * one fact of the node and its role, read again during every test; idle CPU is one per role already.
 * Counting it per test × role made "18 worse" of one +20 % (issue 40).
 */
export function nodeLevelKey(metric: string, params: Params): string | null {
  const idleCpu = metric === "cpu.usage" && params.test === "idle";
  if (metric !== "memory.usage" && metric !== "bpf.map.memory" && !idleCpu) return null;
  const node = nodeParams.filter((k) => k in params).map((k) => `${k}=${String(params[k])}`);
  return `${metric}${idleCpu ? " idle" : ""} ${node.join(" ")}`;
}

/**
 * A node's CPU in one test read whole and in parts (every mode, user + system, each mode) is one fact:
 * counted per reading, InfraBuilder's statexec made "80 worse" of 16. Each test and node keeps its
 * widest reading judged on both sides (else its widest), so a side without the whole CPU is compared
 * on what both have.
 */
function cpuFacts(figures: readonly JudgedFigure[]): JudgedFigure[] {
  const read = (f: JudgedFigure) => {
    // How much of the node's CPU it counts: the whole first, then user + system, then one mode.
    const width =
      f.metric === "cpu.usage" ? (cpuAccountings as readonly string[]).indexOf(cpuAccountingOf(f.params)) : -1;
    if (width < 0) return null;
    const { accounting: _, mode: __, ...fact } = f.params;
    // Judged on both sides ranks before missing on one; then the wider.
    return { fact: paramsKey(fact), rank: (f.verdict === "missing" ? 10 : 0) + width };
  };
  const best = new Map<string, number>();
  for (const f of figures) {
    const r = read(f);
    if (r) best.set(r.fact, Math.min(best.get(r.fact) ?? r.rank, r.rank));
  }
  return figures.filter((f) => {
    const r = read(f);
    return r === null || best.get(r.fact) === r.rank;
  });
}

/** Resources and tool-specific (x.…) figures come with the primary ones; they are not what a setup is chosen by. */
const secondaryMetrics = new Set(["cpu.usage", "memory.usage", "bpf.map.memory"]);
export const isPrimaryMetric = (metric: string): boolean =>
  !secondaryMetrics.has(metric) && !metric.startsWith("x.") && findMetric(metric)?.better !== "none";

/**
 * What a verdict must be read with (comparison-table's caveatOf): its words on the cell ("while moving
 * 722.3 % more traffic") and its kind, by which a summary counts the verdicts that carry one.
 */
export type Caveat = { text: string; kind: (typeof caveatKinds)[number] };
export const caveatKinds = ["more traffic", "less traffic", "loss"] as const;

/** "12 worse (9 while moving more traffic)": a count says how many of its verdicts carry a caveat. */
const caveatCountWords: Record<Caveat["kind"], string> = {
  "more traffic": "while moving more traffic",
  "less traffic": "while moving less traffic",
  loss: "with more loss",
};

/** One compared figure as the summary reads it. */
export type JudgedFigure = {
  metric: string;
  params: Params;
  verdict: Verdict;
  percent: number | null;
  caveat?: Caveat | null;
};

export type FamilyCount = {
  metric: string;
  /** "TCP throughput"; node-level families say so: "Memory usage, per node and role". */
  label: string;
  nodeLevel: boolean;
  counts: VerdictCounts;
  /**
   * Of each verdict counted, how many carry a caveat and of which kind: twice the CPU while moving
   * seven times the traffic is counted "worse" but is no extra cost per Gbit/s (per-test figures only).
   */
  caveated: Partial<Record<Verdict, { kind: Caveat["kind"]; count: number }>>;
};

export type ComparisonSummary = {
  /** Decided (better/worse) effects on primary figures, largest first. */
  effects: (JudgedFigure & { percent: number })[];
  /** Verdicts counted per figure family (metric), node-level facts once per node and role, in catalogue order. */
  families: FamilyCount[];
};

/** The family of every x.… metric. */
const toolSpecific = "x.";

/** The verdict a node-level fact read during several tests stands for: the one most of its readings got. */
function mostCommon(list: readonly Verdict[]): Verdict {
  const counts = countVerdicts(list);
  return verdicts.reduce((best, v) => (counts[v] > counts[best] ? v : best), list[0]!);
}

/**
 * A compare's verdicts in an order an engineer can act on (issue 40): the decided effects on primary
 * figures first, largest first, then counts per figure family, with a node-level fact (memory, idle
 * CPU) counted once per node and role rather than once per test it was read during.
 */
export function summariseComparison(figures: readonly JudgedFigure[]): ComparisonSummary {
  const effects = figures
    .filter(
      (f): f is JudgedFigure & { percent: number } =>
        isPrimaryMetric(f.metric) && (f.verdict === "better" || f.verdict === "worse") && f.percent !== null,
    )
    .sort((a, b) => Math.abs(b.percent) - Math.abs(a.percent));

  // Per-test figures count once each; a node-level fact once per node and role, by the verdict most
  // of its readings got. A family is a metric, idle CPU apart from CPU under load.
  const nodeFacts = new Map<string, { family: string; verdicts: Verdict[] }>();
  type Family = { metric: string; nodeLevel: boolean; idle: boolean; verdicts: Verdict[] } & Pick<
    FamilyCount,
    "caveated"
  >;
  const families = new Map<string, Family>();
  const familyOf = (metric: string, nodeLevel: boolean, idle: boolean) => {
    const key = `${metric}${idle ? " idle" : ""}${nodeLevel ? " node" : ""}`;
    if (!families.has(key)) families.set(key, { metric, nodeLevel, idle, verdicts: [], caveated: {} });
    return key;
  };
  for (const f of cpuFacts(figures)) {
    const key = nodeLevelKey(f.metric, f.params);
    if (key === null) {
      // Tool-specific figures (x.tcp.retransmits, x.udp.jitter…) are one family: counted, not itemised.
      const family = families.get(familyOf(f.metric.startsWith("x.") ? toolSpecific : f.metric, false, false))!;
      family.verdicts.push(f.verdict);
      if (f.caveat) {
        const c = family.caveated[f.verdict] ?? { kind: f.caveat.kind, count: 0 };
        c.count += 1;
        family.caveated[f.verdict] = c;
      }
      continue;
    }
    const fact = nodeFacts.get(key) ?? {
      family: familyOf(f.metric, true, f.metric === "cpu.usage" && f.params.test === "idle"),
      verdicts: [],
    };
    fact.verdicts.push(f.verdict);
    nodeFacts.set(key, fact);
  }
  for (const fact of nodeFacts.values()) families.get(fact.family)!.verdicts.push(mostCommon(fact.verdicts));
  const label = (metric: string) =>
    metric === toolSpecific ? "tool-specific figures (x.…)" : (findMetric(metric)?.label ?? metric);
  return {
    effects,
    families: [...families.values()]
      .sort(
        (a, b) =>
          Number(a.nodeLevel) - Number(b.nodeLevel) ||
          catalogueRank(a.metric) - catalogueRank(b.metric) ||
          Number(a.idle) - Number(b.idle),
      )
      .map((f) => ({
        metric: f.metric,
        label: f.nodeLevel ? `${label(f.metric)}${f.idle ? " at idle" : ""}, per node and role` : label(f.metric),
        nodeLevel: f.nodeLevel,
        counts: countVerdicts(f.verdicts),
        caveated: f.caveated,
      })),
  };
}

/** "TCP throughput · path pod-pod · streams 1 −50.1 %, worse", and its caveat: "UDP throughput … +12 %, better, with 43.6 % loss". */
export function formatEffect(e: JudgedFigure & { percent: number }): string {
  const params = formatParams(e.params, { empty: "" });
  const name = findMetric(e.metric)?.label ?? e.metric;
  const caveat = e.caveat ? `, ${e.caveat.text}` : "";
  return `${params ? `${name} · ${params}` : name} ${formatChange(e.percent)}, ${verdictWords[e.verdict]}${caveat}`;
}

/** "9 better, 12 worse (9 while moving more traffic)" of a family, its zeros left out: a family line is read for what moved. */
const familyWords = (f: FamilyCount): string =>
  verdicts
    .filter((v) => f.counts[v] > 0)
    .map((v) => {
      const c = f.caveated[v];
      const caveat = c ? ` (${formatCount(c.count)} ${caveatCountWords[c.kind]})` : "";
      return `${formatCount(f.counts[v])} ${verdictWords[v]}${caveat}`;
    })
    .join(", ");

export type ComparisonWording = {
  /** The most decided effects said by name; 3 by default, the rest counted. */
  limit?: number;
};

/**
 * "kubeovn vs cilium: TCP throughput · path pod-pod · streams 1 −50.1 %, worse; … By family: TCP
 * throughput 1 worse, 2 equivalent; …; Memory usage, per node and role 2 better". Without a decided
 * primary effect it says so first: "no decided change on throughput, rate or latency figures".
 */
export function formatComparisonSummary(
  candidateLabel: string,
  baselineLabel: string,
  summary: ComparisonSummary,
  wording: ComparisonWording = {},
): string {
  const limit = wording.limit ?? 3;
  const named = summary.effects.slice(0, limit).map(formatEffect);
  const left = summary.effects.length - named.length;
  const effects =
    named.length === 0
      ? "no decided change on a primary figure"
      : `${named.join("; ")}${left > 0 ? `; and ${formatCount(left)} more decided` : ""}`;
  const families = summary.families
    .filter((f) => Object.values(f.counts).some((n) => n > 0))
    .map((f) => `${f.label} ${familyWords(f)}`);
  return `${candidateLabel} vs ${baselineLabel}: ${effects}.${families.length > 0 ? ` By family: ${families.join("; ")}.` : ""}`;
}
