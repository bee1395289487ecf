/**
 * Alerts through the API (issue 41). POST /v1/campaigns/close: a collector says its campaign is
 * complete, so its alerts are judged now rather than after the quiet period. /v1/webhooks: an owner's
 * upload token creates, lists, pauses, resumes and deletes its workspace's webhooks, as the workspace
 * page does. The request, answer and payload schemas are the API's (packages/schema api.ts).
 */
import {
  closeCampaign,
  createWebhook,
  type Db,
  deleteWebhook,
  listWebhooks,
  setWebhookPaused,
  type TargetPolicy,
  TooManyWebhooksError,
  tokenOfOwner,
  WebhookUrlError,
  webhookExists,
} from "@cnibench/db";
import {
  closeCampaignRequestSchema,
  type closeCampaignResultSchema,
  type webhookCreatedSchema,
  webhookPatchSchema,
  type webhookPausedSchema,
  webhookRequestSchema,
  type webhookSummarySchema,
} from "@cnibench/schema";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { requireUploadToken } from "../auth.ts";
import { sendError } from "../errors.ts";
import type { Alerts } from "../webhooks.ts";
import { notOwnerMessage } from "./bundles.ts";
import { campaignFound } from "./campaigns.ts";

function parseBody<S extends z.ZodType>(
  schema: S,
  req: FastifyRequest,
  reply: FastifyReply,
): { ok: true; data: z.output<S> } | { ok: false; sent: FastifyReply } {
  let body: unknown;
  try {
    body = typeof req.body === "string" ? JSON.parse(req.body) : req.body;
  } catch (error) {
    return {
      ok: false,
      sent: sendError(req, reply, 400, "malformed_json", `The body is not JSON: ${(error as Error).message}.`),
    };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data };
  return {
    ok: false,
    sent: sendError(req, reply, 400, "bad_request", "The request is invalid.", {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    }),
  };
}

export const webhookRoutes: FastifyPluginAsync<{ db: Db; alerts: Alerts; policy: TargetPolicy }> = async (
  app,
  { db, alerts, policy },
) => {
  const onRequest = requireUploadToken(db);
  /** Webhooks hold where alerts go and their secrets: an owner's token only, as on the web page. */
  const owner = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!(await tokenOfOwner(db, req.uploader!.tokenId)))
      return sendError(req, reply, 403, "not_owner", notOwnerMessage);
  };

  app.post("/v1/campaigns/close", { onRequest }, async (req, reply) => {
    const body = parseBody(closeCampaignRequestSchema, req, reply);
    if (!body.ok) return body.sent;
    const { workspaceId } = req.uploader!;
    const { campaign } = body.data;
    if (!(await campaignFound(db, req, reply, workspaceId, campaign))) return reply;
    const scenarios = await closeCampaign(db, workspaceId, campaign);
    if (scenarios > 0) alerts.afterClose();
    return reply.code(202).send({ campaign, scenarios } satisfies z.infer<typeof closeCampaignResultSchema>);
  });

  app.get("/v1/webhooks", { onRequest, preHandler: owner }, async (req) => {
    const hooks = await listWebhooks(db, req.uploader!.workspaceId);
    return hooks.map(
      ({ disabled, deliveries, ...h }): z.infer<typeof webhookSummarySchema> => ({
        ...h,
        paused: disabled,
        deliveries: deliveries.map(({ webhookId: _, nextAttemptAt: __, ...d }) => d),
      }),
    );
  });

  app.post("/v1/webhooks", { onRequest, preHandler: owner }, async (req, reply) => {
    const body = parseBody(webhookRequestSchema, req, reply);
    if (!body.ok) return body.sent;
    try {
      const created = await createWebhook(db, { workspaceId: req.uploader!.workspaceId, ...body.data }, policy);
      return reply.code(201).send(created satisfies z.infer<typeof webhookCreatedSchema>);
    } catch (error) {
      if (error instanceof WebhookUrlError) {
        return sendError(req, reply, 400, "bad_request", `url: ${error.message}.`, {
          issues: [{ path: "url", message: error.message }],
        });
      }
      if (error instanceof TooManyWebhooksError) return sendError(req, reply, 409, "too_many_webhooks", error.message);
      throw error;
    }
  });

  /** A webhook of the token's workspace, else 404 (before the owner's check, as DELETE /v1/bundles/:id). */
  const ownedHook = async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    if (!(await webhookExists(db, req.uploader!.workspaceId, req.params.id)))
      return sendError(req, reply, 404, "not_found", `No webhook ${req.params.id} in this token's workspace.`);
    return owner(req, reply);
  };

  app.patch<{ Params: { id: string } }>(
    "/v1/webhooks/:id",
    { onRequest, preHandler: ownedHook },
    async (req, reply) => {
      const body = parseBody(webhookPatchSchema, req, reply);
      if (!body.ok) return body.sent;
      await setWebhookPaused(db, req.uploader!.workspaceId, req.params.id, body.data.paused);
      return { id: req.params.id, paused: body.data.paused } satisfies z.infer<typeof webhookPausedSchema>;
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/v1/webhooks/:id",
    { onRequest, preHandler: ownedHook },
    async (req, reply) => {
      await deleteWebhook(db, req.uploader!.workspaceId, req.params.id);
      return reply.code(204).send();
    },
  );
};
