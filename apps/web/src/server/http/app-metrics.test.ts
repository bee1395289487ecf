// The web server's own metrics: its registry (answered requests, process metrics and the read pool),
// served on a port of its own, once per process, and accepted by `promtool check metrics` (Prometheus
// 2.42); and the setting's rules. The pool is createDb's, pointed at a closed port: nothing connects until a query.
import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createDb } from "@cnibench/db";
import { afterAll, describe, expect, it, vi } from "vitest";
import { routeMatcher, serveWebMetrics } from "./app-metrics";

vi.mock("server-only", () => ({}));

const db = createDb("postgresql://u@127.0.0.1:1/none", { maxConnections: 2, timeoutMs: 500 });
const server = (await serveWebMetrics(db, "127.0.0.1", 0))!;
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  server.close();
  await db.$disconnect();
});

describe("the web server's own metrics", () => {
  it("gives the process metrics and the read pool at GET /metrics, nothing else", async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain("process_cpu_seconds_total");
    for (const state of ["open", "idle", "waiting"]) {
      expect(text).toContain(`cnibench_db_pool_connections{state="${state}"} 0\n`);
    }
    expect(text).not.toContain("nodejs_active_handles_total");
    expect((await fetch(`${base}/`)).status).toBe(404);
  });

  it("times the process's other requests by route and status, never its own scrapes", async () => {
    // Any HTTP server of the process is seen, as Next's is: one answering 404 here.
    const pages = http.createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    for (let n = 0; n < 3; n++) await (await fetch(`${at}/made-up-${n}?q=1`)).text();
    pages.close();
    const text = await (await fetch(`${base}/metrics`)).text();
    const count = (labels: string) =>
      Number(new RegExp(`cnibench_http_request_duration_seconds_count\\{${labels}\\} (\\d+)`).exec(text)?.[1] ?? 0);
    // No build here, so no route matches: the three share one label value.
    expect(count('method="GET",route="unmatched",status_code="404"')).toBe(3);
    expect(text).not.toContain('route="/metrics"');
  });

  it("names a request by its route's pattern from the build's manifest", () => {
    // Entries as `next build` wrote them in .next/routes-manifest.json (Next.js 16.4).
    const routeOf = routeMatcher({
      staticRoutes: [
        { page: "/", regex: "^/(?:/)?$" },
        { page: "/guide", regex: "^/guide(?:/)?$" },
      ],
      dynamicRoutes: [
        { page: "/api/trpc/[trpc]", regex: "^/api/trpc/([^/]+?)(?:/)?$" },
        { page: "/scenarios/[id]", regex: "^/scenarios/([^/]+?)(?:/)?$" },
      ],
    });
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/scenarios/cm1x2")).toBe("/scenarios/[id]");
    expect(routeOf("/guide/")).toBe("/guide");
    expect(routeOf("/api/trpc/scenarios.explore,guide.answer")).toBe("/api/trpc/[trpc]");
    expect(routeOf("/_next/static/chunks/app-1a2b.js")).toBe("/_next/static");
    expect(routeOf("/_next/made-up/x")).toBe("unmatched");
    expect(routeOf("/wp-login.php")).toBe("unmatched");
  });

  it("starts one server a process, however often instrumentation asks", async () => {
    expect(await serveWebMetrics(db, "127.0.0.1", 0)).toBe(server);
  });

  it("refuses the pages' own port for the metrics", async () => {
    const { readWebEnv } = await import("../../env");
    expect(readWebEnv({ DATABASE_URL: "postgresql://u@db/x" }).CNIBENCH_WEB_METRICS_PORT).toBe(9465);
    expect(() =>
      readWebEnv({ DATABASE_URL: "postgresql://u@db/x", CNIBENCH_WEB_PORT: "3000", CNIBENCH_WEB_METRICS_PORT: "3000" }),
    ).toThrow('CNIBENCH_WEB_METRICS_PORT="3000": must differ from CNIBENCH_WEB_PORT');
  });

  it.skipIf(spawnSync("promtool", ["--version"]).status !== 0)(
    "passes `promtool check metrics` (skipped without promtool: apt-get install prometheus)",
    async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const out = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
      expect(`${out.stdout}${out.stderr}`).toBe("");
      expect(out.status).toBe(0);
    },
  );
});
