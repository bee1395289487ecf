// The web server's own metrics, for Prometheus, on a port of their own (CNIBENCH_WEB_METRICS_PORT):
// every answered request by method, route pattern and status (as ingest-api's), the process (CPU,
// memory, event-loop lag, GC) and the read pool the views read through. Started once per server
// process by instrumentation.ts. Next.js gives no hook around a whole request, so requests are timed
// from Node's own HTTP diagnostics channels, which see every request of the process's servers.
import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import type { Db } from "@cnibench/db";
import {
  processRegistry,
  type RequestHistogram,
  registerPoolGauge,
  registerRequestHistogram,
  startMetricsServer,
} from "@cnibench/db/app-metrics";
import type { Registry } from "prom-client";

/** What of `next build`'s .next/routes-manifest.json tells a request's route: each page's pattern and regex. */
export type RoutesManifest = {
  staticRoutes: { page: string; regex: string }[];
  dynamicRoutes: { page: string; regex: string }[];
};

/**
 * A path's route as the app names it ("/scenarios/[id]"), matched as Next.js does: static routes
 * first. Next's own files count as "/_next/static" and the like; anything else is "unmatched", so
 * made-up paths cannot grow the series.
 */
export function routeMatcher(manifest: RoutesManifest | null): (pathname: string) => string {
  const routes = [...(manifest?.staticRoutes ?? []), ...(manifest?.dynamicRoutes ?? [])].map((r) => ({
    page: r.page,
    regex: new RegExp(r.regex),
  }));
  return (pathname) => {
    const own = /^\/_next\/(static|image|data)\//.exec(pathname);
    if (own) return `/_next/${own[1]}`;
    return routes.find((r) => r.regex.test(pathname))?.page ?? "unmatched";
  };
}

/** The build's routes (the working directory is the app's, for `next start` and the standalone server alike). */
function builtRoutes(): RoutesManifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(process.cwd(), ".next", "routes-manifest.json"), "utf8"));
  } catch {
    return null;
  }
}

/** The registry: answered requests, prom-client's process metrics and the read pool of `db`. */
function webMetrics(db: Db): { registry: Registry; requestSeconds: RequestHistogram } {
  const registry = processRegistry();
  const requestSeconds = registerRequestHistogram(registry);
  registerPoolGauge(registry, db);
  return { registry, requestSeconds };
}

type RequestMessage = { request: http.IncomingMessage; response: http.ServerResponse; server: http.Server };

/** Times every request the process's HTTP servers answer, but `except`'s (the metrics' own server). */
function timeRequests(requestSeconds: RequestHistogram, except: () => http.Server | undefined): void {
  const routeOf = routeMatcher(builtRoutes());
  const started = new WeakMap<http.IncomingMessage, bigint>();
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, server } = message as RequestMessage;
    if (server !== except()) started.set(request, process.hrtime.bigint());
  });
  diagnostics.subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as RequestMessage;
    const at = started.get(request);
    if (at === undefined) return;
    const pathname = (request.url ?? "/").split("?")[0]!;
    requestSeconds.observe(
      { method: request.method ?? "", route: routeOf(pathname), status_code: String(response.statusCode) },
      Number(process.hrtime.bigint() - at) / 1e9,
    );
  });
}

const started = globalThis as unknown as { cnibenchWebMetrics?: Promise<http.Server | null> };

/**
 * Serves the registry at http://host:port/metrics, once per process (`next dev` may call
 * instrumentation again on reloads), and starts timing requests. A port already taken costs the
 * metrics, not the pages: logged.
 */
export function serveWebMetrics(db: Db, host: string, port: number): Promise<http.Server | null> {
  if (started.cnibenchWebMetrics) return started.cnibenchWebMetrics;
  const metrics = webMetrics(db);
  let server: http.Server | undefined;
  timeRequests(metrics.requestSeconds, () => server);
  started.cnibenchWebMetrics = startMetricsServer(metrics.registry, host, port).then(
    (listening) => {
      server = listening;
      console.log(`web: own metrics at http://${host}:${port}/metrics`);
      return listening;
    },
    (error: Error) => {
      console.error(`web: own metrics not served on port ${port}: ${error.message}`);
      return null;
    },
  );
  return started.cnibenchWebMetrics;
}
