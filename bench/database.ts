// A throwaway embedded PostgreSQL for one benchmark part (or BENCH_DATABASE_URL, left as it is).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "@cnibench/db";
import { startEmbeddedPostgres } from "@cnibench/launcher";
import { freePort } from "@cnibench/test-support/ports";

export async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  if (process.env.BENCH_DATABASE_URL) {
    await migrateDatabase(process.env.BENCH_DATABASE_URL);
    return fn(process.env.BENCH_DATABASE_URL);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-bench-"));
  fs.chmodSync(dataDir, 0o755);
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), log: () => {} });
  try {
    await migrateDatabase(embedded.url);
    return await fn(embedded.url);
  } finally {
    await embedded.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
