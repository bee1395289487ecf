/**
 * POST /v1/import: a raw benchmark output (iperf3, fortio, netperf, knb, an EKS or TKE collector's
 * results — one file or an archive) in, stored bundles out. The files do not say where they ran, so
 * the environment comes as query parameters or an X-Cnibench-Environment JSON header. Same token and
 * error shapes as POST /v1/bundles, with a body limit of its own (a result tree's archive is larger
 * than a bundle); every bundle of one import is stored in one transaction, or none is. With
 * `?partial=true` the files that import are stored and the others listed as refused, with their reason.
 * The bundles of one import are one campaign: `?campaign=`, or one derived from what the import built
 * (import-job.ts), for each bundle that names none of its own.
 */
import { type Db, type StoredBundle, storeBundles } from "@cnibench/db";
import {
  type ArchiveLimits,
  type EnvironmentInput,
  environmentFromJson,
  environmentFromStrings,
  type FileReport,
  type FormatChoice,
  formatNames,
  readCampaign,
  refineEnvironment,
  scalarEnvironmentKeys,
} from "@cnibench/importers";
import type { ImportResult } from "@cnibench/schema";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { type PublicUrls, requireUploadToken, uploadResult } from "../auth.ts";
import { sendError } from "../errors.ts";
import { ImportPool } from "../import-pool.ts";

export type ImportRouteOptions = PublicUrls & {
  db: Db;
  maxImportBytes: number;
  importLimits: ArchiveLimits;
  /** Told of what an import stored, after it is stored (alerts: webhooks.ts). */
  onStored?: (workspaceId: string, stored: readonly StoredBundle[]) => void;
};

/** Body types an import accepts: the file as it is, or an archive of files. */
const acceptedTypes =
  /^(application\/(octet-stream|json|[\w.-]+\+json|gzip|x-gzip|zip|x-zip-compressed|x-tar|x-gtar|x-compressed-tar|yaml|x-yaml)|text\/[\w.+-]+)\s*(;|$)/i;

// `workspace` is checked by requireUploadToken (it must name the token's own workspace), not read here.
const importQueryKeys = [
  "format",
  "filename",
  "campaign",
  "partial",
  "setting",
  "param",
  "workspace",
  ...scalarEnvironmentKeys,
] as const;

export const importRoutes: FastifyPluginAsync<ImportRouteOptions> = async (app, opts) => {
  const { db } = opts;
  const pool = new ImportPool();
  // Imports in flight finish before the workers end (app.close() drains).
  app.addHook("onClose", () => pool.close());
  // Raw bytes whatever the type: this plugin's parsers do not leak into the JSON-only routes. Fastify
  // reads the body chunk by chunk against the route's bodyLimit, and stops (413) once it is crossed,
  // or at once when Content-Length says so.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  const route = {
    onRequest: requireUploadToken(db),
    bodyLimit: opts.maxImportBytes,
    config: { bodyLimitSetting: "CNIBENCH_IMPORT_MAX_BYTES", upload: true },
  };
  app.post("/v1/import", route, async (req, reply) => {
    const uploader = req.uploader!;
    const type = req.headers["content-type"] ?? "";
    if (!acceptedTypes.test(type)) {
      return sendError(
        req,
        reply,
        415,
        "unsupported_media_type",
        `Send the file or archive itself as the body (curl --data-binary @file) with Content-Type application/octet-stream, application/json, application/gzip, application/zip, application/x-tar or text/plain; got "${type || "none"}".`,
      );
    }
    const body = req.body;
    if (!Buffer.isBuffer(body) || body.length === 0) {
      return sendError(req, reply, 400, "empty_body", "The body is empty; send the result file or an archive of them.");
    }

    const parsed = readParameters(req);
    if (!parsed.ok) return sendError(req, reply, 400, "bad_query", parsed.message, { issues: parsed.issues });

    // Unpacked, parsed and read for storage in a worker thread (import-pool.ts): the event loop
    // answers other requests meanwhile.
    const job = await pool.run({
      filename: parsed.filename,
      bytes: ownBytes(body),
      environment: parsed.environment,
      format: parsed.format,
      limits: opts.importLimits,
      partial: parsed.partial,
      ...(parsed.campaign === undefined ? {} : { campaign: parsed.campaign }),
    });
    if (job.kind === "limit") {
      return job.limit === "unpacked-bytes"
        ? sendError(req, reply, 413, "archive_too_large", job.message)
        : sendError(req, reply, 422, "too_many_entries", job.message);
    }
    const { files } = job;
    if (job.kind === "failed") return importFailed(req, reply, files, job.message);
    if (job.kind === "nothing") {
      return sendError(
        req,
        reply,
        422,
        "nothing_to_import",
        "No file of the upload holds results cnibench imports; nothing was stored.",
        {
          files,
        },
      );
    }
    const prepared = job.bundles;

    const { workspaceId, tokenId } = uploader;
    const stored = await storeBundles(
      db,
      prepared.map(({ raw, contentHash, bundle, warnings }) => ({
        workspaceId,
        tokenId,
        raw,
        contentHash,
        bundle,
        warnings,
      })),
    );
    opts.onStored?.(workspaceId, stored);
    const created = stored.some((s) => s.created);
    const refused = files.filter((f) => f.status === "failed").length;
    req.log.info(
      {
        bundles: stored.length,
        created: stored.filter((s) => s.created).length,
        refused,
        format: parsed.format,
        campaign: job.campaign,
      },
      "import stored",
    );
    const answer = {
      campaign: job.campaign,
      refused,
      bundles: stored.map((s, i) => ({
        file: prepared[i]!.file,
        format: prepared[i]!.format,
        created: s.created,
        ...uploadResult(s, prepared[i]!.warnings, opts),
        // A run already stored keeps its campaign: say which, when it is not this import's.
        ...(s.campaign !== job.campaign ? { campaign: s.campaign } : {}),
      })),
      files,
    } satisfies ImportResult;
    return reply.status(created ? 201 : 200).send(answer);
  });
};

function importFailed(req: FastifyRequest, reply: FastifyReply, files: FileReport[], message: string) {
  // Flattened for clients that only read `issues`: "<file>: <path or field>" → message.
  const issues = files
    .filter((f) => f.status === "failed")
    .flatMap((f) => [
      ...(f.missing ?? []).map((m) => ({
        path: `${f.file}: ${m.path}`,
        message: `required; pass ?${m.input}=… or "${m.input}" in X-Cnibench-Environment`,
      })),
      ...(f.issues ?? []).map((i) => ({ path: `${f.file}: ${i.path}`, message: i.message })),
      ...(!f.missing && !f.issues ? [{ path: f.file, message: f.error ?? "failed" }] : []),
    ]);
  return sendError(req, reply, 422, "import_failed", message, { issues, files });
}

type ImportParameters =
  | {
      ok: true;
      format: FormatChoice;
      filename: string;
      environment: EnvironmentInput;
      campaign: string | undefined;
      partial: boolean;
    }
  | { ok: false; message: string; issues: { path: string; message: string }[] };

function readParameters(req: FastifyRequest): ImportParameters {
  const query = (req.query ?? {}) as Record<string, string | string[] | undefined>;
  const issues: { path: string; message: string }[] = [];
  for (const key of Object.keys(query)) {
    if (!(importQueryKeys as readonly string[]).includes(key)) {
      issues.push({ path: key, message: `unknown query parameter; use one of ${importQueryKeys.join(", ")}` });
    }
  }
  const format = (single(query.format) ?? "auto") as FormatChoice;
  if (format !== "auto" && !(formatNames as readonly string[]).includes(format)) {
    issues.push({
      path: "format",
      message: `must be auto, ${formatNames.filter((f) => f !== "bundle").join(", ")} or bundle`,
    });
  }
  const namedCampaign = single(query.campaign);
  const campaign = namedCampaign === undefined ? undefined : readCampaign(namedCampaign);
  if (campaign && !campaign.ok) issues.push({ path: "campaign", message: campaign.message });
  const partial = single(query.partial) ?? "false";
  if (partial !== "true" && partial !== "false") issues.push({ path: "partial", message: "must be true or false" });
  const fromQuery = environmentFromStrings(query);
  issues.push(...fromQuery.issues.map((i) => ({ path: i.key, message: i.message })));

  let fromHeader: EnvironmentInput = {};
  const header = req.headers["x-cnibench-environment"];
  if (typeof header === "string" && header.trim() !== "") {
    let json: unknown;
    try {
      json = JSON.parse(header);
    } catch (error) {
      issues.push({ path: "X-Cnibench-Environment", message: `is not JSON: ${(error as Error).message}` });
    }
    if (json !== undefined) {
      const read = environmentFromJson(json);
      fromHeader = read.environment;
      issues.push(
        ...read.issues.map((i) => ({ path: `X-Cnibench-Environment${i.key ? `.${i.key}` : ""}`, message: i.message })),
      );
    }
  }
  if (issues.length > 0) {
    const n = issues.length;
    return { ok: false, message: `${n} parameter${n === 1 ? " is" : "s are"} invalid; nothing was stored.`, issues };
  }
  // Query parameters refine the header's general fields; the header's per-file entries stay the most specific.
  const environment = refineEnvironment(fromHeader, fromQuery.environment);
  return {
    ok: true,
    format,
    filename: safeFilename(single(query.filename) ?? filenameFromDisposition(req)),
    environment,
    campaign: campaign?.ok ? campaign.campaign : undefined,
    partial: partial === "true",
  };
}

/**
 * The body's bytes in an ArrayBuffer of their own, which the import pool moves to its worker. A large
 * body (Buffer.concat of its chunks) already has one, and is not copied again; a small one may be a
 * slice of Node's shared pool, which must not be moved: it is copied.
 */
function ownBytes(body: Buffer): Uint8Array {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function filenameFromDisposition(req: FastifyRequest): string | undefined {
  const header = req.headers["content-disposition"];
  return typeof header === "string" ? /filename="?([^";]+)"?/i.exec(header)?.[1] : undefined;
}

/** The name matters for context.yaml / benchmark-summary.json sent alone; no directories. */
function safeFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop()?.trim() ?? "";
  return base === "" || base === "." || base === ".." ? "upload" : base.slice(0, 200);
}
