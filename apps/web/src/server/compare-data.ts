// A comparison of 2–4 scenarios against the first: one aligned row per (metric, params), verdicts
// from @cnibench/analysis, and the environment fields that differ. Pure; tested with seed bundles.
import {
  compareMeasurementSets,
  countVerdicts,
  figureKey,
  formatVerdictSummary,
  type Verdict,
  type VerdictEvidence,
} from "@cnibench/analysis";
import type { ScenarioSummary } from "@cnibench/db";
import { findMetric, metricCatalogue } from "@cnibench/schema";
import { type Figure, seriesLabels } from "./chart-data";
import { type FigureSummary, summaryOf } from "./figure-summary";

// One collator for every sort: localeCompare with options builds a new one per comparison, which
// made sorting a thousand figures take a tenth of a second.
const natural = new Intl.Collator("en", { numeric: true }).compare;

type Shown = Pick<Figure, "value" | "unit" | "qualifier" | "low" | "high" | "samples" | "bundleId"> & {
  summary: FigureSummary;
};

export type CompareCell = {
  figure: Shown | null;
  /** Against the baseline; null for the baseline itself or when a side is missing. */
  delta: { absolute: number; percent: number | null } | null;
  verdict: Verdict | null;
  /** How the verdict was reached, in words (shown on hover). */
  why: string | null;
};

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
});

/** Runs the verdict saw on a side: its samples, or the value alone. */
const runsOf = (f: { samples?: readonly number[] } | null | undefined) => Math.max(1, f?.samples?.length ?? 0);

function explain(e: VerdictEvidence, runs: { baseline: number; candidate: number }): string {
  switch (e.method) {
    case "welch":
      return `Welch's t-test on ${e.baselineSamples} vs ${e.candidateSamples} runs: t = ${e.t.toFixed(2)}, df = ${e.df.toFixed(1)}, p = ${e.p < 0.001 ? e.p.toExponential(1) : e.p.toFixed(3)} (α = ${e.alpha})`;
    case "noise-band":
      return `${runs.baseline} vs ${runs.candidate} ${runs.candidate === 1 ? "run" : "runs"}, fewer than 3 on a side: compared with a ±${e.bandPercent} % noise band${e.deltaPercent === null ? "" : ` (change ${e.deltaPercent.toFixed(1)} %)`}`;
    case "bounds":
      return `approximate or bounded figure: ${e.reason}`;
    case "missing":
      return e.side === "both" ? "measured by neither" : `not measured by the ${e.side}`;
    case "none":
      return e.reason;
  }
}

const catalogueOrder = new Map(metricCatalogue.map((m, i) => [m.key, i]));

/** Every (metric, params) any scenario measured, the baseline first, then each candidate against it. */
export function compareRows(scenarios: readonly ScenarioSummary[], figures: readonly Figure[]): CompareRow[] {
  const [baseline, ...candidates] = scenarios;
  if (!baseline) return [];
  const of = (id: string) => figures.filter((f) => f.scenarioId === id);
  const baseFigures = of(baseline.id);
  const rows = new Map<string, CompareRow>();
  const row = (f: Figure): CompareRow => {
    const key = figureKey(f.metric, f.params);
    let r = rows.get(key);
    if (!r) {
      r = {
        key,
        metric: f.metric,
        label: findMetric(f.metric)?.label ?? f.metric,
        better: f.better,
        params: f.params,
        cells: scenarios.map(() => ({ figure: null, delta: null, verdict: null, why: null })),
      };
      rows.set(key, r);
    }
    return r;
  };
  for (const f of baseFigures) {
    const r = row(f);
    r.cells[0] = { figure: pick(f), delta: null, verdict: null, why: null };
  }
  candidates.forEach((c, i) => {
    const compared = compareMeasurementSets(baseFigures, of(c.id));
    for (const cmp of compared) {
      const f = (cmp.candidate ?? cmp.baseline) as Figure;
      const r = row(f);
      r.cells[i + 1] = {
        figure: cmp.candidate ? pick(cmp.candidate as Figure) : null,
        delta: cmp.result.delta,
        verdict: cmp.result.verdict,
        why: explain(cmp.result.evidence, { baseline: runsOf(cmp.baseline), candidate: runsOf(cmp.candidate) }),
      };
    }
  });
  const order = (m: string) => catalogueOrder.get(m) ?? Number.MAX_SAFE_INTEGER;
  return [...rows.values()].sort((a, b) => order(a.metric) - order(b.metric) || natural(a.key, b.key));
}

/** "Cilium Overlay vs kube-proxy iptables: 9 better, 6 worse, 14 within noise" per candidate. */
export function compareSummaries(scenarios: readonly ScenarioSummary[], rows: readonly CompareRow[]): string[] {
  const labels = seriesLabels(scenarios);
  const [baseline, ...candidates] = scenarios;
  if (!baseline) return [];
  return candidates.map((c, i) =>
    formatVerdictSummary(
      labels.get(c.id) ?? c.label,
      labels.get(baseline.id) ?? baseline.label,
      countVerdicts(rows.flatMap((r) => (r.cells[i + 1]?.verdict ? [r.cells[i + 1]!.verdict as Verdict] : []))),
    ),
  );
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
