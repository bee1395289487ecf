import { createHash } from "node:crypto";
import path from "node:path";
import { migrateDatabase } from "@cnibench/db";
import { type EmbeddedPostgres, runningEmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres.ts";
import type { LauncherEnv } from "./env.ts";

export type DatabaseHandle = {
  url: string;
  embeddedDataDir: string | undefined;
  stop: () => Promise<void>;
  /** The embedded server this process started: settles when it ends (see startEmbeddedPostgres). */
  exited?: EmbeddedPostgres["exited"];
  /** Starts that embedded server again on the same data and port. */
  restart?: () => Promise<DatabaseHandle>;
};

/** Where the default data folder goes when the checkout is hidden from the postgres user. */
function fallbackDataDir(env: LauncherEnv, repoRoot: string): string | undefined {
  if (env.CNIBENCH_DATA_DIR_SET) return undefined;
  return path.join("/var/lib/cnibench", createHash("sha256").update(repoRoot).digest("hex").slice(0, 12));
}

/**
 * The configured database, migrated: DATABASE_URL's server, else the embedded PostgreSQL — the one
 * `npm start` is running, or one started for as long as the caller needs it (CLI commands).
 */
export async function openDatabase(
  env: LauncherEnv,
  repoRoot: string,
  log: (line: string) => void,
): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) {
    await migrateDatabase(env.DATABASE_URL, (line) => log(`migrations: ${line}`));
    return { url: env.DATABASE_URL, embeddedDataDir: undefined, stop: async () => {} };
  }
  const fallback = fallbackDataDir(env, repoRoot);
  const running = runningEmbeddedPostgres([env.dataDir, ...(fallback ? [fallback] : [])], env.CNIBENCH_PG_PORT);
  if (running) return { url: running.url, embeddedDataDir: running.dataDir, stop: async () => {} };
  const embedded = await startEmbeddedPostgres({
    dataDir: env.dataDir,
    fallbackDataDir: fallback,
    port: env.CNIBENCH_PG_PORT,
    log,
  });
  try {
    await migrateDatabase(embedded.url, (line) => log(`migrations: ${line}`));
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  return embeddedHandle(embedded, env.CNIBENCH_PG_PORT, log);
}

function embeddedHandle(embedded: EmbeddedPostgres, port: number, log: (line: string) => void): DatabaseHandle {
  return {
    url: embedded.url,
    embeddedDataDir: embedded.dataDir,
    stop: embedded.stop,
    exited: embedded.exited,
    restart: async () =>
      embeddedHandle(await startEmbeddedPostgres({ dataDir: embedded.dataDir, port, log }), port, log),
  };
}
