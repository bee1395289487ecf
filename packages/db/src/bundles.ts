import {
  type BundleWarning,
  clusterKey,
  cniKey,
  type NormalisedBundle,
  type NormalisedMeasurement,
  scenarioKey,
} from "@cnibench/schema";
import { customAlphabet } from "nanoid";
import type pg from "pg";
import { type Db, inWriteTurn } from "./client.ts";

export type StoreBundleInput = {
  workspaceId: string;
  tokenId: string | null;
  /** The uploaded JSON text, kept verbatim. */
  raw: string;
  contentHash: string;
  bundle: NormalisedBundle;
  warnings: BundleWarning[];
};

export type StoredBundle = { id: string; scenarioId: string; measurementCount: number; created: boolean };

/**
 * Stores a bundle, its scenario and its measurements in one transaction. The same content again
 * (same workspace, same content hash) writes nothing and returns the existing bundle, also when
 * identical uploads race (see storeBundles).
 *
 * Straight through node-postgres: through Prisma every call went through its query compiler (the
 * measurements included), which cost more than PostgreSQL's own work (npm run bench:ingest).
 */
export async function storeBundle(db: Db, input: StoreBundleInput): Promise<StoredBundle> {
  try {
    // Mostly the scenario exists already: then one statement, a transaction of its own, does it all.
    const stored = await inWriteTurn(db, (pool) => storeInScenario(pool, input));
    if (stored) return stored;
  } catch (error) {
    if (!retryable(error)) throw error;
  }
  return (await storeBundles(db, [input]))[0]!;
}

/**
 * Stores bundles in one transaction: all of them or none. An identical upload racing this one makes
 * PostgreSQL refuse our insert on the unique key once the other commits (or a deadlock between two
 * imports aborts one): the whole transaction is then retried once, and the retry finds the winner's
 * bundles and writes nothing.
 */
export async function storeBundles(db: Db, inputs: StoreBundleInput[]): Promise<StoredBundle[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(db, async (client) => {
        const stored: StoredBundle[] = [];
        for (const input of inputs) {
          const found = await storeInScenario(client, input);
          if (found) stored.push(found);
          else {
            await createScenario(client, input.workspaceId, input.bundle);
            stored.push((await storeInScenario(client, input))!);
          }
        }
        return stored;
      });
    } catch (error) {
      if (attempt >= 2 || !retryable(error)) throw error;
    }
  }
}

function transaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inWriteTurn(db, async (pool) => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await fn(client);
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      // A connection that cannot even roll back is broken: the pool drops it instead of reusing it.
      const broken = await client.query("ROLLBACK").then(
        () => false,
        () => true,
      );
      client.release(broken);
      throw error;
    }
  });
}

/** Unique violation (an identical upload won), deadlock, serialization failure. */
const retryable = (error: unknown) => ["23505", "40P01", "40001"].includes((error as { code?: string })?.code ?? "");

/**
 * One statement, so one round trip and (on its own) one transaction: the bundle already stored under
 * this hash, or else — when its scenario exists — the bundle, its measurements, an instance type's size
 * stated for the first time, and the scenario's bundle count, latest run and source titles. A label
 * names the scenario either way: the same results again under a new label rename it (and raise its
 * revision, which caches of names key on); an upload naming none leaves the name as it was.
 * Measurements travel as one JSON array of arrays: half the bytes and PostgreSQL work of an array of
 * objects, and less work in Node than an array parameter per column. The count is written after every
 * measurement is in (the subquery on m), from the row's own values: a concurrent upload to the same
 * scenario waits for the row, then re-applies the update to the committed version, so no count is lost.
 */
const storeStatement = {
  name: "cnibench-store-bundle",
  text: `WITH existing AS (
    SELECT id, "scenarioId", "measurementCount" FROM "Bundle" WHERE "workspaceId" = $2 AND "contentHash" = $3
  ), scenario AS (
    SELECT id, "nodeSkuId" FROM "Scenario" WHERE "workspaceId" = $2 AND key = $4 AND NOT EXISTS (SELECT FROM existing)
  ), b AS (
    INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName", "sourceTitle", "sourceUrl",
      "sourcePublishedAt", "sourceSection", "collectorName", "collectorVersion", "collectorCommand", "runAt", "receivedAt",
      warnings, "tokenId", "measurementCount", campaign)
    SELECT $1, $2, $3, $5, scenario.id, $6, $7, $8, $9, $10, $11, $12, $13, $14, now() AT TIME ZONE 'UTC', $15, $16, $17, $22
    FROM scenario
    RETURNING id, "scenarioId", "measurementCount"
  ), m AS (
    INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, params, "paramsKey", value, unit, low, high,
      samples, "publishedValue", "publishedUnit", qualifier, aggregate, better, campaign)
    SELECT b.id, b."scenarioId", (e->>0)::int, e->>1, (e->>2)::jsonb, e->>2, (e->>3)::float8, e->>4, (e->>5)::float8,
      (e->>6)::float8, translate(e->>7, '[]', '{}')::float8[], (e->>8)::float8, e->>9, (e->>10)::"Qualifier",
      (e->>11)::"Aggregate", (e->>12)::"Better", COALESCE($22::text, b.id)
    FROM b, jsonb_array_elements($18::jsonb) e
    RETURNING 1
  ), sku AS (
    UPDATE "NodeSku" k SET vcpus = COALESCE(k.vcpus, $19), "memoryGiB" = COALESCE(k."memoryGiB", $20),
      "nicGbps" = COALESCE(k."nicGbps", $21)
    FROM scenario WHERE k.id = scenario."nodeSkuId"
      AND (k.vcpus IS NULL AND $19::float8 IS NOT NULL OR k."memoryGiB" IS NULL AND $20::float8 IS NOT NULL
        OR k."nicGbps" IS NULL AND $21::float8 IS NOT NULL)
  ), counted AS (
    UPDATE "Scenario" s SET "bundleCount" = s."bundleCount" + 1,
      "lastRunAt" = GREATEST(s."lastRunAt", COALESCE($14::timestamp(3), now() AT TIME ZONE 'UTC')),
      sources = CASE WHEN $7::text IS NULL OR $7 = ANY(s.sources) THEN s.sources
        ELSE ARRAY(SELECT t FROM unnest(s.sources || $7::text) t ORDER BY t) END,
      label = COALESCE($23::text, s.label)
    WHERE s.id = (SELECT "scenarioId" FROM b) AND (SELECT count(*) FROM m) = $17
    RETURNING s.id
  ), renamed AS (
    UPDATE "Scenario" s SET label = $23, revision = s.revision + 1
    WHERE s.id = (SELECT "scenarioId" FROM existing) AND $23::text IS NOT NULL AND s.label IS DISTINCT FROM $23
  )
  SELECT id, "scenarioId", "measurementCount", false AS created FROM existing
  UNION ALL SELECT id, "scenarioId", "measurementCount", true FROM b WHERE EXISTS (SELECT FROM counted)`,
};

/** A measurement as the store statement's JSON row; params travel once, as their canonical JSON (paramsKey). */
const row = (m: NormalisedMeasurement) => [
  m.position,
  m.metric,
  m.paramsKey,
  m.value,
  m.unit,
  m.low,
  m.high,
  m.samples,
  m.publishedValue,
  m.publishedUnit,
  m.qualifier,
  m.aggregate,
  m.better,
];

/** Stores the bundle in its scenario; null (and nothing written) when that scenario does not exist yet. */
async function storeInScenario(on: pg.Pool | pg.PoolClient, input: StoreBundleInput): Promise<StoredBundle | null> {
  const { bundle: b } = input;
  const result = await on.query<StoredBundle>({
    ...storeStatement,
    values: [
      newId(),
      input.workspaceId,
      input.contentHash,
      scenarioKey(b),
      input.raw,
      b.cluster.name,
      b.source?.title ?? null,
      b.source?.url ?? null,
      b.source?.publishedAt ?? null,
      b.source?.section ?? null,
      b.collector?.name ?? null,
      b.collector?.version ?? null,
      b.collector?.command ?? null,
      // The columns hold UTC without a zone, which PostgreSQL reads off an ISO text ignoring its "Z".
      b.runAt?.toISOString() ?? null,
      JSON.stringify(input.warnings),
      input.tokenId,
      b.measurements.length,
      JSON.stringify(b.measurements.map(row)),
      b.node.vcpus,
      b.node.memoryGiB,
      b.node.nicGbps,
      b.campaign,
      b.cni.label,
    ],
  });
  return result.rows[0] ?? null;
}

/**
 * Creates a scenario and whichever of its parts are new: INSERT … ON CONFLICT DO NOTHING, then a read
 * in a statement of its own (whose snapshot sees a row an identical upload committed meanwhile), so
 * such uploads may race.
 */
async function createScenario(client: pg.PoolClient, workspaceId: string, b: NormalisedBundle): Promise<void> {
  const upsert = async (insert: string, values: unknown[], select: string, keys: unknown[]) => {
    await client.query(`${insert} ON CONFLICT DO NOTHING`, [newId(), ...values]);
    return (await client.query<{ id: string }>(select, keys)).rows[0]!.id;
  };
  const { cluster: c, node: n, cni } = b;
  const cKey = clusterKey(b);
  const clusterId = await upsert(
    `INSERT INTO "Cluster" (id, key, provider, region, "kubernetesVersion", "nodeCount") VALUES ($1, $2, $3, $4, $5, $6)`,
    [cKey, c.provider, c.region, c.kubernetesVersion, c.nodeCount],
    `SELECT id FROM "Cluster" WHERE key = $1`,
    [cKey],
  );
  // An existing instance type gets its size filled in by the store statement.
  const skuId = await upsert(
    `INSERT INTO "NodeSku" (id, provider, sku, vcpus, "memoryGiB", "nicGbps") VALUES ($1, $2, $3, $4, $5, $6)`,
    [c.provider, n.sku, n.vcpus, n.memoryGiB, n.nicGbps],
    `SELECT id FROM "NodeSku" WHERE provider = $1 AND sku = $2`,
    [c.provider, n.sku],
  );
  const kernelId = await upsert(
    `INSERT INTO "Kernel" (id, os, version) VALUES ($1, $2, $3)`,
    [n.os, n.kernel],
    `SELECT id FROM "Kernel" WHERE os = $1 AND version = $2`,
    [n.os, n.kernel],
  );
  const nKey = cniKey(b);
  const cniId = await upsert(
    `INSERT INTO "CniConfig" (id, key, name, version, mode, "kubeProxy", settings) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [nKey, cni.name, cni.version, cni.mode, cni.kubeProxy, JSON.stringify(cni.settings)],
    `SELECT id FROM "CniConfig" WHERE key = $1`,
    [nKey],
  );
  await client.query(
    `INSERT INTO "Scenario" (id, "workspaceId", key, "clusterId", "nodeSkuId", "kernelId", "cniConfigId", label, "createdAt")
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() AT TIME ZONE 'UTC') ON CONFLICT DO NOTHING`,
    [newId(), workspaceId, scenarioKey(b), clusterId, skuId, kernelId, cniId, b.cni.label],
  );
}

const randomPart = customAlphabet("0123456789abcdefghijklmnopqrstuvwxyz", 24);

/** Ids shaped like Prisma's cuid() (which fills them in when Prisma writes): "c" and 24 lower-case characters. */
function newId(): string {
  return `c${randomPart()}`;
}

/** Bundles to delete: by id, or every bundle of a campaign in a workspace. */
export type BundleSelection = { bundleIds: readonly string[] } | { workspaceId: string; campaign: string };

export type DeletedBundles = {
  bundleIds: string[];
  /** The scenarios they belonged to. */
  scenarioIds: string[];
  /** Those of them that had no other bundle, and went too. */
  removedScenarioIds: string[];
};

/**
 * Deletes bundles and their measurements in one transaction, and recounts their scenarios (a scenario
 * left without a bundle goes too). Permalinks that pinned them keep standing and name them as
 * deleted. The scenario rows are locked first, in id order, so an upload into one of them at the same
 * time is counted after the recount, and two deletes wait for each other instead of deadlocking.
 */
export async function deleteBundles(db: Db, which: BundleSelection): Promise<DeletedBundles> {
  return transaction(db, async (client) => {
    const found = await client.query<{ id: string; scenarioId: string }>(
      "bundleIds" in which
        ? { text: `SELECT id, "scenarioId" FROM "Bundle" WHERE id = ANY($1::text[])`, values: [which.bundleIds] }
        : {
            text: `SELECT id, "scenarioId" FROM "Bundle" WHERE "workspaceId" = $1 AND campaign = $2`,
            values: [which.workspaceId, which.campaign],
          },
    );
    const scenarioIds = [...new Set(found.rows.map((b) => b.scenarioId))].sort();
    await client.query(`SELECT 1 FROM "Scenario" WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`, [scenarioIds]);
    const deleted = await client.query<{ id: string }>(`DELETE FROM "Bundle" WHERE id = ANY($1::text[]) RETURNING id`, [
      found.rows.map((b) => b.id),
    ]);
    const removedScenarioIds = await recountScenarios(client, scenarioIds);
    return { bundleIds: deleted.rows.map((b) => b.id).sort(), scenarioIds, removedScenarioIds };
  });
}

/** deleteBundles of one bundle: its scenario and whether that went too, or null when there is no such bundle. */
export async function deleteBundle(
  db: Db,
  bundleId: string,
): Promise<{ scenarioId: string; scenarioDeleted: boolean } | null> {
  const { bundleIds, scenarioIds, removedScenarioIds } = await deleteBundles(db, { bundleIds: [bundleId] });
  const scenarioId = scenarioIds[0];
  if (bundleIds.length === 0 || scenarioId === undefined) return null;
  return { scenarioId, scenarioDeleted: removedScenarioIds.includes(scenarioId) };
}

/**
 * Sets the bundle count, latest run and sources the upload statement keeps, from the scenarios' bundles,
 * and deletes the scenarios left without one; returns their ids. For writers that remove or move
 * bundles (deletes, the re-keying data step), with the scenario rows locked.
 */
export async function recountScenarios(client: pg.ClientBase, scenarioIds: readonly string[]): Promise<string[]> {
  await client.query(
    `UPDATE "Scenario" s SET "bundleCount" = agg.count, "lastRunAt" = agg.last, sources = agg.sources
    FROM (
      SELECT "scenarioId", count(*)::int AS count, max(COALESCE("runAt", "receivedAt")) AS last,
        COALESCE(array_agg(DISTINCT "sourceTitle" ORDER BY "sourceTitle") FILTER (WHERE "sourceTitle" IS NOT NULL), '{}') AS sources
      FROM "Bundle" WHERE "scenarioId" = ANY($1::text[]) GROUP BY "scenarioId"
    ) agg
    WHERE s.id = agg."scenarioId"`,
    [scenarioIds],
  );
  const removed = await client.query<{ id: string }>(
    `DELETE FROM "Scenario" s WHERE id = ANY($1::text[]) AND NOT EXISTS (SELECT FROM "Bundle" b WHERE b."scenarioId" = s.id)
    RETURNING id`,
    [scenarioIds],
  );
  return removed.rows.map((r) => r.id).sort();
}
