// The web server's own metrics, for Prometheus, on a port of their own (CNIBENCH_WEB_METRICS_PORT):
// the process (CPU, memory, event-loop lag, GC) and the read pool the views read through. Started once
// per server process by instrumentation.ts. Next.js gives no hook around a whole request in the Node.js
// runtime, so there is no request histogram here (ingest-api has one).
import type http from "node:http";
import type { Db } from "@cnibench/db";
import { processRegistry, registerPoolGauge, startMetricsServer } from "@cnibench/db/app-metrics";
import type { Registry } from "prom-client";

/** The registry: prom-client's process metrics and the read pool of `db`. */
function webMetrics(db: Db): Registry {
  const registry = processRegistry();
  registerPoolGauge(registry, db);
  return registry;
}

const started = globalThis as unknown as { cnibenchWebMetrics?: Promise<http.Server | null> };

/**
 * Serves the registry at http://host:port/metrics, once per process (`next dev` may call
 * instrumentation again on reloads). A port already taken costs the metrics, not the pages: logged.
 */
export function serveWebMetrics(db: Db, host: string, port: number): Promise<http.Server | null> {
  started.cnibenchWebMetrics ??= startMetricsServer(webMetrics(db), host, port).then(
    (server) => {
      console.log(`web: own metrics at http://${host}:${port}/metrics`);
      return server;
    },
    (error: Error) => {
      console.error(`web: own metrics not served on port ${port}: ${error.message}`);
      return null;
    },
  );
  return started.cnibenchWebMetrics;
}
