// The database goes away under a running ingest-api and comes back: uploads get 503 (never 500),
// nothing is half-written, and the API recovers without a restart.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "@cnibench/db";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "@cnibench/launcher";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { startIngest } from "@cnibench/test-support/ingest";
import { freePort } from "@cnibench/test-support/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("PostgreSQL stopped mid-run", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-outage-"));
  let port: number;
  let pg: EmbeddedPostgres;
  let api: Awaited<ReturnType<typeof startIngest>>;
  const bundle = (n: number) => ({ ...exampleBundle(), collector: { name: "outage-test", version: String(n) } });

  beforeAll(async () => {
    fs.chmodSync(dataDir, 0o755);
    port = await freePort();
    pg = await startEmbeddedPostgres({ dataDir, port, log: () => {} });
    await migrateDatabase(pg.url);
    api = await startIngest(pg.url);
  });
  afterAll(async () => {
    await api.close();
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 with Retry-After while it is down, then recovers without a restart", async () => {
    expect((await api.upload(bundle(0))).status).toBe(201);

    // Uploads in flight while the server stops: each is stored whole or refused with 503.
    const inFlight = Array.from({ length: 10 }, (_, i) => api.upload(bundle(i + 1)));
    await pg.stop();
    const statuses = await Promise.all(inFlight.map(async (r) => (await r).status));
    expect(statuses.every((s) => s === 201 || s === 503)).toBe(true);

    const down = await api.upload(bundle(100));
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(await down.json()).toMatchObject({ error: "database_unavailable" });
    expect((await fetch(`${api.base}/readyz`)).status).toBe(503);

    pg = await startEmbeddedPostgres({ dataDir, port, log: () => {} });
    let recovered = 0;
    for (let attempt = 0; attempt < 40 && recovered !== 201; attempt++) {
      recovered = (await api.upload(bundle(100))).status;
      if (recovered !== 201) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(201);
    expect((await fetch(`${api.base}/readyz`)).status).toBe(200);

    // No partial bundle: every stored bundle has all five of its measurements.
    const counts = await api.db.bundle.findMany({ select: { _count: { select: { measurements: true } } } });
    expect(counts.length).toBe(2 + statuses.filter((s) => s === 201).length);
    expect(counts.every((c) => c._count.measurements === 5)).toBe(true);
  });
});
