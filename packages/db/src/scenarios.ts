import type { Db } from "./client.ts";

export type ScenarioSummary = {
  id: string;
  label: string;
  provider: string;
  region: string;
  kubernetesVersion: string;
  sku: string;
  os: string;
  kernel: string;
  cni: { name: string; version: string; mode: string; kubeProxy: string; label: string | null };
  bundleCount: number;
  measurementCount: number;
  lastRunAt: Date | null;
};

/** A readable name: the collector's label when it gave one, else CNI and mode. */
export function scenarioLabel(cni: { name: string; mode: string; label: string | null }): string {
  return cni.label ?? `${cni.name} ${cni.mode}`;
}

export async function listScenarios(db: Db, workspaceSlug: string): Promise<ScenarioSummary[]> {
  const rows = await db.scenario.findMany({
    where: { workspace: { slug: workspaceSlug } },
    include: {
      cluster: true,
      nodeSku: true,
      kernel: true,
      cniConfig: true,
      _count: { select: { bundles: true, measurements: true } },
      bundles: { select: { runAt: true, receivedAt: true }, orderBy: { receivedAt: "desc" }, take: 1 },
    },
    orderBy: [{ cluster: { provider: "asc" } }, { createdAt: "asc" }],
  });
  return rows.map((s) => ({
    id: s.id,
    label: scenarioLabel(s.cniConfig),
    provider: s.cluster.provider,
    region: s.cluster.region,
    kubernetesVersion: s.cluster.kubernetesVersion,
    sku: s.nodeSku.sku,
    os: s.kernel.os,
    kernel: s.kernel.version,
    cni: {
      name: s.cniConfig.name,
      version: s.cniConfig.version,
      mode: s.cniConfig.mode,
      kubeProxy: s.cniConfig.kubeProxy,
      label: s.cniConfig.label,
    },
    bundleCount: s._count.bundles,
    measurementCount: s._count.measurements,
    lastRunAt: s.bundles[0]?.runAt ?? s.bundles[0]?.receivedAt ?? null,
  }));
}
