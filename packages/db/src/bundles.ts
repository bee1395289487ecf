import {
  type BundleWarning,
  clusterKey,
  cniKey,
  type NormalisedBundle,
  type NormalisedMeasurement,
  scenarioKey,
} from "@cnibench/schema";
import type { Db } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

type Tx = Prisma.TransactionClient;

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
 * identical uploads race: the loser's insert hits the unique key and is rolled back whole.
 */
export async function storeBundle(db: Db, input: StoreBundleInput): Promise<StoredBundle> {
  const existing = await findByHash(db, input.workspaceId, input.contentHash);
  if (existing) return existing;
  try {
    return await db.$transaction((tx) => insertBundle(tx, input), { timeout: 120_000, maxWait: 30_000 });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const winner = await findByHash(db, input.workspaceId, input.contentHash);
      if (winner) return winner;
    }
    throw error;
  }
}

async function findByHash(db: Db, workspaceId: string, contentHash: string): Promise<StoredBundle | null> {
  const found = await db.bundle.findUnique({
    where: { workspaceId_contentHash: { workspaceId, contentHash } },
    select: { id: true, scenarioId: true, measurementCount: true },
  });
  return found && { ...found, created: false };
}

async function insertBundle(tx: Tx, input: StoreBundleInput): Promise<StoredBundle> {
  const { bundle: b } = input;
  const scenarioId = await ensureScenario(tx, input.workspaceId, b);
  const created = await tx.bundle.create({
    data: {
      workspaceId: input.workspaceId,
      contentHash: input.contentHash,
      raw: input.raw,
      scenarioId,
      clusterName: b.cluster.name,
      sourceTitle: b.source?.title ?? null,
      sourceUrl: b.source?.url ?? null,
      sourcePublishedAt: b.source?.publishedAt ?? null,
      sourceSection: b.source?.section ?? null,
      collectorName: b.collector?.name ?? null,
      collectorVersion: b.collector?.version ?? null,
      collectorCommand: b.collector?.command ?? null,
      runAt: b.runAt ?? null,
      warnings: input.warnings,
      tokenId: input.tokenId,
      measurementCount: b.measurements.length,
    },
    select: { id: true },
  });
  await insertMeasurements(tx, created.id, scenarioId, b.measurements);
  await countBundle(tx, scenarioId, created.id);
  return { id: created.id, scenarioId, measurementCount: b.measurements.length, created: true };
}

/**
 * All measurements in one statement: each column travels as one array parameter and unnest() turns
 * them back into rows. Prisma's createMany compiles one bind parameter per cell, which made a
 * 200-measurement bundle several times slower than this (bench/ingest.ts).
 */
async function insertMeasurements(
  tx: Tx,
  bundleId: string,
  scenarioId: string,
  ms: NormalisedMeasurement[],
): Promise<void> {
  if (ms.length === 0) return;
  const col = <T>(pick: (m: NormalisedMeasurement) => T) => ms.map(pick);
  await tx.$executeRaw`
    INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, params, "paramsKey", value, unit, low, high,
      samples, "publishedValue", "publishedUnit", qualifier, aggregate, better)
    SELECT ${bundleId}, ${scenarioId}, m.position, m.metric, m.params, m.params_key, m.value, m.unit, m.low, m.high,
      ARRAY(SELECT jsonb_array_elements_text(m.samples)::float8), m.published_value, m.published_unit,
      m.qualifier::"Qualifier", m.aggregate::"Aggregate", m.better::"Better"
    FROM unnest(
      ${col((m) => m.position)}::int[], ${col((m) => m.metric)}::text[], ${col((m) => JSON.stringify(m.params))}::jsonb[],
      ${col((m) => m.paramsKey)}::text[], ${col((m) => m.value)}::float8[], ${col((m) => m.unit)}::text[],
      ${col((m) => m.low)}::float8[], ${col((m) => m.high)}::float8[], ${col((m) => JSON.stringify(m.samples))}::jsonb[],
      ${col((m) => m.publishedValue)}::float8[], ${col((m) => m.publishedUnit)}::text[], ${col((m) => m.qualifier)}::text[],
      ${col((m) => m.aggregate)}::text[], ${col((m) => m.better)}::text[]
    ) AS m(position, metric, params, params_key, value, unit, low, high, samples, published_value, published_unit,
      qualifier, aggregate, better)`;
}

/**
 * The scenario's materialised bundle count, latest run and source titles. Written from the row's
 * own values, last in the transaction: a concurrent upload to the same scenario waits for this row
 * and then re-applies the update to the committed version, so no count is lost.
 */
async function countBundle(tx: Tx, scenarioId: string, bundleId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Scenario" s SET "bundleCount" = s."bundleCount" + 1,
      "lastRunAt" = GREATEST(s."lastRunAt", COALESCE(b."runAt", b."receivedAt")),
      sources = CASE WHEN b."sourceTitle" IS NULL OR b."sourceTitle" = ANY(s.sources) THEN s.sources
        ELSE ARRAY(SELECT t FROM unnest(s.sources || b."sourceTitle") t ORDER BY t) END
    FROM "Bundle" b WHERE s.id = ${scenarioId} AND b.id = ${bundleId}`;
}

/** Finds the scenario (one query when it exists, as it mostly does) or creates it and its parts. */
async function ensureScenario(tx: Tx, workspaceId: string, b: NormalisedBundle): Promise<string> {
  const sKey = scenarioKey(b);
  const existing = await tx.scenario.findUnique({
    where: { workspaceId_key: { workspaceId, key: sKey } },
    select: { id: true, nodeSku: true },
  });
  if (existing) {
    await fillSkuFacts(tx, existing.nodeSku, b);
    return existing.id;
  }
  // INSERT … ON CONFLICT DO NOTHING, then read: safe when identical uploads race.
  const cKey = clusterKey(b);
  await tx.cluster.createMany({
    data: [
      {
        key: cKey,
        provider: b.cluster.provider,
        region: b.cluster.region,
        kubernetesVersion: b.cluster.kubernetesVersion,
        nodeCount: b.cluster.nodeCount,
      },
    ],
    skipDuplicates: true,
  });
  const cluster = await tx.cluster.findUniqueOrThrow({ where: { key: cKey }, select: { id: true } });

  await tx.nodeSku.createMany({
    data: [
      {
        provider: b.cluster.provider,
        sku: b.node.sku,
        vcpus: b.node.vcpus,
        memoryGiB: b.node.memoryGiB,
        nicGbps: b.node.nicGbps,
      },
    ],
    skipDuplicates: true,
  });
  const sku = await tx.nodeSku.findUniqueOrThrow({
    where: { provider_sku: { provider: b.cluster.provider, sku: b.node.sku } },
  });
  await fillSkuFacts(tx, sku, b);

  await tx.kernel.createMany({ data: [{ os: b.node.os, version: b.node.kernel }], skipDuplicates: true });
  const kernel = await tx.kernel.findUniqueOrThrow({
    where: { os_version: { os: b.node.os, version: b.node.kernel } },
    select: { id: true },
  });

  const nKey = cniKey(b);
  await tx.cniConfig.createMany({
    data: [
      {
        key: nKey,
        name: b.cni.name,
        version: b.cni.version,
        mode: b.cni.mode,
        kubeProxy: b.cni.kubeProxy,
        label: b.cni.label,
        settings: b.cni.settings,
      },
    ],
    skipDuplicates: true,
  });
  const cni = await tx.cniConfig.findUniqueOrThrow({ where: { key: nKey }, select: { id: true } });

  await tx.scenario.createMany({
    data: [
      { workspaceId, key: sKey, clusterId: cluster.id, nodeSkuId: sku.id, kernelId: kernel.id, cniConfigId: cni.id },
    ],
    skipDuplicates: true,
  });
  const scenario = await tx.scenario.findUniqueOrThrow({
    where: { workspaceId_key: { workspaceId, key: sKey } },
    select: { id: true },
  });
  return scenario.id;
}

/** An instance type's size fills in when a later bundle states what an earlier one did not. */
async function fillSkuFacts(
  tx: Tx,
  sku: { id: string; vcpus: number | null; memoryGiB: number | null; nicGbps: number | null },
  b: NormalisedBundle,
): Promise<void> {
  const fill = {
    ...(sku.vcpus === null && b.node.vcpus !== null ? { vcpus: b.node.vcpus } : {}),
    ...(sku.memoryGiB === null && b.node.memoryGiB !== null ? { memoryGiB: b.node.memoryGiB } : {}),
    ...(sku.nicGbps === null && b.node.nicGbps !== null ? { nicGbps: b.node.nicGbps } : {}),
  };
  if (Object.keys(fill).length > 0) await tx.nodeSku.update({ where: { id: sku.id }, data: fill });
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Deletes a bundle and its measurements, and recounts its scenario (which goes too when this was its
 * last bundle). Permalinks that pinned it keep standing and name it as deleted. The scenario row is
 * locked first, so an upload into it at the same time is counted after the recount.
 */
export async function deleteBundle(
  db: Db,
  bundleId: string,
): Promise<{ scenarioId: string; scenarioDeleted: boolean } | null> {
  return db.$transaction(async (tx) => {
    const bundle = await tx.bundle.findUnique({ where: { id: bundleId }, select: { scenarioId: true } });
    if (!bundle) return null;
    const { scenarioId } = bundle;
    await tx.$executeRaw`SELECT 1 FROM "Scenario" WHERE id = ${scenarioId} FOR UPDATE`;
    await tx.bundle.delete({ where: { id: bundleId } });
    const left = await tx.$executeRaw`
      UPDATE "Scenario" s SET "bundleCount" = agg.count, "lastRunAt" = agg.last, sources = agg.sources
      FROM (
        SELECT count(*)::int AS count, max(COALESCE("runAt", "receivedAt")) AS last,
          COALESCE(array_agg(DISTINCT "sourceTitle" ORDER BY "sourceTitle") FILTER (WHERE "sourceTitle" IS NOT NULL), '{}') AS sources
        FROM "Bundle" WHERE "scenarioId" = ${scenarioId}
      ) agg
      WHERE s.id = ${scenarioId} AND agg.count > 0`;
    if (left === 0) await tx.scenario.delete({ where: { id: scenarioId } });
    return { scenarioId, scenarioDeleted: left === 0 };
  });
}
