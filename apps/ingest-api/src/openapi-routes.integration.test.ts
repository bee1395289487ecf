// The OpenAPI document against the running server: every route Fastify registers is in the document
// and every documented route is registered, and what the routes answer parses with the schema the
// document gives for that status (packages/schema api.ts), errors included.
import { createDb, createToken, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle, iperf3Fixture } from "@cnibench/test-support/fixtures";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoutes, components, fastifyPath, openApiDocument } from "./openapi.ts";
import { buildServer } from "./server.ts";

type Ref = { $ref?: string };
type Operation = { responses: Record<string, { content?: Record<string, { schema?: Ref & { items?: Ref } }> }> };
const doc = openApiDocument("/");
const documented = new Map(apiRoutes().map((r) => [`${r.method.toUpperCase()} ${fastifyPath(r)}`, r]));

/** The zod schema the document names for a route's answer of this status; undefined when it names none. */
function answerSchema(route: string, status: number): z.ZodType | undefined {
  const r = documented.get(route);
  if (!r) return undefined;
  const operation = (doc.paths[r.path] as Record<string, Operation>)[r.method];
  const schema = operation?.responses[String(status)]?.content?.["application/json"]?.schema;
  const ref = schema?.$ref ?? schema?.items?.$ref;
  if (!ref) return undefined;
  const component = components[ref.replace("#/components/schemas/", "") as keyof typeof components];
  return schema?.$ref ? component : z.array(component);
}

describe("the OpenAPI document against the server's routes", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  let token: string;
  const registered: string[] = [];
  /** Each answer checked: route, status and whether its body parsed with the documented schema. */
  const checked: { route: string; status: number; problem: string | null }[] = [];

  beforeAll(async () => {
    database = await freshDatabase();
    db = createDb(database.url);
    const workspace = await ensureDefaultWorkspace(db);
    token = (await createToken(db, workspace.id, "openapi")).token;
    app = buildServer({
      db,
      publicApiUrl: "http://api.example",
      publicWebUrl: "http://web.example",
      logLevel: "silent",
    });
    app.addHook("onRoute", (r) => {
      for (const method of [r.method].flat()) if (method !== "HEAD") registered.push(`${method} ${r.url}`);
    });
    // Objects before they are written as JSON: read models' dates are still dates, as their schemas say.
    app.addHook("preSerialization", async (req, reply, payload) => {
      const route = `${req.method} ${req.routeOptions.url}`;
      const schema = answerSchema(route, reply.statusCode);
      if (schema) {
        const parsed = schema.safeParse(payload);
        checked.push({ route, status: reply.statusCode, problem: parsed.success ? null : parsed.error.message });
      }
      return payload;
    });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await db.$disconnect();
    await database.drop();
  });

  it("documents every registered route, and registers every documented one", () => {
    expect([...new Set(registered)].sort()).toEqual([...documented.keys()].sort());
  });

  it("answers as the document says: an upload, its reading, the list, a gate, a feed, an import and errors", async () => {
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const upload = await fetch(`${base}/v1/bundles`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(exampleBundle()),
    });
    expect(upload.status).toBe(201);
    const { id } = (await upload.json()) as { id: string };
    const answers = [
      await fetch(`${base}/v1/bundles/${id}`),
      await fetch(`${base}/v1/bundles?pageSize=5`),
      await fetch(`${base}/v1/workspaces/public/figures.json`),
      await fetch(`${base}/v1/gate`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ candidate: { bundleIds: [id] }, baseline: { bundleIds: [id] } }),
      }),
      await fetch(`${base}/v1/import?cluster=c&provider=on-prem&sku=x&kernel=6.1&cni=cilium&mode=native`, {
        method: "POST",
        headers: { authorization: auth.authorization, "content-type": "application/octet-stream" },
        body: iperf3Fixture(),
      }),
      await fetch(`${base}/v1/webhooks`, { headers: auth }),
      await fetch(`${base}/v1/bundles/no-such-bundle`),
      await fetch(`${base}/v1/gate`, { method: "POST", headers: auth, body: "{}" }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 201, 403, 404, 400]);
    expect(checked.map((c) => `${c.status} ${c.route}`)).toEqual([
      "201 POST /v1/bundles",
      "200 GET /v1/bundles/:id",
      "200 GET /v1/bundles",
      "200 GET /v1/workspaces/:slug/figures.json",
      "200 POST /v1/gate",
      "201 POST /v1/import",
      "403 GET /v1/webhooks",
      "404 GET /v1/bundles/:id",
      "400 POST /v1/gate",
    ]);
    expect(checked.filter((c) => c.problem !== null)).toEqual([]);
  });
});
