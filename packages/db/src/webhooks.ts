// Alerts (issues 27 and 41): the webhooks a workspace's owners set, and the log of their deliveries.
// Every bundle stored into a workspace with a live webhook marks its (scenario, campaign) in
// "AlertCampaign" (a trigger, migration campaign_alerts); the ingest API's alert worker
// (apps/ingest-api/src/webhooks.ts) claims the complete ones here, judges each once, queues one summary
// per campaign, event and webhook, then claims the due deliveries, sends them signed, and records how
// it went.
import { randomBytes } from "node:crypto";
import type { AlertEvent, AlertPayload, AlertSeries } from "@cnibench/analysis";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { historyLimit, testbedOf } from "./history.ts";
import { listScenarios } from "./scenarios.ts";
import { refusedTargetWords, type TargetPolicy, urlAllowed } from "./webhook-targets.ts";

export type { AlertEvent, AlertPayload };
export type WebhookFormat = "slack" | "json";
export type DeliveryStatus = "pending" | "delivered" | "failed";

/** Most webhooks a workspace may have, and most deliveries a log shows. */
const maxWebhooksPerWorkspace = 50;
const deliveryLogLimit = 100;

/** The secret deliveries are signed with (HMAC-SHA256): shown once, when the webhook is made. */
function newWebhookSecret(): string {
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
 * at most 2,000 characters, and not an address or name the operator's policy refuses (loopback,
 * private, link-local, metadata: webhook-targets.ts). Names are resolved and checked again at every
 * delivery.
 */
export function checkWebhookUrl(text: string, policy: TargetPolicy): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookUrlError("not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new WebhookUrlError("only http and https URLs");
  if (url.username || url.password) throw new WebhookUrlError("no user name or password in the URL");
  if (text.length > 2000) throw new WebhookUrlError("at most 2000 characters");
  if (!urlAllowed(policy, url)) throw new WebhookUrlError(refusedTargetWords);
  return url.toString();
}

const eventOf = { "campaign-worse": "campaign_worse", "change-point": "change_point" } as const;
const eventName = { campaign_worse: "campaign-worse", change_point: "change-point" } as const;

/** A new webhook; its secret is in this answer only. */
export async function createWebhook(
  db: Db,
  input: { workspaceId: string; url: string; format: WebhookFormat; events: readonly AlertEvent[] },
  policy: TargetPolicy,
): Promise<{ id: string; secret: string }> {
  const url = checkWebhookUrl(input.url, policy);
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

/** Pauses a webhook (nothing is queued for it or sent to it) or resumes it; false when it has none. */
export async function setWebhookPaused(db: Db, workspaceId: string, id: string, paused: boolean): Promise<boolean> {
  const { count } = await db.webhook.updateMany({ where: { id, workspaceId }, data: { disabled: paused } });
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
  /** What it is about: "Cilium native: campaign nightly-09, 2 figures". */
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
  const total = p.total ?? 0;
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
    about: `${p.scenario?.label ?? "?"}: campaign ${p.campaign?.campaign ?? "?"}, ${total} figure${total === 1 ? "" : "s"}`,
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

/** Whether the workspace has a webhook of this id. */
export async function webhookExists(db: Db, workspaceId: string, id: string): Promise<boolean> {
  return (await db.webhook.count({ where: { id, workspaceId } })) > 0;
}

/** The installation's webhook deliveries by status (the apps' metrics). */
export async function deliveryCounts(db: Db): Promise<Record<DeliveryStatus, number>> {
  const rows = await db.webhookDelivery.groupBy({ by: ["status"], _count: { _all: true } });
  const countOf = (status: DeliveryStatus) => rows.find((r) => r.status === status)?._count._all ?? 0;
  return { pending: countOf("pending"), delivered: countOf("delivered"), failed: countOf("failed") };
}

/** A complete campaign of a scenario, claimed by one worker to be judged. */
export type ClaimedCampaign = { scenarioId: string; campaign: string; workspaceId: string; version: number };

/**
 * Claims up to `limit` complete campaigns not judged since their last bundle: closed by their
 * collector after their last bundle, or without a bundle for `quietMs`. Each is held `leaseMs` so
 * another worker (replica) skips it; judged() lets it go. Oldest first.
 */
export async function claimCompleteCampaigns(
  db: Db,
  options: { now: Date; quietMs: number; limit: number; leaseMs: number },
): Promise<ClaimedCampaign[]> {
  const quietSince = new Date(options.now.getTime() - options.quietMs);
  const until = new Date(options.now.getTime() + options.leaseMs);
  return readRows<ClaimedCampaign>(
    db,
    Prisma.sql`UPDATE "AlertCampaign" a SET "claimedUntil" = ${until}
      WHERE ("scenarioId", campaign) IN (
        SELECT "scenarioId", campaign FROM "AlertCampaign"
        WHERE ("judgedVersion" IS NULL OR "judgedVersion" < version)
          AND ("closedAt" >= "lastBundleAt" OR "lastBundleAt" <= ${quietSince})
          AND ("claimedUntil" IS NULL OR "claimedUntil" < ${options.now})
        ORDER BY "lastBundleAt", "scenarioId", campaign LIMIT ${options.limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING a."scenarioId", a.campaign, a."workspaceId", a.version`,
  );
}

/**
 * A campaign judged at the version it was claimed at: bundles stored since (a later version, even of
 * a transaction that began before the claim) make it wait to be judged again.
 */
export async function campaignJudged(db: Db, c: ClaimedCampaign): Promise<void> {
  await db.alertCampaign.updateMany({
    where: { scenarioId: c.scenarioId, campaign: c.campaign },
    data: { judgedAt: new Date(), judgedVersion: c.version, claimedUntil: null },
  });
}

/**
 * A campaign whose judging failed (a statement cancelled on a busy database, say): held only until
 * `retryAt` rather than its whole lease, so it is judged again within seconds, not minutes.
 */
export async function campaignJudgingFailed(db: Db, c: ClaimedCampaign, retryAt: Date): Promise<void> {
  await db.alertCampaign.updateMany({
    where: { scenarioId: c.scenarioId, campaign: c.campaign, version: c.version },
    data: { claimedUntil: retryAt },
  });
}

/**
 * Forgets up to `limit` campaigns judged at their latest version whose last bundle came before
 * `before`. Kept, they added a row per scenario and campaign for good, which the worker's look for
 * waiting campaigns reads whole on every pass. A bundle that comes later marks its campaign again, as a
 * later version would: it is judged again, and an alert already sent is not sent twice (deliveries'
 * dedupKey). Returns how many it forgot.
 */
export function forgetJudgedCampaigns(db: Db, before: Date, limit = 1_000): Promise<number> {
  return db.$executeRaw`DELETE FROM "AlertCampaign" WHERE ("scenarioId", campaign) IN (
      SELECT "scenarioId", campaign FROM "AlertCampaign"
      WHERE "judgedVersion" = version AND "lastBundleAt" < ${before}
      LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
}

/**
 * When a campaign waiting to be judged is next due: closed ones at once, others when their quiet
 * period ends, and one held by a worker when its hold ends. Null when none waits.
 */
export async function nextCampaignDueAt(db: Db, quietMs: number): Promise<Date | null> {
  const [row] = await readRows<{ at: Date | null }>(
    db,
    Prisma.sql`SELECT min(GREATEST(
        CASE WHEN "closedAt" >= "lastBundleAt" THEN "closedAt"
          ELSE "lastBundleAt" + ${quietMs} * interval '1 millisecond' END,
        COALESCE("claimedUntil", '-infinity'))) AS at
      FROM "AlertCampaign" WHERE "judgedVersion" IS NULL OR "judgedVersion" < version`,
  );
  return row?.at ?? null;
}

/**
 * A collector says its campaign is complete (POST /v1/campaigns/close): every scenario's part of it in
 * the workspace is judged at the worker's next look. Returns how many scenarios' parts wait for it; 0
 * when the workspace has no bundle of that campaign or no live webhook to tell.
 */
export async function closeCampaign(db: Db, workspaceId: string, campaign: string): Promise<number> {
  // The database's clock, as the trigger's lastBundleAt: an app server's skew cannot put a close
  // before the bundle it follows.
  return db.$executeRaw`UPDATE "AlertCampaign" SET "closedAt" = now()
    WHERE "workspaceId" = ${workspaceId} AND campaign = ${campaign}`;
}

/** The bundles of a scenario's campaign (a bundle without one is its own). */
export async function campaignBundleIds(db: Db, c: { scenarioId: string; campaign: string }): Promise<string[]> {
  const rows = await readRows<{ id: string }>(
    db,
    Prisma.sql`SELECT id FROM "Bundle" WHERE "scenarioId" = ${c.scenarioId} AND COALESCE(campaign, id) = ${c.campaign}
      ORDER BY COALESCE("runAt", "receivedAt"), id`,
  );
  return rows.map((r) => r.id);
}

type RunRow = {
  scenarioId: string;
  campaign: string;
  metric: string;
  paramsKey: string;
  params: Record<string, string | number | boolean>;
  unit: string;
  better: "higher" | "lower" | "none";
  at: number;
  received: number;
  values: number[];
};

/**
 * The history of every series the campaign measured, across its testbed's scenarios, cut at the
 * campaign: the campaigns measured before it (by their latest run), and it, oldest first (the latest
 * historyLimit of them), read as seriesHistory reads one series. One query for all series, grouped
 * here: an upload of 10,000 series is judged in one read, not 10,000 (grouping and ordering them in
 * SQL with json_agg took over 10 s for 10,000 series; this takes a fraction of it).
 */
export async function campaignSeriesHistories(
  db: Db,
  c: { scenarioId: string; campaign: string; workspaceId: string },
): Promise<AlertSeries[]> {
  const testbed = await testbedOf(db, [c.workspaceId], c.scenarioId);
  if (!testbed) return [];
  const [rows, scenarios] = await Promise.all([
    readRows<RunRow>(
      db,
      Prisma.sql`
      WITH judged AS (
        SELECT DISTINCT metric, "paramsKey" FROM "Measurement"
        WHERE "scenarioId" = ${c.scenarioId} AND campaign = ${c.campaign} AND qualifier IS NULL)
      SELECT m."scenarioId", m.campaign, m.metric, m."paramsKey", m.params, m.unit, m.better::text AS better,
        (EXTRACT(EPOCH FROM COALESCE(b."runAt", b."receivedAt")) * 1000)::float8 AS at,
        (EXTRACT(EPOCH FROM b."receivedAt") * 1000)::float8 AS received,
        -- Concurrent clients' samples are one run: the figure's value.
        CASE WHEN cardinality(m.samples) > 0 AND m."samplesAre" IS DISTINCT FROM 'clients' THEN m.samples
          ELSE ARRAY[m.value] END AS "values"
      FROM judged j
        JOIN "Measurement" m ON m.metric = j.metric AND m."paramsKey" = j."paramsKey"
          AND m."scenarioId" = ANY(${testbed.scenarioIds}::text[]) AND m.qualifier IS NULL
        JOIN "Bundle" b ON b.id = m."bundleId"
      ORDER BY COALESCE(b."runAt", b."receivedAt"), b."receivedAt", b.id COLLATE "C", m.position`,
    ),
    listScenarios(db, { workspaceIds: [c.workspaceId], ids: testbed.scenarioIds }),
  ]);
  const facts = new Map(
    scenarios.map((s) => [
      s.id,
      { cniVersion: s.cni.version, kernel: s.kernel, os: s.os, kubernetesVersion: s.kubernetesVersion },
    ]),
  );
  type Campaign = { scenarioId: string; campaign: string; at: number; received: number; runs: number[] };
  const bySeries = new Map<string, { first: RunRow; campaigns: Map<string, Campaign> }>();
  for (const row of rows) {
    const key = `${row.metric}\n${row.paramsKey}`;
    const series = bySeries.get(key) ?? { first: row, campaigns: new Map<string, Campaign>() };
    bySeries.set(key, series);
    const id = `${row.scenarioId}\n${row.campaign}`;
    const campaign = series.campaigns.get(id) ?? { ...row, runs: [] };
    series.campaigns.set(id, campaign);
    campaign.at = Math.max(campaign.at, row.at);
    campaign.received = Math.max(campaign.received, row.received);
    campaign.runs.push(...row.values);
  }
  const judgedId = `${c.scenarioId}\n${c.campaign}`;
  return [...bySeries.values()].flatMap(({ first, campaigns }): AlertSeries[] => {
    const judged = campaigns.get(judgedId);
    if (!judged) return [];
    const history = [...campaigns.values()]
      .filter((h) => h === judged || h.at < judged.at)
      .sort((a, b) => a.at - b.at || a.received - b.received || (a.campaign < b.campaign ? -1 : 1))
      .slice(-historyLimit);
    // The judged campaign last, even when an earlier one was uploaded after it at the same time.
    const cut = [...history.filter((h) => h !== judged), judged];
    return [
      {
        metric: first.metric,
        params: first.params,
        unit: first.unit,
        better: first.better,
        history: cut.map((h) => ({
          scenarioId: h.scenarioId,
          campaign: h.campaign,
          measuredAt: new Date(h.at),
          runs: h.runs,
          ...(facts.has(h.scenarioId) ? { annotations: facts.get(h.scenarioId)! } : {}),
        })),
      },
    ];
  });
}

/**
 * Queues one campaign's alerts for each live webhook of its workspace subscribed to their event; an
 * alert already queued for a webhook (same key: event, scenario, campaign) is not queued again, so a
 * campaign judged again after a late bundle tells nobody twice. Returns how many were queued.
 */
export async function queueCampaignAlerts(
  db: Db,
  workspaceId: string,
  alerts: readonly AlertPayload[],
): Promise<number> {
  if (alerts.length === 0) return 0;
  const hooks = await readRows<{ id: string; events: string[] }>(
    db,
    Prisma.sql`SELECT id, events::text[] AS events FROM "Webhook" WHERE "workspaceId" = ${workspaceId} AND NOT disabled`,
  );
  const queued: Prisma.WebhookDeliveryCreateManyInput[] = [];
  for (const payload of alerts) {
    for (const hook of hooks) {
      // The raw query reads the enum's database labels, which are the alert events' own names.
      if (!hook.events.includes(payload.event)) continue;
      queued.push({
        webhookId: hook.id,
        event: eventOf[payload.event],
        dedupKey: `${payload.event} ${payload.campaign.scenarioId} ${payload.campaign.campaign}`,
        payload: payload as unknown as Prisma.InputJsonValue,
        nextAttemptAt: new Date(),
      });
    }
  }
  if (queued.length === 0) return 0;
  const { count } = await db.webhookDelivery.createMany({ data: queued, skipDuplicates: true });
  return count;
}

/** A delivery the sender has claimed: what to send, where, and the secret to sign it with. */
export type ClaimedDelivery = {
  id: string;
  webhookId: string;
  event: AlertEvent;
  payload: AlertPayload;
  attempts: number;
  url: string;
  format: WebhookFormat;
  secret: string;
};

/**
 * Claims due pending deliveries of live webhooks, one per webhook, of webhooks no sender (this process
 * or another replica) is posting to: a receiver that never answers holds one delivery of its own
 * webhook, never the others' turn, whatever the number of ingest-api processes. Oldest first, up to
 * `limit`. The webhooks are taken with FOR UPDATE SKIP LOCKED, so concurrent senders never wait for
 * each other nor claim the same one; each is held until `leaseMs` from now ("sendingUntil"), and its
 * delivery pushed as far, so a sender that dies mid-post lets both go then; recordAttempt ends the hold.
 */
export async function claimDueDeliveries(
  db: Db,
  options: { now: Date; limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const { now } = options;
  const lease = new Date(now.getTime() + options.leaseMs);
  // Cast to text, an enum reads as its database value: "campaign-worse", "slack".
  return db.$queryRaw<ClaimedDelivery[]>(
    Prisma.sql`WITH hooks AS (
        SELECT w.id FROM "Webhook" w
        WHERE NOT w.disabled AND (w."sendingUntil" IS NULL OR w."sendingUntil" <= ${now})
          AND EXISTS (SELECT 1 FROM "WebhookDelivery" x
            WHERE x."webhookId" = w.id AND x.status = 'pending' AND x."nextAttemptAt" <= ${now})
        ORDER BY (SELECT min(x."nextAttemptAt") FROM "WebhookDelivery" x
            WHERE x."webhookId" = w.id AND x.status = 'pending'), w.id
        LIMIT ${options.limit}
        FOR UPDATE OF w SKIP LOCKED),
      first AS (
        SELECT DISTINCT ON (x."webhookId") x.id
        FROM "WebhookDelivery" x JOIN hooks h ON h.id = x."webhookId"
        WHERE x.status = 'pending' AND x."nextAttemptAt" <= ${now}
        ORDER BY x."webhookId", x."nextAttemptAt", x.id),
      held AS (UPDATE "Webhook" w SET "sendingUntil" = ${lease} FROM hooks h WHERE w.id = h.id)
      UPDATE "WebhookDelivery" d SET "nextAttemptAt" = ${lease}
      FROM first f, "Webhook" w
      WHERE d.id = f.id AND w.id = d."webhookId"
      RETURNING d.id, d."webhookId", d.event::text AS event, d.payload, d.attempts, w.url, w.format::text AS format, w.secret`,
  );
}

/**
 * When the next pending delivery is due: of a webhook being posted to (here or by another replica),
 * no sooner than its hold ends, when a sender that died would let it go (one that lives claims its
 * next delivery as its post ends). Null when none is pending.
 */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const [row] = await db.$queryRaw<{ at: Date | null }[]>`
    SELECT min(GREATEST(d."nextAttemptAt", COALESCE(w."sendingUntil", '-infinity'))) AS at
    FROM "WebhookDelivery" d JOIN "Webhook" w ON w.id = d."webhookId"
    WHERE d.status = 'pending' AND NOT w.disabled`;
  return row?.at ?? null;
}

/**
 * Records one attempt: delivered, or failed with its error and either a next time (pending) or none
 * (failed for good); and lets its webhook go, for its next delivery to be claimed. The hold outlasts
 * any post (claimed for the post's timeout and more), so it is still this sender's to end.
 */
export async function recordAttempt(
  db: Db,
  delivery: Pick<ClaimedDelivery, "id" | "webhookId">,
  outcome: { delivered: true; at: Date } | { delivered: false; error: string; retryAt: Date | null },
): Promise<void> {
  await db.$transaction([
    db.webhookDelivery.update({
      where: { id: delivery.id },
      data: outcome.delivered
        ? { status: "delivered", attempts: { increment: 1 }, deliveredAt: outcome.at, lastError: null }
        : {
            status: outcome.retryAt ? "pending" : "failed",
            attempts: { increment: 1 },
            lastError: outcome.error.slice(0, 500),
            ...(outcome.retryAt ? { nextAttemptAt: outcome.retryAt } : {}),
          },
    }),
    db.webhook.updateMany({ where: { id: delivery.webhookId }, data: { sendingUntil: null } }),
  ]);
}

/** The name and slug of an alert's workspace; null when it is gone. */
export function alertWorkspace(db: Db, workspaceId: string): Promise<{ slug: string; name: string } | null> {
  return db.workspace.findUnique({ where: { id: workspaceId }, select: { slug: true, name: true } });
}

/** The campaign a bundle belongs to (a bundle without one is its own); null for an unknown bundle. */
export async function campaignOfBundle(db: Db, bundleId: string): Promise<string | null> {
  const found = await db.bundle.findUnique({ where: { id: bundleId }, select: { id: true, campaign: true } });
  return found ? (found.campaign ?? found.id) : null;
}
