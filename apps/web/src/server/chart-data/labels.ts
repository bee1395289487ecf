// Legends and group names must tell scenarios and params apart at a glance, and say it alike on every chart.
import { formatParams } from "@cnibench/analysis/format";
import type { ScenarioSummary } from "@cnibench/db";
import type { Params } from "./types";

/**
 * Legend labels: the scenario's label, with what tells it apart from another scenario of the same
 * label (cloud, instance type, kernel, settings) when several share one.
 */
export function seriesLabels(scenarios: readonly ScenarioSummary[]): Map<string, string> {
  const byLabel = new Map<string, ScenarioSummary[]>();
  for (const s of scenarios) byLabel.set(s.label, [...(byLabel.get(s.label) ?? []), s]);
  const out = new Map<string, string>();
  for (const [label, group] of byLabel) {
    if (group.length === 1) {
      out.set(group[0]?.id ?? "", label);
      continue;
    }
    const distinguishers: ((s: ScenarioSummary) => string)[] = [
      (s) => s.provider,
      (s) => s.sku,
      (s) => s.kernel,
      (s) => s.kubernetesVersion,
      (s) =>
        Object.entries(s.cni.settings)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(" "),
    ];
    const useful = distinguishers.filter((d) => new Set(group.map(d)).size > 1);
    for (const s of group) {
      const extra = useful.map((d) => d(s)).filter(Boolean);
      out.set(s.id, extra.length > 0 ? `${label} (${extra.join(", ")})` : `${label} (${s.id.slice(-6)})`);
    }
  }
  return out;
}

export const withoutKeys = (params: Params, keys: readonly string[]): Params =>
  Object.fromEntries(Object.entries(params).filter(([k]) => !keys.includes(k)));

/** A group's or a line's params, less those the view fixes: "path pod-pod · streams 8". */
export const paramsLabel = (params: Params, omit: readonly string[] = []): string =>
  formatParams(params, { omit, empty: "(no other params)" });
