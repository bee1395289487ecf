// The scenarios and figures the guide ranks, kept per scenario: reading every scenario's current
// figures (12,000 at 1,000 scenarios) was most of an answer's time, and an upload changes one
// scenario. Each answer reads the scenarios' revisions (moved by the triggers on every upload,
// deletion and rename) and reads again only the scenarios whose revision moved, or that are new:
// the first answer after an upload no longer reads the whole store (npm run bench, guide rows).
import { guideMetrics } from "@cnibench/analysis";
import { chartView, type Db, scenarioRevisions } from "@cnibench/db";
import { LRUCache } from "lru-cache";

type ChartView = Awaited<ReturnType<typeof chartView>>;
type Scenarios = Map<
  string,
  { revision: number; scenario: ChartView["scenarios"][number]; figures: ChartView["figures"] }
>;
// With the lists last handed out: an answer with nothing changed hands out the same ones. The guide
// keeps its Service-count lines with a testbed's scenario and figure objects, which an upload to
// another testbed leaves as they are.
type Kept = { scenarios: Scenarios; view: ChartView };

// Per database (a Next.js server may load this module once per layer, sharing one client) and set of
// readable workspaces: a few sets at most, visitors share the public one.
const caches = new WeakMap<Db, LRUCache<string, Kept>>();

export async function guideFigures(db: Db, workspaceIds: readonly string[]): Promise<ChartView> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache({ max: 8 });
    caches.set(db, cache);
  }
  const key = [...workspaceIds].sort().join(" ");
  // Revisions first: figures read after them are never older than the revision they are kept under.
  const revisions = await scenarioRevisions(db, workspaceIds);
  const kept = cache.get(key);
  const before: Scenarios = kept?.scenarios ?? new Map();
  const changed = revisions.filter((r) => before.get(r.id)?.revision !== r.revision).map((r) => r.id);
  if (kept && changed.length === 0 && revisions.length === before.size) return kept.view;
  const fresh =
    changed.length > 0
      ? await chartView(db, workspaceIds, { filters: {}, scenarioIds: changed, metrics: guideMetrics })
      : undefined;
  const freshFigures = new Map<string, ChartView["figures"]>();
  for (const f of fresh?.figures ?? []) {
    const list = freshFigures.get(f.scenarioId);
    if (list) list.push(f);
    else freshFigures.set(f.scenarioId, [f]);
  }
  const freshScenarios = new Map(fresh?.scenarios.map((s) => [s.id, s]));
  const after: Scenarios = new Map();
  for (const { id, revision } of revisions) {
    const scenario = freshScenarios.get(id);
    if (scenario) after.set(id, { revision, scenario, figures: freshFigures.get(id) ?? [] });
    else if (before.get(id)?.revision === revision) after.set(id, before.get(id)!);
  }
  const list = [...after.values()];
  const view = { scenarios: list.map((k) => k.scenario), figures: list.flatMap((k) => k.figures), earlier: [] };
  cache.set(key, { scenarios: after, view });
  return view;
}
