// The evidence of a verdict in words ("3 vs 3 runs: ratio 0.920, 95 % interval …"), and the history a
// figure's verdict may take its noise from: shared by the web's compare and the ingest API's gate, so
// both say the same of the same runs.
import { formatPercent, formatRatio } from "@cnibench/format";
import { historyNoise } from "./effect.ts";
import { paramsKey } from "./params-key.ts";
import type { Params } from "./types.ts";
import type { VerdictEvidence } from "./verdict.ts";

/** The runs of one earlier campaign of a figure's series (packages/db's EarlierCampaign). */
export type EarlierRuns = { scenarioId: string; metric: string; paramsKey: string; runs: readonly number[] };

/**
 * Each figure with its series' run-to-run noise pooled over its earlier campaigns (historyNoise), where
 * those hold enough runs: the verdicts then judge three runs against a well-known noise.
 */
export function withHistory<F extends { scenarioId: string; metric: string; params: Params }>(
  figures: readonly F[],
  earlier: readonly EarlierRuns[],
): F[] {
  const key = (scenarioId: string, metric: string, paramsKey: string) =>
    `${scenarioId}\u0000${metric}\u0000${paramsKey}`;
  const campaigns = new Map<string, (readonly number[])[]>();
  for (const e of earlier) {
    const k = key(e.scenarioId, e.metric, e.paramsKey);
    campaigns.set(k, [...(campaigns.get(k) ?? []), e.runs]);
  }
  if (campaigns.size === 0) return [...figures];
  return figures.map((f) => {
    // paramsKey, not canonicalJson: worked out once per params, and the verdicts key the same params again.
    const runs = campaigns.get(key(f.scenarioId, f.metric, paramsKey(f.params)));
    const history = runs ? historyNoise(runs) : null;
    return history ? { ...f, history } : f;
  });
}

const pValue = (p: number) => (p < 0.001 ? p.toExponential(1) : p.toFixed(3));

/**
 * Why a verdict is what it is, in one line: the runs, ratio and interval against the margin, the test
 * and its p (and the adjusted one), the noise taken from history, the ranks from 6 runs a side, and for
 * an inconclusive one the runs that would decide (`needed`, runsNeeded's). `runs` counts what each side
 * had (a single value: 1).
 */
export function explainVerdict(
  e: VerdictEvidence,
  runs: { baseline: number; candidate: number },
  needed: number | null,
): string {
  switch (e.method) {
    case "interval": {
      const spreadOf = { sd: "its sd", ci95: "its 95 % CI", runs: "its runs" } as const;
      const test =
        e.from === "summary"
          ? `Welch's t from summary statistics (baseline ${spreadOf[e.spread?.baseline ?? "runs"]}, candidate ${spreadOf[e.spread?.candidate ?? "runs"]})`
          : e.scale === "log"
            ? "Welch's t on log values"
            : "Welch's t on the values";
      const pooled = (["baseline", "candidate"] as const).flatMap((side) => {
        const n = e.noise[side];
        return n.from === "history" ? [`${side} noise from ${n.runs} earlier runs in ${n.campaigns} campaigns`] : [];
      });
      const parts = [
        `${e.baselineRuns} vs ${e.candidateRuns} runs: ratio ${formatRatio(e.ratio)}, 95 % interval ${formatRatio(e.low)}–${formatRatio(e.high)}, margin ±${e.marginPercent} %`,
        `${test}, p = ${pValue(e.p)}${e.pAdjusted !== e.p ? `, adjusted for the figures compared ${pValue(e.pAdjusted)}` : ""}`,
        ...pooled,
      ];
      if (e.ranks) {
        parts.push(
          `ranks: higher in ${e.ranks.higher} of ${e.ranks.pairs} pairings, Cliff's δ ${e.ranks.cliffsDelta.toFixed(2)}, Mann-Whitney p = ${pValue(e.ranks.p)}`,
        );
      }
      if (needed !== null) {
        const more = needed - Math.min(e.baselineRuns, e.candidateRuns);
        parts.push(
          `about ${more} more ${more === 1 ? "run" : "runs"} per side would decide at this noise; these runs detect ${formatPercent(e.detectablePercent)}`,
        );
      }
      return parts.join("; ");
    }
    case "noise-band":
      return `single value on a side (${runs.baseline} vs ${runs.candidate}${e.oneRun ? `: ${e.oneRun}` : ""}): indicative, the change against the ±${e.marginPercent} % margin${e.deltaPercent === null ? "" : ` (${formatPercent(e.deltaPercent)})`}`;
    case "bounds":
      return `approximate or bounded figure: ${e.reason}`;
    case "missing":
      return e.side === "both" ? "measured by neither" : `not measured by the ${e.side}`;
    case "none":
      return e.reason;
  }
}
