/**
 * Alerts through the API (issue 41). POST /v1/campaigns/close: a collector says its campaign is
 * complete, so its alerts are judged now rather than after the quiet period. /v1/webhooks: an owner's
 * upload token creates, lists, pauses, resumes and deletes its workspace's webhooks, as the workspace
 * page does. The payload schemas below are what receivers get; the OpenAPI document names them.
 */
import { alertEvents, verdicts } from "@cnibench/analysis";
import {
  campaignBundleCount,
  closeCampaign,
  createWebhook,
  type Db,
  deleteWebhook,
  listWebhooks,
  paramsSchema,
  setWebhookPaused,
  type TargetPolicy,
  TooManyWebhooksError,
  tokenOfOwner,
  WebhookUrlError,
  webhookExists,
} from "@cnibench/db";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { requireUploadToken } from "../auth.ts";
import { sendError } from "../errors.ts";
import type { Alerts } from "../webhooks.ts";
import { notOwnerMessage } from "./bundles.ts";

const campaignName = z.string().min(1).max(200);

export const closeCampaignRequestSchema = z
  .strictObject({ campaign: campaignName.meta({ description: "The campaign its bundles name." }) })
  .meta({ description: "A campaign its collector has finished: its alerts are judged now." });

export const closeCampaignResultSchema = z
  .object({
    campaign: z.string(),
    scenarios: z.number().int().meta({ description: "Scenarios whose part of the campaign is judged now." }),
  })
  .meta({ description: "The campaign closed." });

export const webhookRequestSchema = z
  .strictObject({
    url: z.string().max(2000).meta({ description: "http or https; a public address unless the operator allows it." }),
    format: z.enum(["json", "slack"]).meta({ description: "json: WebhookPayload. slack: SlackPayload." }),
    events: z.array(z.enum(alertEvents)).min(1).max(alertEvents.length),
  })
  .meta({ description: "A new webhook of the token's workspace." });

export const webhookCreatedSchema = z
  .object({
    id: z.string(),
    secret: z.string().meta({ description: "The signing secret: shown here once, never again." }),
  })
  .meta({ description: "The webhook made." });

export const webhookPatchSchema = z
  .strictObject({ paused: z.boolean().meta({ description: "Paused: nothing is queued for it or sent to it." }) })
  .meta({ description: "Pause or resume a webhook." });

const deliveryStatus = z.enum(["pending", "delivered", "failed"]);
export const webhookSummarySchema = z
  .object({
    id: z.string(),
    url: z.string(),
    format: z.enum(["json", "slack"]),
    events: z.array(z.enum(alertEvents)),
    createdAt: z.date(),
    paused: z.boolean(),
    deliveries: z.array(
      z.object({
        id: z.string(),
        event: z.enum(alertEvents),
        status: deliveryStatus,
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        createdAt: z.date(),
        deliveredAt: z.date().nullable(),
        about: z.string(),
      }),
    ),
  })
  .meta({ description: "A webhook, without its secret, and its latest deliveries." });

const side = z.object({
  scenarioId: z.string(),
  campaign: z.string(),
  runs: z.number().int(),
  median: z.number(),
  campaigns: z.number().int().meta({ description: "A change point's side: the campaigns of its segment." }),
});
const campaignRef = z.object({
  campaign: z.string(),
  scenarioId: z.string(),
  bundles: z.number().int(),
  description: z.string(),
});

/** What a webhook of format json receives (packages/analysis alerts.ts AlertPayload). */
export const webhookPayloadSchema = z
  .object({
    event: z.enum(alertEvents),
    workspace: z.object({ slug: z.string(), name: z.string() }),
    testbed: z.string(),
    scenario: z.object({ id: z.string(), label: z.string() }),
    campaign: campaignRef.meta({ description: "The whole campaign judged." }),
    baseline: campaignRef.nullable().meta({ description: "campaign-worse: the previous campaign of the testbed." }),
    figures: z.array(
      z.object({
        metric: z.string(),
        params: paramsSchema,
        unit: z.string().nullable(),
        previous: side,
        current: side,
        changePercent: z.number().nullable(),
        verdict: z.enum(verdicts),
        p: z.number().nullable(),
        changes: z.array(
          z.object({
            key: z.string(),
            before: z.union([z.string(), z.number(), z.boolean(), z.null()]),
            after: z.union([z.string(), z.number(), z.boolean(), z.null()]),
          }),
        ),
      }),
    ),
    total: z.number().int().meta({ description: "Figures in all; `figures` lists the first 20." }),
    link: z.string(),
  })
  .meta({
    description:
      "The body of a json webhook's delivery, signed: X-Cnibench-Signature is sha256= and the hex HMAC-SHA256 of X-Cnibench-Timestamp, a dot and the body; refuse timestamps more than 300 s away.",
  });

/** What a webhook of format slack receives: an incoming-webhook message, text escaped per Slack's rules. */
export const slackPayloadSchema = z
  .object({
    text: z.string(),
    blocks: z.array(
      z.union([
        z.object({ type: z.literal("header"), text: z.object({ type: z.literal("plain_text"), text: z.string() }) }),
        z.object({ type: z.literal("section"), text: z.object({ type: z.literal("mrkdwn"), text: z.string() }) }),
      ]),
    ),
  })
  .meta({ description: "The body of a slack webhook's delivery (Slack incoming webhooks: text and blocks)." });

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
    if ((await campaignBundleCount(db, workspaceId, campaign)) === 0) {
      return sendError(
        req,
        reply,
        404,
        "not_found",
        `No bundle of campaign ${JSON.stringify(campaign)} in this token's workspace.`,
      );
    }
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
      return { id: req.params.id, paused: body.data.paused };
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
