import {
  type Db,
  deleteBundles,
  getBundle,
  ingestBundle,
  listBundles,
  type StoredBundle,
  tokenOfOwner,
  workspaceOfBundle,
} from "@cnibench/db";
import {
  bundleListQuerySchema,
  type bundlePageSchema,
  type bundleSchema,
  bundleSummarySchema,
  type bundleWithMeasurementsSchema,
  toCsv,
  type UploadResult,
} from "@cnibench/schema";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { z } from "zod";
import { readableWorkspaces, requireUploadToken, uploadResult } from "../auth.ts";
import { sendError } from "../errors.ts";

export type BundleRouteOptions = {
  db: Db;
  publicApiUrl: string;
  publicWebUrl: string;
  /** Told of what an upload stored, after it is stored (alerts: webhooks.ts). */
  onStored?: (workspaceId: string, stored: readonly StoredBundle[]) => void;
};

/** Deleting follows the web app's rule: only an owner of the workspace may, here through a token they created. */
export const notOwnerMessage =
  "Only an owner of the workspace may delete: use a token created in the web app by one of its owners (Workspaces → Upload tokens).";

export const bundleRoutes: FastifyPluginAsync<BundleRouteOptions> = async (app, opts) => {
  const { db } = opts;

  app.post(
    "/v1/bundles",
    // Authenticate before the body is read: a stranger's 5 MiB upload is refused unread.
    { onRequest: requireUploadToken(db), config: { upload: true } },
    async (req, reply) => {
      const uploader = req.uploader!;
      if (typeof req.body !== "string" || req.body.length === 0) {
        return sendError(
          req,
          reply,
          400,
          "malformed_json",
          "The body is empty; send a bundle as JSON with Content-Type: application/json.",
        );
      }
      const outcome = await ingestBundle(db, {
        workspaceId: uploader.workspaceId,
        tokenId: uploader.tokenId,
        text: req.body,
      });
      if (!outcome.ok) {
        if (outcome.reason === "malformed_json") return sendError(req, reply, 400, "malformed_json", outcome.message);
        const n = outcome.issues.length;
        return sendError(
          req,
          reply,
          422,
          "invalid_bundle",
          `The bundle breaks the contract in ${n} place${n === 1 ? "" : "s"}; nothing was stored.`,
          { issues: outcome.issues },
        );
      }
      const { stored, warnings } = outcome;
      opts.onStored?.(uploader.workspaceId, [stored]);
      req.log.info(
        { bundleId: stored.id, created: stored.created, measurements: stored.measurementCount },
        "bundle stored",
      );
      // Already there: the run stays in the campaign it was first stored in, which the answer names.
      const where = stored.created ? {} : { campaign: stored.campaign };
      const answer = { ...uploadResult(stored, warnings, opts), ...where } satisfies UploadResult;
      return reply.status(stored.created ? 201 : 200).send(answer);
    },
  );

  app.get<{ Params: { id: string } }>("/v1/bundles/:id", async (req, reply) => {
    const found = await getBundle(db, await readableWorkspaces(db, req), req.params.id);
    if (!found) return sendError(req, reply, 404, "not_found", `No bundle with id ${req.params.id}.`);
    return {
      ...found.summary,
      warnings: found.warnings,
      bundle: JSON.parse(found.raw) as z.input<typeof bundleSchema>,
      measurements: found.measurements,
    } satisfies z.input<typeof bundleWithMeasurementsSchema>;
  });

  app.delete<{ Params: { id: string } }>(
    "/v1/bundles/:id",
    { onRequest: requireUploadToken(db), config: { upload: true } },
    async (req, reply) => {
      const uploader = req.uploader!;
      // Another workspace's bundle is as unknown as a made-up id: its workspace is not named.
      if ((await workspaceOfBundle(db, req.params.id)) !== uploader.workspaceId) {
        return sendError(req, reply, 404, "not_found", `No bundle with id ${req.params.id}.`);
      }
      if (!(await tokenOfOwner(db, uploader.tokenId))) return sendError(req, reply, 403, "not_owner", notOwnerMessage);
      const deleted = await deleteBundles(db, { bundleIds: [req.params.id] });
      if (deleted.bundleIds.length === 0) {
        return sendError(req, reply, 404, "not_found", `No bundle with id ${req.params.id}.`);
      }
      req.log.info(deleted, "bundle deleted");
      return deleted;
    },
  );

  app.get("/v1/bundles", async (req, reply) => {
    const query = bundleListQuerySchema.safeParse(req.query);
    if (!query.success) {
      return sendError(req, reply, 400, "bad_query", "Some query parameters are invalid.", {
        issues: query.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      });
    }
    const { scenario, metric, page, pageSize } = query.data;
    const { total, items } = await listBundles(db, await readableWorkspaces(db, req), {
      scenarioId: scenario,
      metric,
      page,
      pageSize,
    });
    if (wantsCsv(req, query.data.format)) {
      const columns = bundleSummarySchema.keyof().options;
      const csv = toCsv([columns, ...items.map((b) => columns.map((c) => b[c]))]);
      return reply.type("text/csv; charset=utf-8").header("x-total-count", String(total)).send(csv);
    }
    return {
      items,
      page,
      pageSize,
      total,
      nextPage: page * pageSize < total ? page + 1 : null,
    } satisfies z.infer<typeof bundlePageSchema>;
  });
};

function wantsCsv(req: FastifyRequest, format: "json" | "csv" | undefined): boolean {
  if (format) return format === "csv";
  return /\btext\/csv\b/.test(req.headers.accept ?? "");
}
