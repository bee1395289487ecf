import { formatCount, verdictWords } from "./format.ts";
import { type Verdict, verdicts } from "./verdict.ts";

export type VerdictCounts = Record<Verdict, number>;

export function countVerdicts(items: readonly (Verdict | { verdict: Verdict })[]): VerdictCounts {
  const counts = Object.fromEntries(verdicts.map((v) => [v, 0])) as VerdictCounts;
  for (const item of items) counts[typeof item === "string" ? item : item.verdict] += 1;
  return counts;
}

/**
 * "Cilium Overlay vs kube-proxy iptables: 9 better, 6 worse, 14 equivalent, 2 inconclusive". Better,
 * worse and equivalent are always said (a zero is information); the others only when present.
 */
export function formatVerdictSummary(candidateLabel: string, baselineLabel: string, counts: VerdictCounts): string {
  const parts = verdicts
    .filter((v) => counts[v] > 0 || v === "better" || v === "worse" || v === "equivalent")
    .map((v) => `${formatCount(counts[v])} ${verdictWords[v]}`);
  return `${candidateLabel} vs ${baselineLabel}: ${parts.join(", ")}`;
}
