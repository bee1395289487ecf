/**
 * The one comparison table: a row per (metric, params) any side measured, in catalogue order, and a
 * cell per side — the baseline's own figure first, then each candidate's judged against it (the diffs
 * of compareMeasurementSets). The compare page, its evidence CSV and its charts' tooltips, the ingest
 * API's gate and the alerts the gate feeds all read their verdicts, changes, caveats and words from
 * these rows; each only chooses how a figure is shown (`show`).
 */
import { formatPercent, natural } from "@cnibench/format";
import { catalogueRank, findMetric } from "@cnibench/schema";
import type { ComparisonRow } from "./compare.ts";
import { figureKey } from "./compare.ts";
import type { NoiseSource } from "./effect.ts";
import { explainVerdict } from "./explain.ts";
import { type Caveat, judgedPercent, judgedPercentBasis } from "./summary.ts";
import type { Better, Delta, Figure, Params } from "./types.ts";
import { runsNeeded, type Verdict, type VerdictEvidence } from "./verdict.ts";

/** The numbers behind a verdict, as the evidence CSV gives them; the interval test's are null for the others. */
type CellEvidence = {
  /** welch-summary: Welch's t from summary statistics (a side published a mean, its spread and n, not runs). */
  test: "welch-log" | "welch-linear" | "welch-summary" | "single value" | "bounds";
  marginPercent: number;
  /** Candidate / baseline with its 95 % interval. */
  ratio: number | null;
  low: number | null;
  high: number | null;
  p: number | null;
  pAdjusted: number | null;
  /** Runs per side that would decide at this noise (inconclusive verdicts). */
  runsNeeded: number | null;
  /** The difference in % these runs detect 80 % of the time. */
  detectablePercent: number | null;
  /** Where each side's variance came from: "runs", or its series' history ("history: 12 runs in 4 campaigns"). */
  baselineNoise: string | null;
  candidateNoise: string | null;
};

/** One side's figure in a row, and how it was judged against the baseline's (nothing for the baseline). */
export type ComparisonCell<S> = {
  figure: S | null;
  /** Against the baseline; null for the baseline itself or when a side is missing. */
  delta: Delta | null;
  /** The change the verdict judged, in %, and what it is of (judgedPercent). */
  change: { percent: number; basis: string } | null;
  verdict: Verdict | null;
  /** A single run on a side: the verdict comes from the margin alone. */
  indicative: boolean;
  /** What a verdict must be read with (caveatOf). */
  caveat: Caveat | null;
  /** How the verdict was reached, in words. */
  why: string | null;
  evidence: CellEvidence | null;
};

/** A figure the table can hold: params and better direction as the database gives them. */
type TableFigure = Figure & { params: NonNullable<Figure["params"]>; better: Better };

export type ComparisonTableRow<F extends TableFigure, S> = {
  key: string;
  metric: string;
  label: string;
  better: F["better"];
  params: F["params"];
  cells: ComparisonCell<S>[];
};

/** Runs the verdict saw on a side: its samples (concurrent clients' are one run), else its summary's n, or the value alone. */
const runsOf = (f: Pick<Figure, "samples" | "samplesAre" | "summaryStatistics"> | null | undefined) =>
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

function evidenceOf(e: VerdictEvidence, needed: number | null): CellEvidence | null {
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
        runsNeeded: needed,
        detectablePercent: e.detectablePercent,
        baselineNoise: noiseWords(e.noise.baseline),
        candidateNoise: noiseWords(e.noise.candidate),
      };
    case "noise-band":
      return { ...noTest, test: "single value", marginPercent: e.marginPercent };
    case "bounds":
      return { ...noTest, test: "bounds", marginPercent: e.marginPercent };
    case "missing":
    case "none":
      return null;
  }
}

/** Resources are measured while a test moves traffic: less CPU at less throughput is no saving. */
const resourceMetrics = new Set(["cpu.usage", "memory.usage"]);
const paramsWithin = (inner: Params, outer: Params) => Object.entries(inner).every(([k, v]) => outer[k] === v);

/**
 * What a verdict must be read with, from the figure it is coupled to in the same comparison: a UDP
 * throughput gain bought with more loss ("with 43.6 % loss"), a resource saving of a test that moved
 * less traffic ("while moving 62.5 % less traffic"), or a resource cost of a test that moved more
 * ("while moving 610 % more traffic": twice the CPU for seven times the throughput is no extra cost).
 */
function caveatOf(cmp: ComparisonRow, compared: readonly ComparisonRow[]): Caveat | null {
  const { verdict } = cmp.result;
  if (verdict !== "better" && verdict !== "worse") return null;
  const protocol = cmp.params.protocol;
  if (resourceMetrics.has(cmp.metric) && typeof protocol === "string") {
    // A saving with less traffic, a cost with more: the traffic went the other way.
    const moved = verdict === "better" ? "worse" : "better";
    const traffic = compared.find(
      (o) => o.metric === `${protocol}.throughput` && o.result.verdict === moved && paramsWithin(o.params, cmp.params),
    );
    const percent = traffic?.result.delta?.percent;
    if (percent == null || percent === 0 || percent < 0 !== (verdict === "better")) return null;
    const kind = percent < 0 ? "less traffic" : "more traffic";
    return { text: `while moving ${formatPercent(Math.abs(percent), 1, false)} ${kind}`, kind };
  }
  if (verdict !== "better") return null;
  const undecidedOrWorse = (v: Verdict) => v === "worse" || v === "inconclusive";
  if (cmp.metric === "udp.throughput") {
    const loss = compared.find((o) => o.metric === "udp.loss" && o.key === figureKey("udp.loss", cmp.params));
    if (!loss?.candidate || !undecidedOrWorse(loss.result.verdict)) return null;
    return { text: `with ${formatPercent(loss.candidate.value, 1, false)} loss`, kind: "loss" };
  }
  return null;
}

/**
 * A cell without a comparison: the baseline's own, or one no candidate figure filled. Written out, not
 * spread from a shared one: thousands of cells a compare, and spreading was a tenth of its shaping.
 */
const noVerdict = <S>(figure: S | null): ComparisonCell<S> => ({
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
function changeOf(cmp: ComparisonRow): ComparisonCell<never>["change"] {
  if (cmp.result.verdict === "missing") return null;
  const percent = judgedPercent(cmp.result);
  return percent === null ? null : { percent, basis: judgedPercentBasis(cmp.result) };
}

/** Catalogue order, then the figure key's natural order (params "streams 2" before "streams 16"). */
const byCatalogue = (a: { metric: string; key: string }, b: { metric: string; key: string }) =>
  catalogueRank(a.metric) - catalogueRank(b.metric) || natural(a.key, b.key);

/**
 * The table of a baseline's figures and each candidate's diff against them (`diffs[i]`, as
 * compareMeasurementSets gave it, over the same figures), each figure shown as `show` makes it.
 */
export function comparisonTable<F extends TableFigure, S>(
  baseline: readonly F[],
  diffs: readonly (readonly ComparisonRow<F>[])[],
  show: (figure: F) => S,
): ComparisonTableRow<F, S>[] {
  const width = diffs.length + 1;
  const rows = new Map<string, ComparisonTableRow<F, S>>();
  const row = (f: F, key: string): ComparisonTableRow<F, S> => {
    let r = rows.get(key);
    if (!r) {
      // A loop, not Array.from({ length }, …): its generic path cost 25× as much per row.
      const cells: ComparisonCell<S>[] = [];
      for (let i = 0; i < width; i++) cells.push(noVerdict<S>(null));
      r = {
        key,
        metric: f.metric,
        label: findMetric(f.metric)?.label ?? f.metric,
        better: f.better,
        params: f.params,
        cells,
      };
      rows.set(key, r);
    }
    return r;
  };
  for (const f of baseline) {
    const r = row(f, figureKey(f.metric, f.params));
    r.cells[0] = noVerdict(show(f));
  }
  diffs.forEach((compared, i) => {
    for (const cmp of compared) {
      const r = row((cmp.candidate ?? cmp.baseline)!, cmp.key);
      const needed = runsNeeded(cmp.result);
      r.cells[i + 1] = {
        figure: cmp.candidate ? show(cmp.candidate) : null,
        delta: cmp.result.delta,
        change: changeOf(cmp),
        verdict: cmp.result.verdict,
        indicative: cmp.result.evidence.method === "noise-band",
        caveat: caveatOf(cmp, compared),
        why: explainVerdict(
          cmp.result.evidence,
          { baseline: runsOf(cmp.baseline), candidate: runsOf(cmp.candidate) },
          needed,
        ),
        evidence: evidenceOf(cmp.result.evidence, needed),
      };
    }
  });
  return [...rows.values()].sort(byCatalogue);
}
