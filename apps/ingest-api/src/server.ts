import { randomUUID } from "node:crypto";
import { type Db, databaseReady, isCommitInDoubt, isDatabaseOutage, spendBudget } from "@cnibench/db";
import type { ArchiveLimits } from "@cnibench/importers";
import { unstorableValues } from "@cnibench/schema";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { sendError } from "./errors.ts";
import { defaultLimits } from "./limits.ts";
import { bundleRoutes } from "./routes/bundles.ts";
import { campaignRoutes } from "./routes/campaigns.ts";
import { gateRoutes } from "./routes/gate.ts";
import { importRoutes } from "./routes/import.ts";
import { metaRoutes } from "./routes/meta.ts";
import { metricsRoutes } from "./routes/metrics.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { type Alerts, defaultWebhookOptions, startAlerts, type WebhookOptions } from "./webhooks.ts";

export type ServerOptions = {
  db: Db;
  publicApiUrl: string;
  publicWebUrl: string;
  maxBundleBytes?: number;
  /** POST /v1/import's body limit: an archive of a result tree is larger than a bundle. */
  maxImportBytes?: number;
  /** POST /v1/import's archive limits (entries, decompressed bytes). */
  importLimits?: Partial<ArchiveLimits>;
  /** Requests a minute per upload token, counted once the token is authenticated. */
  rateLimitPerMinute?: number;
  /** Requests a minute per client address, whatever token they carry (default: twice the token's). */
  rateLimitPerAddressPerMinute?: number;
  /** Slow clients: see HttpTimeouts. */
  timeouts?: Partial<HttpTimeouts>;
  logLevel?: string;
  /** Alerts: quiet period, retry backoff, timeouts, where deliveries may go (webhooks.ts). */
  webhooks?: WebhookOptions;
  /** The metrics feeds' bounds (CNIBENCH_FEED_MAX_SERIES, CNIBENCH_FEED_MAX_AGE_DAYS). */
  feed?: { maxSeries?: number; maxAgeDays?: number };
};

/**
 * How long a client may take, in milliseconds (CNIBENCH_REQUEST_TIMEOUT_MS, CNIBENCH_HEADERS_TIMEOUT_MS,
 * CNIBENCH_KEEP_ALIVE_TIMEOUT_MS). A request not received whole within `requestMs`, or whose headers
 * are not in within `headersMs`, is answered 408 and its connection closed; so is a connection on
 * which nothing moves either way for `requestMs`. Idle keep-alive connections close after `keepAliveMs`.
 */
type HttpTimeouts = { requestMs: number; headersMs: number; keepAliveMs: number };
const defaultHttpTimeouts: HttpTimeouts = { requestMs: 60_000, headersMs: 10_000, keepAliveMs: 5_000 };

export function buildServer(options: ServerOptions): FastifyInstance {
  const { db } = options;
  const maxBundleBytes = options.maxBundleBytes ?? defaultLimits.maxBundleBytes;
  const timeouts = { ...defaultHttpTimeouts, ...options.timeouts };
  const app = Fastify({
    logger: { level: options.logLevel ?? "info" },
    bodyLimit: maxBundleBytes,
    // Fastify turns Node's request timeout off (0) by default: a client sending a byte now and then
    // held a connection open for as long as it liked.
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node checks the request and header deadlines every connectionsCheckingInterval (30 s by
    // default, which would let a slow client overstay by that much).
    http: {
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(timeouts.headersMs / 4)),
    },
    // The router's own refusals (a path that is no valid %-escaped text, a parameter over its length)
    // answer in our error shape; such a path can name nothing, so it is an unknown one: 404.
    frameworkErrors: (error, req, reply) => {
      if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
        return sendError(req, reply, 414, "uri_too_long", "A path parameter is longer than any id or slug can be.");
      }
      if (error.code === "FST_ERR_BAD_URL") return sendError(req, reply, 404, "not_found", "No such path.");
      return sendError(req, reply, error.statusCode ?? 400, "bad_request", error.message);
    },
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });

  // Bodies stay text so a malformed document can be reported with its line and column.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/(?:[\w.-]+\+)?json\b/, { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );

  // Two budgets a minute, counted in PostgreSQL so that every replica spends the same ones (sharedBudgets);
  // probes are never limited. Every request counts against its client address before anything else runs, so
  // made-up tokens cannot buy fresh counters; a request with a real token then counts against that
  // token too (after authentication, before the body is read), so one busy collector cannot starve
  // the others. Both are app-level hooks: the plugin's own route hooks would run after the routes'
  // authentication, and a made-up token's 401 would never be counted.
  const perToken = options.rateLimitPerMinute ?? 600;
  const perAddress = options.rateLimitPerAddressPerMinute ?? 2 * perToken;
  app.register(rateLimit, {
    global: false,
    timeWindow: 60_000,
    // A budget is its key and its limits: replicas configured alike share it; a changed limit starts anew.
    store: sharedBudgets(db, `${perAddress}/${perToken}`),
    allowList: (req) => req.url === "/healthz" || req.url === "/readyz",
  });
  type Limiter = ReturnType<FastifyInstance["createRateLimit"]>;
  let limits: { address: Limiter; token: Limiter } | undefined;
  /** Counts the request; over the budget, answers 429 and says so (true). */
  const overBudget = async (which: "address" | "token", req: FastifyRequest, reply: FastifyReply) => {
    limits ??= {
      // The default key: the client address (an IPv6 one by its /64).
      address: app.createRateLimit({ max: perAddress }),
      token: app.createRateLimit({ max: perToken, keyGenerator: (r) => `token:${r.uploader?.tokenId}` }),
    };
    const limit = await limits[which](req);
    if (limit.isAllowed || !limit.isExceeded) return false;
    reply.header("retry-after", String(limit.ttlInSeconds));
    reply.header("x-ratelimit-limit", String(limit.max)).header("x-ratelimit-remaining", "0");
    const from = which === "address" ? "from this address" : "with this token";
    sendError(
      req,
      reply,
      429,
      "rate_limited",
      `More than ${limit.max} requests a minute ${from}; retry in ${limit.ttlInSeconds} s.`,
    );
    return true;
  };
  // Callback hooks: answering means not calling done, so the chain stops there (no authentication,
  // body or handler follows).
  app.addHook("onRequest", (req, reply, done) => {
    overBudget("address", req, reply).then((refused) => refused || done(), done);
  });
  app.addHook("preParsing", (req, reply, payload, done) => {
    if (!req.uploader) return done(null, payload);
    overBudget("token", req, reply).then((refused) => refused || done(null, payload), done);
  });

  // U+0000 and lone surrogates in a path segment, query value or request document (a gate request) can
  // never name anything stored (PostgreSQL's text refuses them, with an error that used to surface as a
  // 500): refuse them once here, 404 in a path and 400 naming the field elsewhere. Upload bodies are
  // left to readStorableBundle, which answers 422 with the path inside the bundle (docs/security.md).
  app.addHook("preValidation", async (req, reply) => {
    const issues = unstorableValues({ path: req.params ?? {}, query: req.query ?? {}, body: requestDocument(req) });
    const [first] = issues;
    if (!first) return;
    // A path names a thing none can be named so: 404 like any unknown id or slug.
    if (first.path.startsWith("path")) return sendError(req, reply, 404, "not_found", `No ${req.url.split("?")[0]}`);
    return sendError(req, reply, 400, "bad_request", `${first.path} ${first.message}.`, {
      issues: issues.map((i) => ({ path: i.path, message: i.message })),
    });
  });

  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });

  app.setErrorHandler<FastifyError>(async (error, req, reply) => {
    const known = KNOWN_ERRORS[error.code];
    if (known) return sendError(req, reply, known.status, known.error, known.message(error, req));
    if (error.statusCode === 429) return sendError(req, reply, 429, "rate_limited", error.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(req, reply, error.statusCode, "bad_request", error.message);
    }
    if (isCommitInDoubt(error)) {
      // The one 503 that may have written: the database went silent after COMMIT was sent.
      req.log.warn({ err: error }, "database unreachable during commit");
      reply.header("retry-after", "5");
      return sendError(req, reply, 503, "database_unavailable", COMMIT_IN_DOUBT_MESSAGE, { stored: "unknown" });
    }
    // Anything unexpected while PostgreSQL is away is an outage, not a bug: ask the caller to retry.
    if (isDatabaseOutage(error) || !(await databaseReady(db))) {
      req.log.warn({ err: error }, "database unreachable");
      reply.header("retry-after", "5");
      return sendError(
        req,
        reply,
        503,
        "database_unavailable",
        "The database is unreachable; nothing was stored. Retry later.",
      );
    }
    req.log.error({ err: error }, "unhandled error");
    return sendError(req, reply, 500, "internal_error", "Something went wrong on our side; nothing was stored.");
  });

  app.setNotFoundHandler((req, reply) => sendError(req, reply, 404, "not_found", `No route ${req.method} ${req.url}`));

  // Alerts of complete campaigns go out apart from any upload; closing waits for the work in flight.
  const alerts = startAlerts(db, { ...options.webhooks, publicWebUrl: options.publicWebUrl, log: app.log });
  app.addHook("onClose", () => alerts.close());
  app.decorate("alerts", alerts);

  const importLimits = { ...defaultLimits.importLimits, ...options.importLimits };
  const maxImportBytes = options.maxImportBytes ?? defaultLimits.maxImportBytes;
  app.register(metaRoutes, { db, publicApiUrl: options.publicApiUrl });
  app.register(bundleRoutes, {
    db,
    publicApiUrl: options.publicApiUrl,
    publicWebUrl: options.publicWebUrl,
    onStored: alerts.afterStore,
  });
  app.register(campaignRoutes, { db });
  app.register(webhookRoutes, { db, alerts, policy: { ...defaultWebhookOptions.policy, ...options.webhooks?.policy } });
  app.register(gateRoutes, { db });
  app.register(metricsRoutes, { db, ...options.feed });
  app.register(importRoutes, {
    db,
    maxImportBytes,
    importLimits,
    publicApiUrl: options.publicApiUrl,
    publicWebUrl: options.publicWebUrl,
    onStored: alerts.afterStore,
  });
  return app;
}

/** README's API table: a 503 writes nothing, but for this one, which says so. */
const COMMIT_IN_DOUBT_MESSAGE =
  "The database stopped answering while the change was being committed: it may have been stored. Send the same request again once the database is back: an upload already stored answers 200 with its id and is never stored twice.";

/** The JSON document a non-upload route reads from its body (the gate's request); uploads are checked later. */
function requestDocument(req: FastifyRequest): unknown {
  if (req.routeOptions.config.upload || typeof req.body !== "string") return undefined;
  try {
    return JSON.parse(req.body);
  } catch {
    return undefined; // the route answers malformed_json itself
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** The alerts' worker: its `settled()` lets a test wait for deliveries. */
    alerts: Alerts;
  }
  interface FastifyContextConfig {
    /** The setting of the route's own body limit, named when a body is refused (default CNIBENCH_MAX_BUNDLE_BYTES). */
    bodyLimitSetting?: string;
    /** The body is an upload: readStorableBundle checks its strings, naming paths inside the bundle. */
    upload?: boolean;
  }
}

/**
 * @fastify/rate-limit's store over packages/db's budgets, shared by every replica. Its address keys
 * (an address, an IPv6 one by its /64) and token keys ("token:…") cannot meet, so one store serves
 * both limiters. A failure to count (the database away) fails the request: the error handler answers
 * 503 with Retry-After, as the request itself would have.
 */
function sharedBudgets(db: Db, limits: string) {
  return class SharedBudgets {
    incr(
      key: string,
      done: (error: Error | null, result?: { current: number; ttl: number }) => void,
      windowMs: number,
    ) {
      spendBudget(db, `api:${limits}:${key}`, windowMs).then(
        (spent) => done(null, { current: spent.count, ttl: spent.resetInMs }),
        (error: Error) => done(error),
      );
    }
    child() {
      return this;
    }
  };
}

const KNOWN_ERRORS: Record<
  string,
  { status: number; error: string; message: (e: FastifyError, req: FastifyRequest) => string }
> = {
  // Fastify stops reading the body once it crosses the route's limit (or at once, by Content-Length).
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    error: "payload_too_large",
    message: (_e, req) =>
      `The body is larger than the limit of ${req.routeOptions.bodyLimit} bytes (${req.routeOptions.config.bodyLimitSetting ?? "CNIBENCH_MAX_BUNDLE_BYTES"}).`,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    error: "unsupported_media_type",
    message: () => "Send the bundle as JSON with the header Content-Type: application/json.",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    error: "malformed_json",
    message: () => "The body is empty; send a bundle as JSON.",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    error: "bad_request",
    message: () => "The Content-Length header does not match the body.",
  },
};
