// ingest-api's own metrics, for Prometheus, on a port of their own (CNIBENCH_API_METRICS_PORT) so
// that the public API never exposes them: request rate and latency by route, the process (CPU,
// memory, event loop: prom-client's defaults), the read pool, the uploads waiting for a write turn,
// and the alert deliveries by status. prom-client rather than hand-written text: it keeps the
// histogram buckets and the exposition format right.
import { type Db, deliveryCounts, poolStats } from "@cnibench/db";
import {
  processRegistry,
  type RequestHistogram,
  registerPoolGauge,
  registerRequestHistogram,
  startMetricsServer,
} from "@cnibench/db/app-metrics";
import type { FastifyInstance } from "fastify";
import { Gauge, type Registry } from "prom-client";

export { startMetricsServer };

export type AppMetrics = { registry: Registry; requestSeconds: RequestHistogram };

/**
 * A registry with the process's metrics and gauges read at each scrape. `db` gives the pool and the
 * deliveries (one grouped count of WebhookDelivery: the whole installation's, the same from every
 * replica, so sum nothing over replicas but take one: `max without (instance, pod)`).
 */
export function createAppMetrics(db: Db | null): AppMetrics {
  const registry = processRegistry();
  const requestSeconds = registerRequestHistogram(registry);
  if (!db) return { registry, requestSeconds };
  registerPoolGauge(registry, db);
  new Gauge({
    name: "cnibench_store_queue_uploads",
    help: "Uploads and imports storing now (at most 2 a process) and waiting for their turn",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const stats = poolStats(db);
      this.set({ state: "storing" }, stats.storing);
      this.set({ state: "queued" }, stats.queued);
    },
  });
  new Gauge({
    name: "cnibench_alert_deliveries",
    help: "Webhook alert deliveries of the installation by status: pending (queued or retrying), delivered, failed (gave up)",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      for (const [status, count] of Object.entries(await deliveryCounts(db))) this.set({ status }, count);
    },
  });
  return { registry, requestSeconds };
}

/** Times every answered request of `app` into the histogram, by the route's pattern (not its URL). */
export function instrument(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook("onResponse", async (req, reply) => {
    metrics.requestSeconds.observe(
      {
        method: req.method,
        // Unmatched URLs (404s, scanners) share one label value, so they cannot grow the series.
        route: req.routeOptions.url ?? "unmatched",
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}
