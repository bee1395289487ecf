import path from "node:path";
import { z } from "zod";

const port = (fallback: number) =>
  z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .default(fallback);

const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), "must be a postgres:// or postgresql:// URL")
  .refine((v) => URL.canParse(v), "is not a valid URL");

/** Every setting of `npm start`, from the environment only. Documented in README.md. */
export const launcherEnvSchema = z.object({
  DATABASE_URL: postgresUrl.optional(),
  CNIBENCH_DATA_DIR: z.string().min(1).default(".data"),
  CNIBENCH_PG_PORT: port(54329),
  CNIBENCH_API_PORT: port(4000),
  CNIBENCH_WEB_PORT: port(3000),
  /** The local OpenID Connect provider's port, when CNIBENCH_OIDC_ISSUER names no other provider. */
  CNIBENCH_OIDC_PORT: port(4100),
  CNIBENCH_HOST: z.string().min(1).default("127.0.0.1"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type LauncherEnv = z.infer<typeof launcherEnvSchema> & {
  /** CNIBENCH_DATA_DIR resolved against the checkout. */
  dataDir: string;
  /** False when the data folder is the default one, which may move if PostgreSQL cannot reach it. */
  CNIBENCH_DATA_DIR_SET: boolean;
};

/** Parses the environment; on bad values throws one message naming every bad variable. */
export function readLauncherEnv(env: NodeJS.ProcessEnv, repoRoot: string): LauncherEnv {
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
