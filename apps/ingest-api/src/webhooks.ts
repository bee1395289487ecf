// The alert worker (issues 27 and 41). Two loops that never wait for each other:
// - judging: a campaign of a scenario is complete when its collector closed it (POST
//   /v1/campaigns/close) or no bundle came for `quietMs`; each complete campaign is judged once, as
//   the gate judges it (POST /v1/gate, baseline "previous"), and its series' histories cut at it are
//   searched for new change points; one summary per campaign, event and webhook is queued.
// - sending: due deliveries are claimed at most one per webhook at a time across every ingest-api
//   process (so a receiver that never answers holds up only its own alerts, and no alert goes out
//   twice: the rows are claimed with FOR UPDATE SKIP LOCKED), each POSTed signed over timestamp and body, to an address
//   the operator's policy allows (checked after DNS resolution, on every connection), with a short
//   connect timeout; retried with exponential backoff (base, 4 × base, 16 × base…, `maxAttempts` tries).
// Nothing runs inside an upload: the database trigger marks the campaign, this worker does the rest.
import { createHmac, timingSafeEqual } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import {
  type AlertFigure,
  type AlertPayload,
  alertPayload,
  gateReport,
  newChangePoints,
  slackPayload,
  withHistory,
} from "@cnibench/analysis";
import {
  alertWorkspace,
  type ClaimedCampaign,
  type ClaimedDelivery,
  campaignBundleIds,
  campaignJudged,
  campaignJudgingFailed,
  campaignOfBundle,
  campaignSeriesHistories,
  claimCompleteCampaigns,
  claimDueDeliveries,
  type Db,
  forgetJudgedCampaigns,
  gateSides,
  listScenarios,
  nextCampaignDueAt,
  nextDueAt,
  portOf,
  queueCampaignAlerts,
  RefusedTargetError,
  recordAttempt,
  refusedTargetWords,
  type StoredBundle,
  type TargetPolicy,
  targetLookup,
  testbedOf,
  urlAllowed,
} from "@cnibench/db";
import type { FastifyBaseLogger } from "fastify";

export type WebhookOptions = {
  /** The first retry's delay; each next one is 4 times longer (CNIBENCH_WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs?: number;
  maxAttempts?: number;
  /** Most a receiver may take to answer one delivery, connecting included. */
  timeoutMs?: number;
  /** Most connecting to a receiver may take. */
  connectTimeoutMs?: number;
  /** A campaign without a new bundle for this long is complete (CNIBENCH_ALERT_QUIET_MS). */
  quietMs?: number;
  /** How often work queued elsewhere (another replica, the web app, before a restart) is looked for. */
  pollMs?: number;
  /** Most deliveries in flight at once in this process (each webhook has one at a time, in all processes). */
  maxInFlight?: number;
  /** Where deliveries may go (CNIBENCH_WEBHOOK_ALLOW; packages/db webhook-targets.ts). */
  policy?: TargetPolicy;
};

export const defaultWebhookOptions: Required<WebhookOptions> = {
  retryBaseMs: 1_000,
  maxAttempts: 5,
  timeoutMs: 10_000,
  connectTimeoutMs: 3_000,
  quietMs: 10 * 60_000,
  pollMs: 30_000,
  maxInFlight: 64,
  policy: { allow: [], ownPorts: [] },
};

/** How far a signature's timestamp may be from the receiver's clock: 5 minutes, as Slack's and Stripe's. */
const signatureToleranceS = 300;

/**
 * The signature header's value: "sha256=" and the hex HMAC-SHA256, with the webhook's secret, of the
 * timestamp header's value (Unix seconds), a dot, and the raw body. A receiver recomputes it and
 * refuses a timestamp further than signatureToleranceS from its clock, so a captured delivery cannot
 * be replayed later.
 */
function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** What a receiver does (docs/alerts.md), for tests and for receivers written in TypeScript. */
export function verifySignature(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  body: string,
  nowS = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowS - timestamp) > signatureToleranceS) return false;
  const expected = Buffer.from(signature(secret, timestamp, body));
  const given = Buffer.from(String(headers.signature));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The body a webhook receives, in its format. */
function deliveryBody(delivery: Pick<ClaimedDelivery, "format" | "payload">): string {
  return JSON.stringify(delivery.format === "slack" ? slackPayload(delivery.payload) : delivery.payload);
}

/** The delay before retry number `attempts` (1 after the first failure): base · 4^(attempts − 1). */
const retryDelay = (retryBaseMs: number, attempts: number): number => retryBaseMs * 4 ** (attempts - 1);

/** What the log says of any failure below HTTP: one phrase, so the log is no port scanner. */
export const noAnswerWords = "no HTTP answer (no connection, connection closed, or timed out)";

/**
 * One POST through node:http with the policy's lookup (net.connect calls it on every connection, so
 * an address is checked as connected, after DNS); an address literal skips lookup and is checked
 * here. No keep-alive agent: each delivery connects, and so is checked, anew. Resolves the status.
 */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  settings: Pick<Required<WebhookOptions>, "timeoutMs" | "connectTimeoutMs" | "policy">,
): Promise<number> {
  return new Promise((resolve, reject) => {
    if (!urlAllowed(settings.policy, url)) return reject(new RefusedTargetError());
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      agent: false,
      lookup: targetLookup(settings.policy, portOf(url)),
    });
    const total = setTimeout(() => request.destroy(new Error("timeout")), settings.timeoutMs);
    const connect = setTimeout(() => request.destroy(new Error("connect timeout")), settings.connectTimeoutMs);
    request.on("socket", (socket) => {
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connect));
    });
    request.on("response", (response) => {
      clearTimeout(total);
      clearTimeout(connect);
      response.resume();
      resolve(response.statusCode ?? 0);
      response.on("error", () => {});
    });
    request.on("error", (error) => {
      clearTimeout(total);
      clearTimeout(connect);
      reject(error);
    });
    request.end(body);
  });
}

/** One try: the receiver's 2xx is delivered; anything else is an error in the log's words. */
async function send(
  delivery: ClaimedDelivery,
  settings: Pick<Required<WebhookOptions>, "timeoutMs" | "connectTimeoutMs" | "policy">,
): Promise<string | null> {
  const timestamp = Math.floor(Date.now() / 1000);
  let body: string;
  try {
    body = deliveryBody(delivery);
  } catch {
    // A payload of an older shape (queued before an upgrade): said once, never retried into a crash.
    return "not sent: its payload is not an alert of this version";
  }
  try {
    // A redirect (3xx) is an error: the URL checked is the one posted to.
    const status = await post(
      new URL(delivery.url),
      {
        "content-type": "application/json",
        "user-agent": "cnibench-webhooks",
        "x-cnibench-event": delivery.event,
        "x-cnibench-delivery": delivery.id,
        "x-cnibench-timestamp": String(timestamp),
        "x-cnibench-signature": signature(delivery.secret, timestamp, body),
      },
      body,
      settings,
    );
    return status >= 200 && status < 300 ? null : `HTTP ${status}`;
  } catch (error) {
    const refused =
      error instanceof RefusedTargetError || (error as { code?: string }).code === new RefusedTargetError().code;
    return refused ? refusedTargetWords : noAnswerWords;
  }
}

/**
 * A complete campaign's alerts: the gate's verdicts against the previous campaign of its testbed
 * (figures worse beyond their margin), and the change points its series' histories show first with it.
 */
async function judgeCampaign(
  db: Db,
  c: Pick<ClaimedCampaign, "scenarioId" | "campaign" | "workspaceId">,
  publicWebUrl: string,
): Promise<AlertPayload[]> {
  const bundleIds = await campaignBundleIds(db, c);
  const [testbed, [scenario], workspace] = await Promise.all([
    testbedOf(db, [c.workspaceId], c.scenarioId),
    listScenarios(db, { workspaceIds: [c.workspaceId], ids: [c.scenarioId] }),
    alertWorkspace(db, c.workspaceId),
  ]);
  if (bundleIds.length === 0 || !testbed || !scenario || !workspace) return [];
  const sides = await gateSides(db, [c.workspaceId], { candidate: bundleIds, baseline: { previous: true } });
  const campaign = {
    campaign: c.campaign,
    scenarioId: c.scenarioId,
    bundles: bundleIds.length,
    description: sides.ok ? sides.candidate.description : `campaign ${JSON.stringify(c.campaign)}`,
  };
  const context = {
    workspace,
    testbed: testbed.key,
    scenario: { id: scenario.id, label: scenario.label },
    campaign,
    link: `${publicWebUrl.replace(/\/+$/, "")}/scenarios/${encodeURIComponent(c.scenarioId)}`,
  };
  const alerts: AlertPayload[] = [];
  if (sides.ok) {
    const report = gateReport(
      withHistory(sides.baseline.figures, sides.baseline.earlier),
      withHistory(sides.candidate.figures, sides.candidate.earlier),
      {},
    );
    const baselineCampaign = (await campaignOfBundle(db, sides.baseline.bundleIds[0] ?? "")) ?? "";
    const worse = report.rows
      .filter((r) => r.verdict === "worse" && r.baseline && r.candidate)
      .map(
        (r): AlertFigure => ({
          metric: r.metric,
          params: r.params,
          unit: r.unit,
          previous: {
            scenarioId: sides.baseline.scenarioId,
            campaign: baselineCampaign,
            runs: r.baseline!.n,
            median: r.baseline!.median,
            campaigns: 1,
          },
          current: {
            scenarioId: c.scenarioId,
            campaign: c.campaign,
            runs: r.candidate!.n,
            median: r.candidate!.median,
            campaigns: 1,
          },
          changePercent: r.changePercent,
          verdict: r.verdict,
          caveat: r.caveat,
          p: null,
          changes: [],
        }),
      );
    if (worse.length > 0) {
      alerts.push(
        alertPayload({
          event: "campaign-worse",
          ...context,
          baseline: {
            campaign: baselineCampaign,
            scenarioId: sides.baseline.scenarioId,
            bundles: sides.baseline.bundleIds.length,
            description: sides.baseline.description,
          },
          figures: worse,
        }),
      );
    }
  }
  const changePoints = (await campaignSeriesHistories(db, c)).flatMap(newChangePoints);
  if (changePoints.length > 0) {
    alerts.push(alertPayload({ event: "change-point", ...context, baseline: null, figures: changePoints }));
  }
  return alerts;
}

export type Alerts = {
  /** An upload stored bundles: look for complete campaigns once their quiet period is over. */
  afterStore: (workspaceId: string, stored: readonly StoredBundle[]) => void;
  /** A collector closed a campaign: judge it now. */
  afterClose: () => void;
  /** Judges what is complete now, then waits until every due delivery was tried once (tests). */
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

  // A campaign whose judging failed is tried again after this long.
  const judgeRetryMs = 5_000;
  // Once an hour, campaigns judged and without a bundle for 30 days are forgotten (forgetJudgedCampaigns).
  const forgetEveryMs = 60 * 60_000;
  const forgetAfterMs = 30 * 24 * 60 * 60_000;
  let forgetAt = 0;
  // Judging: one pass at a time; a wake-up during a pass runs one more pass after it.
  let judging: Promise<void> | null = null;
  let judgeAgain = false;
  let judgeTimer: NodeJS.Timeout | undefined;
  const judgePass = async (): Promise<void> => {
    for (;;) {
      if (closed) return;
      const claimed = await claimCompleteCampaigns(db, {
        now: new Date(),
        quietMs: settings.quietMs,
        limit: 20,
        leaseMs: 5 * 60_000,
      });
      if (claimed.length === 0) break;
      let queued = 0;
      for (const c of claimed) {
        try {
          queued += await queueCampaignAlerts(db, c.workspaceId, await judgeCampaign(db, c, options.publicWebUrl));
          await campaignJudged(db, c);
        } catch (error) {
          // Held a few seconds, then judged again: a failure under load must not hold the alert for the
          // whole lease (5 minutes), which is for a worker that died mid-judgement.
          log.warn({ err: error, scenarioId: c.scenarioId, campaign: c.campaign }, "alerts: judging a campaign failed");
          await campaignJudgingFailed(db, c, new Date(Date.now() + judgeRetryMs)).catch((e: unknown) =>
            log.warn({ err: e }, "alerts: releasing a campaign failed"),
          );
        }
      }
      if (queued > 0) {
        log.info({ queued }, "webhook alerts queued");
        pump();
      }
    }
    if (Date.now() >= forgetAt) {
      forgetAt = Date.now() + forgetEveryMs;
      const before = new Date(Date.now() - forgetAfterMs);
      // In batches, so a large backlog (the first pass after an upgrade) holds no lock for long.
      while (!closed && (await forgetJudgedCampaigns(db, before)) > 0) {}
    }
    const next = await nextCampaignDueAt(db, settings.quietMs);
    // At least 50 ms on: a due time a moment in the past is claimed by the next pass, never spun on.
    scheduleJudge(next ? Math.max(50, next.getTime() - Date.now() + 50) : settings.pollMs);
  };
  const judge = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (judging) {
      judgeAgain = true;
      return judging;
    }
    judging = judgePass()
      .catch((error: unknown) => log.warn({ err: error }, "alerts: judging failed"))
      .finally(() => {
        judging = null;
        if (judgeAgain) {
          judgeAgain = false;
          void judge();
        }
      });
    return judging;
  };
  // The earliest wake-up asked for wins; a pass sets the next one from the database.
  let judgeTimerAt = Number.POSITIVE_INFINITY;
  const scheduleJudge = (inMs: number) => {
    if (closed) return;
    const at = Date.now() + Math.max(0, Math.min(inMs, settings.pollMs));
    if (at >= judgeTimerAt && judgeTimerAt > Date.now()) return;
    clearTimeout(judgeTimer);
    judgeTimerAt = at;
    judgeTimer = setTimeout(() => {
      judgeTimerAt = Number.POSITIVE_INFINITY;
      void judge();
    }, at - Date.now());
    judgeTimer.unref();
  };

  // Sending: each webhook has at most one delivery in flight (held in the database, for every process);
  // claiming more never waits for a send.
  const inFlight = new Map<string, Promise<void>>();
  let claiming: Promise<void> | null = null;
  let claimAgain = false;
  let sendTimer: NodeJS.Timeout | undefined;
  const deliver = async (delivery: ClaimedDelivery) => {
    const error = await send(delivery, settings);
    const attempts = delivery.attempts + 1;
    if (error) log.info({ delivery: delivery.id, attempts, error }, "webhook delivery failed");
    await recordAttempt(
      db,
      delivery,
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
  };
  const claimPass = async () => {
    for (;;) {
      if (closed) return;
      const room = settings.maxInFlight - inFlight.size;
      if (room <= 0) return;
      const due = await claimDueDeliveries(db, {
        now: new Date(),
        limit: room,
        leaseMs: settings.timeoutMs + 5_000,
      });
      if (due.length === 0) break;
      for (const delivery of due) {
        const sending = deliver(delivery)
          .catch((error: unknown) => log.warn({ err: error, delivery: delivery.id }, "webhooks: recording failed"))
          .finally(() => {
            inFlight.delete(delivery.webhookId);
            pump();
          });
        inFlight.set(delivery.webhookId, sending);
      }
    }
    // A webhook being posted to is due no sooner than its hold ends; its post ends in a pump of its own.
    const next = await nextDueAt(db);
    scheduleSend(next ? Math.max(10, next.getTime() - Date.now()) : settings.pollMs);
  };
  function pump(): Promise<void> {
    if (closed) return Promise.resolve();
    if (claiming) {
      claimAgain = true;
      return claiming;
    }
    claiming = claimPass()
      .catch((error: unknown) => log.warn({ err: error }, "webhooks: claiming failed"))
      .finally(() => {
        claiming = null;
        if (claimAgain) {
          claimAgain = false;
          void pump();
        }
      });
    return claiming;
  }
  // The earliest wake-up asked for wins; a pass sets the next one from the database.
  let sendTimerAt = Number.POSITIVE_INFINITY;
  const scheduleSend = (inMs: number) => {
    if (closed) return;
    const at = Date.now() + Math.max(0, Math.min(inMs, settings.pollMs));
    if (at >= sendTimerAt && sendTimerAt > Date.now()) return;
    clearTimeout(sendTimer);
    sendTimerAt = at;
    sendTimer = setTimeout(() => {
      sendTimerAt = Number.POSITIVE_INFINITY;
      void pump();
    }, at - Date.now());
    sendTimer.unref();
  };

  scheduleJudge(0);
  scheduleSend(0);

  return {
    afterStore: (_workspaceId, stored) => {
      if (closed || !stored.some((s) => s.created)) return;
      // The trigger marked the campaign; it is complete once quiet, unless closed sooner.
      scheduleJudge(settings.quietMs + 50);
    },
    afterClose: () => void judge(),
    settled: async () => {
      await judge();
      while (judging) await judging;
      await pump();
      while (claiming || inFlight.size > 0) {
        await Promise.all([claiming, ...inFlight.values()]);
      }
    },
    close: async () => {
      closed = true;
      clearTimeout(judgeTimer);
      clearTimeout(sendTimer);
      await Promise.all([judging, claiming, ...inFlight.values()]);
    },
  };
}
