import "server-only";
import { createDb, type Db } from "@cnibench/db";
import { webEnv } from "~/env";

const globalForDb = globalThis as unknown as { cnibenchDb?: Db };

/** One client per server process (kept across hot reloads in development). */
export function db(): Db {
  globalForDb.cnibenchDb ??= createDb(webEnv().DATABASE_URL);
  return globalForDb.cnibenchDb;
}
