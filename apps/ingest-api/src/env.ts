import { milliseconds, parseEnv, publicUrls, sharedEnvSchema } from "@cnibench/settings";
import { z } from "zod";

const bytes = (fallback: number) =>
  z.coerce
    .number({ error: "must be a number of bytes" })
    .int("must be a whole number of bytes")
    .min(1024, "must be at least 1024")
    .default(fallback);

const requestsPerMinute = () =>
  z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1");

export const ingestEnvSchema = sharedEnvSchema
  .extend({
    /** Most a client may take to send a whole request (headers and body), and to send its headers. */
    CNIBENCH_REQUEST_TIMEOUT_MS: milliseconds(60_000, 1000),
    CNIBENCH_HEADERS_TIMEOUT_MS: milliseconds(10_000, 100),
    /** How long an idle keep-alive connection stays open. */
    CNIBENCH_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000, 100),
    CNIBENCH_MAX_BUNDLE_BYTES: bytes(5 * 1024 * 1024),
    /** POST /v1/import's body: a result tree's archive is larger than one bundle. */
    CNIBENCH_IMPORT_MAX_BYTES: bytes(64 * 1024 * 1024),
    /**
     * POST /v1/import: most entries one upload's archives may hold, most bytes the files kept in memory
     * may expand to, and most bytes of the files read as they inflate and never held (statexec .prom).
     */
    CNIBENCH_IMPORT_MAX_ENTRIES: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1)
      .default(10_000),
    CNIBENCH_IMPORT_MAX_UNPACKED_BYTES: bytes(100 * 1024 * 1024),
    CNIBENCH_IMPORT_MAX_STREAMED_BYTES: bytes(512 * 1024 * 1024),
    /** Requests a minute per upload token; over it: 429 with Retry-After. */
    CNIBENCH_RATE_LIMIT_PER_MINUTE: requestsPerMinute().default(600),
    /** Requests a minute per client address, whatever token they carry (unset: twice the token's). */
    CNIBENCH_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: requestsPerMinute().optional(),
    /** GET /v1/workspaces/{slug}/metrics and figures.json: most series (figures) one response holds. */
    CNIBENCH_FEED_MAX_SERIES: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(50_000),
    /** The same feeds leave out scenarios not run for this many days. */
    CNIBENCH_FEED_MAX_AGE_DAYS: z.coerce
      .number({ error: "must be a whole number of days" })
      .int("must be a whole number of days")
      .min(1, "must be at least 1")
      .default(365),
    /** The port of ingest-api's own metrics (GET /metrics, Prometheus text), at CNIBENCH_HOST; 0: none. */
    CNIBENCH_API_METRICS_PORT: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0, "must be between 0 and 65535")
      .max(65535, "must be between 0 and 65535")
      .default(9464),
    /** Alerts: a failed webhook delivery is retried after this, then 4, 16, 64 times it (5 tries in all). */
    CNIBENCH_WEBHOOK_RETRY_BASE_MS: milliseconds(1_000, 1),
    /** Alerts: a campaign without a new bundle for this long is complete and judged (unless closed sooner). */
    CNIBENCH_ALERT_QUIET_MS: milliseconds(10 * 60_000, 100),
  })
  .refine((env) => env.CNIBENCH_API_METRICS_PORT !== env.CNIBENCH_API_PORT, {
    message: "must differ from CNIBENCH_API_PORT: the metrics are not served on the public API",
    path: ["CNIBENCH_API_METRICS_PORT"],
  })
  .refine((env) => env.CNIBENCH_HEADERS_TIMEOUT_MS <= env.CNIBENCH_REQUEST_TIMEOUT_MS, {
    message: "must not exceed CNIBENCH_REQUEST_TIMEOUT_MS",
    path: ["CNIBENCH_HEADERS_TIMEOUT_MS"],
  })
  .transform((env) => ({ ...env, ...publicUrls(env) }));

export type IngestEnv = z.infer<typeof ingestEnvSchema>;

export function readIngestEnv(env: NodeJS.ProcessEnv = process.env): IngestEnv {
  return parseEnv(ingestEnvSchema, env, "ingest-api");
}
