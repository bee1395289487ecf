// Per-token rate limiting: over the limit, 429 with Retry-After and nothing stored; other tokens and
// health probes are not affected.
import { createToken } from "@cnibench/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase } from "../../../test-support/database.ts";
import { exampleBundle, rowCounts, startIngest } from "../../../test-support/ingest.ts";

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
