import { authenticateToken, type Db } from "@cnibench/db";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "./errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    uploader?: { tokenId: string; workspaceId: string };
  }
}

/**
 * onRequest hook of every upload route: authenticates before the body is read, so a stranger's
 * large upload is refused unread. Sets req.uploader.
 */
export function requireUploadToken(db: Db) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers.authorization;
    const token = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
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
    req.uploader = uploader;
  };
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
