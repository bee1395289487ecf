// The explorer's facets: which scenarios a filter matches, how many each value would add, and which
// filter to drop when nothing matches. packages/db applies the same filter in SQL (scenarios.ts).
import { vocabularyLabel } from "@cnibench/schema";
import { natural } from "./natural.ts";

export const facetKeys = ["provider", "sku", "kernel", "k8s", "cni", "mode", "kubeProxy", "source"] as const;
export type FacetKey = (typeof facetKeys)[number];
export type ExploreFilters = Partial<Record<FacetKey, readonly string[]>>;

/** A scenario as the facets read it; packages/db's ScenarioSummary fits. */
export type FacetScenario = {
  provider: string;
  sku: string;
  kernel: string;
  kubernetesVersion: string;
  cni: { name: string; mode: string; kubeProxy: string };
  sources: readonly string[];
};

type FacetDefinition = {
  title: string;
  values: (s: FacetScenario) => readonly string[];
  label?: (value: string) => string;
};

export const facetDefinitions: Record<FacetKey, FacetDefinition> = {
  provider: {
    title: "Cloud",
    values: (s) => [s.provider],
    label: (v) => vocabularyLabel("provider", v) ?? v,
  },
  sku: { title: "Instance type", values: (s) => [s.sku] },
  kernel: { title: "Kernel", values: (s) => [s.kernel] },
  k8s: { title: "Kubernetes", values: (s) => [s.kubernetesVersion] },
  cni: { title: "CNI", values: (s) => [s.cni.name], label: (v) => vocabularyLabel("cniName", v) ?? v },
  mode: { title: "Mode", values: (s) => [s.cni.mode], label: (v) => vocabularyLabel("cniMode", v) ?? v },
  kubeProxy: {
    title: "kube-proxy",
    values: (s) => [s.cni.kubeProxy],
    label: (v) => vocabularyLabel("kubeProxy", v) ?? v,
  },
  source: { title: "Source", values: (s) => s.sources },
};

export type FacetValue = { value: string; label: string; count: number; selected: boolean };
export type Facet = { key: FacetKey; title: string; values: FacetValue[] };
/** An active filter and how many scenarios would match without it: what the empty state suggests dropping. */
export type DropHint = { key: FacetKey; title: string; values: string[]; matchesWithout: number };

const active = (filters: ExploreFilters, key: FacetKey) => (filters[key]?.length ?? 0) > 0;

/** The facets whose filter a scenario fails: it matches when none, and counts toward a facet when at most that one. */
function failedFacets(s: FacetScenario, filters: ExploreFilters): FacetKey[] {
  return facetKeys.filter((key) => {
    if (!active(filters, key)) return false;
    const wanted = filters[key] ?? [];
    return !facetDefinitions[key].values(s).some((v) => wanted.includes(v));
  });
}

/**
 * Values combine with OR within a facet and with AND across facets. A facet's counts apply every
 * other facet's filter but not its own, so they say what ticking one more value would add.
 */
export function applyFilters<S extends FacetScenario>(scenarios: readonly S[], filters: ExploreFilters) {
  const failed = scenarios.map((s) => failedFacets(s, filters));
  const matchesWithout = (key: FacetKey, i: number) => failed[i]!.every((k) => k === key);
  const matching = scenarios.filter((_, i) => failed[i]!.length === 0);
  const facets: Facet[] = facetKeys.map((key) => {
    const def = facetDefinitions[key];
    const counts = new Map<string, number>();
    scenarios.forEach((s, i) => {
      const ok = matchesWithout(key, i) ? 1 : 0;
      for (const v of def.values(s)) counts.set(v, (counts.get(v) ?? 0) + ok);
    });
    const selected = filters[key] ?? [];
    // A selected value that no scenario has any more still shows (with 0), so it can be unticked.
    for (const v of selected) if (!counts.has(v)) counts.set(v, 0);
    const values = [...counts.entries()]
      .map(([value, count]) => ({
        value,
        label: def.label?.(value) ?? value,
        count,
        selected: selected.includes(value),
      }))
      .sort((a, b) => b.count - a.count || natural(a.label, b.label));
    return { key, title: def.title, values };
  });
  const dropHints: DropHint[] = facetKeys
    .filter((key) => active(filters, key))
    .map((key) => ({
      key,
      title: facetDefinitions[key].title,
      values: [...(filters[key] ?? [])],
      matchesWithout: scenarios.filter((_, i) => matchesWithout(key, i)).length,
    }))
    .sort((a, b) => b.matchesWithout - a.matchesWithout);
  return { matching, facets, dropHints };
}
