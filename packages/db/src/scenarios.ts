import { type CniIdentity, type ExploreFilters, type FacetKey, facetKeys, scenarioName } from "@cnibench/analysis";
import type { SettingValue } from "@cnibench/schema";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import type { ScenarioSummary } from "./read-models.ts";

export type { ScenarioSummary };

/**
 * A readable name: the label of the scenario's most recent upload that gave one (Scenario.label), else
 * what its CNI settings say ("Cilium VXLAN, kube-proxy replacement, Hubble off": scenarioName).
 */
export function scenarioLabel(cni: CniIdentity & { label: string | null }): string {
  return cni.label ?? scenarioName(cni);
}

type Row = Omit<ScenarioSummary, "label" | "cni"> & {
  cniName: string;
  cniVersion: string;
  cniMode: string;
  kubeProxy: string;
  givenLabel: string | null;
  settings: Record<string, SettingValue>;
};

/**
 * Which scenarios a view covers: those of the workspaces the visitor may read (`Access.readable`),
 * optionally only the given ids and/or those the explorer's filters match.
 */
export type ScenarioScope = { workspaceIds: readonly string[]; ids?: readonly string[]; filters?: ExploreFilters };

// The explorer's facets as columns, so SQL can apply the same filter as applyFilters (@cnibench/analysis):
// values OR within a facet, facets AND across. The views integration test checks the two agree.
const facetColumns: Record<Exclude<FacetKey, "source">, Prisma.Sql> = {
  provider: Prisma.sql`c.provider`,
  sku: Prisma.sql`k.sku`,
  kernel: Prisma.sql`kr.version`,
  k8s: Prisma.sql`c."kubernetesVersion"`,
  cni: Prisma.sql`n.name`,
  mode: Prisma.sql`n.mode`,
  kubeProxy: Prisma.sql`n."kubeProxy"`,
};

const scenarioJoins = Prisma.sql`"Scenario" s
    JOIN "Cluster" c ON c.id = s."clusterId"
    JOIN "NodeSku" k ON k.id = s."nodeSkuId"
    JOIN "Kernel" kr ON kr.id = s."kernelId"
    JOIN "CniConfig" n ON n.id = s."cniConfigId"`;

function scopeWhere(scope: ScenarioScope): Prisma.Sql {
  const conditions = [
    Prisma.sql`s."workspaceId" = ANY(${scope.workspaceIds}::text[])`,
    ...(scope.ids ? [Prisma.sql`s.id = ANY(${scope.ids}::text[])`] : []),
    ...facetKeys.flatMap((key) => {
      const wanted = scope.filters?.[key];
      if (!wanted?.length) return [];
      return [
        key === "source"
          ? Prisma.sql`s.sources && ${wanted}::text[]`
          : Prisma.sql`${facetColumns[key]} = ANY(${wanted}::text[])`,
      ];
    }),
  ];
  return Prisma.join(conditions, " AND ");
}

/** The ids of a scope's scenarios, as a subquery: views fetch figures with it while listing the scenarios. */
export const scopeIds = (scope: ScenarioScope): Prisma.Sql =>
  Prisma.sql`SELECT s.id FROM ${scenarioJoins} WHERE ${scopeWhere(scope)}`;

// ORDER BY … COLLATE "C": these are keys, not words, and byte order sorts them several times faster
// than the database's locale.
// Columns of type timestamp (Prisma's DateTime) hold UTC; AT TIME ZONE 'UTC' hands node-postgres a
// timestamptz, so it does not read them in the process's local zone.

/**
 * The scenarios of a scope with the facts people filter by, in one statement. Bundle counts, latest
 * run and sources are the columns the ingest transaction keeps (bundles.ts).
 */
export async function listScenarios(db: Db, scope: ScenarioScope): Promise<ScenarioSummary[]> {
  const rows = await readRows<Row>(
    db,
    Prisma.sql`
    SELECT s.id, s."workspaceId", c.provider, c.region, c."kubernetesVersion", c."nodeCount",
      k.sku, k.vcpus, k."memoryGiB", k."nicGbps", kr.os, kr.version AS kernel,
      n.name AS "cniName", n.version AS "cniVersion", n.mode AS "cniMode", n."kubeProxy", s.label AS "givenLabel",
      n.settings, COALESCE(s.sources, '{}') AS sources, s."bundleCount", s."lastRunAt" AT TIME ZONE 'UTC' AS "lastRunAt"
    FROM ${scenarioJoins}
    WHERE ${scopeWhere(scope)}
    ORDER BY c.provider COLLATE "C", s."createdAt", s.id COLLATE "C"`,
  );
  return rows.map((r) => {
    const cni = {
      name: r.cniName,
      version: r.cniVersion,
      mode: r.cniMode,
      kubeProxy: r.kubeProxy,
      label: r.givenLabel,
      settings: r.settings,
    };
    return {
      id: r.id,
      workspaceId: r.workspaceId,
      label: scenarioLabel(cni),
      provider: r.provider,
      region: r.region,
      kubernetesVersion: r.kubernetesVersion,
      nodeCount: r.nodeCount,
      sku: r.sku,
      vcpus: r.vcpus,
      memoryGiB: r.memoryGiB,
      nicGbps: r.nicGbps,
      os: r.os,
      kernel: r.kernel,
      cni,
      sources: r.sources,
      bundleCount: r.bundleCount,
      lastRunAt: r.lastRunAt,
    };
  });
}

/**
 * Where the scenarios of these workspaces stand, as a hash of their ids and revisions: it moves with
 * every change to their measurements (the revision triggers) and every scenario added or removed, so
 * what is computed from their figures can be kept until it does.
 */
export async function scenariosRevision(db: Db, workspaceIds: readonly string[]): Promise<string> {
  const [row] = await readRows<{ revision: string | null }>(
    db,
    Prisma.sql`SELECT md5(string_agg(id || ':' || revision, ',' ORDER BY id COLLATE "C")) AS revision
    FROM "Scenario" WHERE "workspaceId" = ANY(${workspaceIds}::text[])`,
  );
  return row?.revision ?? "none";
}

/**
 * Each scenario of these workspaces with its revision, in listScenarios' order: what a cache of
 * per-scenario answers compares with to read again only the scenarios that changed.
 */
export async function scenarioRevisions(
  db: Db,
  workspaceIds: readonly string[],
): Promise<{ id: string; revision: number }[]> {
  return readRows<{ id: string; revision: number }>(
    db,
    Prisma.sql`SELECT s.id, s.revision FROM "Scenario" s JOIN "Cluster" c ON c.id = s."clusterId"
    WHERE s."workspaceId" = ANY(${workspaceIds}::text[])
    ORDER BY c.provider COLLATE "C", s."createdAt", s.id COLLATE "C"`,
  );
}

/** One scenario of the given workspaces, or null when there is none with that id there. */
export async function getScenarioSummary(
  db: Db,
  workspaceIds: readonly string[],
  id: string,
): Promise<ScenarioSummary | null> {
  const [found] = await listScenarios(db, { workspaceIds, ids: [id] });
  return found ?? null;
}
