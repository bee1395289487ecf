import {
  atLeast,
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  setWebhookPaused,
  TooManyWebhooksError,
  WebhookUrlError,
  workspaceBySlug,
} from "@cnibench/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { type Context, createTRPCRouter, publicProcedure, signedInProcedure } from "../trpc/trpc";
import {
  createdWebhookSchema,
  createWebhookInputSchema,
  deliveriesInputSchema,
  deliverySchema,
  webhookListInputSchema,
  webhookPauseInputSchema,
  webhookRefSchema,
  webhookSchema,
} from "./webhooks.types";

/**
 * The id of a workspace whose webhooks the visitor may manage: owners only. One they may not read is
 * NOT_FOUND, as if it did not exist; one they read without owning it is FORBIDDEN.
 */
async function ownedWorkspaceId(ctx: Context, slug: string): Promise<string> {
  const w = await workspaceBySlug(ctx.db, slug);
  const readable = w !== null && ctx.access.readable.includes(w.id);
  if (!readable) throw new TRPCError({ code: "NOT_FOUND", message: `no workspace ${slug}` });
  if (atLeast(ctx.access, w.id, "owner")) return w.id;
  throw new TRPCError({ code: "FORBIDDEN", message: `only an owner of ${slug} manages its webhooks` });
}

// Alerts (issues 27, 41): webhooks told once a complete campaign is worse than the previous one of its
// testbed, or brings a change point; judged and sent by the ingest API (apps/ingest-api/src/webhooks.ts).
// The same webhooks are managed with an owner's token through /v1/webhooks.
export const webhooksRouter = createTRPCRouter({
  /** The workspace's webhooks with their latest deliveries (owners); never a secret. */
  list: publicProcedure
    .input(webhookListInputSchema)
    .output(z.array(webhookSchema))
    .query(async ({ ctx, input }) => listWebhooks(ctx.db, await ownedWorkspaceId(ctx, input.slug))),

  /** A new webhook (owners); its secret is in this answer only. */
  create: signedInProcedure
    .input(createWebhookInputSchema)
    .output(createdWebhookSchema)
    .mutation(async ({ ctx, input }) => {
      const workspaceId = await ownedWorkspaceId(ctx, input.slug);
      try {
        return await createWebhook(
          ctx.db,
          { workspaceId, url: input.url, format: input.format, events: input.events },
          ctx.webhookPolicy ?? { allow: [], ownPorts: [] },
        );
      } catch (error) {
        if (error instanceof WebhookUrlError) throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
        if (error instanceof TooManyWebhooksError) throw new TRPCError({ code: "CONFLICT", message: error.message });
        throw error;
      }
    }),

  /** Pauses a webhook (nothing queued for it or sent to it) or resumes it (owners). */
  pause: signedInProcedure.input(webhookPauseInputSchema).mutation(async ({ ctx, input }) => {
    if (!(await setWebhookPaused(ctx.db, await ownedWorkspaceId(ctx, input.slug), input.id, input.paused))) {
      throw new TRPCError({ code: "NOT_FOUND", message: `no webhook ${input.id}` });
    }
    return { id: input.id, paused: input.paused };
  }),

  /** Deletes a webhook and its delivery log (owners). */
  delete: signedInProcedure.input(webhookRefSchema).mutation(async ({ ctx, input }) => {
    if (!(await deleteWebhook(ctx.db, await ownedWorkspaceId(ctx, input.slug), input.id))) {
      throw new TRPCError({ code: "NOT_FOUND", message: `no webhook ${input.id}` });
    }
    return { id: input.id };
  }),

  /** The delivery log (owners): newest first, each with its status, attempts and last error. */
  deliveries: publicProcedure
    .input(deliveriesInputSchema)
    .output(z.array(deliverySchema))
    .query(async ({ ctx, input }) =>
      listDeliveries(ctx.db, await ownedWorkspaceId(ctx, input.slug), {
        ...(input.webhookId ? { webhookId: input.webhookId } : {}),
        limit: input.limit,
      }),
    ),
});
