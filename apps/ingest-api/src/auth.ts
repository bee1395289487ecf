import { accessFor, authenticateToken, type Db, workspaceSlug } from "@cnibench/db";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "./errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    uploader?: { tokenId: string; workspaceId: string; scope: "upload" | "read" };
  }
}

const bearer = (req: FastifyRequest) => req.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];

/**
 * onRequest hook of every upload route: authenticates before the body is read, so a stranger's
 * large upload is refused unread. Sets req.uploader. A token writes into its own workspace only:
 * `?workspace=<slug>` naming another one is refused (403), never redirected. A read token (scope
 * read: dashboards, scrapers) writes nothing: every route behind this hook refuses it (403).
 */
export function requireUploadToken(db: Db) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(req);
    reply.header("www-authenticate", 'Bearer realm="cnibench"');
    if (!token) {
      return sendError(
        req,
        reply,
        401,
        "missing_token",
        "Send an upload token: Authorization: Bearer <token> (npm run token -- create <name>).",
      );
    }
    const uploader = await authenticateToken(db, token);
    if (!uploader) return sendError(req, reply, 401, "invalid_token", "The upload token is unknown or revoked.");
    if (uploader.scope !== "upload") {
      return sendError(
        req,
        reply,
        403,
        "read_only_token",
        "This is a read token: it reads its workspace (GET routes, the metrics feed) but cannot upload, import, gate or delete. Use an upload token.",
      );
    }
    const named = (req.query as { workspace?: unknown }).workspace;
    if (named !== undefined) {
      const own = await workspaceSlug(db, uploader.workspaceId);
      if (named !== own) {
        return sendError(
          req,
          reply,
          403,
          "wrong_workspace",
          `This token uploads into the workspace "${own}" only, not "${String(named)}".`,
        );
      }
    }
    req.uploader = uploader;
  };
}

/**
 * The workspaces a read may see: every public one, and the bearer token's own, of either scope (so a
 * collector can read back what it uploaded into a private workspace, and a dashboard with a read token
 * reads it). An unknown token reads like no token.
 */
export async function readableWorkspaces(db: Db, req: FastifyRequest): Promise<string[]> {
  const token = bearer(req);
  // A stranger's access (accessFor with no user) reads exactly the public workspaces.
  const [open, uploader] = await Promise.all([accessFor(db, null), token ? authenticateToken(db, token) : null]);
  return [...open.readable, ...(uploader ? [uploader.workspaceId] : [])];
}

export type PublicUrls = { publicApiUrl: string; publicWebUrl: string };

/** Where to find a stored bundle: the body of 201/200 upload responses (UploadResult). */
export function uploadResult(
  stored: { id: string; scenarioId: string; measurementCount: number },
  warnings: { path: string; message: string }[],
  urls: PublicUrls,
) {
  return {
    id: stored.id,
    scenarioId: stored.scenarioId,
    measurementCount: stored.measurementCount,
    apiUrl: `${urls.publicApiUrl}/v1/bundles/${stored.id}`,
    webUrl: `${urls.publicWebUrl}/scenarios/${stored.scenarioId}`,
    warnings,
  };
}
