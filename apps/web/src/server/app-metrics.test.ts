// The web server's own metrics: its registry (process metrics and the read pool), served on a port of
// its own, once per process, and accepted by `promtool check metrics` (Prometheus 2.42); and the
// setting's rules. The pool is createDb's, pointed at a closed port: nothing connects until a query.
import { spawnSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createDb } from "@cnibench/db";
import { afterAll, describe, expect, it, vi } from "vitest";
import { serveWebMetrics } from "./app-metrics";

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

  it("starts one server a process, however often instrumentation asks", async () => {
    expect(await serveWebMetrics(db, "127.0.0.1", 0)).toBe(server);
  });

  it("refuses the pages' own port for the metrics", async () => {
    const { readWebEnv } = await import("../env");
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
