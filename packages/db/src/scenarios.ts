import type { SettingValue } from "@cnibench/schema";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

export type ScenarioSummary = {
  id: string;
  label: string;
  provider: string;
  region: string;
  kubernetesVersion: string;
  nodeCount: number | null;
  sku: string;
  vcpus: number | null;
  memoryGiB: number | null;
  nicGbps: number | null;
  os: string;
  kernel: string;
  cni: {
    name: string;
    version: string;
    mode: string;
    kubeProxy: string;
    label: string | null;
    settings: Record<string, SettingValue>;
  };
  /** Titles of the sources its bundles transcribe or were collected for (the explorer's source facet). */
  sources: string[];
  bundleCount: number;
  lastRunAt: Date | null;
};

/** A readable name: the collector's label when it gave one, else CNI and mode. */
export function scenarioLabel(cni: { name: string; mode: string; label: string | null }): string {
  return cni.label ?? `${cni.name} ${cni.mode}`;
}

type Row = Omit<ScenarioSummary, "label" | "cni" | "bundleCount"> & {
  cniName: string;
  cniVersion: string;
  cniMode: string;
  kubeProxy: string;
  cniLabel: string | null;
  settings: Record<string, SettingValue>;
  bundleCount: string;
};

// Columns of type timestamp (Prisma's DateTime) hold UTC; AT TIME ZONE 'UTC' hands node-postgres a
// timestamptz, so it does not read them in the process's local zone.

/**
 * Every scenario of a workspace (or the given ones) with the facts people filter by, in one statement.
 * Measurements are not counted here: that would read every measurement row on each explore request.
 */
export async function listScenarios(
  db: Db,
  workspaceSlug: string,
  ids?: readonly string[],
): Promise<ScenarioSummary[]> {
  const rows = await readRows<Row>(
    db,
    Prisma.sql`
    SELECT s.id, c.provider, c.region, c."kubernetesVersion", c."nodeCount",
      k.sku, k.vcpus, k."memoryGiB", k."nicGbps", kr.os, kr.version AS kernel,
      n.name AS "cniName", n.version AS "cniVersion", n.mode AS "cniMode", n."kubeProxy", n.label AS "cniLabel",
      n.settings, COALESCE(b.sources, '{}') AS sources, COALESCE(b.count, 0) AS "bundleCount",
      b."lastRunAt"
    FROM "Scenario" s
    JOIN "Workspace" w ON w.id = s."workspaceId"
    JOIN "Cluster" c ON c.id = s."clusterId"
    JOIN "NodeSku" k ON k.id = s."nodeSkuId"
    JOIN "Kernel" kr ON kr.id = s."kernelId"
    JOIN "CniConfig" n ON n.id = s."cniConfigId"
    LEFT JOIN (
      SELECT "scenarioId", count(*) AS count, max(COALESCE("runAt", "receivedAt")) AT TIME ZONE 'UTC' AS "lastRunAt",
        array_agg(DISTINCT "sourceTitle" ORDER BY "sourceTitle") FILTER (WHERE "sourceTitle" IS NOT NULL) AS sources
      FROM "Bundle" GROUP BY "scenarioId"
    ) b ON b."scenarioId" = s.id
    WHERE w.slug = ${workspaceSlug} AND (${ids ?? null}::text[] IS NULL OR s.id = ANY(${ids ?? null}::text[]))
    ORDER BY c.provider, s."createdAt", s.id`,
  );
  return rows.map(({ cniName, cniVersion, cniMode, kubeProxy, cniLabel, settings, ...r }) => {
    const cni = { name: cniName, version: cniVersion, mode: cniMode, kubeProxy, label: cniLabel, settings };
    return {
      ...r,
      label: scenarioLabel(cni),
      cni,
      bundleCount: Number(r.bundleCount),
    };
  });
}

/** One scenario of a workspace, or null when there is none with that id there. */
export async function getScenarioSummary(db: Db, workspaceSlug: string, id: string): Promise<ScenarioSummary | null> {
  const [found] = await listScenarios(db, workspaceSlug, [id]);
  return found ?? null;
}
