/**
 * No 5xx from any input (issue 43): every route the server registers (read from Fastify's onRoute
 * hook, not a hand list) gets U+0000, lone surrogates, broken and over-long %-escapes in each path
 * parameter and in each query parameter the OpenAPI document names for it (and in a query name),
 * and each string field of its JSON request document (the gate's) gets hostile strings. Upload bodies
 * are the nasty corpus's and the fuzz test's (nasty.integration.test.ts, fuzz.integration.test.ts).
 * Every answer is a 4xx or a 2xx, in the error shape, and no driver message reaches the client.
 */
import { createDb, createToken, ensureDefaultWorkspace } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { hostileDocuments, hostileTextValues, hostileUrlValues, type JsonSchema } from "@cnibench/test-support/hostile";
import { rowCounts } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi.ts";
import { buildServer } from "./server.ts";

type Probe = { method: string; url: string; body?: string; what: string };

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: ReturnType<typeof createDb>;
let app: ReturnType<typeof buildServer>;
let base: string;
let token: string;
const routes: { method: string; url: string }[] = [];

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url);
  const workspace = await ensureDefaultWorkspace(db);
  ({ token } = await createToken(db, workspace.id, "hostile-input"));
  app = buildServer({
    db,
    publicApiUrl: "http://api.example",
    publicWebUrl: "http://web.example",
    logLevel: "silent",
    // Hundreds of probes within a minute: the budgets are rate-limit.integration.test.ts's subject.
    rateLimitPerMinute: 1_000_000,
  });
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) if (method !== "HEAD") routes.push({ method, url: route.url });
  });
  base = await app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await app.close();
  await db.$disconnect();
  await database.drop();
});

const openapi = openApiDocument("/") as unknown as {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
};
const resolve = (ref: string) => openapi.components.schemas[ref.replace("#/components/schemas/", "")] ?? {};

/** Every probe of one route: each path parameter, query parameter and JSON field, made hostile one at a time. */
function probes(route: { method: string; url: string }): Probe[] {
  const documented =
    openapi.paths[route.url.replace(/:(\w+)/g, "{$1}").replace(/\*$/, "{campaign}")]?.[route.method.toLowerCase()];
  const segments = route.url.split("/");
  const pathWith = (value?: string) =>
    segments.map((s) => (s.startsWith(":") || s === "*" ? (value ?? "unknown") : s)).join("/");
  const out: Probe[] = [];
  const hasParams = segments.some((s) => s.startsWith(":") || s === "*");
  for (const value of hostileUrlValues) {
    if (hasParams) out.push({ method: route.method, url: pathWith(value), what: `path ${value.slice(0, 20)}` });
    const names = (documented?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    for (const name of [...names, "unknown"]) {
      out.push({ method: route.method, url: `${pathWith()}?${name}=${value}`, what: `?${name}=${value.slice(0, 20)}` });
    }
    out.push({ method: route.method, url: `${pathWith()}?${value}=1`, what: `query name ${value.slice(0, 20)}` });
  }
  // Uploads' bodies are the nasty corpus's; other JSON documents (the gate's request) are walked here.
  const schema = documented?.requestBody?.content["application/json"]?.schema;
  if (schema && !/^\/v1\/(bundles|import)$/.test(route.url)) {
    for (const hostile of hostileTextValues) {
      for (const { field, document } of hostileDocuments(schema, hostile, resolve)) {
        out.push({
          method: route.method,
          url: pathWith(),
          body: JSON.stringify(document),
          what: `${field} = ${JSON.stringify(hostile.slice(0, 20))}`,
        });
      }
    }
  }
  return out;
}

describe("hostile values in every path, query and request field of every ingest route", () => {
  it("finds the routes from the server itself", () => {
    // A floor, not a list: the routes of README's API table are all registered.
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(["GET /v1/bundles/:id", "DELETE /v1/campaigns/*", "POST /v1/gate", "POST /v1/import"]),
    );
  });

  it("answers each with a 2xx or a 4xx in the error shape, never a driver's message, and writes nothing", async () => {
    const before = await rowCounts(db);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const probe of probes(route)) {
        sent++;
        const res = await fetch(`${base}${probe.url}`, {
          method: probe.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(probe.body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: probe.body ?? (probe.method === "POST" ? "{}" : undefined),
        });
        const text = await res.text();
        const where = `${probe.method} ${route.url} ${probe.what} → ${res.status} ${text.slice(0, 200)}`;
        if (res.status >= 500) failures.push(where);
        else if (/invalid byte sequence|prisma|postgres|0x00/i.test(text)) failures.push(`leaks: ${where}`);
        else if (res.status >= 400 && !/"error":"\w+"/.test(text)) failures.push(`shape: ${where}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(300);
    expect(await rowCounts(db)).toEqual(before);
  });
});
