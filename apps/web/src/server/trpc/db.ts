import "server-only";
import { createDb, type Db } from "@cnibench/db";
import { webEnv } from "~/env";

const globalForDb = globalThis as unknown as { cnibenchDb?: Db };

/** One client per server process (kept across hot reloads in development). */
export function db(): Db {
  const env = webEnv();
  globalForDb.cnibenchDb ??= createDb(env.DATABASE_URL, {
    maxConnections: env.CNIBENCH_DB_POOL_MAX,
    timeoutMs: env.CNIBENCH_DB_TIMEOUT_MS,
  });
  return globalForDb.cnibenchDb;
}
