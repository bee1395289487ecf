import { createHash, randomUUID } from "node:crypto";
import { type Db, databaseReady, isDatabaseOutage } from "@cnibench/db";
import { type ArchiveLimits, defaultArchiveLimits } from "@cnibench/importers";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { sendError } from "./errors.ts";
import { bundleRoutes } from "./routes/bundles.ts";
import { importRoutes } from "./routes/import.ts";
import { metaRoutes } from "./routes/meta.ts";

export type ServerOptions = {
  db: Db;
  publicApiUrl: string;
  publicWebUrl: string;
  maxBundleBytes?: number;
  /** POST /v1/import's archive limits (entries, decompressed bytes). */
  importLimits?: Partial<ArchiveLimits>;
  /** Requests a minute per upload token (per client address without one). */
  rateLimitPerMinute?: number;
  logLevel?: string;
};

export function buildServer(options: ServerOptions): FastifyInstance {
  const { db } = options;
  const maxBundleBytes = options.maxBundleBytes ?? 5 * 1024 * 1024;
  const app = Fastify({
    logger: { level: options.logLevel ?? "info" },
    bodyLimit: maxBundleBytes,
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

  // Per token, so one busy collector cannot starve the others; probes are never limited. In-process
  // counters: each replica counts its own (deploy/README.md).
  app.register(rateLimit, {
    max: options.rateLimitPerMinute ?? 600,
    timeWindow: 60_000,
    allowList: (req) => req.url === "/healthz" || req.url === "/readyz",
    keyGenerator: (req) => {
      const token = req.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
      return token ? `token:${createHash("sha256").update(token).digest("hex")}` : `address:${req.ip}`;
    },
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      message: `More than ${context.max} requests a minute with this token; retry in ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });

  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });

  app.setErrorHandler<FastifyError>(async (error, req, reply) => {
    const known = KNOWN_ERRORS[error.code];
    if (known) {
      return sendError(req, reply, known.status, known.error, known.message(error, maxBundleBytes));
    }
    if (error.statusCode === 429) return sendError(req, reply, 429, "rate_limited", error.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(req, reply, error.statusCode, "bad_request", error.message);
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

  const importLimits = { ...defaultArchiveLimits, ...options.importLimits };
  app.register(metaRoutes, { db, maxBundleBytes, importLimits, publicApiUrl: options.publicApiUrl });
  app.register(bundleRoutes, {
    db,
    publicApiUrl: options.publicApiUrl,
    publicWebUrl: options.publicWebUrl,
  });
  app.register(importRoutes, {
    db,
    importLimits,
    publicApiUrl: options.publicApiUrl,
    publicWebUrl: options.publicWebUrl,
  });
  return app;
}

const KNOWN_ERRORS: Record<
  string,
  { status: number; error: string; message: (e: FastifyError, limit: number) => string }
> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    error: "payload_too_large",
    message: (_e, limit) => `The body is larger than the limit of ${limit} bytes (CNIBENCH_MAX_BUNDLE_BYTES).`,
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
