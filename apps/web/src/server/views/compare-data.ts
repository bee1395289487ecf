// A comparison of 2–4 scenarios against the first: the comparison table of @cnibench/analysis (one
// aligned row per (metric, params), verdicts and their evidence), the margins in force, the summaries,
// the evidence CSV and the environment fields that differ. Pure; tested with seed bundles.
import {
  type ComparisonRow,
  compareMeasurementSets,
  comparisonTable,
  formatComparisonSummary,
  headline,
  marginPercent,
  runsShown,
  runsSummaryOf,
  summariseComparison,
  withHistory,
} from "@cnibench/analysis";
import type { compareView, LatestFigure, ScenarioSummary } from "@cnibench/db";
import { natural } from "@cnibench/format";
import { type CsvCell, catalogueRank, findMetric } from "@cnibench/schema";
import type { CompareCell, CompareOutput, CompareRow, MarginInForce } from "../routers/compare.types";
import { barView } from "./chart-data/bars";
import { crossoverOf } from "./chart-data/crossover";
import { seriesLabels } from "./chart-data/labels";

// Shared with the ingest API's gate (@cnibench/analysis, explain.ts); the routers import it from here.
export { withHistory };

/**
 * A comparison from what compareView read (the scenarios' current figures, or only the pinned
 * bundles', with their history), with the margins δ of `margins` overriding the catalogue's.
 */
export function shapeComparison(
  view: Awaited<ReturnType<typeof compareView>>,
  margins: Readonly<Record<string, number>>,
): CompareOutput {
  const { scenarios, unknownIds } = view;
  const figures = withHistory(view.figures, view.earlier);
  const diffs = candidateDiffs(scenarios, figures, margins);
  const rows = compareRows(scenarios, figures, margins, diffs);
  const labels = seriesLabels(scenarios);
  // The charts' tooltips judge each point against the baseline as the table does: by its diffs.
  const versus = { baseline: scenarios[0]?.id, margins, diffs };
  return {
    scenarios,
    labels: scenarios.map((s) => labels.get(s.id) ?? s.label),
    unknownIds,
    rows,
    summaries: compareSummaries(scenarios, rows),
    margins: marginsInForce(rows, margins),
    environment: environmentDiff(scenarios),
    crossover: crossoverOf(scenarios, figures, {
      metric: "http.rps",
      x: "services",
      where: { connection: "short" },
      y: "absolute",
      ...versus,
    }),
    latency: barView("latency", scenarios, figures, { percentile: "p99", ...versus }),
  };
}

type Shown = NonNullable<CompareCell["figure"]>;

const pick = (f: LatestFigure): Shown => ({
  value: f.value,
  unit: f.unit,
  qualifier: f.qualifier,
  low: f.low,
  high: f.high,
  bundleId: f.bundleId,
  summary: runsSummaryOf(f),
  summaryStatistics: f.summaryStatistics ?? null,
});

/**
 * Each candidate's diff against the baseline (the first scenario), by the candidate's id: the compare
 * table's, given as they are to its charts' tooltips (chart-data/versus.ts), which must say what the
 * table says. Judging hundreds of figures a side three times was most of a comparison's analysis.
 */
export function candidateDiffs(
  scenarios: readonly ScenarioSummary[],
  figures: readonly LatestFigure[],
  margins: Readonly<Record<string, number>> = {},
): Map<string, ComparisonRow<LatestFigure>[]> {
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
  figures: readonly LatestFigure[],
  margins: Readonly<Record<string, number>> = {},
  diffs = candidateDiffs(scenarios, figures, margins),
): CompareRow[] {
  const [baseline, ...candidates] = scenarios;
  if (!baseline) return [];
  const baseFigures = figures.filter((f) => f.scenarioId === baseline.id);
  return comparisonTable(
    baseFigures,
    candidates.map((c) => diffs.get(c.id) ?? []),
    pick,
  );
}

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
    .sort((a, b) => catalogueRank(a) - catalogueRank(b) || natural(a, b))
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
            ? [
                {
                  metric: r.metric,
                  params: r.params,
                  verdict: cell.verdict,
                  percent: cell.change?.percent ?? null,
                  caveat: cell.caveat,
                },
              ]
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
          c.caveat?.text ?? null,
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
