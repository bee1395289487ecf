import type { Db } from "./client.ts";

/** True when the database answers a trivial query. */
export async function databaseReady(db: Db): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
