// What the metrics feed (apps/ingest-api/src/routes/metrics.ts) reads beside the views' read models:
// how many current figures each scenario holds, so no more figures are read than a response holds;
// when each bundle was measured; and each scenario's testbed.
import type { Db } from "./client.ts";

/** The number of current figures of each scenario that has any. */
export async function currentFigureCounts(db: Db, scenarioIds: readonly string[]): Promise<Map<string, number>> {
  const counts = await db.currentFigure.groupBy({
    by: ["scenarioId"],
    where: { scenarioId: { in: [...scenarioIds] } },
    _count: { _all: true },
  });
  return new Map(counts.map((c) => [c.scenarioId, c._count._all]));
}

/** When each bundle's figures were measured: its runAt, else when it was received. */
export async function bundleTimes(db: Db, bundleIds: readonly string[]): Promise<Map<string, Date>> {
  if (bundleIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; ms: number }[]>`
    SELECT id, (EXTRACT(EPOCH FROM COALESCE("runAt", "receivedAt")) * 1000)::float8 AS ms
    FROM "Bundle" WHERE id = ANY(${[...bundleIds]}::text[])`;
  return new Map(rows.map((r) => [r.id, new Date(r.ms)]));
}

/** Each scenario's testbed key (Scenario.testbedKey, a SHA-256 in hex). */
export async function testbedKeys(db: Db, scenarioIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.scenario.findMany({
    where: { id: { in: [...scenarioIds] } },
    select: { id: true, testbedKey: true },
  });
  return new Map(rows.map((s) => [s.id, s.testbedKey]));
}
