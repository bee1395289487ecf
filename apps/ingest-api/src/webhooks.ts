// The alerts' sender (issue 27). After an upload stored bundles, their alerts are queued (enqueueAlerts
// in packages/db webhooks.ts) and sent by a small in-process worker, never on the upload's time: the
// upload is answered first. Each delivery is a POST of JSON (Slack-compatible or generic), signed with
// the webhook's secret, retried with exponential backoff (base, 4 × base, 16 × base…, at most
// `maxAttempts` tries), and its status, attempts and last error recorded for the delivery log.
import { createHmac } from "node:crypto";
import { slackPayload } from "@cnibench/analysis";
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  type Db,
  enqueueAlerts,
  nextDueAt,
  recordAttempt,
  type StoredBundle,
} from "@cnibench/db";
import type { FastifyBaseLogger } from "fastify";

export type WebhookOptions = {
  /** The first retry's delay; each next one is 4 times longer (CNIBENCH_WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs?: number;
  maxAttempts?: number;
  /** Most a receiver may take to answer one delivery. */
  timeoutMs?: number;
  /** How often pending deliveries queued elsewhere (another replica, before a restart) are looked for. */
  pollMs?: number;
};

export const defaultWebhookOptions: Required<WebhookOptions> = {
  retryBaseMs: 1_000,
  maxAttempts: 5,
  timeoutMs: 10_000,
  pollMs: 30_000,
};

/** The signature header's value: "sha256=" and the hex HMAC-SHA256 of the raw body with the secret. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** The body a webhook receives, in its format. */
export function deliveryBody(delivery: Pick<ClaimedDelivery, "format" | "payload">): string {
  return JSON.stringify(delivery.format === "slack" ? slackPayload(delivery.payload) : delivery.payload);
}

/** The delay before retry number `attempts` (1 after the first failure): base · 4^(attempts − 1). */
export const retryDelay = (retryBaseMs: number, attempts: number): number => retryBaseMs * 4 ** (attempts - 1);

/** One try: the receiver's 2xx is delivered; anything else (status, timeout, refused connection) is an error. */
async function send(delivery: ClaimedDelivery, timeoutMs: number): Promise<string | null> {
  const body = deliveryBody(delivery);
  try {
    const response = await fetch(delivery.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "cnibench-webhooks",
        "x-cnibench-event": delivery.event,
        "x-cnibench-delivery": delivery.id,
        "x-cnibench-signature": signature(delivery.secret, body),
      },
      body,
      // A redirect is an error: the URL checked when the webhook was made is the one posted to.
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => {});
    return response.ok ? null : `HTTP ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return (error as Error).name === "TimeoutError"
      ? `no answer within ${timeoutMs} ms`
      : (cause?.code ?? cause?.message ?? (error as Error).message);
  }
}

export type Alerts = {
  /** Queues the alerts of bundles an upload just stored; returns at once (the work runs after). */
  afterStore: (workspaceId: string, stored: readonly StoredBundle[]) => void;
  /** Waits until everything queued so far was looked at and every due delivery tried once (tests). */
  settled: () => Promise<void>;
  close: () => Promise<void>;
};

/** The worker of one ingest API process. */
export function startAlerts(
  db: Db,
  options: WebhookOptions & { publicWebUrl: string; log: FastifyBaseLogger },
): Alerts {
  const settings = { ...defaultWebhookOptions, ...options };
  const { log } = options;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  // Work runs one step at a time, in order: queueing a workspace's alerts, then sending what is due.
  let chain: Promise<void> = Promise.resolve();
  const then = (step: () => Promise<void>) => {
    chain = chain.then(step).catch((error: unknown) => log.warn({ err: error }, "webhooks: step failed"));
    return chain;
  };

  const sendDue = async (): Promise<void> => {
    for (;;) {
      if (closed) return;
      const now = new Date();
      const due = await claimDueDeliveries(db, { now, limit: 10, leaseMs: settings.timeoutMs + 5_000 });
      if (due.length === 0) break;
      await Promise.all(
        due.map(async (delivery) => {
          const error = await send(delivery, settings.timeoutMs);
          const attempts = delivery.attempts + 1;
          if (error) log.info({ delivery: delivery.id, attempts, error }, "webhook delivery failed");
          await recordAttempt(
            db,
            delivery.id,
            error === null
              ? { delivered: true, at: new Date() }
              : {
                  delivered: false,
                  error,
                  retryAt:
                    attempts < settings.maxAttempts
                      ? new Date(Date.now() + retryDelay(settings.retryBaseMs, attempts))
                      : null,
                },
          );
        }),
      );
    }
    schedule(await nextDueAt(db));
  };

  /** Wakes at the next retry, or at the next poll, whichever is sooner. */
  const schedule = (next: Date | null) => {
    if (closed) return;
    clearTimeout(timer);
    const wait = next ? Math.max(0, Math.min(next.getTime() - Date.now(), settings.pollMs)) : settings.pollMs;
    timer = setTimeout(() => void then(work), wait);
    timer.unref();
  };
  schedule(null);

  // Bundles stored but not yet looked at, by workspace: those stored while an earlier step ran are
  // looked at together, so each one's history "before" holds none of the others' runs.
  const pending = new Map<string, Set<string>>();
  const keep = (workspaceId: string, ids: Iterable<string>) => {
    const kept = pending.get(workspaceId) ?? new Set<string>();
    for (const id of ids) kept.add(id);
    pending.set(workspaceId, kept);
  };
  /** How many deliveries were queued. A batch that fails (database busy) is kept for the next poll. */
  const queueAlerts = async (): Promise<number> => {
    const batches = [...pending];
    pending.clear();
    let total = 0;
    for (const [workspaceId, ids] of batches) {
      try {
        const queued = await enqueueAlerts(db, {
          workspaceId,
          bundleIds: [...ids],
          publicWebUrl: options.publicWebUrl,
        });
        if (queued > 0) log.info({ workspaceId, queued }, "webhook alerts queued");
        total += queued;
      } catch (error) {
        keep(workspaceId, ids);
        log.warn({ err: error, workspaceId }, "webhooks: queueing alerts failed; retried at the next poll");
      }
    }
    return total;
  };
  // Sending looks for due deliveries (two queries) only when this upload queued some, or at a poll:
  // doing it after every upload cost half the upload rate (npm run bench:ingest, 200 measurements).
  const queueThenSend = async () => {
    if ((await queueAlerts()) > 0) await sendDue();
  };
  const work = async () => {
    await queueAlerts();
    await sendDue();
  };

  return {
    afterStore: (workspaceId, stored) => {
      const created = stored.filter((s) => s.created).map((s) => s.id);
      if (closed || created.length === 0) return;
      const first = pending.size === 0;
      keep(workspaceId, created);
      if (first) void then(queueThenSend);
    },
    settled: () => then(work),
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await chain;
    },
  };
}
