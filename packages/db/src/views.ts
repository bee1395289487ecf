// Named query functions behind the web app's pages: each reads what one view needs and shapes it
// with the pure functions of explore.ts. tRPC procedures call these and nothing else.
import type { Db } from "./client.ts";
import { applyFilters, type ExploreFilters, groupFigures, keyFigureMetrics, keyFigures } from "./explore.ts";
import { latestFigures, scenarioBundles, scenarioFigures } from "./measurements.ts";
import { getScenarioSummary, listScenarios } from "./scenarios.ts";

/** The explorer: facets with counts, and the matching scenarios with their headline figures. */
export async function exploreView(db: Db, workspaceSlug: string, filters: ExploreFilters) {
  const all = await listScenarios(db, workspaceSlug);
  const { matching, facets, dropHints } = applyFilters(all, filters);
  const figures = await latestFigures(db, { scenarioIds: matching.map((s) => s.id), metrics: keyFigureMetrics });
  const byScenario = new Map<string, typeof figures>();
  for (const f of figures) {
    const list = byScenario.get(f.scenarioId);
    if (list) list.push(f);
    else byScenario.set(f.scenarioId, [f]);
  }
  return {
    total: all.length,
    facets,
    dropHints,
    scenarios: matching.map((s) => ({ ...s, keyFigures: keyFigures(byScenario.get(s.id) ?? []) })),
  };
}

/** A scenario page: environment, every figure grouped by metric with history, and provenance. */
export async function scenarioView(db: Db, workspaceSlug: string, id: string) {
  const scenario = await getScenarioSummary(db, workspaceSlug, id);
  if (!scenario) return null;
  const [figures, bundles] = await Promise.all([scenarioFigures(db, id), scenarioBundles(db, id)]);
  return { scenario, groups: groupFigures(figures), bundles, measurementCount: figures.length };
}

/**
 * What charts are drawn from: the scenarios matching the explorer's filters (or exactly the given
 * ids) and their current figures of the given metrics.
 */
export async function chartView(
  db: Db,
  workspaceSlug: string,
  query: { filters: ExploreFilters; scenarioIds?: readonly string[]; metrics: readonly string[] },
) {
  const all = await listScenarios(db, workspaceSlug, query.scenarioIds?.length ? query.scenarioIds : undefined);
  const { matching } = applyFilters(all, query.filters);
  const figures = await latestFigures(db, { scenarioIds: matching.map((s) => s.id), metrics: query.metrics });
  return { scenarios: matching, figures };
}

/**
 * What a comparison is drawn from: the scenarios in the order given (the first is the baseline) and
 * their current figures — or only those of the given bundles, for a permalink.
 */
export async function compareView(
  db: Db,
  workspaceSlug: string,
  query: { scenarioIds: readonly string[]; bundleIds?: readonly string[] },
) {
  const found = await listScenarios(db, workspaceSlug, query.scenarioIds);
  const byId = new Map(found.map((s) => [s.id, s]));
  const scenarios = query.scenarioIds.flatMap((id) => byId.get(id) ?? []);
  const figures = await latestFigures(db, { scenarioIds: scenarios.map((s) => s.id), bundleIds: query.bundleIds });
  return { scenarios, figures, unknownIds: query.scenarioIds.filter((id) => !byId.has(id)) };
}
