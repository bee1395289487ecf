import path from "node:path";
import { parseEnv, port, postgresUrl, sharedEnvSchema } from "@cnibench/settings";
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
  const parsed = parseEnv(launcherEnvSchema, env, "npm start");
  return {
    ...parsed,
    dataDir: path.resolve(repoRoot, parsed.CNIBENCH_DATA_DIR),
    CNIBENCH_DATA_DIR_SET: Boolean(env.CNIBENCH_DATA_DIR),
  };
}
