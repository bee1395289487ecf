/**
 * The gate (POST /v1/gate, `npx cnibench gate`, and the alerts of a campaign worse than its previous
 * one): every figure of two campaigns compared as the compare page compares them — the same comparison
 * table (comparison-table.ts), verdicts, history noise and Benjamini–Hochberg adjustment — each row
 * shown as runs and median, and an outcome for CI decided by the chosen metrics' figures.
 */
import { formatChange, formatFigure, formatParams, verdictLabel } from "@cnibench/format";
import type { GateResult, GateRow } from "@cnibench/schema";
import { compareMeasurementSets } from "./compare.ts";
import { type ComparisonCell, type ComparisonTableRow, comparisonTable } from "./comparison-table.ts";
import { percentDelta } from "./delta.ts";
import { median } from "./distribution.ts";
import type { Better, Figure } from "./types.ts";

/** A side's figure as the gate reads it: a current figure with its latest campaign's runs (packages/db's). */
export type GateFigure = Figure & {
  params: Record<string, string | number | boolean>;
  better: Better;
  /** Runs in the series' latest campaign: `samples` holds them (one run: the value itself, n = 1). */
  n: number;
  samples: readonly number[];
};

/** The runs' median, or the figure's value when it has fewer than two (a bundle's published figure). */
const medianOf = (f: GateFigure) => (f.samples.length < 2 ? f.value : median(f.samples));

/** A gate row from the comparison table's row of two sides: the baseline's cell, the candidate's judged. */
function rowOf(r: ComparisonTableRow<GateFigure, GateFigure>, gated: boolean): GateRow {
  // Every row of a two-sided table is judged: the diff holds the figures of both sides.
  const [baseCell, judged] = r.cells as [ComparisonCell<GateFigure>, ComparisonCell<GateFigure>];
  const base = baseCell.figure;
  const cand = judged.figure;
  const sideOf = (f: GateFigure | null) => (f ? { n: f.n, median: medianOf(f) } : null);
  const words = (f: GateFigure | null) =>
    f ? `${formatFigure({ ...f, value: medianOf(f) })}${f.n > 1 ? ` (n=${f.n})` : ""}` : "—";
  // Against the medians shown, which a bundle's own rounds may set apart from its published value.
  const change = base && cand ? percentDelta(medianOf(cand), medianOf(base)).percent : null;
  const verdict = judged.verdict!;
  const { indicative } = judged;
  return {
    metric: r.metric,
    label: r.label,
    params: r.params,
    unit: (cand ?? base)!.unit,
    baseline: sideOf(base),
    candidate: sideOf(cand),
    changePercent: change,
    verdict,
    indicative,
    why: judged.why!,
    marginPercent: judged.evidence?.marginPercent ?? null,
    gated,
    caveat: judged.caveat?.text ?? null,
    text: {
      params: formatParams(r.params),
      baseline: words(base),
      candidate: words(cand),
      change: change === null ? "—" : formatChange(change),
      verdict: verdictLabel(verdict, indicative),
    },
  };
}

/**
 * The gate from both sides' figures (their history attached): every figure compared as the compare
 * page does, and the outcome decided by the chosen metrics' figures only — any worse beyond its margin
 * is "worse"; else any inconclusive, any chosen metric that no figure of both sides measured, or
 * nothing compared at all is "inconclusive"; else "pass". Missing figures (measured by one side only)
 * and figures with no better direction never decide.
 */
export function gateReport(
  baseline: readonly GateFigure[],
  candidate: readonly GateFigure[],
  options: { metrics?: readonly string[]; margins?: Readonly<Record<string, number>> },
): Pick<GateResult, "rows" | "metrics" | "unmeasured" | "compared" | "worse" | "inconclusive" | "outcome"> {
  const chosen = options.metrics ? new Set(options.metrics) : null;
  const compared = compareMeasurementSets(baseline, candidate, { margins: options.margins ?? {} });
  const rows = comparisonTable(baseline, [compared], (f) => f).map((r) =>
    rowOf(r, chosen === null || chosen.has(r.metric)),
  );
  const both = rows.filter((r) => r.verdict !== "missing");
  const deciding = rows.filter((r) => r.gated);
  const unmeasured = chosen ? [...chosen].filter((m) => !both.some((r) => r.metric === m)) : [];
  const worse = deciding.filter((r) => r.verdict === "worse").length;
  const inconclusive =
    deciding.filter((r) => r.verdict === "inconclusive").length + unmeasured.length + (both.length === 0 ? 1 : 0);
  return {
    rows,
    metrics: chosen ? [...chosen] : null,
    unmeasured,
    compared: both.length,
    worse,
    inconclusive,
    outcome: worse > 0 ? "worse" : inconclusive > 0 ? "inconclusive" : "pass",
  };
}
