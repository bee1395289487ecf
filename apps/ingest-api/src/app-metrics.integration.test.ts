// ingest-api's own metrics on a real PostgreSQL: a real server instrumented as main.ts does it, an
// upload through it, the read pool and the alert deliveries as the gauges report them at a scrape, and
// `promtool check metrics` (Prometheus 2.42) on the whole exposition.
import { spawnSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createDb, createToken, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppMetrics, instrument, startMetricsServer } from "./app-metrics.ts";
import { buildServer } from "./server.ts";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
let metricsBase: string;
let close: () => Promise<void>;
let text: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { maxConnections: 3 });
  const workspace = await ensureDefaultWorkspace(db);
  const app = buildServer({ db, publicApiUrl: "http://api", publicWebUrl: "http://web", logLevel: "silent" });
  const metrics = createAppMetrics(db);
  instrument(app, metrics);
  const server = await startMetricsServer(metrics.registry, "127.0.0.1", 0);
  metricsBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    server.close();
    await app.close();
    await db.$disconnect();
  };
  const { token } = await createToken(db, workspace.id, "metrics");
  const res = await app.inject({
    method: "POST",
    url: "/v1/bundles",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    payload: JSON.stringify(exampleBundle()),
  });
  expect(res.statusCode).toBe(201);
  // Two deliveries waiting, one given up on.
  const hook = await db.webhook.create({
    data: { workspaceId: workspace.id, url: "https://hooks.example.com/x", format: "json", secret: "s", events: [] },
  });
  await db.webhookDelivery.createMany({
    data: ["a", "b", "c"].map((key, i) => ({
      webhookId: hook.id,
      event: "campaign_worse" as const,
      dedupKey: key,
      payload: {},
      status: i < 2 ? ("pending" as const) : ("failed" as const),
    })),
  });
  text = await (await fetch(`${metricsBase}/metrics`)).text();
}, 120_000);
afterAll(async () => {
  await close?.();
  await database?.drop();
});

const sample = (name: string, labels: string) =>
  Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, "m").exec(text)?.[1]);

describe("ingest-api's own metrics", () => {
  it("times the upload under its route", () => {
    expect(
      sample("cnibench_http_request_duration_seconds_count", 'method="POST",route="/v1/bundles",status_code="201"'),
    ).toBe(1);
  });

  it("reports the alert deliveries by status, from the database", () => {
    expect(sample("cnibench_alert_deliveries", 'status="pending"')).toBe(2);
    expect(sample("cnibench_alert_deliveries", 'status="failed"')).toBe(1);
    expect(sample("cnibench_alert_deliveries", 'status="delivered"')).toBe(0);
  });

  it("reports the read pool and the store queue", () => {
    // The upload stored through the read pool: at least one connection was opened, none is waiting.
    const open = sample("cnibench_db_pool_connections", 'state="open"');
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(3);
    expect(sample("cnibench_db_pool_connections", 'state="waiting"')).toBe(0);
    expect(sample("cnibench_store_queue_uploads", 'state="storing"')).toBe(0);
    expect(sample("cnibench_store_queue_uploads", 'state="queued"')).toBe(0);
  });

  it.skipIf(spawnSync("promtool", ["--version"]).status !== 0)(
    "passes `promtool check metrics` (skipped without promtool: apt-get install prometheus)",
    () => {
      const out = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
      expect(`${out.stdout}${out.stderr}`).toBe("");
      expect(out.status).toBe(0);
    },
  );
});
