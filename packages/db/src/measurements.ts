import { asCampaignDistribution, type CampaignMeasurement } from "@cnibench/analysis";
import { canonicalJson } from "@cnibench/schema";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import type { LatestFigure, MeasurementRow, Provenance, SeriesRun } from "./read-models.ts";

// The figures' shapes are declared with their schemas (read-models.ts).
export type { LatestFigure, MeasurementRow, Provenance, SeriesRun };

// measuredAt comes as milliseconds since the epoch (see columns).
type Row = Omit<MeasurementRow, "measuredAt"> & { measuredAt: number; campaign?: string };

// Samples travel as JSON and the time as a number: JSON.parse and new Date(ms) cost less than
// node-postgres's parsers for float8[] and timestamps. Stored timestamps hold UTC, as EXTRACT takes them.
// Summary statistics come as one object without its absent parts, or null (most figures have none).
const figureColumns = Prisma.sql`m."scenarioId", m."bundleId", m.metric, m.params, m.value, m.unit, m.low, m.high,
  array_to_json(m.samples) AS samples, m.qualifier::text AS qualifier, m.better::text AS better,
  CASE WHEN m."summaryN" IS NOT NULL THEN json_strip_nulls(json_build_object('mean', m."summaryMean", 'sd', m."summarySd",
    'ci95', CASE WHEN m."summaryLow" IS NOT NULL THEN json_build_array(m."summaryLow", m."summaryHigh") END,
    'n', m."summaryN", 'of', m."summaryOf")) END AS "summaryStatistics", m."samplesAre"::text AS "samplesAre"`;
// The sources are filled in afterwards (see latestFigures); the empty columns give the rows their
// final shape from the start, which kept property access on them fast.
const latestColumns = Prisma.sql`${figureColumns}, NULL::text AS "sourceTitle", NULL::text AS "sourceUrl"`;
const columns = Prisma.sql`${figureColumns}, b."sourceTitle", b."sourceUrl", m.id, m."paramsKey", m.campaign, m."publishedValue",
  m."publishedUnit", m.aggregate::text AS aggregate,
  (EXTRACT(EPOCH FROM COALESCE(b."runAt", b."receivedAt")) * 1000)::float8 AS "measuredAt"`;

// In place: rows are fresh objects, and copying thousands of them per request showed in profiles.
const toFigure = (row: Row): MeasurementRow => Object.assign(row, { measuredAt: new Date(row.measuredAt) });

// Sorted COLLATE "C" (byte order): the keys only group rows here, and the locale's collation made the
// sort most of the query's time. Views order what they show themselves.

/**
 * The current figure of each (scenario, metric, params): where several bundles measured the same
 * thing, the most recent one (docs/design.md, "Identity and granularity"). Older ones are history. With
 * `bundleIds`, the most recent among those bundles only: what a permalink pinned.
 */
export async function latestFigures(
  db: Db,
  filter: {
    /** The scenarios: their ids, or a subquery yielding them (`scopeIds`). */
    scenarios: readonly string[] | Prisma.Sql;
    metrics?: readonly string[];
    /** Only figures of these bundles: what a permalink pinned. */
    bundleIds?: readonly string[];
    /** A further condition on `m` (the measurement), so views fetch only the figures they show. */
    where?: Prisma.Sql;
    /**
     * False: each figure as its latest run alone, its campaign's runs not read (n and the distribution
     * are that run's). Enough to choose what to show by params; `withCampaigns` then pools those.
     */
    campaigns?: boolean;
  },
): Promise<LatestFigure[]> {
  if (Array.isArray(filter.scenarios) && filter.scenarios.length === 0) return [];
  // On `c`, the CurrentFigure row, or on `m` itself for pinned bundles.
  const scope = (on: Prisma.Sql) =>
    Prisma.sql`${on}."scenarioId" = ANY(${
      Array.isArray(filter.scenarios)
        ? Prisma.sql`${filter.scenarios}::text[]`
        : // ARRAY(…) runs the subquery once, first; as IN (…) the planner joined it per measurement row.
          Prisma.sql`ARRAY(${filter.scenarios})`
    })
      AND (${filter.metrics ?? null}::text[] IS NULL OR ${on}.metric = ANY(${filter.metrics ?? null}::text[]))
      AND ${filter.where ?? Prisma.sql`TRUE`}`;
  // The measurements of the holder's campaign (analysis's CampaignMeasurement) when it has more than
  // the holder (else null), put newest first below: looking up each run's bundle for its time here
  // was a fifth of this query for a comparison of three scenarios (1,500 figures, npm run bench).
  const campaignRuns = (pinned?: readonly string[]) => Prisma.sql`LEFT JOIN LATERAL (
      SELECT json_agg(json_build_array(r."bundleId", r.value, array_to_json(r.samples), r.qualifier::text,
        r."samplesAre"::text)) AS "campaignRuns"
      FROM "Measurement" r
      WHERE r."scenarioId" = m."scenarioId" AND r.metric = m.metric AND r."paramsKey" = m."paramsKey"
        AND r.campaign = m.campaign
        ${pinned ? Prisma.sql`AND r."bundleId" = ANY(${pinned}::text[])` : Prisma.empty}
      HAVING count(*) > 1) runs ON TRUE`;
  const figures = await readRows<LatestFigure & { campaignRuns?: CampaignMeasurement[] | null }>(
    db,
    filter.bundleIds
      ? Prisma.sql`
        SELECT holder.*, runs."campaignRuns" FROM (
          SELECT DISTINCT ON (m."scenarioId" COLLATE "C", m.metric COLLATE "C", m."paramsKey" COLLATE "C") ${latestColumns},
            m."paramsKey" AS "holderKey", m.campaign
          FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
          WHERE m."bundleId" = ANY(${filter.bundleIds}::text[]) AND ${scope(Prisma.sql`m`)}
          ORDER BY m."scenarioId" COLLATE "C", m.metric COLLATE "C", m."paramsKey" COLLATE "C",
            COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC, m.position) holder
        CROSS JOIN LATERAL (SELECT holder."scenarioId", holder.metric, holder."holderKey" AS "paramsKey",
          holder.campaign) m
        ${campaignRuns(filter.bundleIds)}`
      : // The triggers of migration current_figures keep CurrentFigure: no sort over every run's figures,
        // and the rows come in its primary key's order, which the index scan gives without a sort.
        Prisma.sql`
        SELECT ${latestColumns}, ${filter.campaigns === false ? Prisma.sql`NULL::json AS "campaignRuns"` : Prisma.sql`runs."campaignRuns"`}
        FROM "CurrentFigure" c JOIN "Measurement" m ON m.id = c."measurementId"
        ${filter.campaigns === false ? Prisma.empty : campaignRuns()}
        WHERE ${scope(Prisma.sql`c`)}
        ORDER BY c."scenarioId", c.metric, c."paramsKey"`,
  );
  // The few bundles behind the figures and their campaigns' runs, looked up once each: their sources
  // (joined to every figure, the lookups and repeated strings were a sixth of the guide's query) and
  // the times that order a campaign's runs, as the holder was chosen: measured, then received, latest.
  const bundleIds = new Set<string>();
  for (const f of figures) {
    bundleIds.add(f.bundleId);
    for (const run of f.campaignRuns ?? []) bundleIds.add(run[0]);
  }
  const bundles = new Map(
    (
      await readRows<{
        id: string;
        sourceTitle: string | null;
        sourceUrl: string | null;
        at: number;
        received: number;
      }>(
        db,
        Prisma.sql`SELECT id, "sourceTitle", "sourceUrl",
          EXTRACT(EPOCH FROM COALESCE("runAt", "receivedAt"))::float8 AS at, EXTRACT(EPOCH FROM "receivedAt")::float8 AS received
          FROM "Bundle" WHERE id = ANY(${[...bundleIds]}::text[])`,
      )
    ).map((b) => [b.id, b]),
  );
  const newestFirst = (a: CampaignMeasurement, b: CampaignMeasurement) => {
    const x = bundles.get(a[0]);
    const y = bundles.get(b[0]);
    return x && y ? y.at - x.at || y.received - x.received : 0;
  };
  for (const f of figures) {
    const runs = f.campaignRuns?.sort(newestFirst);
    delete f.campaignRuns;
    delete (f as { holderKey?: string }).holderKey;
    delete (f as { campaign?: string }).campaign;
    asCampaignDistribution(f, runs);
    const source = bundles.get(f.bundleId);
    f.sourceTitle = source?.sourceTitle ?? null;
    f.sourceUrl = source?.sourceUrl ?? null;
  }
  return figures as LatestFigure[];
}

/**
 * The given current figures again, each as its latest campaign's distribution (as latestFigures reads
 * them), in their order: those of a `campaigns: false` read that a view shows.
 */
export async function withCampaigns(db: Db, figures: readonly LatestFigure[]): Promise<LatestFigure[]> {
  if (figures.length === 0) return [];
  const keys = figures.map((f) => [f.scenarioId, f.metric, canonicalJson(f.params)] as const);
  const read = await latestFigures(db, {
    scenarios: [...new Set(keys.map(([scenarioId]) => scenarioId))],
    metrics: [...new Set(keys.map(([, metric]) => metric))],
    where: Prisma.sql`(c."scenarioId", c.metric, c."paramsKey") IN (SELECT * FROM unnest(
      ${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::text[], ${keys.map((k) => k[2])}::text[]))`,
  });
  const byKey = new Map(read.map((f) => [`${f.scenarioId}\u0000${f.metric}\u0000${canonicalJson(f.params)}`, f]));
  // A figure gone between the reads (its bundle deleted) stays as it was read.
  return figures.map((f, i) => byKey.get(keys[i]!.join("\u0000")) ?? f);
}

/**
 * A scenario's figures, newest first within each (metric, params): the current one and up to
 * `olderRuns` older runs of it (all of them when not given), each saying how many runs there are in
 * all. A scenario measured nightly for a year would otherwise send its whole history to every page view.
 */
export async function scenarioFigures(db: Db, scenarioId: string, olderRuns?: number): Promise<SeriesRun[]> {
  const rows = await readRows<Row & { runs: number }>(
    db,
    olderRuns === undefined ? wholeHistory(scenarioId) : latestRuns(scenarioId, olderRuns + 1),
  );
  // The row number stays on the rows: copying thousands of rows to drop it cost more than it saves.
  return rows.map((row) => toFigure(row) as SeriesRun);
}

const newestFirst = Prisma.sql`COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC, m.position`;
const byFigure = Prisma.sql`m.metric COLLATE "C", m."paramsKey" COLLATE "C"`;

function wholeHistory(scenarioId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${columns}, row_number() OVER (PARTITION BY ${byFigure} ORDER BY ${newestFirst}) AS n,
      (count(*) OVER (PARTITION BY ${byFigure}))::int AS runs
    -- The bundle's scenario too: the planner then reads only this scenario's bundles by index,
    -- not all of them into a hash.
    FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId" AND b."scenarioId" = ${scenarioId}
    WHERE m."scenarioId" = ${scenarioId}
    ORDER BY metric COLLATE "C", "paramsKey" COLLATE "C", n`;
}

/**
 * The `runs` newest runs of each figure, read from the scenario's `runs` newest bundles (and those tied
 * with the last): every run of a figure there is newer than any elsewhere. Only figures with fewer runs
 * there than they have in all (measured in some bundles only) are read in full. CurrentFigure counts
 * the runs, so the page's size, not the scenario's history, sets the cost.
 */
function latestRuns(scenarioId: string, runs: number): Prisma.Sql {
  const ranked = Prisma.sql`row_number() OVER (PARTITION BY ${byFigure} ORDER BY ${newestFirst}) AS n`;
  return Prisma.sql`
    WITH figure AS (SELECT metric, "paramsKey", runs FROM "CurrentFigure" WHERE "scenarioId" = ${scenarioId}),
    recent AS (
      SELECT * FROM (
        SELECT id, "sourceTitle", "sourceUrl", "runAt", "receivedAt",
          rank() OVER (ORDER BY COALESCE("runAt", "receivedAt") DESC, "receivedAt" DESC) AS r
        FROM "Bundle" WHERE "scenarioId" = ${scenarioId}) b
      WHERE r <= ${runs}),
    near AS (
      SELECT ${columns}, ${ranked}, count(*) OVER (PARTITION BY ${byFigure}) AS found
      FROM recent b JOIN "Measurement" m ON m."bundleId" = b.id),
    short AS (
      SELECT f.metric, f."paramsKey" FROM figure f
        LEFT JOIN (SELECT DISTINCT metric, "paramsKey", found FROM near) near USING (metric, "paramsKey")
      WHERE COALESCE(near.found, 0) < LEAST(f.runs, ${runs}))
    SELECT * FROM (
      SELECT * FROM near WHERE n <= ${runs} AND NOT EXISTS (
        SELECT FROM short WHERE short.metric = near.metric AND short."paramsKey" = near."paramsKey")
      UNION ALL
      SELECT * FROM (
        SELECT ${columns}, ${ranked}, 0 AS found
        FROM short JOIN "Measurement" m
          ON m."scenarioId" = ${scenarioId} AND m.metric = short.metric AND m."paramsKey" = short."paramsKey"
          JOIN "Bundle" b ON b.id = m."bundleId") far
      WHERE n <= ${runs}) picked
    JOIN figure f USING (metric, "paramsKey")
    ORDER BY metric COLLATE "C", "paramsKey" COLLATE "C", n`;
}

/** The bundles behind a scenario, newest first: where its figures come from. */
export async function scenarioBundles(db: Db, scenarioId: string): Promise<Provenance[]> {
  return readRows<Provenance>(
    db,
    Prisma.sql`
    SELECT id, "clusterName", "sourceTitle", "sourceUrl", "sourcePublishedAt", "sourceSection", "collectorName",
      "collectorVersion", "collectorCommand", "runAt" AT TIME ZONE 'UTC' AS "runAt",
      "receivedAt" AT TIME ZONE 'UTC' AS "receivedAt", "measurementCount", campaign,
      CASE WHEN campaign IS NULL THEN 1 ELSE (SELECT count(*)::int FROM "Bundle" c
        WHERE c."workspaceId" = b."workspaceId" AND c.campaign = b.campaign) END AS "campaignBundles"
    FROM "Bundle" b WHERE "scenarioId" = ${scenarioId}
    ORDER BY COALESCE("runAt", "receivedAt") DESC, "receivedAt" DESC`,
  );
}

/** The runs of one earlier campaign of a figure's series. */
export type EarlierCampaign = { scenarioId: string; metric: string; paramsKey: string; runs: number[] };

/** Earlier measurements a series' noise is pooled from, newest first: a year of nightly runs is plenty. */
const earlierLimit = 60;

/**
 * The earlier campaigns of each figure's series (same scenario, metric and params): those measured
 * before the figure's campaign and uploaded before its bundle, so a permalink's pinned figures keep the
 * history they were shared with. Qualified figures are no runs. For figures of at least 2 runs only:
 * a single run gets no interval, so its noise is never asked. `of` names the figures, or the scenarios
 * whose current figures are meant: those are read here, so the history need not wait for latestFigures,
 * and only for what a comparison of those scenarios judges (see currentAsked).
 */
export async function earlierCampaigns(
  db: Db,
  of:
    | readonly Pick<LatestFigure, "scenarioId" | "bundleId" | "metric" | "params" | "samples" | "samplesAre">[]
    | { scenarios: readonly string[] },
): Promise<EarlierCampaign[]> {
  const figures = "scenarios" in of ? currentAsked(of.scenarios) : givenAsked(of);
  if (!figures) return [];
  const rows = await readRows<{
    scenarioId: string;
    metric: string;
    paramsKey: string;
    campaign: string;
    runs: number[];
  }>(
    db,
    Prisma.sql`
    -- Runs newest first, a bundle's rounds in their order, and campaigns by name: the pooled noise sums
    -- them in this order, which the plan's sorts used to pick (its last digits moved with the plan).
    SELECT f."scenarioId", f.metric, f."paramsKey", h.campaign,
      json_agg(h.run ORDER BY h.at DESC, h."receivedAt" DESC, h.round) AS runs
    FROM (${figures}) f
      CROSS JOIN LATERAL (
        SELECT e.campaign, e.at, e."receivedAt", run, round
        FROM (
          SELECT e.campaign, e.value, e.samples, e."samplesAre", COALESCE(eb."runAt", eb."receivedAt") AS at, eb."receivedAt"
          FROM "Measurement" e JOIN "Bundle" eb ON eb.id = e."bundleId"
          WHERE e."scenarioId" = f."scenarioId" AND e.metric = f.metric AND e."paramsKey" = f."paramsKey"
            AND e.campaign <> f.campaign AND e.qualifier IS NULL
            AND COALESCE(eb."runAt", eb."receivedAt") <= f."measuredAt" AND eb."receivedAt" <= f."receivedAt"
          ORDER BY COALESCE(eb."runAt", eb."receivedAt") DESC, eb."receivedAt" DESC
          LIMIT ${earlierLimit}) e
          -- Concurrent clients' samples are one run: the figure's value.
          CROSS JOIN LATERAL unnest(CASE WHEN cardinality(e.samples) > 0 AND e."samplesAre" IS DISTINCT FROM 'clients'
            THEN e.samples ELSE ARRAY[e.value] END) WITH ORDINALITY AS u(run, round)
      ) h
    GROUP BY f."scenarioId", f.metric, f."paramsKey", h.campaign
    ORDER BY f."scenarioId", f.metric, f."paramsKey", h.campaign`,
  );
  return rows.map(({ campaign: _, ...r }) => r);
}

/** Of the given figures, those whose noise is asked: their series, campaign and bundle's times. */
function givenAsked(
  figures: readonly Pick<LatestFigure, "scenarioId" | "bundleId" | "metric" | "params" | "samples" | "samplesAre">[],
): Prisma.Sql | null {
  const asked = figures.filter((f) => f.samples.length >= 2 && f.samplesAre !== "clients");
  if (asked.length === 0) return null;
  return Prisma.sql`
    SELECT f."scenarioId", f.metric, f."paramsKey", m.campaign,
      COALESCE(b."runAt", b."receivedAt") AS "measuredAt", b."receivedAt"
    FROM unnest(${asked.map((f) => f.scenarioId)}::text[], ${asked.map((f) => f.bundleId)}::text[],
        ${asked.map((f) => f.metric)}::text[], ${asked.map((f) => canonicalJson(f.params))}::text[])
        AS f("scenarioId", "bundleId", metric, "paramsKey")
      -- By the series' index, then its bundle: by bundle alone it read each bundle's every figure.
      JOIN "Measurement" m ON m."scenarioId" = f."scenarioId" AND m.metric = f.metric
        AND m."paramsKey" = f."paramsKey" AND m."bundleId" = f."bundleId"
      -- The figure's bundle by its key, fenced (OFFSET 0): as a join, the planner's custom plans expected
      -- one figure and scanned every bundle for each (350 ms for 1,500 figures; 9 ms so).
      CROSS JOIN LATERAL (SELECT "runAt", "receivedAt" FROM "Bundle" WHERE id = f."bundleId" OFFSET 0) b`;
}

/**
 * The same of the scenarios' current figures, read from CurrentFigure: those of at least 2 runs,
 * counted as asCampaignDistribution (packages/analysis) counts them (its campaign's unqualified runs when it has several
 * measurements and any of those, else the holder's own samples). Only for series that one of the
 * scenarios measures with a better direction: a comparison of them gives the others no verdict from
 * runs (compareFigures in packages/analysis, where the candidate's direction decides), so their noise
 * is never pooled; on the bench store they were nearly all of the history read.
 */
function currentAsked(scenarios: readonly string[]): Prisma.Sql | null {
  if (scenarios.length === 0) return null;
  return Prisma.sql`
    SELECT c."scenarioId", c.metric, c."paramsKey", c.campaign, c."measuredAt", c."receivedAt"
    FROM (
      SELECT c."scenarioId", c.metric, c."paramsKey", c."measuredAt", c."receivedAt", m.campaign, m.samples,
        m."samplesAre", bool_or(m.better <> 'none') OVER (PARTITION BY c.metric, c."paramsKey") AS judged
      FROM "CurrentFigure" c JOIN "Measurement" m ON m.id = c."measurementId"
      WHERE c."scenarioId" = ANY(${scenarios}::text[])) c
      LEFT JOIN LATERAL (
        SELECT sum(CASE WHEN r."samplesAre" = 'clients' THEN 1 ELSE GREATEST(cardinality(r.samples), 1) END)
          FILTER (WHERE r.qualifier IS NULL) AS n
        FROM "Measurement" r
        WHERE r."scenarioId" = c."scenarioId" AND r.metric = c.metric AND r."paramsKey" = c."paramsKey"
          AND r.campaign = c.campaign
        HAVING count(*) > 1) campaign ON TRUE
    WHERE c.judged
      AND COALESCE(campaign.n, CASE WHEN c."samplesAre" = 'clients' THEN 1 ELSE cardinality(c.samples) END) >= 2`;
}
