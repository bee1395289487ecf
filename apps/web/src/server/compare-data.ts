// A comparison of 2–4 scenarios against the first: one aligned row per (metric, params), verdicts
// from @cnibench/analysis, and the environment fields that differ. Pure; tested with seed bundles.
import {
  type ComparisonRow,
  compareMeasurementSets,
  explainVerdict,
  figureKey,
  formatComparisonSummary,
  judgedPercent,
  judgedPercentBasis,
  type Measurement,
  marginPercent,
  type NoiseSource,
  summariseComparison,
  type Verdict,
  type VerdictEvidence,
} from "@cnibench/analysis";
import { formatPercent, natural } from "@cnibench/analysis/format";
import type { ScenarioSummary } from "@cnibench/db";
import { type CsvCell, findMetric, metricCatalogue } from "@cnibench/schema";
import type { z } from "zod";
import { seriesLabels } from "./chart-data/labels";
import type { Figure } from "./chart-data/types";
import { headline, runsShown, summaryOf } from "./figure-summary";
import type { cellEvidenceSchema, compareCellSchema } from "./routers/compare.types";

// Shared with the ingest API's gate (@cnibench/analysis, explain.ts); the routers import it from here.
export { withHistory } from "@cnibench/analysis";

type Shown = NonNullable<CompareCell["figure"]>;
export type CompareCell = z.infer<typeof compareCellSchema>;
export type CellEvidence = z.infer<typeof cellEvidenceSchema>;

export type CompareRow = {
  key: string;
  metric: string;
  label: string;
  better: Figure["better"];
  params: Figure["params"];
  cells: CompareCell[];
};

const pick = (f: Figure): Shown => ({
  value: f.value,
  unit: f.unit,
  qualifier: f.qualifier,
  low: f.low,
  high: f.high,
  samples: f.samples,
  bundleId: f.bundleId,
  summary: summaryOf(f),
  summaryStatistics: f.summaryStatistics ?? null,
});

/** Runs the verdict saw on a side: its samples (concurrent clients' are one run), else its summary's n, or the value alone. */
const runsOf = (f: Pick<Measurement, "samples" | "samplesAre" | "summaryStatistics"> | null | undefined) =>
  f?.samplesAre === "clients"
    ? 1
    : Math.max(1, f?.samples?.length ?? 0, f?.summaryStatistics?.of === "runs" ? f.summaryStatistics.n : 0);

const noiseWords = (n: NoiseSource) =>
  n.from === "runs" ? "runs" : `history: ${n.runs} runs in ${n.campaigns} campaigns`;

const noTest = {
  ratio: null,
  low: null,
  high: null,
  p: null,
  pAdjusted: null,
  runsNeeded: null,
  detectablePercent: null,
  baselineNoise: null,
  candidateNoise: null,
};

function evidenceOf(e: VerdictEvidence): CellEvidence | null {
  switch (e.method) {
    case "interval":
      return {
        test: e.from === "summary" ? "welch-summary" : e.scale === "log" ? "welch-log" : "welch-linear",
        marginPercent: e.marginPercent,
        ratio: e.ratio,
        low: e.low,
        high: e.high,
        p: e.p,
        pAdjusted: e.pAdjusted,
        runsNeeded: e.runsNeeded,
        detectablePercent: e.detectablePercent,
        baselineNoise: noiseWords(e.noise.baseline),
        candidateNoise: noiseWords(e.noise.candidate),
      };
    case "noise-band":
      return { ...noTest, test: "single run", marginPercent: e.marginPercent };
    case "bounds":
      return { ...noTest, test: "bounds", marginPercent: e.marginPercent };
    case "missing":
    case "none":
      return null;
  }
}

/** Resources are measured while a test moves traffic: less CPU at less throughput is no saving. */
const resourceMetrics = new Set(["cpu.usage", "memory.usage"]);
const paramsWithin = (inner: ComparisonRow["params"], outer: ComparisonRow["params"]) =>
  Object.entries(inner).every(([k, v]) => outer[k] === v);

/**
 * What a "better" must be read with, from the figure it is coupled to in the same comparison: a UDP
 * throughput gain bought with more loss ("with 43.6 % loss"), or a resource saving of a test that
 * moved less traffic ("while moving 62.5 % less traffic"). Never a plain "better" then.
 */
function caveatOf(cmp: ComparisonRow, compared: readonly ComparisonRow[]): string | null {
  if (cmp.result.verdict !== "better") return null;
  const undecidedOrWorse = (v: Verdict) => v === "worse" || v === "inconclusive";
  if (cmp.metric === "udp.throughput") {
    const loss = compared.find((o) => o.metric === "udp.loss" && o.key === figureKey("udp.loss", cmp.params));
    if (!loss?.candidate || !undecidedOrWorse(loss.result.verdict)) return null;
    return `with ${formatPercent(loss.candidate.value, 1, false)} loss`;
  }
  const protocol = cmp.params.protocol;
  if (resourceMetrics.has(cmp.metric) && typeof protocol === "string") {
    const traffic = compared.find(
      (o) =>
        o.metric === `${protocol}.throughput` && o.result.verdict === "worse" && paramsWithin(o.params, cmp.params),
    );
    const percent = traffic?.result.delta?.percent;
    if (percent == null || percent >= 0) return null;
    return `while moving ${formatPercent(Math.abs(percent), 1, false)} less traffic`;
  }
  return null;
}

/**
 * A cell without a comparison: the baseline's own, or one no candidate figure filled. Written out, not
 * spread from a shared one: thousands of cells a compare, and spreading was a tenth of its shaping.
 */
const noVerdict = (figure: Shown | null): CompareCell => ({
  delta: null,
  change: null,
  verdict: null,
  indicative: false,
  caveat: null,
  why: null,
  evidence: null,
  figure,
});

/** The change the verdict judged and what it is of; none where no verdict was reached on values. */
function changeOf(cmp: ComparisonRow): CompareCell["change"] {
  if (cmp.result.verdict === "missing") return null;
  const percent = judgedPercent(cmp.result);
  return percent === null ? null : { percent, basis: judgedPercentBasis(cmp.result) };
}

const catalogueOrder = new Map(metricCatalogue.map((m, i) => [m.key, i]));
const order = (metric: string) => catalogueOrder.get(metric) ?? Number.MAX_SAFE_INTEGER;

/**
 * Each candidate's diff against the baseline (the first scenario), by the candidate's id: the compare
 * table's, given as they are to its charts' tooltips (chart-data/versus.ts), which must say what the
 * table says. Judging hundreds of figures a side three times was most of a comparison's analysis.
 */
export function candidateDiffs(
  scenarios: readonly ScenarioSummary[],
  figures: readonly Figure[],
  margins: Readonly<Record<string, number>> = {},
): Map<string, ComparisonRow[]> {
  const [baseline, ...candidates] = scenarios;
  const of = (id: string) => figures.filter((f) => f.scenarioId === id);
  const baseFigures = baseline ? of(baseline.id) : [];
  return new Map(candidates.map((c) => [c.id, compareMeasurementSets(baseFigures, of(c.id), { margins })]));
}

/**
 * Every (metric, params) any scenario measured, the baseline first, then each candidate against it
 * (`diffs`, candidateDiffs'), with the margins δ of `margins` overriding the catalogue's.
 */
export function compareRows(
  scenarios: readonly ScenarioSummary[],
  figures: readonly Figure[],
  margins: Readonly<Record<string, number>> = {},
  diffs = candidateDiffs(scenarios, figures, margins),
): CompareRow[] {
  const [baseline, ...candidates] = scenarios;
  if (!baseline) return [];
  const baseFigures = figures.filter((f) => f.scenarioId === baseline.id);
  const rows = new Map<string, CompareRow>();
  const row = (f: Figure, key: string): CompareRow => {
    let r = rows.get(key);
    if (!r) {
      r = {
        key,
        metric: f.metric,
        label: findMetric(f.metric)?.label ?? f.metric,
        better: f.better,
        params: f.params,
        cells: scenarios.map(() => noVerdict(null)),
      };
      rows.set(key, r);
    }
    return r;
  };
  for (const f of baseFigures) {
    const r = row(f, figureKey(f.metric, f.params));
    r.cells[0] = noVerdict(pick(f));
  }
  candidates.forEach((c, i) => {
    const compared = diffs.get(c.id) ?? [];
    for (const cmp of compared) {
      const r = row((cmp.candidate ?? cmp.baseline) as Figure, cmp.key);
      r.cells[i + 1] = {
        figure: cmp.candidate ? pick(cmp.candidate as Figure) : null,
        delta: cmp.result.delta,
        change: changeOf(cmp),
        verdict: cmp.result.verdict,
        indicative: cmp.result.evidence.method === "noise-band",
        caveat: caveatOf(cmp, compared),
        why: explainVerdict(cmp.result.evidence, { baseline: runsOf(cmp.baseline), candidate: runsOf(cmp.candidate) }),
        evidence: evidenceOf(cmp.result.evidence),
      };
    }
  });
  return [...rows.values()].sort((a, b) => order(a.metric) - order(b.metric) || natural(a.key, b.key));
}

export type MarginInForce = {
  metric: string;
  label: string;
  percent: number;
  /** The catalogue's margin (10 % for x. metrics). */
  standard: number;
  /** `percent` differs from the catalogue's: set in the address, or kept by a permalink since. */
  overridden: boolean;
};

/** The margin δ of every metric with a verdict in the rows, and of every override, in catalogue order. */
export function marginsInForce(
  rows: readonly Pick<CompareRow, "metric" | "better">[],
  margins: Readonly<Record<string, number>>,
): MarginInForce[] {
  const overridden = (metric: string) => marginPercent(metric, margins) !== marginPercent(metric);
  const metrics = new Set([
    ...rows.filter((r) => r.better !== "none").map((r) => r.metric),
    ...Object.keys(margins).filter(overridden),
  ]);
  return [...metrics]
    .sort((a, b) => order(a) - order(b) || natural(a, b))
    .map((metric) => ({
      metric,
      label: findMetric(metric)?.label ?? metric,
      percent: marginPercent(metric, margins),
      standard: marginPercent(metric),
      overridden: overridden(metric),
    }));
}

/**
 * Per candidate, its decided effects on primary figures (largest first) and its verdicts counted per
 * figure family, node-level facts once per node and role (summariseComparison): "kubeovn vs cilium:
 * TCP throughput · path pod-pod · streams 1 −50.1 %, worse; … By family: …".
 */
export function compareSummaries(scenarios: readonly ScenarioSummary[], rows: readonly CompareRow[]): string[] {
  const labels = seriesLabels(scenarios);
  const [baseline, ...candidates] = scenarios;
  if (!baseline) return [];
  return candidates.map((c, i) =>
    formatComparisonSummary(
      labels.get(c.id) ?? c.label,
      labels.get(baseline.id) ?? baseline.label,
      summariseComparison(
        rows.flatMap((r) => {
          const cell = r.cells[i + 1];
          return cell?.verdict
            ? [{ metric: r.metric, params: r.params, verdict: cell.verdict, percent: cell.change?.percent ?? null }]
            : [];
        }),
      ),
    ),
  );
}

const evidenceHeader = [
  "metric",
  "params",
  "unit",
  "baseline",
  "candidate",
  "baseline_n",
  "candidate_n",
  "baseline_median",
  "candidate_median",
  "ratio",
  "ratio_low_95",
  "ratio_high_95",
  "margin_percent",
  "test",
  "p",
  "p_adjusted",
  "verdict",
  "runs_needed_per_side",
  "detectable_percent",
  "baseline_noise",
  "candidate_noise",
  "caveat",
];

/**
 * The evidence of every verdict for a CSV (toCsv): a header, then one row per (figure, candidate) with
 * both sides' runs and medians (the value of a single run), the test, its numbers and the verdict.
 */
export function evidenceTable(
  labels: readonly string[],
  rows: readonly Pick<CompareRow, "metric" | "params" | "cells">[],
): CsvCell[][] {
  const side = (f: CompareCell["figure"]) => (f ? [runsShown(f), headline(f, f.summary)] : ["", ""]);
  return [
    evidenceHeader,
    ...rows.flatMap((r) => {
      const [base, ...candidates] = r.cells;
      const [baseN, baseMedian] = side(base?.figure ?? null);
      return candidates.map((c, i) => {
        const [n, median] = side(c.figure);
        const e = c.evidence;
        return [
          r.metric,
          JSON.stringify(r.params),
          (c.figure ?? base?.figure)?.unit ?? "",
          labels[0],
          labels[i + 1],
          baseN,
          n,
          baseMedian,
          median,
          e?.ratio,
          e?.low,
          e?.high,
          e?.marginPercent,
          e?.test,
          e?.p,
          e?.pAdjusted,
          c.verdict,
          e?.runsNeeded,
          e?.detectablePercent,
          e?.baselineNoise,
          e?.candidateNoise,
          c.caveat,
        ];
      });
    }),
  ];
}

type Field = { key: string; label: string; get: (s: ScenarioSummary) => string; cni: boolean };

const fields: Field[] = [
  { key: "provider", label: "Cloud", get: (s) => s.provider, cni: false },
  { key: "region", label: "Region", get: (s) => s.region, cni: false },
  { key: "kubernetesVersion", label: "Kubernetes", get: (s) => s.kubernetesVersion, cni: false },
  { key: "nodeCount", label: "Nodes", get: (s) => String(s.nodeCount ?? "unknown"), cni: false },
  { key: "sku", label: "Instance type", get: (s) => s.sku, cni: false },
  { key: "os", label: "OS", get: (s) => s.os, cni: false },
  { key: "kernel", label: "Kernel", get: (s) => s.kernel, cni: false },
  { key: "cni.name", label: "CNI", get: (s) => s.cni.name, cni: true },
  { key: "cni.version", label: "CNI version", get: (s) => s.cni.version, cni: true },
  { key: "cni.mode", label: "Mode", get: (s) => s.cni.mode, cni: true },
  { key: "cni.kubeProxy", label: "kube-proxy", get: (s) => s.cni.kubeProxy, cni: true },
];

/**
 * The environment fields that differ, settings included. Anything outside the CNI configuration
 * (kernel, instance type, Kubernetes version, cloud, node count, …) is a confounder: the comparison
 * is then not like-for-like.
 */
export function environmentDiff(scenarios: readonly ScenarioSummary[]) {
  const settingKeys = [...new Set(scenarios.flatMap((s) => Object.keys(s.cni.settings)))].sort();
  const all: Field[] = [
    ...fields,
    ...settingKeys.map((k) => ({
      key: `settings.${k}`,
      label: `setting ${k}`,
      get: (s: ScenarioSummary) => (k in s.cni.settings ? String(s.cni.settings[k]) : "not set"),
      cni: true,
    })),
  ];
  const differing = all
    .map((f) => ({ key: f.key, label: f.label, cni: f.cni, values: scenarios.map(f.get) }))
    .filter((d) => new Set(d.values).size > 1);
  return { differing, confounders: differing.filter((d) => !d.cni).map((d) => d.label) };
}
