/**
 * No 5xx from any input (issue 43): every tRPC procedure of the router (appRouter._def.procedures,
 * not a hand list) gets each hostile string (U+0000, lone surrogates, an over-long value) in each
 * string field of its input — one field at a time, the others valid (hostileDocuments over the
 * input's JSON Schema) — over HTTP through tRPC's fetch adapter, as a signed-in user, so writes pass
 * authentication. Every answer is a 4xx or a 2xx and no driver's message reaches the client. The
 * pages and downloads, and the same procedures in the built app, are apps/web/e2e/hostile-input.browser.test.ts's.
 */
import { accessFor, createDb, type Db, recordSignIn } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { driverWords, type JsonSchema, procedureProbes } from "@cnibench/test-support/hostile";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter } from "./root";

const inputSchema = (input: unknown) =>
  z.toJSONSchema(input as z.ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
let userId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url);
  userId = (await recordSignIn(db, { issuer: "t", subject: "h", email: "h@example.test", name: "h" })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

function send(path: string, type: string, input: unknown): Promise<Response> {
  const json = JSON.stringify(input);
  const req =
    type === "query"
      ? new Request(`http://web.example/api/trpc/${path}?input=${encodeURIComponent(json)}`)
      : new Request(`http://web.example/api/trpc/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: json,
        });
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async () => ({ db, access: await accessFor(db, userId), publicWebUrl: "http://web.example" }),
    onError: () => {}, // the answers are checked below
  });
}

describe("hostile strings in every field of every tRPC procedure", () => {
  it("answers each with a 2xx or a 4xx, naming no driver", async () => {
    const probes = procedureProbes(appRouter, inputSchema);
    expect(new Set(probes.map((p) => p.path)).size).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { path, type, field, input } of probes) {
      const res = await send(path, type, input);
      const text = await res.text();
      const where = `${path} ${field} → ${res.status} ${text.slice(0, 300)}`;
      if (res.status >= 500) failures.push(where);
      else if (driverWords.test(text)) failures.push(`leaks: ${where}`);
    }
    expect(failures).toEqual([]);
    expect(probes.length).toBeGreaterThan(200);
  });

  it("names the field of a U+0000 in its refusal", async () => {
    const res = await send("scenarios.byId", "query", { id: "x\u0000" });
    expect(res.status).toBe(400);
    const [answer] = [(await res.json()) as { error: { message: string; data: { code: string } } }];
    expect(answer.error.data.code).toBe("BAD_REQUEST");
    expect(answer.error.message).toContain("input id contains U+0000");
  });
});
