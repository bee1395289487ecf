// What both apps' own metrics share (ingest-api: apps/ingest-api/src/app-metrics.ts; web:
// apps/web/src/server/http/app-metrics.ts): a prom-client registry with the process's metrics, the read
// pool's gauge, and a tiny server for GET /metrics on a port of its own. prom-client rather than
// hand-written text: it keeps histograms and the exposition format right.
import http from "node:http";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { type Db, poolStats } from "./client.ts";

/** A registry with prom-client's process metrics (CPU, memory, event loop, GC). */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges that prom-client names like counters, which promtool rejects; their twins without the
  // suffix (nodejs_active_handles, …) hold the same numbers and are kept.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) {
    registry.removeSingleMetric(name);
  }
  return registry;
}

export type RequestHistogram = Histogram<"method" | "route" | "status_code">;

/** cnibench_http_request_duration_seconds{method, route, status_code}: both apps' answered requests. */
export function registerRequestHistogram(registry: Registry): RequestHistogram {
  return new Histogram({
    name: "cnibench_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"] as const,
    // From a cached feed or a static file (~1 ms) to an import of a large archive (tens of seconds).
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
}

/** cnibench_db_pool_connections{state}: the read pool of `db` (createDb's), read at each scrape. */
export function registerPoolGauge(registry: Registry, db: Db): void {
  new Gauge({
    name: "cnibench_db_pool_connections",
    help: "Connections of the read pool (views and uploads): open in all, idle, and requests waiting for one",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const stats = poolStats(db);
      this.set({ state: "open" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
}

/** Serves GET /metrics of the registry on its own port; anything else is 404. */
export async function startMetricsServer(registry: Registry, host: string, port: number): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Only GET /metrics is served here.\n");
      return;
    }
    try {
      const text = await registry.metrics();
      res.writeHead(200, { "content-type": registry.contentType }).end(text);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(`Metrics failed: ${(error as Error).message}\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
