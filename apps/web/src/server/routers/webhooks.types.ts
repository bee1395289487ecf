import { z } from "zod";
import { slugSchema } from "./workspaces.types";

const event = z.enum(["campaign-worse", "change-point"]);
const format = z.enum(["slack", "json"]);
const status = z.enum(["pending", "delivered", "failed"]);

export const webhookListInputSchema = z.object({ slug: slugSchema });
export const createWebhookInputSchema = z.object({
  slug: slugSchema,
  // http(s) only, checked again by packages/db (checkWebhookUrl) with the reason in words.
  url: z.url({ protocol: /^https?$/, error: "an http or https URL" }).max(2000),
  format,
  events: z.array(event).min(1, "pick at least one event").max(2),
});
export const webhookRefSchema = z.object({ slug: slugSchema, id: z.string().min(1).max(100) });
export const webhookPauseInputSchema = webhookRefSchema.extend({ paused: z.boolean() });
export const deliveriesInputSchema = z.object({
  slug: slugSchema,
  webhookId: z.string().min(1).max(100).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

export const deliverySchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  event,
  status,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.date(),
  deliveredAt: z.date().nullable(),
  /** The next try of a pending delivery; null once delivered or failed. */
  nextAttemptAt: z.date().nullable(),
  about: z.string(),
});

/** A webhook as its owners see it: never its secret. */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  format,
  events: z.array(event),
  createdAt: z.date(),
  disabled: z.boolean(),
  deliveries: z.array(deliverySchema),
});

export const createdWebhookSchema = z.object({
  id: z.string(),
  /** Shown once: the key of the X-Cnibench-Signature HMAC. */
  secret: z.string(),
});

export type WebhookView = z.infer<typeof webhookSchema>;
export type DeliveryView = z.infer<typeof deliverySchema>;
