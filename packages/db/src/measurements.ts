import type { Aggregate, Better, ParamValue, Qualifier } from "@cnibench/schema";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

/** A stored figure with where it came from: what views, charts and downloads are made of. */
export type Figure = {
  id: string;
  scenarioId: string;
  bundleId: string;
  metric: string;
  params: Record<string, ParamValue>;
  paramsKey: string;
  value: number;
  unit: string;
  low: number | null;
  high: number | null;
  samples: number[];
  publishedValue: number;
  publishedUnit: string;
  qualifier: Qualifier | null;
  aggregate: Aggregate | null;
  better: Better;
  /** When the figure was measured: the bundle's runAt, else when it was uploaded. */
  measuredAt: Date;
  /** The bundle's source, for links next to the figure. */
  sourceTitle: string | null;
  sourceUrl: string | null;
};

// node-postgres returns int8 as a string.
type Row = Omit<Figure, "id"> & { id: string };

const columns = Prisma.sql`m.id, m."scenarioId", m."bundleId", m.metric, m.params, m."paramsKey", m.value, m.unit,
  m.low, m.high, m.samples, m."publishedValue", m."publishedUnit", m.qualifier::text AS qualifier,
  m.aggregate::text AS aggregate, m.better::text AS better,
  COALESCE(b."runAt", b."receivedAt") AT TIME ZONE 'UTC' AS "measuredAt", b."sourceTitle", b."sourceUrl"`;

// In place: rows are fresh objects, and copying thousands of them per request showed in profiles.
const toFigure = (row: Row): Figure => Object.assign(row, { id: String(row.id) });

// Sorted COLLATE "C" (byte order): the keys only group rows here, and the locale's collation made the
// sort most of the query's time. Views order what they show themselves.

/**
 * The current figure of each (scenario, metric, params): where several bundles measured the same
 * thing, the most recent one (DESIGN.md, "Identity and granularity"). Older ones are history.
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
  },
): Promise<Figure[]> {
  const scenarios = Array.isArray(filter.scenarios)
    ? Prisma.sql`m."scenarioId" = ANY(${filter.scenarios}::text[])`
    : // ARRAY(…) runs the subquery once, first; as IN (…) the planner joined it per measurement row.
      Prisma.sql`m."scenarioId" = ANY(ARRAY(${filter.scenarios}))`;
  if (Array.isArray(filter.scenarios) && filter.scenarios.length === 0) return [];
  const rows = await readRows<Row>(
    db,
    Prisma.sql`
    SELECT DISTINCT ON (m."scenarioId" COLLATE "C", m.metric COLLATE "C", m."paramsKey" COLLATE "C") ${columns}
    FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
    WHERE ${scenarios}
      AND (${filter.metrics ?? null}::text[] IS NULL OR m.metric = ANY(${filter.metrics ?? null}::text[]))
      AND (${filter.bundleIds ?? null}::text[] IS NULL OR m."bundleId" = ANY(${filter.bundleIds ?? null}::text[]))
      AND ${filter.where ?? Prisma.sql`TRUE`}
    ORDER BY m."scenarioId" COLLATE "C", m.metric COLLATE "C", m."paramsKey" COLLATE "C",
      COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC, m.position`,
  );
  return rows.map(toFigure);
}

/** Every figure of one scenario, current and history alike, newest first within each (metric, params). */
export async function scenarioFigures(db: Db, scenarioId: string): Promise<Figure[]> {
  const rows = await readRows<Row>(
    db,
    Prisma.sql`
    SELECT ${columns}
    FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
    WHERE m."scenarioId" = ${scenarioId}
    ORDER BY m.metric COLLATE "C", m."paramsKey" COLLATE "C", COALESCE(b."runAt", b."receivedAt") DESC,
      b."receivedAt" DESC, m.position`,
  );
  return rows.map(toFigure);
}

export type Provenance = {
  id: string;
  clusterName: string;
  sourceTitle: string | null;
  sourceUrl: string | null;
  sourcePublishedAt: string | null;
  sourceSection: string | null;
  collectorName: string | null;
  collectorVersion: string | null;
  collectorCommand: string | null;
  runAt: Date | null;
  receivedAt: Date;
  measurementCount: number;
};

/** The bundles behind a scenario, newest first: where its figures come from. */
export async function scenarioBundles(db: Db, scenarioId: string): Promise<Provenance[]> {
  return readRows<Provenance>(
    db,
    Prisma.sql`
    SELECT id, "clusterName", "sourceTitle", "sourceUrl", "sourcePublishedAt", "sourceSection", "collectorName",
      "collectorVersion", "collectorCommand", "runAt" AT TIME ZONE 'UTC' AS "runAt",
      "receivedAt" AT TIME ZONE 'UTC' AS "receivedAt", "measurementCount"
    FROM "Bundle" WHERE "scenarioId" = ${scenarioId}
    ORDER BY COALESCE("runAt", "receivedAt") DESC, "receivedAt" DESC`,
  );
}
