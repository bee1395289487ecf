// Legends and group names must tell scenarios and params apart at a glance, and say it alike on every chart.
import { cniDifferences, cniWords, providerName } from "@cnibench/analysis";
import type { ScenarioSummary } from "@cnibench/db";
import { formatParams } from "@cnibench/format";
import type { Params } from "./types";

/** What else tells scenarios of one CNI configuration apart, in the order a reader looks for it. */
const environment: ((s: ScenarioSummary) => string)[] = [
  (s) => (s.cni.version === "unknown" ? "version unknown" : `${cniWords(s.cni.name)} ${s.cni.version}`),
  (s) => providerName(s.provider),
  (s) => s.sku,
  (s) => `kernel ${s.kernel}`,
  (s) => `Kubernetes ${s.kubernetesVersion}`,
  (s) => `region ${s.region}`,
  (s) => (s.nodeCount === null ? "nodes unknown" : `${s.nodeCount} nodes`),
  (s) => s.os,
];

/**
 * Legend labels: the scenario's label, with only the words that tell it apart from others of the same
 * label — settings that differ, in words, then CNI version, cloud, instance type, kernel, Kubernetes —
 * and an ordinal ("#2") for scenarios nothing shown tells apart. Never an id.
 */
export function seriesLabels(scenarios: readonly ScenarioSummary[]): Map<string, string> {
  const byLabel = new Map<string, ScenarioSummary[]>();
  for (const s of scenarios) byLabel.set(s.label, [...(byLabel.get(s.label) ?? []), s]);
  const named = new Map<string, string>();
  for (const [label, group] of byLabel) {
    if (group.length === 1) {
      named.set(group[0]?.id ?? "", label);
      continue;
    }
    const cniWordsOf = cniDifferences(group.map((s) => s.cni));
    const useful = environment.filter((d) => new Set(group.map(d)).size > 1);
    group.forEach((s, i) => {
      const extra = [...(cniWordsOf[i] ?? []), ...useful.map((d) => d(s))];
      named.set(s.id, extra.length > 0 ? `${label} (${extra.join(", ")})` : label);
    });
  }
  // Still alike (or alike another group's label): numbered in the order given.
  const count = new Map<string, number>();
  for (const name of named.values()) count.set(name, (count.get(name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const out = new Map<string, string>();
  for (const { id } of scenarios) {
    const name = named.get(id) ?? "";
    if ((count.get(name) ?? 0) < 2) {
      out.set(id, name);
      continue;
    }
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    out.set(id, `${name} #${n}`);
  }
  return out;
}

export const withoutKeys = (params: Params, keys: readonly string[]): Params =>
  Object.fromEntries(Object.entries(params).filter(([k]) => !keys.includes(k)));

/** A group's or a line's params, less those the view fixes: "path pod-pod · streams 8". */
export const paramsLabel = (params: Params, omit: readonly string[] = []): string =>
  formatParams(params, { omit, empty: "(no other params)" });
