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

const toFigure = ({ id, ...row }: Row): Figure => ({ ...row, id: String(id) });

/**
 * The current figure of each (scenario, metric, params): where several bundles measured the same
 * thing, the most recent one (DESIGN.md, "Identity and granularity"). Older ones are history.
 */
export async function latestFigures(
  db: Db,
  filter: {
    scenarioIds: readonly string[];
    metrics?: readonly string[];
    /** Only figures of these bundles: what a permalink pinned. */
    bundleIds?: readonly string[];
  },
): Promise<Figure[]> {
  if (filter.scenarioIds.length === 0) return [];
  const rows = await readRows<Row>(
    db,
    Prisma.sql`
    SELECT DISTINCT ON (m."scenarioId", m.metric, m."paramsKey") ${columns}
    FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
    WHERE m."scenarioId" = ANY(${filter.scenarioIds}::text[])
      AND (${filter.metrics ?? null}::text[] IS NULL OR m.metric = ANY(${filter.metrics ?? null}::text[]))
      AND (${filter.bundleIds ?? null}::text[] IS NULL OR m."bundleId" = ANY(${filter.bundleIds ?? null}::text[]))
    ORDER BY m."scenarioId", m.metric, m."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC,
      m.position`,
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
    ORDER BY m.metric, m."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC, m.position`,
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
  const rows = await db.bundle.findMany({
    where: { scenarioId },
    select: {
      id: true,
      clusterName: true,
      sourceTitle: true,
      sourceUrl: true,
      sourcePublishedAt: true,
      sourceSection: true,
      collectorName: true,
      collectorVersion: true,
      collectorCommand: true,
      runAt: true,
      receivedAt: true,
      _count: { select: { measurements: true } },
    },
  });
  const measuredAt = (b: { runAt: Date | null; receivedAt: Date }) => (b.runAt ?? b.receivedAt).getTime();
  return rows
    .map(({ _count, ...b }) => ({ ...b, measurementCount: _count.measurements }))
    .sort((a, b) => measuredAt(b) - measuredAt(a) || b.receivedAt.getTime() - a.receivedAt.getTime());
}
