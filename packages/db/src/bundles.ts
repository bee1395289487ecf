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
import { CommitInDoubtError, isDatabaseOutage } from "./health.ts";

export type StoreBundleInput = {
  workspaceId: string;
  tokenId: string | null;
  /** The uploaded JSON text, kept verbatim. */
  raw: string;
  contentHash: string;
  bundle: NormalisedBundle;
  warnings: BundleWarning[];
};

export type StoredBundle = {
  id: string;
  scenarioId: string;
  measurementCount: number;
  created: boolean;
  /**
   * The campaign the bundle is stored in (null: its own). A run already stored keeps the campaign it
   * was first stored in, whatever campaign the new upload named (the content hash leaves it out).
   */
  campaign: string | null;
};

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
    const stored = await inGroup(db, input);
    if (stored) return stored;
  } catch (error) {
    if (!retryable(error)) throw error;
  }
  return (await storeBundles(db, [input]))[0]!;
}

type Waiting = {
  input: StoreBundleInput;
  resolve: (stored: StoredBundle | undefined) => void;
  reject: (error: unknown) => void;
};

/**
 * Uploads waiting for a write turn, by database client and workspace. Kept beside the client rather
 * than on it: a second copy of this module (see Db) only makes smaller groups.
 */
const waiting = new WeakMap<Db, Map<string, Waiting[]>>();

/**
 * Stores an upload in the store statement of the next write turn, with every other upload of its
 * workspace waiting then (group commit): one statement, one commit and one run of the statement-level
 * triggers for all of them. Uploads arriving back to back otherwise each paid a transaction of their
 * own while the others queued for one of the WRITERS turns (npm run bench, ingest rows).
 */
function inGroup(db: Db, input: StoreBundleInput): Promise<StoredBundle | undefined> {
  const byWorkspace = waiting.get(db) ?? new Map<string, Waiting[]>();
  waiting.set(db, byWorkspace);
  const group = byWorkspace.get(input.workspaceId) ?? [];
  byWorkspace.set(input.workspaceId, group);
  return new Promise((resolve, reject) => {
    group.push({ input, resolve, reject });
    // Every upload asks for a turn; a turn that finds its group already stored has nothing to do.
    void inWriteTurn(db, async (pool) => {
      const waitingInputs = group.map((w) => w.input);
      const taken = group.splice(0, batchLength(waitingInputs, 0));
      if (group.length === 0 && byWorkspace.get(input.workspaceId) === group) byWorkspace.delete(input.workspaceId);
      if (taken.length > 0) await storeGroup(pool, taken);
    });
  });
}

/**
 * How many bundles from `from` on one store statement takes: at least one, then as many as fit in
 * `batchMeasurements` and `batchSize`. A group of uploads waits for its slowest member, so a few large
 * bundles are stored alone rather than together; and a statement's parameters are built in one
 * event-loop turn, which grows with its measurements.
 */
function batchLength(inputs: readonly StoreBundleInput[], from: number): number {
  let size = 0;
  let measurements = 0;
  for (let i = from; i < inputs.length; i++) {
    measurements += inputs[i]!.bundle.measurements.length;
    if (size > 0 && (measurements > batchMeasurements || size >= batchSize)) break;
    size++;
  }
  return size;
}

/**
 * The measurements of one statement at most: 2,000-measurement bundles go two at a time. A whole
 * InfraBuilder tree (75 bundles, 10,000 measurements with their samples) in one statement held the
 * event loop for 100–200 ms building its parameters (npm run bench, import rows).
 */
const batchMeasurements = 4_000;

async function storeGroup(pool: pg.Pool, group: Waiting[]): Promise<void> {
  try {
    const stored = await storeInScenarios(
      pool,
      group.map((w) => w.input),
    );
    for (const [i, w] of group.entries()) w.resolve(stored[i]);
  } catch (error) {
    if (group.length === 1 || isDatabaseOutage(error)) {
      for (const w of group) w.reject(error);
      return;
    }
    // One upload's failure (an identical upload racing it, a deadlock) must not fail the others: each
    // again alone, as it would have been stored without company.
    for (const w of group) {
      await storeInScenarios(pool, [w.input]).then(([stored]) => w.resolve(stored), w.reject);
    }
  }
}

/**
 * Stores bundles in one transaction: all of them or none, in statements of up to `batchSize` bundles
 * and `batchMeasurements` measurements.
 * An identical upload racing this one makes PostgreSQL refuse our insert on the unique key once the
 * other commits (or a deadlock between two imports aborts one): the whole transaction is then retried
 * once, and the retry finds the winner's bundles and writes nothing.
 */
export async function storeBundles(db: Db, inputs: StoreBundleInput[]): Promise<StoredBundle[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(db, async (client) => {
        const stored: (StoredBundle | undefined)[] = [];
        for (let at = 0; at < inputs.length; ) {
          const batch = inputs.slice(at, at + batchLength(inputs, at));
          at += batch.length;
          let found = await storeInScenarios(client, batch);
          const missing = batch.filter((_, i) => !found[i]);
          if (missing.length > 0) {
            const created = new Set<string>();
            for (const input of missing) {
              const key = `${input.workspaceId}\u0000${scenarioKey(input.bundle)}`;
              if (!created.has(key)) await createScenario(client, input.workspaceId, input.bundle);
              created.add(key);
            }
            const more = await storeInScenarios(client, missing);
            let next = 0;
            found = found.map((f) => f ?? more[next++]);
          }
          stored.push(...found);
        }
        return stored.map((s) => s!);
      });
    } catch (error) {
      if (attempt >= 2 || !retryable(error)) throw error;
    }
  }
}

function transaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inWriteTurn(db, async (pool) => {
    const client = await pool.connect();
    let committing = false;
    try {
      await client.query("BEGIN");
      const result = await fn(client);
      committing = true;
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      // No answer to COMMIT itself: the server may have written it, or may once it continues.
      if (committing && isDatabaseOutage(error)) {
        client.release(true);
        throw new CommitInDoubtError(error);
      }
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
 * Bundles per store statement. A statement per bundle updated the scenario's row and its current
 * figures once per bundle: in one transaction each update walks the versions the earlier ones left,
 * so a 5,000-file import stored 354 bundles/s against 925 for 500 (npm run bench, import row). Not
 * more than 250: building a statement's parameters runs on the event loop, 9–11 ms for 250 bundles
 * against 14–17 ms for 500, and storing 5,000 bundles took as long either way (239–284 against
 * 222–332 ms).
 */
const batchSize = 250;

/**
 * One statement, so one round trip and (on its own) one transaction, for a batch of bundles: for each,
 * the bundle already stored under its hash (or earlier in the batch), or else — when its scenario
 * exists — the bundle and its measurements; then, once per instance type, a size stated for the first
 * time, and once per scenario, its bundle count, latest run, source titles and the latest label given
 * (the same results again under a new label rename it and raise its revision, which caches of names
 * key on; an upload naming none leaves the name as it was). Bundles travel as one array per column,
 * measurements as one JSON array (per bundle) of arrays: half the bytes and PostgreSQL work of arrays of
 * objects; the uploads' texts as a JSON array too. The counts are written after every measurement is
 * in (the subquery on m): a concurrent upload to the same scenario waits for the row, then re-applies
 * the update to the committed version, so no count is lost. Rows come back by the batch's order (ord, from 1); a bundle whose scenario does not
 * exist yet has none.
 */
const storeStatement = {
  name: "cnibench-store-bundles",
  text: `WITH input AS (
    SELECT * FROM unnest($2::text[], $3::text[], $4::text[],
      ARRAY(SELECT r FROM json_array_elements_text($5::json) WITH ORDINALITY AS j(r, n) ORDER BY n), $6::text[], $7::text[], $8::text[], $9::text[],
      $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::int[], $19::float8[],
      $20::float8[], $21::float8[], $22::text[], $23::text[])
      WITH ORDINALITY AS i(id, "contentHash", key, raw, "clusterName", "sourceTitle", "sourceUrl", "sourcePublishedAt",
        "sourceSection", "collectorName", "collectorVersion", "collectorCommand", "runAt", warnings, "tokenId",
        "measurementCount", vcpus, "memoryGiB", "nicGbps", campaign, label, ord)
  ), existing AS (
    -- Looked up by their unique keys, each: a plain join's plan, kept per connection, could read every
    -- bundle of the workspace per upload (5,705 in the bench's store until its next ANALYZE).
    SELECT i.ord, b.id, b."scenarioId", b."measurementCount", b.campaign
    FROM input i CROSS JOIN LATERAL (
      SELECT b.id, b."scenarioId", b."measurementCount", b.campaign FROM "Bundle" b
      WHERE b."workspaceId" = $1 AND b."contentHash" = i."contentHash" LIMIT 1
    ) b
  ), firsts AS (
    SELECT DISTINCT ON (i."contentHash") i.* FROM input i
    WHERE NOT EXISTS (SELECT FROM existing e WHERE e.ord = i.ord) ORDER BY i."contentHash", i.ord
  ), scenario AS (
    SELECT f.ord, s.id, s."nodeSkuId" FROM firsts f CROSS JOIN LATERAL (
      SELECT s.id, s."nodeSkuId" FROM "Scenario" s WHERE s."workspaceId" = $1 AND s.key = f.key LIMIT 1
    ) s
  ), b AS (
    INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName", "sourceTitle", "sourceUrl",
      "sourcePublishedAt", "sourceSection", "collectorName", "collectorVersion", "collectorCommand", "runAt", "receivedAt",
      warnings, "tokenId", "measurementCount", campaign)
    SELECT f.id, $1, f."contentHash", f.raw, scenario.id, f."clusterName", f."sourceTitle", f."sourceUrl",
      f."sourcePublishedAt", f."sourceSection", f."collectorName", f."collectorVersion", f."collectorCommand",
      f."runAt"::timestamp(3), now() AT TIME ZONE 'UTC', f.warnings::jsonb, f."tokenId", f."measurementCount", f.campaign
    FROM firsts f JOIN scenario ON scenario.ord = f.ord
    ORDER BY f.ord
    RETURNING id, "scenarioId", "measurementCount", campaign
  ), m AS (
    INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, params, "paramsKey", value, unit, low, high,
      samples, "publishedValue", "publishedUnit", qualifier, aggregate, better, campaign, "summaryMean", "summarySd",
      "summaryLow", "summaryHigh", "summaryN", "summaryOf", "samplesAre")
    SELECT b.id, b."scenarioId", (e->>0)::int, e->>1, (e->>2)::jsonb, e->>2, (e->>3)::float8, e->>4, (e->>5)::float8,
      (e->>6)::float8, translate(e->>7, '[]', '{}')::float8[], (e->>8)::float8, e->>9, (e->>10)::"Qualifier",
      (e->>11)::"Aggregate", (e->>12)::"Better", COALESCE(f.campaign, b.id), (e->13->>'mean')::float8,
      (e->13->>'sd')::float8, (e->13->'ci95'->>0)::float8, (e->13->'ci95'->>1)::float8, (e->13->>'n')::int,
      (e->13->>'of')::"SamplesKind", (e->>14)::"SamplesKind"
    FROM b JOIN firsts f ON f.id = b.id, jsonb_array_elements($18::jsonb -> (f.ord::int - 1)) e
    RETURNING 1
  ), sku AS (
    UPDATE "NodeSku" k SET vcpus = COALESCE(k.vcpus, x.vcpus), "memoryGiB" = COALESCE(k."memoryGiB", x."memoryGiB"),
      "nicGbps" = COALESCE(k."nicGbps", x."nicGbps")
    FROM (
      SELECT scenario."nodeSkuId",
        (array_agg(f.vcpus ORDER BY f.ord) FILTER (WHERE f.vcpus IS NOT NULL))[1] AS vcpus,
        (array_agg(f."memoryGiB" ORDER BY f.ord) FILTER (WHERE f."memoryGiB" IS NOT NULL))[1] AS "memoryGiB",
        (array_agg(f."nicGbps" ORDER BY f.ord) FILTER (WHERE f."nicGbps" IS NOT NULL))[1] AS "nicGbps"
      FROM scenario JOIN firsts f ON f.ord = scenario.ord GROUP BY 1
    ) x
    WHERE k.id = x."nodeSkuId" AND (k.vcpus IS NULL AND x.vcpus IS NOT NULL
      OR k."memoryGiB" IS NULL AND x."memoryGiB" IS NOT NULL OR k."nicGbps" IS NULL AND x."nicGbps" IS NOT NULL)
  ), placed AS (
    SELECT e.ord, e."scenarioId" FROM existing e
    UNION ALL SELECT i.ord, scenario.id FROM input i JOIN firsts f ON f."contentHash" = i."contentHash"
      JOIN scenario ON scenario.ord = f.ord
  ), labelled AS (
    -- The last label given in the batch, by any bundle that lands in the scenario (repeats included).
    SELECT DISTINCT ON (p."scenarioId") p."scenarioId", i.label FROM placed p JOIN input i ON i.ord = p.ord
    WHERE i.label IS NOT NULL ORDER BY p."scenarioId", p.ord DESC
  ), counted AS (
    UPDATE "Scenario" s SET "bundleCount" = s."bundleCount" + a.bundles,
      "lastRunAt" = GREATEST(s."lastRunAt", a."lastRunAt"),
      sources = CASE WHEN a.titles <@ s.sources THEN s.sources
        ELSE ARRAY(SELECT DISTINCT t FROM unnest(s.sources || a.titles) t ORDER BY t) END,
      label = COALESCE(l.label, s.label)
    FROM (
      SELECT b."scenarioId", count(*)::int AS bundles,
        max(COALESCE(f."runAt"::timestamp(3), now() AT TIME ZONE 'UTC')) AS "lastRunAt",
        COALESCE(array_agg(DISTINCT f."sourceTitle") FILTER (WHERE f."sourceTitle" IS NOT NULL), '{}') AS titles
      FROM b JOIN firsts f ON f.id = b.id GROUP BY 1
    ) a LEFT JOIN labelled l ON l."scenarioId" = a."scenarioId"
    WHERE s.id = a."scenarioId" AND (SELECT count(*) FROM m) = (SELECT COALESCE(sum("measurementCount"), 0) FROM b)
    RETURNING s.id
  ), renamed AS (
    UPDATE "Scenario" s SET label = l.label, revision = s.revision + 1
    FROM labelled l
    WHERE s.id = l."scenarioId" AND s.label IS DISTINCT FROM l.label
      AND NOT EXISTS (SELECT FROM scenario WHERE scenario.id = l."scenarioId")
  )
  SELECT e.ord, e.id, e."scenarioId", e."measurementCount", false AS created, e.campaign FROM existing e
  UNION ALL SELECT f.ord, b.id, b."scenarioId", b."measurementCount", true, b.campaign FROM b JOIN firsts f ON f.id = b.id
    WHERE EXISTS (SELECT FROM counted)
  -- The same content twice in one batch: the later ones are the first's bundle.
  UNION ALL SELECT i.ord, b.id, b."scenarioId", b."measurementCount", false, b.campaign
    FROM input i JOIN firsts f ON f."contentHash" = i."contentHash" AND f.ord <> i.ord JOIN b ON b.id = f.id
    WHERE EXISTS (SELECT FROM counted)`,
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
  m.summary ?? null,
  m.samplesAre ?? null,
];

/**
 * Stores a batch of bundles of one workspace in their scenarios; each one's outcome by the batch's
 * order, undefined (and nothing written for it) where its scenario does not exist yet.
 */
async function storeInScenarios(
  on: pg.Pool | pg.PoolClient,
  inputs: readonly StoreBundleInput[],
): Promise<(StoredBundle | undefined)[]> {
  const workspaces = new Set(inputs.map((i) => i.workspaceId));
  if (workspaces.size > 1) throw new Error("a store batch holds the bundles of one workspace");
  const column = <T>(pick: (input: StoreBundleInput) => T) => inputs.map(pick);
  const result = await on.query<StoredBundle & { ord: string }>({
    ...storeStatement,
    values: [
      inputs[0]?.workspaceId,
      column(() => newId()),
      column((i) => i.contentHash),
      column((i) => scenarioKey(i.bundle)),
      // The uploads' texts as one JSON array: node-postgres escapes a text[] in JavaScript, 120–190 ms
      // of one event-loop turn for 1.7 MB of JSON texts, against 7 ms for JSON.stringify.
      JSON.stringify(column((i) => i.raw)),
      column((i) => i.bundle.cluster.name),
      column((i) => i.bundle.source?.title ?? null),
      column((i) => i.bundle.source?.url ?? null),
      column((i) => i.bundle.source?.publishedAt ?? null),
      column((i) => i.bundle.source?.section ?? null),
      column((i) => i.bundle.collector?.name ?? null),
      column((i) => i.bundle.collector?.version ?? null),
      column((i) => i.bundle.collector?.command ?? null),
      // The columns hold UTC without a zone, which PostgreSQL reads off an ISO text ignoring its "Z".
      column((i) => i.bundle.runAt?.toISOString() ?? null),
      column((i) => JSON.stringify(i.warnings)),
      column((i) => i.tokenId),
      column((i) => i.bundle.measurements.length),
      JSON.stringify(inputs.map((i) => i.bundle.measurements.map(row))),
      column((i) => i.bundle.node.vcpus),
      column((i) => i.bundle.node.memoryGiB),
      column((i) => i.bundle.node.nicGbps),
      column((i) => i.bundle.campaign),
      column((i) => i.bundle.cni.label),
    ],
  });
  const byOrd = new Map(result.rows.map(({ ord, ...stored }) => [Number(ord), stored]));
  return inputs.map((_, i) => byOrd.get(i + 1));
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
