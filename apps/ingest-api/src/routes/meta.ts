import { type Db, databaseReady } from "@cnibench/db";
import { bundleJsonSchema } from "@cnibench/schema";
import type { FastifyPluginAsync } from "fastify";
import { openApiDocument } from "../openapi.ts";

export const metaRoutes: FastifyPluginAsync<{ db: Db; publicApiUrl: string }> = async (app, opts) => {
  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (req, reply) => {
    if (await databaseReady(opts.db)) return { status: "ready", database: "ok" };
    return reply
      .status(503)
      .header("retry-after", "5")
      .send({ status: "unavailable", database: "unreachable", requestId: req.id });
  });

  const schema = bundleJsonSchema();
  app.get("/v1/schema", async (_req, reply) => reply.type("application/schema+json").send(schema));

  // generated/openapi.json, with this deployment's address.
  const openapi = openApiDocument(opts.publicApiUrl);
  app.get("/v1/openapi.json", async () => openapi);
};
