// Named query functions behind the web app's pages: each reads what one view needs and shapes it
// with the explorer's pure functions (@cnibench/analysis, explore/). tRPC procedures call these and
// nothing else.
import {
  applyFilters,
  type ColumnKey,
  chosenColumns,
  cniDifferences,
  columnInfo,
  columnQueries,
  type ExploreFilters,
  groupFigures,
  headlineBaseline,
  keyFigures,
} from "@cnibench/analysis";
import { canonicalJson, type ParamValue } from "@cnibench/schema";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { earlierCampaigns, latestFigures, scenarioBundles, scenarioFigures, withCampaigns } from "./measurements.ts";
import type {
  FigureWarning,
  LatestFigure,
  Provenance,
  ScenarioSummary,
  SeriesRun,
  UploadWarning,
} from "./read-models.ts";
import { getScenarioSummary, listScenarios, scenarioLabel, scopeIds } from "./scenarios.ts";

/**
 * The explorer: facets with counts, and the matching scenarios with their figure in each of the
 * chosen columns (the default ones when none are; columnCatalogue in @cnibench/analysis).
 */
export async function exploreView(
  db: Db,
  workspaceIds: readonly string[],
  filters: ExploreFilters,
  requestedColumns?: readonly string[],
) {
  const columns = chosenColumns(requestedColumns);
  // Facets need every scenario; the figures only the matching ones, fetched at the same time.
  const [all, figures] = await Promise.all([
    listScenarios(db, { workspaceIds }),
    latestFigures(db, {
      scenarios: scopeIds({ workspaceIds, filters }),
      metrics: [...new Set(columnQueries(columns).map((q) => q.metric))],
      where: columnCandidates(columns),
    }),
  ]);
  const { matching, facets, dropHints } = applyFilters(all, filters);
  const byScenario = new Map<string, typeof figures>();
  for (const f of figures) {
    const list = byScenario.get(f.scenarioId);
    if (list) list.push(f);
    else byScenario.set(f.scenarioId, [f]);
  }
  // The settings that tell the listed scenarios apart ("WireGuard", "Hubble off"): CNI, mode and
  // kube-proxy are left the same for all, as each row says them already.
  const differing = cniDifferences(matching.map((s) => ({ name: "", settings: s.cni.settings })));
  return {
    total: all.length,
    facets,
    dropHints,
    columns: columnInfo(columns),
    scenarios: matching.map((s, i) => ({
      ...s,
      differingSettings: differing[i] ?? [],
      keyFigures: keyFigures(byScenario.get(s.id) ?? [], columns),
    })),
  };
}

// The figures that may fill a column (keyFigures decides which does: exactly the column's params,
// extras only at their baseline), so the explorer does not fetch every Service step and percentile.
const columnCandidates = (columns: readonly ColumnKey[]) =>
  Prisma.sql`(${Prisma.join(
    columnQueries(columns).map(
      (q) => Prisma.sql`(m.metric = ${q.metric} AND m.params @> ${JSON.stringify(q.params)}::jsonb)`,
    ),
    " OR ",
  )}) AND ${Prisma.join(
    Object.entries(headlineBaseline).map(
      ([k, ok]) =>
        Prisma.sql`(m.params->${k} IS NULL OR m.params->${k} = ANY(${ok.map((v) => JSON.stringify(v))}::jsonb[]))`,
    ),
    " AND ",
  )}`;

/** The most bundles of one campaign (a bundle of none is a campaign of its own) among a scenario's. */
function largestCampaign(bundles: readonly Provenance[]): number {
  const sizes = new Map<string, number>();
  for (const b of bundles) sizes.set(b.campaign ?? b.id, (sizes.get(b.campaign ?? b.id) ?? 0) + 1);
  return Math.max(1, ...sizes.values());
}

/** A run's place among its figure's runs, newest first (1 for the current one): scenarioFigures' `n`. */
const newestFirst = (f: SeriesRun) => Number((f as SeriesRun & { n: string }).n);

/**
 * A scenario page: environment, every figure grouped by metric — the current figure (`latest`, the
 * distribution of its latest campaign), that campaign's runs (the newest first), and up to `olderRuns` runs of older
 * campaigns (all when not given: downloads) — and provenance.
 */
export async function scenarioView(db: Db, workspaceIds: readonly string[], id: string, olderRuns?: number) {
  // Read beside the access check, not after it: what a visitor may not read is dropped unanswered.
  const provenance = scenarioBundles(db, id);
  const [scenario, latest, bundles, warnings, read] = await Promise.all([
    getScenarioSummary(db, workspaceIds, id),
    latestFigures(db, { scenarios: [id] }),
    provenance,
    scenarioWarnings(db, id),
    // Beside the current figures too: enough runs for the scenario's largest campaign, cut below to
    // the figures' own once those are known.
    olderRuns === undefined
      ? scenarioFigures(db, id)
      : provenance.then((b) => scenarioFigures(db, id, olderRuns + largestCampaign(b) - 1)),
  ]);
  if (!scenario) return null;
  // Enough rows per figure for its whole latest campaign and `olderRuns` runs before it.
  const campaignSize = Math.max(1, ...latest.map((f) => f.campaignBundleIds.length));
  const figures =
    olderRuns === undefined
      ? read
      : campaignSize > largestCampaign(bundles)
        ? // A campaign grew between the reads (an upload): read its runs again.
          await scenarioFigures(db, id, olderRuns + campaignSize - 1)
        : read.filter((f) => newestFirst(f) <= olderRuns + campaignSize);
  const byKey = new Map(latest.map((f) => [`${f.metric}\u0000${canonicalJson(f.params)}`, f]));
  const measurementCount = bundles.reduce((n, b) => n + b.measurementCount, 0);
  const groups = groupFigures(figures).map((g) => ({
    ...g,
    rows: g.rows.map((row) => {
      const current = row.current;
      // The newest run first: it is the current figure's published form, so no row repeats it apart.
      const runs: [SeriesRun, ...SeriesRun[]] = [
        current,
        ...row.history.filter((f) => f.campaign === current.campaign),
      ];
      const older = row.history.filter((f) => f.campaign !== current.campaign);
      const total = row.olderRuns + 1;
      // Copied only when missing (a figure uploaded between the reads): a copy of every row showed.
      const latestFigure = byKey.get(`${current.metric}\u0000${current.paramsKey}`) ?? {
        ...current,
        n: (current.samplesAre !== "clients" && current.samples.length) || 1,
        campaignBundleIds: [current.bundleId],
      };
      return {
        params: row.params,
        latest: latestFigure,
        warnings: warnings.aboutFigure(current, latestFigure.campaignBundleIds),
        runs,
        history: olderRuns === undefined ? older : older.slice(0, olderRuns),
        olderRuns: total - runs.length,
      };
    }),
  }));
  return { scenario, groups, bundles, measurementCount, warnings: warnings.aboutUploads };
}

/**
 * What charts are drawn from: the scenarios matching the explorer's filters (or exactly the given
 * ids) and their current figures of the given metrics — with `history`, also the earlier campaigns
 * of those figures' series, for verdicts against a baseline that pool them as a compare does.
 */
export async function chartView(
  db: Db,
  workspaceIds: readonly string[],
  query: {
    filters: ExploreFilters;
    scenarioIds?: readonly string[];
    metrics: readonly string[];
    /** Only figures whose params include these, and (for a line chart's x) hold a number under `numeric`. */
    params?: { contains: Record<string, ParamValue>; numeric: string };
    history?: boolean;
    /**
     * The figures a chart draws, chosen from all of them by params: only those are read with their
     * campaigns' runs (and history); the others come as their latest run alone (latestFigures'
     * `campaigns: false`), enough to choose by. A crossover view draws 16 lines of 200 setups.
     */
    drawn?: (scenarios: ScenarioSummary[], figures: LatestFigure[]) => readonly LatestFigure[];
  },
) {
  const scope = {
    workspaceIds,
    filters: query.filters,
    ids: query.scenarioIds?.length ? query.scenarioIds : undefined,
  };
  const [scenarios, figures] = await Promise.all([
    listScenarios(db, scope),
    latestFigures(db, {
      scenarios: scopeIds(scope),
      metrics: query.metrics,
      where: query.params
        ? Prisma.sql`m.params @> ${JSON.stringify(query.params.contains)}::jsonb
          AND jsonb_typeof(m.params->${query.params.numeric}) = 'number'`
        : undefined,
      campaigns: !query.drawn,
    }),
  ]);
  if (!query.drawn) return { scenarios, figures, earlier: query.history ? await earlierCampaigns(db, figures) : [] };
  const chosen = query.drawn(scenarios, figures);
  const drawn = await withCampaigns(db, chosen);
  const pooled = new Map(chosen.map((f, i) => [f, drawn[i]!]));
  return {
    scenarios,
    figures: figures.map((f) => pooled.get(f) ?? f),
    earlier: query.history ? await earlierCampaigns(db, drawn) : [],
  };
}

/**
 * What a comparison is drawn from: the scenarios in the order given (the first is the baseline), their
 * current figures — or only those of the given bundles, for a permalink — and the earlier campaigns of
 * those figures' series, whose noise the verdicts may pool.
 */
export async function compareView(
  db: Db,
  workspaceIds: readonly string[],
  query: {
    scenarioIds: readonly string[];
    bundleIds?: readonly string[];
    /** A permalink's scenario names as they were pinned (permalinks.ts pinnedLabels). */
    labels?: Readonly<Record<string, string | null>>;
  },
) {
  const [found, pinned] = await Promise.all([
    listScenarios(db, { workspaceIds, ids: query.scenarioIds }),
    query.bundleIds ? pinnedStats(db, query.bundleIds) : undefined,
  ]);
  // A permalink says nothing of what came after its pins: counts, dates, sources and names of those only.
  const byId = new Map(
    found.map((s) => [
      s.id,
      pinned
        ? {
            ...s,
            ...(pinned.get(s.id) ?? { bundleCount: 0, lastRunAt: null, sources: [] }),
            ...(query.labels && s.id in query.labels ? named(s.cni, query.labels[s.id] ?? null) : {}),
          }
        : s,
    ]),
  );
  const scenarios = query.scenarioIds.flatMap((id) => byId.get(id) ?? []);
  const ids = scenarios.map((s) => s.id);
  const read = latestFigures(db, { scenarios: ids, bundleIds: query.bundleIds });
  const [figures, earlier] = await Promise.all([
    read,
    // Current figures' history is read from their scenarios, beside them; a permalink's is that of its
    // pinned figures, so it waits for them.
    query.bundleIds ? read.then((pins) => earlierCampaigns(db, pins)) : earlierCampaigns(db, { scenarios: ids }),
  ]);
  return { scenarios, figures, earlier, unknownIds: query.scenarioIds.filter((id) => !byId.has(id)) };
}

/** A scenario's name and given label as a permalink pinned them (scenarios.ts names it the same way). */
function named<C extends Parameters<typeof scenarioLabel>[0]>(cni: C, label: string | null) {
  return { label: scenarioLabel({ ...cni, label }), cni: { ...cni, label } };
}

/**
 * What the scenarios' stats would be if they held the given bundles only (a permalink's pins),
 * counted as the ingest transaction counts them (bundles.ts).
 */
async function pinnedStats(db: Db, bundleIds: readonly string[]) {
  const rows = await readRows<{ scenarioId: string; bundleCount: number; lastRunAt: Date | null; sources: string[] }>(
    db,
    Prisma.sql`SELECT "scenarioId", count(*)::int AS "bundleCount",
        max(COALESCE("runAt", "receivedAt")) AT TIME ZONE 'UTC' AS "lastRunAt",
        COALESCE(array_agg(DISTINCT "sourceTitle" ORDER BY "sourceTitle") FILTER (WHERE "sourceTitle" IS NOT NULL), '{}') AS sources
      FROM "Bundle" WHERE id = ANY(${[...bundleIds]}::text[]) GROUP BY "scenarioId"`,
  );
  return new Map(rows.map(({ scenarioId, ...stats }) => [scenarioId, stats]));
}

/**
 * The warnings stored with a scenario's bundles, placed where its page shows them: one at `results[i]`
 * goes with that measurement's figure, for the bundles of the figure's current campaign; the others
 * (environment, vocabulary, the whole bundle) once for the page, with every bundle that carries them.
 */
async function scenarioWarnings(db: Db, scenarioId: string) {
  // At most six digits: a bundle holds at most 100,000 results, and a longer number would not cast.
  const rows = await readRows<FigureWarning & { metric: string | null; paramsKey: string | null }>(
    db,
    Prisma.sql`
    SELECT b.id AS "bundleId", w.value->>'path' AS path, w.value->>'message' AS message, m.metric, m."paramsKey"
    FROM "Bundle" b
      CROSS JOIN LATERAL jsonb_array_elements(b.warnings) WITH ORDINALITY AS w
      LEFT JOIN "Measurement" m ON m."bundleId" = b.id
        AND m.position = substring(w.value->>'path' FROM '^results\\[(\\d{1,6})\\]')::int
    WHERE b."scenarioId" = ${scenarioId}
    ORDER BY COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC, b.id, w.ordinality`,
  );
  const byFigure = new Map<string, FigureWarning[]>();
  const aboutUploads = new Map<string, UploadWarning>();
  for (const { metric, paramsKey, ...warning } of rows) {
    if (metric !== null && paramsKey !== null) {
      const key = `${warning.bundleId}\u0000${metric}\u0000${paramsKey}`;
      byFigure.set(key, [...(byFigure.get(key) ?? []), warning]);
      continue;
    }
    const key = `${warning.path}\u0000${warning.message}`;
    const same = aboutUploads.get(key);
    if (same) same.bundleIds.push(warning.bundleId);
    else aboutUploads.set(key, { path: warning.path, message: warning.message, bundleIds: [warning.bundleId] });
  }
  return {
    aboutFigure: (figure: { metric: string; paramsKey: string }, bundleIds: readonly string[]) =>
      bundleIds.flatMap((id) => byFigure.get(`${id}\u0000${figure.metric}\u0000${figure.paramsKey}`) ?? []),
    aboutUploads: [...aboutUploads.values()],
  };
}
