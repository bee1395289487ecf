import { createDb, type Db } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { freePort } from "@cnibench/test-support/ports";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "./server.ts";

async function serve(db: Db): Promise<{ app: FastifyInstance; base: string }> {
  const app = buildServer({
    db,
    publicApiUrl: "http://api.example",
    publicWebUrl: "http://web.example",
    logLevel: "silent",
  });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, base: address };
}

describe("health endpoints over HTTP", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;
  let server: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    database = await freshDatabase();
    db = createDb(database.url);
    server = await serve(db);
  });
  afterAll(async () => {
    await server.app.close();
    await db.$disconnect();
    await database.drop();
  });

  it("answers /healthz without touching the database", async () => {
    const res = await fetch(`${server.base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers /readyz once PostgreSQL answers", async () => {
    const res = await fetch(`${server.base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", database: "ok" });
  });

  it("echoes a caller's request id", async () => {
    const res = await fetch(`${server.base}/healthz`, { headers: { "x-request-id": "ci-run-42" } });
    expect(res.headers.get("x-request-id")).toBe("ci-run-42");
  });

  it("answers unknown routes with 404 and the request id", async () => {
    const res = await fetch(`${server.base}/nope`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string; requestId: string };
    expect(body).toMatchObject({ error: "not_found" });
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
  });
});

describe("readiness without a database", () => {
  it("answers 503 with Retry-After when PostgreSQL is unreachable", async () => {
    const db = createDb(`postgresql://nobody@127.0.0.1:${await freePort()}/none`);
    const { app, base } = await serve(db);
    try {
      const res = await fetch(`${base}/readyz`);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toMatchObject({ status: "unavailable", database: "unreachable" });
    } finally {
      await app.close();
      await db.$disconnect();
    }
  });
});
