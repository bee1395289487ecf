import type http from "node:http";
import { createDb, ensureDefaultWorkspace, webhookPolicy } from "@cnibench/db";
import { createAppMetrics, instrument, startMetricsServer } from "./app-metrics.ts";
import { readIngestEnv } from "./env.ts";
import { buildServer } from "./server.ts";

const env = readIngestEnv();
const db = createDb(env.DATABASE_URL, {
  maxConnections: env.CNIBENCH_DB_POOL_MAX,
  timeoutMs: env.CNIBENCH_DB_TIMEOUT_MS,
});
await ensureDefaultWorkspace(db);
const app = buildServer({
  db,
  publicApiUrl: env.publicApiUrl,
  publicWebUrl: env.publicWebUrl,
  maxBundleBytes: env.CNIBENCH_MAX_BUNDLE_BYTES,
  maxImportBytes: env.CNIBENCH_IMPORT_MAX_BYTES,
  rateLimitPerMinute: env.CNIBENCH_RATE_LIMIT_PER_MINUTE,
  rateLimitPerAddressPerMinute: env.CNIBENCH_RATE_LIMIT_PER_ADDRESS_PER_MINUTE,
  timeouts: {
    requestMs: env.CNIBENCH_REQUEST_TIMEOUT_MS,
    headersMs: env.CNIBENCH_HEADERS_TIMEOUT_MS,
    keepAliveMs: env.CNIBENCH_KEEP_ALIVE_TIMEOUT_MS,
  },
  importLimits: {
    maxEntries: env.CNIBENCH_IMPORT_MAX_ENTRIES,
    maxUnpackedBytes: env.CNIBENCH_IMPORT_MAX_UNPACKED_BYTES,
    maxStreamedBytes: env.CNIBENCH_IMPORT_MAX_STREAMED_BYTES,
  },
  logLevel: env.LOG_LEVEL,
  webhooks: {
    retryBaseMs: env.CNIBENCH_WEBHOOK_RETRY_BASE_MS,
    quietMs: env.CNIBENCH_ALERT_QUIET_MS,
    policy: webhookPolicy(env),
  },
  feed: { maxSeries: env.CNIBENCH_FEED_MAX_SERIES, maxAgeDays: env.CNIBENCH_FEED_MAX_AGE_DAYS },
});
const metrics = createAppMetrics(db);
instrument(app, metrics);

// SIGTERM (Kubernetes, `docker stop`, the launcher) drains: the listening socket closes, idle
// keep-alive connections are dropped, requests in flight run to the end and are answered, then the
// pool closes. Each upload is one transaction, so even a forced exit leaves nothing half-written; the
// deadline only bounds a drain that a stalled client holds open, and stays under Kubernetes' default
// 30 s grace period.
const DRAIN_DEADLINE_MS = 25_000;
let stopping = false;
let metricsServer: http.Server | undefined;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, "draining: no new connections; finishing requests in flight");
  setTimeout(() => {
    app.log.warn(`drain still open after ${DRAIN_DEADLINE_MS / 1000} s; exiting`);
    process.exit(1);
  }, DRAIN_DEADLINE_MS).unref();
  // A keep-alive connection whose request was already running when close() began turns idle once it
  // is answered, and would then wait out the keep-alive timeout: close such connections as they idle.
  const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
  await app.close();
  clearInterval(reaper);
  metricsServer?.close();
  await db.$disconnect();
  app.log.info("drained; exiting");
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));

await app.listen({ host: env.CNIBENCH_HOST, port: env.CNIBENCH_API_PORT });

// A taken metrics port costs the metrics, not the API: it is logged, and the API serves on.
if (env.CNIBENCH_API_METRICS_PORT > 0) {
  try {
    metricsServer = await startMetricsServer(metrics.registry, env.CNIBENCH_HOST, env.CNIBENCH_API_METRICS_PORT);
    app.log.info(`own metrics at http://${env.CNIBENCH_HOST}:${env.CNIBENCH_API_METRICS_PORT}/metrics`);
  } catch (error) {
    app.log.error({ err: error }, `own metrics not served: port ${env.CNIBENCH_API_METRICS_PORT} is not free`);
  }
}
