// The settings the web app, the ingest API and `npm start` share, with one rule and one message each.
// Each process's env module extends sharedEnvSchema with its own settings. A package of its own, not
// packages/db's: the web app checks its environment with this at start-up, before any database code.
import { z } from "zod";
import { parseAllowList } from "./allow-list.ts";

/** How long one statement, or getting a connection, may take before it fails (CNIBENCH_DB_TIMEOUT_MS). */
export const DEFAULT_DB_TIMEOUT_MS = 10_000;

export const postgresUrl = z
  .string({ error: "is required" })
  .refine((v) => /^postgres(ql)?:\/\//.test(v) && URL.canParse(v), "must be a postgres:// URL");

export const port = (fallback: number) =>
  z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .default(fallback);

export const milliseconds = (fallback: number, min: number) =>
  z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(min, `must be at least ${min}`)
    .default(fallback);

export const sharedEnvSchema = z.object({
  DATABASE_URL: postgresUrl,
  /** Size of each of a process's two PostgreSQL pools (Prisma's, the views' reads): deploy/README.md. */
  CNIBENCH_DB_POOL_MAX: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(10),
  /** Most a database statement, or getting a connection, may take; then the request answers 503. */
  CNIBENCH_DB_TIMEOUT_MS: milliseconds(DEFAULT_DB_TIMEOUT_MS, 100),
  CNIBENCH_HOST: z.string().min(1).default("127.0.0.1"),
  CNIBENCH_API_PORT: port(4000),
  CNIBENCH_WEB_PORT: port(3000),
  /** Where users reach the API and the web app, for links (upload responses, the web app's bundle links). */
  CNIBENCH_PUBLIC_API_URL: z.url({ error: "must be a URL" }).optional(),
  CNIBENCH_PUBLIC_WEB_URL: z.url({ error: "must be a URL" }).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Alerts: internal receivers webhooks may post to, as CIDR ranges (unset: public addresses only; docs/alerts.md). */
  CNIBENCH_WEBHOOK_ALLOW: z
    .string()
    .default("")
    .refine((v) => {
      try {
        parseAllowList(v);
        return true;
      } catch {
        return false;
      }
    }, "must be CIDR ranges or addresses separated by commas, e.g. 10.20.0.0/16,fd12::/64"),
});

/** A URL as it may be printed: its password masked. Not a URL: returned as it is. */
export function redactUrl(value: string): string {
  if (!URL.canParse(value)) return value;
  const u = new URL(value);
  if (!u.password) return value;
  u.password = "***";
  return u.toString();
}

/** A setting's value as an error may quote it: secrets never, URLs without their password. */
function quoted(key: string, value: string | undefined): string {
  if (value === undefined) return "";
  if (/SECRET|TOKEN|PASSWORD/.test(key)) return "=(hidden)";
  return `=${JSON.stringify(redactUrl(value))}`;
}

/**
 * Parses a process's environment with its env module's schema; on bad values throws one message
 * naming every bad variable, what was given and why, e.g. `  CNIBENCH_API_PORT="eighty": must be a whole number`.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  who: string,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => {
    const key = String(i.path[0] ?? "");
    return `  ${i.path.join(".")}${quoted(key, env[key])}: ${i.message}`;
  });
  throw new Error(`${who}: invalid environment:\n${lines.join("\n")}`);
}

/**
 * The migrating tools' databases, which have no embedded PostgreSQL to fall back on: DATABASE_URL
 * (`npm run db:migrate`, the Prisma CLI) and SHADOW_DATABASE_URL (`prisma migrate dev` only).
 */
export function readMigrationEnv(env: NodeJS.ProcessEnv = process.env, who = "db:migrate") {
  return parseEnv(z.object({ DATABASE_URL: postgresUrl, SHADOW_DATABASE_URL: postgresUrl.optional() }), env, who);
}

type Addresses = Pick<
  z.infer<typeof sharedEnvSchema>,
  "CNIBENCH_HOST" | "CNIBENCH_API_PORT" | "CNIBENCH_WEB_PORT" | "CNIBENCH_PUBLIC_API_URL" | "CNIBENCH_PUBLIC_WEB_URL"
>;

/** Where users reach each app: the public URL when set, else the address it listens on. */
export function publicUrls(env: Addresses): { publicApiUrl: string; publicWebUrl: string } {
  // 0.0.0.0 listens on every address but is none a browser can open.
  const host = env.CNIBENCH_HOST === "0.0.0.0" ? "127.0.0.1" : env.CNIBENCH_HOST;
  return {
    publicApiUrl: (env.CNIBENCH_PUBLIC_API_URL ?? `http://${host}:${env.CNIBENCH_API_PORT}`).replace(/\/$/, ""),
    publicWebUrl: (env.CNIBENCH_PUBLIC_WEB_URL ?? `http://${host}:${env.CNIBENCH_WEB_PORT}`).replace(/\/$/, ""),
  };
}
