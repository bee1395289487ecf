/**
 * The data step of migrations 20261126120000_scenario_labels and 20261128230000_bundle_hash_without_campaign
 * (which marks the scenarios again: a bundle's campaign left its content hash), run by migrateDatabase after the SQL
 * migrations. Until then a bundle's cni.label was part of its scenario's identity and of its content
 * hash: the same results uploaded without a label and with one made two scenarios, each with its own
 * copy of the bundle. Keys and hashes are canonical JSON (RFC 8785) hashed, which SQL cannot compute,
 * so this recomputes them here, once: the migration marks every scenario key with `rekey:`, and one
 * transaction computes the new keys and hashes, merges the scenarios and bundles that are now one, and
 * clears the marks. It does nothing when no scenario is marked, so it may run on every start.
 */
import { bundleContentHash, cniKey, type SettingValue, scenarioKey } from "@cnibench/schema";
import type pg from "pg";
import { recountScenarios } from "./bundles.ts";
import type { Pin } from "./permalinks.ts";

export type Rekeyed = { scenarios: number; mergedScenarios: number; mergedBundles: number };

type CniRow = {
  id: string;
  key: string;
  name: string;
  version: string;
  mode: string;
  kubeProxy: string;
  settings: Record<string, SettingValue>;
};
type ScenarioRow = {
  id: string;
  workspaceId: string;
  key: string;
  label: string | null;
  provider: string;
  region: string;
  kubernetesVersion: string;
  nodeCount: number | null;
  sku: string;
  os: string;
  kernel: string;
  name: string;
  version: string;
  mode: string;
  kubeProxy: string;
  settings: Record<string, SettingValue>;
  lastReceivedAt: Date | null;
};

/** Re-keys a database marked by the migration, in one transaction; null when nothing is marked. */
export async function rekeyScenarios(client: pg.ClientBase): Promise<Rekeyed | null> {
  const marked = `SELECT 1 FROM "Scenario" WHERE key LIKE 'rekey:%' LIMIT 1`;
  if ((await client.query(marked)).rowCount === 0) return null;
  await client.query("BEGIN");
  try {
    // Uploads from apps still running wait until it is done, and a second migrator finds nothing left.
    await client.query(`LOCK TABLE "CniConfig", "Scenario", "Bundle", "Permalink" IN EXCLUSIVE MODE`);
    if ((await client.query(marked)).rowCount === 0) {
      await client.query("COMMIT");
      return null;
    }
    await mergeCniConfigs(client);
    const { scenarios, movedScenarios } = await mergeScenarios(client);
    const { touched, movedBundles } = await mergeBundles(client);
    await recountScenarios(client, [...new Set([...movedScenarios.values(), ...touched])]);
    await repointPermalinks(client, movedScenarios, movedBundles);
    await client.query("COMMIT");
    return { scenarios, mergedScenarios: movedScenarios.size, mergedBundles: movedBundles.size };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Rows with the same key together, each group and its rows in the order they came: the first stays. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return [...groups.values()];
}

/** CNI configurations differing only in their label become one, keyed without it. */
async function mergeCniConfigs(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<CniRow>(
    `SELECT id, key, name, version, mode, "kubeProxy", settings FROM "CniConfig" ORDER BY id`,
  );
  const keyed = rows.map((r) => ({ ...r, newKey: cniKey({ cni: r }) }));
  for (const [kept, ...others] of groupBy(keyed, (r) => r.newKey)) {
    if (!kept) continue;
    const ids = others.map((o) => o.id);
    if (ids.length > 0) {
      await client.query(`UPDATE "Scenario" SET "cniConfigId" = $1 WHERE "cniConfigId" = ANY($2::text[])`, [
        kept.id,
        ids,
      ]);
      await client.query(`DELETE FROM "CniConfig" WHERE id = ANY($1::text[])`, [ids]);
    }
    if (kept.key !== kept.newKey)
      await client.query(`UPDATE "CniConfig" SET key = $1 WHERE id = $2`, [kept.newKey, kept.id]);
  }
}

/**
 * Scenarios of a workspace with the same new key become the oldest of them: their bundles and
 * measurements move there, its current figures are recomputed (no trigger follows a moved
 * measurement), and it is named by the label of the most recent upload that gave one.
 */
async function mergeScenarios(client: pg.ClientBase) {
  const { rows } = await client.query<ScenarioRow>(
    `SELECT s.id, s."workspaceId", s.key, s.label, c.provider, c.region, c."kubernetesVersion", c."nodeCount", k.sku,
      kr.os, kr.version AS kernel, n.name, n.version, n.mode, n."kubeProxy", n.settings,
      (SELECT max(b."receivedAt") FROM "Bundle" b WHERE b."scenarioId" = s.id) AS "lastReceivedAt"
    FROM "Scenario" s JOIN "Cluster" c ON c.id = s."clusterId" JOIN "NodeSku" k ON k.id = s."nodeSkuId"
      JOIN "Kernel" kr ON kr.id = s."kernelId" JOIN "CniConfig" n ON n.id = s."cniConfigId"
    ORDER BY s."createdAt", s.id`,
  );
  const keyed = rows.map((r) => ({
    ...r,
    newKey: scenarioKey({
      cluster: {
        provider: r.provider,
        region: r.region,
        kubernetesVersion: r.kubernetesVersion,
        nodeCount: r.nodeCount,
      },
      node: { sku: r.sku, os: r.os, kernel: r.kernel },
      cni: { name: r.name, version: r.version, mode: r.mode, kubeProxy: r.kubeProxy, settings: r.settings },
    }),
  }));
  /** Merged scenario → the one it became. */
  const movedScenarios = new Map<string, string>();
  const merged: { id: string; label: string | null }[] = [];
  for (const group of groupBy(keyed, (r) => `${r.workspaceId} ${r.newKey}`)) {
    const [kept, ...others] = group;
    if (!kept || others.length === 0) continue;
    for (const o of others) movedScenarios.set(o.id, kept.id);
    const named = group
      .filter((s) => s.label !== null)
      .sort((a, b) => (b.lastReceivedAt?.getTime() ?? 0) - (a.lastReceivedAt?.getTime() ?? 0));
    merged.push({ id: kept.id, label: named[0]?.label ?? null });
  }
  if (movedScenarios.size > 0) {
    const [from, to] = [[...movedScenarios.keys()], [...movedScenarios.values()]];
    const moves = `unnest($1::text[], $2::text[]) AS m("from", "to")`;
    await client.query(`UPDATE "Bundle" b SET "scenarioId" = m."to" FROM ${moves} WHERE b."scenarioId" = m."from"`, [
      from,
      to,
    ]);
    await client.query(
      `UPDATE "Measurement" x SET "scenarioId" = m."to" FROM ${moves} WHERE x."scenarioId" = m."from"`,
      [from, to],
    );
    await client.query(`DELETE FROM "CurrentFigure" WHERE "scenarioId" = ANY($1::text[] || $2::text[])`, [from, to]);
    await client.query(`DELETE FROM "Scenario" WHERE id = ANY($1::text[])`, [from]);
    // As the current_figures migration filled it: the most recent run of each key holds it.
    await client.query(
      `INSERT INTO "CurrentFigure" ("scenarioId", metric, "paramsKey", "measurementId", "measuredAt", "receivedAt", position, runs)
      SELECT DISTINCT ON (m."scenarioId", m.metric, m."paramsKey") m."scenarioId", m.metric, m."paramsKey", m.id,
        COALESCE(b."runAt", b."receivedAt"), b."receivedAt", m.position,
        count(*) OVER (PARTITION BY m."scenarioId", m.metric, m."paramsKey")
      FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
      WHERE m."scenarioId" = ANY($1::text[])
      ORDER BY m."scenarioId", m.metric, m."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC,
        m.position`,
      [merged.map((m) => m.id)],
    );
    await client.query(
      `UPDATE "Scenario" s SET label = m.label, revision = s.revision + 1
      FROM unnest($1::text[], $2::text[]) AS m(id, label) WHERE s.id = m.id`,
      [merged.map((m) => m.id), merged.map((m) => m.label)],
    );
  }
  const rekeyed = keyed.filter((s) => !movedScenarios.has(s.id) && s.key !== s.newKey);
  await client.query(
    `UPDATE "Scenario" s SET key = m.key FROM unnest($1::text[], $2::text[]) AS m(id, key) WHERE s.id = m.id`,
    [rekeyed.map((s) => s.id), rekeyed.map((s) => s.newKey)],
  );
  return { scenarios: rows.length - movedScenarios.size, movedScenarios };
}

/**
 * Bundles naming a label are hashed again without it. Two bundles of a workspace with the same hash
 * are one: the earlier upload stays, the later goes with its measurements (the triggers hand their
 * current figures on), and permalinks pinning it pin the one that stayed.
 */
async function mergeBundles(client: pg.ClientBase) {
  // PostgreSQL reads the JSON as JSON.parse does (escaped keys, the last of repeated ones): the bundles
  // naming no label and no campaign keep their hash, and their text stays in the database. Two copies
  // of one run (stored in two campaigns before campaigns left the hash): the first stored is kept.
  type Row = { id: string; workspaceId: string; scenarioId: string; contentHash: string; receivedAt: Date };
  const { rows } = await client.query<Row>(
    `SELECT id, "workspaceId", "scenarioId", "contentHash", "receivedAt" FROM "Bundle"
    WHERE jsonb_typeof(raw::jsonb -> 'cni') = 'object' AND (raw::jsonb -> 'cni') ? 'label'
      OR jsonb_typeof(raw::jsonb) = 'object' AND raw::jsonb ? 'campaign'
    ORDER BY "receivedAt", id`,
  );
  /** Removed bundle → the one it was a copy of. */
  const movedBundles = new Map<string, string>();
  const touched = new Set<string>();
  for (const bundle of rows) {
    if (movedBundles.has(bundle.id)) continue;
    const { rows: raw } = await client.query<{ raw: string }>(`SELECT raw FROM "Bundle" WHERE id = $1`, [bundle.id]);
    const hash = bundleContentHash(JSON.parse(raw[0]!.raw));
    if (hash === bundle.contentHash) continue;
    const { rows: same } = await client.query<Row>(
      `SELECT id, "scenarioId", "receivedAt" FROM "Bundle" WHERE "workspaceId" = $1 AND "contentHash" = $2`,
      [bundle.workspaceId, hash],
    );
    const copy = same[0];
    if (copy) {
      const [kept, gone] = copy.receivedAt <= bundle.receivedAt ? [copy.id, bundle.id] : [bundle.id, copy.id];
      await client.query(`DELETE FROM "Bundle" WHERE id = $1`, [gone]);
      movedBundles.set(gone, kept);
      touched.add(copy.scenarioId).add(bundle.scenarioId);
      if (kept === copy.id) continue;
    }
    await client.query(`UPDATE "Bundle" SET "contentHash" = $1 WHERE id = $2`, [hash, bundle.id]);
  }
  return { touched: [...touched], movedBundles };
}

/** Permalinks keep pinning what they pinned: merged scenarios and bundles by the ids they became. */
async function repointPermalinks(
  client: pg.ClientBase,
  movedScenarios: ReadonlyMap<string, string>,
  movedBundles: ReadonlyMap<string, string>,
): Promise<void> {
  if (movedScenarios.size === 0 && movedBundles.size === 0) return;
  const { rows } = await client.query<{ id: string; scenarioIds: string[]; pins: Pin[] }>(
    `SELECT id, "scenarioIds", pins FROM "Permalink"`,
  );
  for (const link of rows) {
    const scenarioIds = [...new Set(link.scenarioIds.map((id) => movedScenarios.get(id) ?? id))];
    const pins = [
      ...new Map(
        link.pins.map((p) => {
          const bundleId = movedBundles.get(p.bundleId) ?? p.bundleId;
          return [bundleId, { ...p, bundleId, scenarioId: movedScenarios.get(p.scenarioId) ?? p.scenarioId }];
        }),
      ).values(),
    ];
    if (JSON.stringify([scenarioIds, pins]) === JSON.stringify([link.scenarioIds, link.pins])) continue;
    await client.query(`UPDATE "Permalink" SET "scenarioIds" = $1, pins = $2 WHERE id = $3`, [
      scenarioIds,
      JSON.stringify(pins),
      link.id,
    ]);
  }
}
