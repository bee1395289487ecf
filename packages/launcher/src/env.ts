import path from "node:path";
import { port, postgresUrl, sharedEnvSchema } from "@cnibench/db/env";
import { z } from "zod";

/**
 * Every setting of `npm start`, from the environment only. Documented in README.md. The settings it
 * shares with the apps it starts are checked here too, so a bad one stops everything before it starts.
 */
export const launcherEnvSchema = sharedEnvSchema.extend({
  /** Unset: the embedded PostgreSQL. */
  DATABASE_URL: postgresUrl.optional(),
  CNIBENCH_DATA_DIR: z.string().min(1).default(".data"),
  CNIBENCH_PG_PORT: port(54329),
  /** The local OpenID Connect provider's port, when CNIBENCH_OIDC_ISSUER names no other provider. */
  CNIBENCH_OIDC_PORT: port(4100),
});

export type LauncherEnv = z.infer<typeof launcherEnvSchema> & {
  /** CNIBENCH_DATA_DIR resolved against the checkout. */
  dataDir: string;
  /** False when the data folder is the default one, which may move if PostgreSQL cannot reach it. */
  CNIBENCH_DATA_DIR_SET: boolean;
};

/** Parses the environment; on bad values throws one message naming every bad variable. */
export function readLauncherEnv(repoRoot: string, env: NodeJS.ProcessEnv = process.env): LauncherEnv {
  const parsed = launcherEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join(".")}=${JSON.stringify(env[String(i.path[0])])}: ${i.message}`,
    );
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return {
    ...parsed.data,
    dataDir: path.resolve(repoRoot, parsed.data.CNIBENCH_DATA_DIR),
    CNIBENCH_DATA_DIR_SET: Boolean(env.CNIBENCH_DATA_DIR),
  };
}

/**
 * DATABASE_URL alone, for `npm run db:migrate`, which has no embedded PostgreSQL to fall back on.
 * Throws "DATABASE_URL is required" or "DATABASE_URL must be a postgres:// URL".
 */
export function readDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const parsed = postgresUrl.safeParse(env.DATABASE_URL);
  if (!parsed.success) throw new Error(`DATABASE_URL ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
