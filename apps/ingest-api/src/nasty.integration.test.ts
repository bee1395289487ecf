/**
 * The corpus of hostile inputs (@cnibench/test-support/hostile) against a real ingest API over a
 * real PostgreSQL: each case gets its expected answer (never a 5xx), a refusal writes nothing, and
 * what is accepted is stored as data — markup, SQL fragments and unicode come back byte for byte.
 */

import { freshDatabase } from "@cnibench/test-support/database";
import { atPath, nastyCases } from "@cnibench/test-support/hostile";
import { integrityProblems, rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Json = Record<string, unknown>;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;

beforeAll(async () => {
  database = await freshDatabase();
  // The defaults of a real installation: 5 MiB bodies, 100 MiB unpacked, 5000 archive entries.
  api = await startIngest(database.url);
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

describe("the corpus of nasty inputs", () => {
  it("has unique names, and a body for every upload", () => {
    expect(new Set(nastyCases.map((c) => c.name)).size).toBe(nastyCases.length);
    for (const c of nastyCases) expect(c.method === "GET" || c.body !== undefined, c.name).toBe(true);
  });

  for (const c of nastyCases) {
    it(`${c.method} ${c.endpoint.split("?")[0]} — ${c.name} → ${c.expect.status}`, async () => {
      const before = await rowCounts(api.db);
      const res = await fetch(`${api.base}${c.endpoint}`, {
        method: c.method,
        headers: c.method === "POST" ? { authorization: `Bearer ${api.token}`, ...c.headers } : c.headers,
        body: c.body ? Buffer.from(c.body()) : undefined,
      });
      const text = await res.text();
      expect(res.status, `${c.why}\n${text.slice(0, 1000)}`).toBe(c.expect.status);
      const answer = JSON.parse(text) as Json;
      if (res.status >= 400) {
        expect(answer).toMatchObject({ error: c.expect.error ?? expect.any(String), message: expect.any(String) });
      }
      if (c.expect.says) expect(text).toContain(c.expect.says);
      for (const [path, value] of Object.entries(c.expect.answer ?? {}))
        expect(atPath(answer, path), path).toEqual(value);

      const after = await rowCounts(api.db);
      if (res.status >= 300 || c.method === "GET") {
        expect(after, "a refusal (or a read) writes nothing").toEqual(before);
        return;
      }
      expect(after.bundles).toBeGreaterThan(before.bundles);
      const id = (answer.id ?? (answer.bundles as Json[] | undefined)?.[0]?.id) as string;
      const read = await fetch(`${api.base}/v1/bundles/${id}`);
      expect(read.status).toBe(200);
      const stored = (await read.json()) as Json & { bundle: Json & { cni: Json } };
      for (const [path, value] of Object.entries(c.expect.echo ?? {}))
        expect(atPath(stored, path), path).toEqual(value);
      // A label names the bundle's scenario: the same text there.
      const label = (stored.bundle.cni.label as string | undefined)?.trim();
      const scenario = await api.db.scenario.findUniqueOrThrow({ where: { id: stored.scenarioId as string } });
      if (label) expect(scenario.label).toBe(label);
    });
  }

  it("leaves every table in place, and no partial write behind", async () => {
    const counts = await rowCounts(api.db);
    expect(counts.bundles).toBeGreaterThan(0);
    expect(await integrityProblems(api.db)).toEqual([]);
  });
});
