// A chart's tooltip must never judge a point otherwise than the compare table does: it is the table's own comparison.
import {
  type ComparisonRow,
  compareMeasurementSets,
  figureKey,
  judgedPercent,
  type VerdictEvidence,
} from "@cnibench/analysis";
import type { ChartPoint } from "@cnibench/charts/types";
import type { LatestFigure, ScenarioSummary } from "@cnibench/db";
import { formatRatio } from "@cnibench/format";

/** A point against the chart's baseline: verdict, change and what the verdict rests on. */
export type Versus = NonNullable<ChartPoint["versus"]>;

/**
 * Whom a chart's points are judged against: the baseline scenario (the compare page's first, or the
 * charts page's "Compare with"), with the margins δ of the comparison overriding the catalogue's. The
 * compare page gives its table's diffs too (compare-data.ts' candidateDiffs, over the same figures),
 * so they are not judged again.
 */
export type Against = {
  baseline?: string | null;
  margins?: Readonly<Record<string, number>>;
  diffs?: ReadonlyMap<string, readonly ComparisonRow[]>;
};

/** What a verdict rests on, short enough for a tooltip; the compare table's evidence says it in full. */
function evidenceWords(e: VerdictEvidence, runs: { baseline: number; candidate: number }): string {
  switch (e.method) {
    case "interval":
      return `${e.baselineRuns} vs ${e.candidateRuns} runs, 95 % ${formatRatio(e.low)}–${formatRatio(e.high)}`;
    case "noise-band":
      return runs.baseline === 1 && runs.candidate === 1
        ? "one value a side, indicative"
        : `${runs.baseline} vs ${runs.candidate} runs, indicative`;
    case "bounds":
    case "none":
      return e.reason;
    case "missing":
      return "";
  }
}

/**
 * Each figure against the baseline's figure of the same metric and params (so the same x on a line,
 * the same group of bars), or undefined. The comparison is the compare table's own
 * (compareMeasurementSets over all the figures given, with the same margins): its p-values are
 * adjusted over the same figures, so a tooltip never says other than the table. Each scenario is
 * compared once, when a point of it first asks.
 */
export function versusOf(
  scenarios: readonly ScenarioSummary[],
  figures: readonly LatestFigure[],
  against: Against,
  label: (id: string) => string,
): (f: LatestFigure) => Versus | undefined {
  const id = against.baseline;
  if (!id || !scenarios.some((s) => s.id === id)) return () => undefined;
  const baseline = label(id);
  const base = figures.filter((f) => f.scenarioId === id);
  const compared = new Map<string, Map<string, ComparisonRow>>();
  const rowsOf = (scenarioId: string) => {
    let rows = compared.get(scenarioId);
    if (!rows) {
      const diff =
        against.diffs?.get(scenarioId) ??
        compareMeasurementSets(
          base,
          figures.filter((f) => f.scenarioId === scenarioId),
          { margins: against.margins },
        );
      rows = new Map(diff.map((r) => [r.key, r]));
      compared.set(scenarioId, rows);
    }
    return rows;
  };
  return (f) => {
    if (f.scenarioId === id) return undefined;
    const row = rowsOf(f.scenarioId).get(figureKey(f.metric, f.params));
    if (!row?.baseline || row.result.verdict === "missing") return undefined;
    const e = row.result.evidence;
    return {
      baseline,
      verdict: row.result.verdict,
      indicative: e.method === "noise-band",
      // The change the verdict judged, as the compare table's row shows it.
      percent: judgedPercent(row.result),
      words: evidenceWords(e, { baseline: (row.baseline as LatestFigure).n, candidate: f.n }),
    };
  };
}
