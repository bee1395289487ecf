import { createDb, createToken, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { buildServer, type ServerOptions } from "@cnibench/ingest-api/src/server.ts";

/** A real ingest-api on a free loopback port over the given database, with one upload token. */
export async function startIngest(
  databaseUrl: string,
  options: {
    maxBundleBytes?: number;
    maxImportBytes?: number;
    importLimits?: ServerOptions["importLimits"];
    rateLimitPerMinute?: number;
    dbTimeoutMs?: number;
    timeouts?: ServerOptions["timeouts"];
  } = {},
) {
  const db: Db = createDb(databaseUrl, { timeoutMs: options.dbTimeoutMs });
  const workspace = await ensureDefaultWorkspace(db);
  const { token } = await createToken(db, workspace.id, `test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  const app = buildServer({
    db,
    publicApiUrl: "http://api.example",
    publicWebUrl: "http://web.example",
    maxBundleBytes: options.maxBundleBytes,
    maxImportBytes: options.maxImportBytes,
    importLimits: options.importLimits,
    rateLimitPerMinute: options.rateLimitPerMinute,
    timeouts: options.timeouts,
    logLevel: "silent",
  });
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
  const upload = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return {
    db,
    base,
    token,
    workspaceId: workspace.id,
    upload,
    close: async () => {
      await app.close();
      await db.$disconnect();
    },
  };
}

/** Row counts of the tables an upload writes, to prove that a refused upload wrote nothing. */
export async function rowCounts(db: Db) {
  const [bundles, measurements, scenarios] = await Promise.all([
    db.bundle.count(),
    db.measurement.count(),
    db.scenario.count(),
  ]);
  return { bundles, measurements, scenarios };
}

/**
 * What a partial write would leave behind: bundles whose measurementCount is not their number of
 * measurement rows, scenarios whose bundleCount is not their number of bundles, scenarios without
 * any bundle (nothing here deletes bundles, so every scenario was created by a stored upload).
 */
export async function integrityProblems(db: {
  $queryRawUnsafe<T = unknown>(query: string): PromiseLike<T>;
}): Promise<string[]> {
  const bundles = await db.$queryRawUnsafe<{ id: string; said: number; rows: number }[]>(
    `SELECT b.id, b."measurementCount" AS said, count(m.id)::int AS rows
       FROM "Bundle" b LEFT JOIN "Measurement" m ON m."bundleId" = b.id
      GROUP BY b.id HAVING count(m.id) <> b."measurementCount"`,
  );
  const scenarios = await db.$queryRawUnsafe<{ id: string; said: number; rows: number }[]>(
    `SELECT s.id, s."bundleCount" AS said, count(b.id)::int AS rows
       FROM "Scenario" s LEFT JOIN "Bundle" b ON b."scenarioId" = s.id
      GROUP BY s.id HAVING count(b.id) <> s."bundleCount" OR count(b.id) = 0`,
  );
  return [
    ...bundles.map((b) => `bundle ${b.id}: measurementCount ${b.said}, ${b.rows} measurement rows`),
    ...scenarios.map((s) => `scenario ${s.id}: bundleCount ${s.said}, ${s.rows} bundle rows`),
  ];
}
