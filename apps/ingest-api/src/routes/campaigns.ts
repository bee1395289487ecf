import { campaignBundleCount, type Db, deleteBundles, tokenOfOwner } from "@cnibench/db";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { requireUploadToken } from "../auth.ts";
import { sendError } from "../errors.ts";
import { notOwnerMessage } from "./bundles.ts";

/** Whether the workspace holds a bundle of the campaign; if not, answers 404 saying so. */
export async function campaignFound(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  workspaceId: string,
  campaign: string,
): Promise<boolean> {
  if ((await campaignBundleCount(db, workspaceId, campaign)) > 0) return true;
  sendError(
    req,
    reply,
    404,
    "not_found",
    `No bundle of campaign ${JSON.stringify(campaign)} in this token's workspace.`,
  );
  return false;
}

/**
 * DELETE /v1/campaigns/<campaign>: every bundle of a campaign in the token's workspace — what one
 * import or one CLI invocation stored, or the bundles naming that campaign.
 */
export const campaignRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  // A wildcard rather than a :param, which the router caps at 100 characters: a campaign may have 200,
  // and percent-encoded more, and may hold a "/".
  app.delete<{ Params: { "*": string } }>(
    "/v1/campaigns/*",
    { onRequest: requireUploadToken(db) },
    async (req, reply) => {
      const uploader = req.uploader!;
      const campaign = req.params["*"];
      if (!(await campaignFound(db, req, reply, uploader.workspaceId, campaign))) return reply;
      if (!(await tokenOfOwner(db, uploader.tokenId))) return sendError(req, reply, 403, "not_owner", notOwnerMessage);
      const deleted = await deleteBundles(db, { workspaceId: uploader.workspaceId, campaign });
      req.log.info({ campaign, ...deleted }, "campaign deleted");
      return deleted;
    },
  );
};
