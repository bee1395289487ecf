// Alerts (issue 27): the webhooks a workspace's owners set, and the log of their deliveries. An upload
// that stored bundles queues alerts here (enqueueAlerts: the events packages/analysis alerts.ts
// decides from each series' testbed history before and after the new runs); the ingest API's sender
// (apps/ingest-api/src/webhooks.ts) claims the due ones, sends them signed, and records how it went.
import { randomBytes } from "node:crypto";
import { type AlertCampaign, type AlertEvent, type AlertPayload, alertPayload, detectAlerts } from "@cnibench/analysis";
import type { Access } from "./access.ts";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { seriesHistory } from "./history.ts";

export type { AlertEvent, AlertPayload };
export type WebhookFormat = "slack" | "json";
export type DeliveryStatus = "pending" | "delivered" | "failed";

/** Most webhooks a workspace may have, and most deliveries a log shows. */
export const maxWebhooksPerWorkspace = 50;
export const deliveryLogLimit = 100;

/** The secret deliveries are signed with (HMAC-SHA256): shown once, when the webhook is made. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export class WebhookUrlError extends Error {}
export class TooManyWebhooksError extends Error {
  constructor() {
    super(`a workspace has at most ${maxWebhooksPerWorkspace} webhooks`);
  }
}

/**
 * A webhook's address: http or https only (no file:, data:, javascript:…), without credentials in it,
 * at most 2,000 characters. Private and loopback addresses are allowed on purpose: a self-hosted
 * cnibench posts to chat servers and receivers inside its own network (docs/security.md).
 */
export function checkWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookUrlError("not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new WebhookUrlError("only http and https URLs");
  if (url.username || url.password) throw new WebhookUrlError("no user name or password in the URL");
  if (text.length > 2000) throw new WebhookUrlError("at most 2000 characters");
  return url.toString();
}

const eventOf = { "campaign-worse": "campaign_worse", "change-point": "change_point" } as const;
const eventName = { campaign_worse: "campaign-worse", change_point: "change-point" } as const;

/** A new webhook; its secret is in this answer only. */
export async function createWebhook(
  db: Db,
  input: { workspaceId: string; url: string; format: WebhookFormat; events: readonly AlertEvent[] },
): Promise<{ id: string; secret: string }> {
  const url = checkWebhookUrl(input.url);
  if ((await db.webhook.count({ where: { workspaceId: input.workspaceId } })) >= maxWebhooksPerWorkspace) {
    throw new TooManyWebhooksError();
  }
  const secret = newWebhookSecret();
  const created = await db.webhook.create({
    data: {
      workspaceId: input.workspaceId,
      url,
      format: input.format,
      secret,
      events: [...new Set(input.events)].map((e) => eventOf[e]),
    },
    select: { id: true },
  });
  return { id: created.id, secret };
}

/** Deletes a webhook of the workspace and its deliveries; false when it has none with that id. */
export async function deleteWebhook(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db.webhook.deleteMany({ where: { id, workspaceId } });
  return count > 0;
}

export type DeliverySummary = {
  id: string;
  webhookId: string;
  event: AlertEvent;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
  /** What it is about: "Cilium native: tcp.throughput at nightly-09". */
  about: string;
};

export type WebhookSummary = {
  id: string;
  url: string;
  format: WebhookFormat;
  events: AlertEvent[];
  createdAt: Date;
  disabled: boolean;
  /** Its latest deliveries, newest first. */
  deliveries: DeliverySummary[];
};

const deliverySelect = {
  id: true,
  webhookId: true,
  event: true,
  status: true,
  attempts: true,
  lastError: true,
  createdAt: true,
  deliveredAt: true,
  nextAttemptAt: true,
  payload: true,
} as const;

type DeliveryRow = {
  id: string;
  webhookId: string;
  event: keyof typeof eventName;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
  payload: unknown;
};

function deliverySummary(row: DeliveryRow): DeliverySummary {
  const p = row.payload as Partial<AlertPayload>;
  return {
    id: row.id,
    webhookId: row.webhookId,
    event: eventName[row.event],
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    about: `${p.scenario?.label ?? "?"}: ${p.metric ?? "?"} at ${p.current?.campaign ?? "?"}`,
  };
}

/** The workspace's webhooks with their latest deliveries; never their secrets. */
export async function listWebhooks(db: Db, workspaceId: string, latest = 5): Promise<WebhookSummary[]> {
  const hooks = await db.webhook.findMany({
    where: { workspaceId },
    select: {
      id: true,
      url: true,
      format: true,
      events: true,
      createdAt: true,
      disabled: true,
      deliveries: { select: deliverySelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: latest },
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return hooks.map((h) => ({
    ...h,
    events: h.events.map((e) => eventName[e]),
    deliveries: h.deliveries.map(deliverySummary),
  }));
}

/** The delivery log of the workspace's webhooks (or one of them), newest first. */
export async function listDeliveries(
  db: Db,
  workspaceId: string,
  options: { webhookId?: string; limit?: number } = {},
): Promise<DeliverySummary[]> {
  const rows = await db.webhookDelivery.findMany({
    where: { webhook: { workspaceId }, ...(options.webhookId ? { webhookId: options.webhookId } : {}) },
    select: deliverySelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(options.limit ?? deliveryLogLimit, deliveryLogLimit),
  });
  return rows.map(deliverySummary);
}

/** The runs of a stored bundle's series, as the history reads them (unqualified figures only). */
type NewRuns = {
  scenarioId: string;
  campaign: string;
  metric: string;
  params: Record<string, string | number | boolean>;
  paramsKey: string;
  runs: number[];
};

/** Takes each run of `remove` out of a campaign once (equal values are the same run): the history before. */
function withoutRuns(campaign: AlertCampaign, remove: readonly number[]): AlertCampaign {
  const runs = [...campaign.runs];
  for (const value of remove) {
    const at = runs.indexOf(value);
    if (at >= 0) runs.splice(at, 1);
  }
  return { ...campaign, runs };
}

/**
 * Queues the alerts that bundles just stored in a workspace fire, for each of its enabled webhooks
 * subscribed to the event; an alert already queued for a webhook (same key) is not queued again.
 * Returns how many deliveries were queued. Cheap when the workspace has no webhook (one query).
 */
export async function enqueueAlerts(
  db: Db,
  input: { workspaceId: string; bundleIds: readonly string[]; publicWebUrl: string },
): Promise<number> {
  // Through the plain pool: this runs after every upload, and Prisma's call cost more than the query.
  const hooks = await readRows<{ id: string; events: string[] }>(
    db,
    Prisma.sql`SELECT id, events::text[] AS events FROM "Webhook" WHERE "workspaceId" = ${input.workspaceId} AND NOT disabled`,
  );
  if (hooks.length === 0 || input.bundleIds.length === 0) return 0;
  const workspace = await db.workspace.findUniqueOrThrow({
    where: { id: input.workspaceId },
    select: { slug: true, name: true },
  });
  const rows = await readRows<NewRuns>(
    db,
    Prisma.sql`SELECT m."scenarioId", m.campaign, m.metric, m.params, m."paramsKey",
        CASE WHEN cardinality(m.samples) > 0 THEN m.samples ELSE ARRAY[m.value] END AS runs
      FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
      WHERE m."bundleId" = ANY(${[...input.bundleIds]}::text[]) AND b."workspaceId" = ${input.workspaceId}
        AND m.qualifier IS NULL
      ORDER BY m."bundleId", m.position`,
  );
  const series = new Map<string, NewRuns[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.scenarioId, row.metric, row.paramsKey]);
    series.set(key, [...(series.get(key) ?? []), row]);
  }
  const access: Access = { userId: null, readable: [input.workspaceId], roles: {} };
  const queued: Prisma.WebhookDeliveryCreateManyInput[] = [];
  for (const runs of series.values()) {
    const { scenarioId, metric, params } = runs[0]!;
    const history = await seriesHistory(db, access, { scenarioId, metric, params });
    if (!history) continue;
    const after: AlertCampaign[] = history.campaigns.map((c) => ({
      scenarioId: c.scenarioId,
      campaign: c.campaign,
      measuredAt: c.measuredAt,
      runs: c.runs,
      annotations: c.annotations,
    }));
    const removed = (c: AlertCampaign) =>
      runs.filter((r) => r.scenarioId === c.scenarioId && r.campaign === c.campaign).flatMap((r) => r.runs);
    const before = after.map((c) => withoutRuns(c, removed(c))).filter((c) => c.runs.length > 0);
    const alerts = detectAlerts({
      metric,
      params,
      unit: history.unit,
      better: history.better,
      before,
      after,
      touched: runs.map((r) => ({ scenarioId: r.scenarioId, campaign: r.campaign })),
    });
    for (const alert of alerts) {
      const scenario = history.testbed.scenarios.find((s) => s.id === alert.current.scenarioId);
      const payload = alertPayload(alert, {
        workspace,
        testbed: history.testbed.key,
        scenario: { id: alert.current.scenarioId, label: scenario?.label ?? alert.current.scenarioId },
        metric,
        params,
        unit: history.unit,
        link: `${input.publicWebUrl.replace(/\/+$/, "")}/scenarios/${encodeURIComponent(alert.current.scenarioId)}`,
      });
      for (const hook of hooks) {
        // The raw query reads the enum's database labels, which are the alert events' own names.
        if (!hook.events.includes(alert.event)) continue;
        const event = eventOf[alert.event];
        queued.push({
          webhookId: hook.id,
          event,
          dedupKey: `${history.testbed.key} ${alert.key}`,
          payload: payload as unknown as Prisma.InputJsonValue,
          nextAttemptAt: new Date(),
        });
      }
    }
  }
  if (queued.length === 0) return 0;
  const { count } = await db.webhookDelivery.createMany({ data: queued, skipDuplicates: true });
  return count;
}

/** A delivery the sender has claimed: what to send, where, and the secret to sign it with. */
export type ClaimedDelivery = {
  id: string;
  event: AlertEvent;
  payload: AlertPayload;
  attempts: number;
  url: string;
  format: WebhookFormat;
  secret: string;
};

/**
 * Claims up to `limit` pending deliveries that are due at `now`, of enabled webhooks, oldest first:
 * each is pushed `leaseMs` into the future so another sender (another replica) skips it while this one
 * sends; the attempt's outcome sets its next time for real (recordAttempt).
 */
export async function claimDueDeliveries(
  db: Db,
  options: { now: Date; limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const lease = new Date(options.now.getTime() + options.leaseMs);
  // Cast to text, an enum reads as its database value: "campaign-worse", "slack".
  return db.$queryRaw<ClaimedDelivery[]>(
    Prisma.sql`UPDATE "WebhookDelivery" d SET "nextAttemptAt" = ${lease}
      FROM "Webhook" w
      WHERE w.id = d."webhookId" AND d.id IN (
        SELECT x.id FROM "WebhookDelivery" x JOIN "Webhook" y ON y.id = x."webhookId"
        WHERE x.status = 'pending' AND x."nextAttemptAt" <= ${options.now} AND NOT y.disabled
        ORDER BY x."nextAttemptAt", x.id LIMIT ${options.limit}
        FOR UPDATE OF x SKIP LOCKED)
      RETURNING d.id, d.event::text AS event, d.payload, d.attempts, w.url, w.format::text AS format, w.secret`,
  );
}

/** When the next pending delivery is due; null when none is pending. */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const next = await db.webhookDelivery.findFirst({
    where: { status: "pending", webhook: { disabled: false } },
    select: { nextAttemptAt: true },
    orderBy: { nextAttemptAt: "asc" },
  });
  return next?.nextAttemptAt ?? null;
}

/**
 * Records one attempt: delivered, or failed with its error and either a next time (pending) or none
 * (failed for good).
 */
export async function recordAttempt(
  db: Db,
  id: string,
  outcome: { delivered: true; at: Date } | { delivered: false; error: string; retryAt: Date | null },
): Promise<void> {
  await db.webhookDelivery.update({
    where: { id },
    data: outcome.delivered
      ? { status: "delivered", attempts: { increment: 1 }, deliveredAt: outcome.at, lastError: null }
      : {
          status: outcome.retryAt ? "pending" : "failed",
          attempts: { increment: 1 },
          lastError: outcome.error.slice(0, 500),
          ...(outcome.retryAt ? { nextAttemptAt: outcome.retryAt } : {}),
        },
  });
}
