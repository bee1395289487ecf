// The explorer's logic, pure: facets with counts, filtering, and the key figures of the table.
// The database part is only `listScenarios` and `latestFigures`; everything here is tested without I/O.
import { findMetric, metricCatalogue, vocabularyLabel } from "@cnibench/schema";
import type { Figure, LatestFigure } from "./measurements.ts";
import type { ScenarioSummary } from "./scenarios.ts";

// One collator for every sort: localeCompare with options builds a new one per comparison, which
// made sorting a thousand figures take a tenth of a second.
const natural = new Intl.Collator("en", { numeric: true }).compare;

export const facetKeys = ["provider", "sku", "kernel", "k8s", "cni", "mode", "kubeProxy", "source"] as const;
export type FacetKey = (typeof facetKeys)[number];
export type ExploreFilters = Partial<Record<FacetKey, readonly string[]>>;

type FacetDefinition = {
  title: string;
  values: (s: ScenarioSummary) => string[];
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
function failedFacets(s: ScenarioSummary, filters: ExploreFilters): FacetKey[] {
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
export function applyFilters(scenarios: readonly ScenarioSummary[], filters: ExploreFilters) {
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

export const keyFigureKeys = ["throughput", "keepaliveRps", "shortRps", "tcpRrP99"] as const;
export type KeyFigureKey = (typeof keyFigureKeys)[number];

type KeyFigureDefinition = { title: string; metric: string; params: Record<string, string> };

/** The columns of the explorer table: one headline figure each, in the catalogue's unit. */
export const keyFigureDefinitions: Record<KeyFigureKey, KeyFigureDefinition> = {
  throughput: { title: "TCP throughput", metric: "tcp.throughput", params: {} },
  keepaliveRps: { title: "Keepalive RPS", metric: "http.rps", params: { connection: "keepalive" } },
  shortRps: { title: "Short-conn RPS", metric: "http.rps", params: { connection: "short" } },
  tcpRrP99: { title: "TCP_RR p99", metric: "tcp.rr.latency", params: { percentile: "p99" } },
};

export const keyFigureMetrics = [...new Set(Object.values(keyFigureDefinitions).map((d) => d.metric))];

export type KeyFigure = Pick<
  LatestFigure,
  "value" | "unit" | "qualifier" | "low" | "high" | "params" | "bundleId" | "samples" | "n" | "campaignBundleIds"
>;

// Figures measured under extra load or features (many Services, policies, Hubble) are not the
// scenario's headline: a baseline keeps them out of the table.
export const headlineBaseline: Record<string, readonly (string | number | boolean)[]> = {
  services: [0],
  policy: ["none"],
  hubble: ["off"],
};

function isHeadline(f: LatestFigure, def: KeyFigureDefinition): boolean {
  if (f.metric !== def.metric) return false;
  if (!Object.entries(def.params).every(([k, v]) => f.params[k] === v)) return false;
  return Object.entries(headlineBaseline).every(
    ([k, ok]) => f.params[k] === undefined || ok.includes(f.params[k] as never),
  );
}

/**
 * A scenario's headline figures: among its baseline figures for each column, the best one by the
 * metric's direction (e.g. the 8-stream throughput when 1, 8 and 16 streams were measured). Exact
 * figures win over qualified ones, which are only the headline when nothing exact exists.
 */
export function keyFigures(figures: readonly LatestFigure[]): Partial<Record<KeyFigureKey, KeyFigure>> {
  const out: Partial<Record<KeyFigureKey, KeyFigure>> = {};
  for (const key of keyFigureKeys) {
    const def = keyFigureDefinitions[key];
    const lowerIsBetter = findMetric(def.metric)?.better === "lower";
    const candidates = figures.filter((f) => isHeadline(f, def));
    const pool = candidates.some((f) => f.qualifier === null)
      ? candidates.filter((f) => f.qualifier === null)
      : candidates;
    const best = pool.reduce<LatestFigure | undefined>(
      (a, f) => (a === undefined || (lowerIsBetter ? f.value < a.value : f.value > a.value) ? f : a),
      undefined,
    );
    if (best) {
      const { value, unit, qualifier, low, high, params, bundleId, samples, n, campaignBundleIds } = best;
      out[key] = { value, unit, qualifier, low, high, params, bundleId, samples, n, campaignBundleIds };
    }
  }
  return out;
}

export type FigureGroup = {
  metric: string;
  label: string;
  unit: string;
  better: Figure["better"];
  description: string | null;
  /** `olderRuns` counts every older run; `history` holds the ones fetched (see scenarioFigures). */
  rows: { params: Figure["params"]; current: Figure; history: Figure[]; olderRuns: number }[];
};

/**
 * A scenario's figures grouped by metric (catalogue order, then custom ones), one row per params,
 * the most recent first and older runs as its history. Expects figures newest first per
 * (metric, params), as `scenarioFigures` returns them.
 */
export function groupFigures(figures: readonly (Figure & { runs?: number })[]): FigureGroup[] {
  const groups = new Map<string, FigureGroup>();
  const rows = new Map<string, FigureGroup["rows"][number]>();
  for (const f of figures) {
    let group = groups.get(f.metric);
    if (!group) {
      const def = findMetric(f.metric);
      group = {
        metric: f.metric,
        label: def?.label ?? f.metric,
        unit: f.unit,
        better: f.better,
        description: def?.description ?? null,
        rows: [],
      };
      groups.set(f.metric, group);
    }
    const rowKey = `${f.metric}\u0000${f.paramsKey}`;
    const row = rows.get(rowKey);
    if (row) {
      row.history.push(f);
      row.olderRuns = Math.max(row.olderRuns, row.history.length);
    } else {
      const created = { params: f.params, current: f, history: [], olderRuns: (f.runs ?? 1) - 1 };
      rows.set(rowKey, created);
      group.rows.push(created);
    }
  }
  const order = (m: string) => {
    const i = catalogueOrder.get(m);
    return i === undefined ? Number.MAX_SAFE_INTEGER : i;
  };
  const byParams = (a: FigureGroup["rows"][number], b: FigureGroup["rows"][number]) =>
    natural(a.current.paramsKey, b.current.paramsKey);
  return [...groups.values()]
    .map((g) => ({ ...g, rows: g.rows.sort(byParams) }))
    .sort((a, b) => order(a.metric) - order(b.metric) || natural(a.metric, b.metric));
}

const catalogueOrder = new Map(metricCatalogue.map((m, i) => [m.key, i]));

/** The explorer table's figure columns with their catalogue units, for headers. */
export function keyFigureColumns(): { key: KeyFigureKey; title: string; unit: string }[] {
  return keyFigureKeys.map((key) => {
    const def = keyFigureDefinitions[key];
    return { key, title: def.title, unit: findMetric(def.metric)?.unit ?? "" };
  });
}
