import type { BundleWarning } from "@cnibench/schema";
import type { Db } from "./client.ts";
import type { Prisma } from "./generated/prisma/client.ts";
import { contractQualifier } from "./qualifier.ts";
import type { BundleSummary, Measurement } from "./read-models.ts";

/** One bundle as uploaded (verbatim text) with its normalised measurements. */
export async function getBundle(db: Db, workspaceIds: readonly string[], id: string) {
  const found = await db.bundle.findFirst({
    where: { id, workspaceId: { in: [...workspaceIds] } },
    include: { measurements: { orderBy: { position: "asc" } } },
  });
  if (!found) return null;
  return {
    summary: toSummary(found),
    raw: found.raw,
    warnings: found.warnings as BundleWarning[],
    measurements: found.measurements.map(
      ({
        id: _id,
        bundleId: _b,
        scenarioId: _s,
        paramsKey: _k,
        params,
        qualifier,
        summaryMean,
        summarySd,
        summaryLow,
        summaryHigh,
        summaryN,
        summaryOf,
        ...m
      }): Measurement => ({
        ...m,
        params: params as Measurement["params"],
        qualifier: qualifier ? contractQualifier[qualifier] : null,
        // The columns as the contract's summary (the CHECK keeps mean, n and of together).
        summaryStatistics:
          summaryMean !== null && summaryN !== null && summaryOf !== null
            ? {
                mean: summaryMean,
                ...(summarySd !== null ? { sd: summarySd } : {}),
                ...(summaryLow !== null && summaryHigh !== null ? { ci95: [summaryLow, summaryHigh] } : {}),
                n: summaryN,
                of: summaryOf,
              }
            : null,
      }),
    ),
  };
}

/** How many bundles of a campaign a workspace holds. */
export function campaignBundleCount(db: Db, workspaceId: string, campaign: string): Promise<number> {
  return db.bundle.count({ where: { workspaceId, campaign } });
}

export type BundleFilter = { scenarioId?: string; metric?: string; page: number; pageSize: number };

/** Bundles of the given workspaces, newest first, optionally of one scenario and/or holding one metric. */
export async function listBundles(db: Db, workspaceIds: readonly string[], filter: BundleFilter) {
  const where: Prisma.BundleWhereInput = {
    workspaceId: { in: [...workspaceIds] },
    ...(filter.scenarioId ? { scenarioId: filter.scenarioId } : {}),
    ...(filter.metric ? { measurements: { some: { metric: filter.metric } } } : {}),
  };
  const [total, rows] = await Promise.all([
    db.bundle.count({ where }),
    db.bundle.findMany({
      where,
      orderBy: [{ receivedAt: "desc" }, { id: "asc" }],
      skip: (filter.page - 1) * filter.pageSize,
      take: filter.pageSize,
    }),
  ]);
  return { total, items: rows.map(toSummary) };
}

function toSummary(b: BundleSummary): BundleSummary {
  return {
    id: b.id,
    scenarioId: b.scenarioId,
    clusterName: b.clusterName,
    sourceTitle: b.sourceTitle,
    sourceUrl: b.sourceUrl,
    collectorName: b.collectorName,
    runAt: b.runAt,
    receivedAt: b.receivedAt,
    measurementCount: b.measurementCount,
  };
}
