// Rate limiting per upload token and per client address: over a limit, 429 with Retry-After and
// nothing stored; other tokens and health probes are not affected, and made-up tokens buy no budget.
// The budgets are counted in PostgreSQL: two servers on one database spend the same ones.
import http from "node:http";
import { createDb, createToken } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "./server.ts";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startIngest(database.url, { rateLimitPerMinute: 3 });
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

const bundle = (n: number) => ({ ...exampleBundle(), collector: { name: "rate", version: String(n) } });

/** A POST of /v1/bundles to `base` from the given loopback address (127.0.0.0/8 is all ours on Linux). */
const postFrom = (base: URL, from: string, bearer: string, body: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: "/v1/bundles",
        method: "POST",
        localAddress: from,
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });

it("answers 429 with Retry-After after the token's limit, and keeps other tokens and probes going", async () => {
  const statuses = [];
  for (let n = 0; n < 3; n++) statuses.push((await api.upload(bundle(n))).status);
  expect(statuses).toEqual([201, 201, 201]);
  const before = await rowCounts(api.db);
  const refused = await api.upload(bundle(3));
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await refused.json()).toMatchObject({ error: "rate_limited" });
  expect(await rowCounts(api.db)).toEqual(before);

  const other = (await createToken(api.db, api.workspaceId, "other")).token;
  expect((await api.upload(bundle(4), { authorization: `Bearer ${other}` })).status).toBe(201);
  for (let n = 0; n < 5; n++) expect((await fetch(`${api.base}/healthz`)).status).toBe(200);
});

describe("per client address, before authentication", () => {
  let server: FastifyInstance;
  let base: URL;
  let token: string;
  const perToken = 3;
  const perAddress = 50;

  beforeAll(async () => {
    token = (await createToken(api.db, api.workspaceId, "address-test")).token;
    server = buildServer({
      db: api.db,
      publicApiUrl: "http://api.example",
      publicWebUrl: "http://web.example",
      rateLimitPerMinute: perToken,
      rateLimitPerAddressPerMinute: perAddress,
      logLevel: "silent",
    });
    base = new URL(await server.listen({ host: "127.0.0.1", port: 0 }));
  });
  afterAll(() => server.close());

  const post = (from: string, bearer: string, body: string) => postFrom(base, from, bearer, body);

  it("refuses made-up tokens from one address once its budget is spent, and keeps a real token's own budget", async () => {
    const before = await rowCounts(api.db);
    const statuses = new Map<number, number>();
    let first429 = -1;
    for (let n = 0; n < 1_000; n++) {
      const res = await post("127.0.0.11", `made-up-${n}-${Math.random().toString(36).slice(2)}`, "{}");
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429 && first429 < 0) {
        first429 = n;
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
        expect(JSON.parse(res.body)).toMatchObject({
          error: "rate_limited",
          message: expect.stringContaining("address"),
        });
      }
    }
    // Each made-up token used to get a counter of its own: 1,000 × 401 and no 429.
    expect(Object.fromEntries(statuses)).toEqual({ 401: perAddress, 429: 1_000 - perAddress });
    expect(first429).toBe(perAddress);
    expect((await fetch(`${base.origin}/healthz`)).status).toBe(200);

    // A real token from another address: its own budget, untouched by the attack.
    const uploads = [];
    for (let n = 0; n < perToken + 1; n++) {
      uploads.push(await post("127.0.0.12", token, JSON.stringify(bundle(100 + n))));
    }
    expect(uploads.map((u) => u.status)).toEqual([201, 201, 201, 429]);
    expect(JSON.parse(uploads[perToken]!.body)).toMatchObject({
      error: "rate_limited",
      message: expect.stringContaining("this token"),
    });
    expect(Number(uploads[perToken]!.headers["retry-after"])).toBeGreaterThan(0);
    // The budget is the token's, wherever it is used from.
    expect((await post("127.0.0.13", token, JSON.stringify(bundle(200)))).status).toBe(429);
    expect((await rowCounts(api.db)).bundles).toBe(before.bundles + perToken);
  });
});

describe("two replicas on one database", () => {
  const perToken = 4;
  const perAddress = 6;
  let replicas: { server: FastifyInstance; base: URL }[];
  let token: string;

  beforeAll(async () => {
    token = (await createToken(api.db, api.workspaceId, "replicas")).token;
    replicas = await Promise.all(
      [1, 2].map(async () => {
        // Each replica its own pool, as each process has.
        const db = createDb(database.url);
        const server = buildServer({
          db,
          publicApiUrl: "http://api.example",
          publicWebUrl: "http://web.example",
          rateLimitPerMinute: perToken,
          rateLimitPerAddressPerMinute: perAddress,
          logLevel: "silent",
        });
        server.addHook("onClose", () => db.$disconnect());
        return { server, base: new URL(await server.listen({ host: "127.0.0.1", port: 0 })) };
      }),
    );
  });
  afterAll(() => Promise.all(replicas.map((r) => r.server.close())));

  it("spend one token budget: alternating between them, the fifth upload is refused", async () => {
    const before = await rowCounts(api.db);
    const answers = [];
    for (let n = 0; n < perToken + 2; n++) {
      // Each from its own address, so that only the token's budget is spent.
      answers.push(await postFrom(replicas[n % 2]!.base, `127.0.1.${n}`, token, JSON.stringify(bundle(300 + n))));
    }
    // In-process counters allowed 2 × 4 here: all six stored.
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 429, 429]);
    for (const refused of answers.slice(perToken)) {
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
      expect(JSON.parse(refused.body)).toMatchObject({
        error: "rate_limited",
        message: expect.stringContaining("token"),
      });
    }
    expect((await rowCounts(api.db)).bundles).toBe(before.bundles + perToken);
  });

  it("spend one address budget, concurrent requests each counted once", async () => {
    // Twelve at once, six through each replica, from one address: exactly its budget gets through.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => postFrom(replicas[n % 2]!.base, "127.0.2.1", `made-up-${n}`, "{}")),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(perAddress).fill(401), ...Array(12 - perAddress).fill(429)]);
  });
});
