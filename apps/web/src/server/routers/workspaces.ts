import {
  type Access,
  acceptInvitation,
  atLeast,
  createToken,
  createWorkspace,
  type Db,
  declineInvitation,
  deleteBundle,
  deleteBundles,
  getWorkspace,
  ingestBundle,
  invitationsFor,
  invite,
  LastOwnerError,
  listInvitations,
  listWorkspacePermalinks,
  listWorkspaces,
  type Role,
  removeMember,
  revokeToken,
  setRole,
  setVisibility,
  TokenNameTakenError,
  WorkspaceSlugTakenError,
  withdrawInvitation,
  workspaceIdBySlug,
  workspaceOfBundle,
  workspaceOfScenario,
} from "@cnibench/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createTRPCRouter, publicProcedure, signedInProcedure } from "../trpc/trpc";
import {
  bundleRefSchema,
  campaignRefSchema,
  createTokenInputSchema,
  createWorkspaceInputSchema,
  invitationRefSchema,
  invitationSchema,
  invitedSchema,
  inviteInputSchema,
  removeMemberInputSchema,
  setRoleInputSchema,
  tokenInputSchema,
  uploadInputSchema,
  visibilityInputSchema,
  withdrawInvitationInputSchema,
  workspaceDetailSchema,
  workspaceRefSchema,
  workspaceSummarySchema,
} from "./workspaces.types";

/**
 * The workspace of a slug when the visitor holds `role` there. A workspace they may not read is
 * NOT_FOUND, as if it did not exist; one they read without the role is FORBIDDEN.
 */
async function workspaceAs(db: Db, access: Access, slug: string, role: Role): Promise<{ id: string; slug: string }> {
  const id = await workspaceIdBySlug(db, slug);
  if (!id || !access.readable.includes(id)) {
    throw new TRPCError({ code: "NOT_FOUND", message: `no workspace ${slug}` });
  }
  if (!atLeast(access, id, role)) {
    throw new TRPCError({ code: "FORBIDDEN", message: `this needs the ${role} role in ${slug}` });
  }
  return { id, slug };
}

const conflict = (error: unknown): never => {
  if (
    error instanceof WorkspaceSlugTakenError ||
    error instanceof TokenNameTakenError ||
    error instanceof LastOwnerError
  ) {
    throw new TRPCError({ code: "CONFLICT", message: error.message });
  }
  throw error;
};

export const workspacesRouter = createTRPCRouter({
  /** The workspaces the visitor may read, with their role in each. */
  list: publicProcedure.output(z.array(workspaceSummarySchema)).query(({ ctx }) => listWorkspaces(ctx.db, ctx.access)),

  /**
   * One readable workspace; members see its members, members and owners its tokens, owners its
   * pending invitations and every permalink that pins its bundles.
   */
  bySlug: publicProcedure
    .input(workspaceRefSchema)
    .output(workspaceDetailSchema)
    .query(async ({ ctx, input }) => {
      const found = await getWorkspace(ctx.db, ctx.access, input.slug);
      if (!found) throw new TRPCError({ code: "NOT_FOUND", message: `no workspace ${input.slug}` });
      const owner = atLeast(ctx.access, found.id, "owner");
      const [invitations, permalinks] = owner
        ? await Promise.all([listInvitations(ctx.db, found.id), listWorkspacePermalinks(ctx.db, found.id)])
        : [[], []];
      return { ...found, invitations, permalinks };
    }),

  /** A new workspace owned by the signed-in user. */
  create: signedInProcedure
    .input(createWorkspaceInputSchema)
    .mutation(({ ctx, input }) => createWorkspace(ctx.db, ctx.userId, input).catch(conflict)),

  setVisibility: signedInProcedure.input(visibilityInputSchema).mutation(async ({ ctx, input }) => {
    const w = await workspaceAs(ctx.db, ctx.access, input.slug, "owner");
    await setVisibility(ctx.db, w.id, input.visibility);
    return { slug: w.slug, visibility: input.visibility };
  }),

  /**
   * Invites an address (owners). Nobody joins until the user holding it accepts; the answer is the
   * same whether or not anyone has signed in with it, and no user is read to give it.
   */
  invite: signedInProcedure
    .input(inviteInputSchema)
    .output(invitedSchema)
    .mutation(async ({ ctx, input }) => {
      const w = await workspaceAs(ctx.db, ctx.access, input.slug, "owner");
      await invite(ctx.db, { workspaceId: w.id, email: input.email, role: input.role, invitedById: ctx.userId });
      return { slug: w.slug, role: input.role, status: "invited" as const };
    }),

  /** Withdraws a pending invitation (owners). */
  withdrawInvitation: signedInProcedure.input(withdrawInvitationInputSchema).mutation(async ({ ctx, input }) => {
    const w = await workspaceAs(ctx.db, ctx.access, input.slug, "owner");
    if (!(await withdrawInvitation(ctx.db, w.id, input.email))) {
      throw new TRPCError({ code: "NOT_FOUND", message: `no invitation for ${input.email}` });
    }
    return { slug: w.slug, email: input.email };
  }),

  /** The invitations waiting for the signed-in user (to their verified address); none when signed out. */
  invitations: publicProcedure
    .output(z.array(invitationSchema))
    .query(({ ctx }) => (ctx.access.userId ? invitationsFor(ctx.db, ctx.access.userId) : [])),

  /** The invitee accepts: a member from now on. Anyone else's invitation is NOT_FOUND, as a made-up id. */
  acceptInvitation: signedInProcedure.input(invitationRefSchema).mutation(async ({ ctx, input }) => {
    const joined = await acceptInvitation(ctx.db, ctx.userId, input.id).catch(conflict);
    if (!joined) throw new TRPCError({ code: "NOT_FOUND", message: "no such invitation" });
    return joined;
  }),

  /** The invitee declines: the invitation is gone, they never joined. */
  declineInvitation: signedInProcedure.input(invitationRefSchema).mutation(async ({ ctx, input }) => {
    if (!(await declineInvitation(ctx.db, ctx.userId, input.id))) {
      throw new TRPCError({ code: "NOT_FOUND", message: "no such invitation" });
    }
    return { id: input.id };
  }),

  /**
   * Changes a member's role (owners); a member made viewer loses the upload tokens they created, and
   * the last owner cannot step down. Someone who is not a member joins by invitation only.
   */
  setRole: signedInProcedure.input(setRoleInputSchema).mutation(async ({ ctx, input }) => {
    const w = await workspaceAs(ctx.db, ctx.access, input.slug, "owner");
    const changed = await setRole(ctx.db, w.id, input.userId, input.role).catch(conflict);
    if (!changed) throw new TRPCError({ code: "NOT_FOUND", message: `no member ${input.userId}` });
    return { slug: w.slug, userId: input.userId, role: input.role, revokedTokens: changed.revokedTokens };
  }),

  /** Removes a member and revokes the upload tokens they created; the last owner stays. */
  removeMember: signedInProcedure.input(removeMemberInputSchema).mutation(async ({ ctx, input }) => {
    const w = await workspaceAs(ctx.db, ctx.access, input.slug, "owner");
    const { revokedTokens } = await removeMember(ctx.db, w.id, input.userId).catch(conflict);
    return { slug: w.slug, userId: input.userId, revokedTokens };
  }),

  /** An upload (or read) token for this workspace; the value is in this answer only. */
  createToken: signedInProcedure.input(createTokenInputSchema).mutation(async ({ ctx, input }) => {
    const w = await workspaceAs(ctx.db, ctx.access, input.slug, "member");
    const { token } = await createToken(ctx.db, w.id, input.name, ctx.userId, input.scope).catch(conflict);
    return { slug: w.slug, name: input.name, scope: input.scope, token };
  }),

  revokeToken: signedInProcedure.input(tokenInputSchema).mutation(async ({ ctx, input }) => {
    const w = await workspaceAs(ctx.db, ctx.access, input.slug, "owner");
    if (!(await revokeToken(ctx.db, w.id, input.name))) {
      throw new TRPCError({ code: "NOT_FOUND", message: `no live token named ${input.name}` });
    }
    return { slug: w.slug, name: input.name };
  }),

  /** Deletes a bundle and its figures (owners); permalinks that pinned it then name it as deleted. */
  deleteBundle: signedInProcedure.input(bundleRefSchema).mutation(async ({ ctx, input }) => {
    const workspaceId = await workspaceOfBundle(ctx.db, input.bundleId);
    // A bundle of a workspace the visitor may not read is as unknown as a made-up id: its workspace is not named.
    if (!workspaceId || !ctx.access.readable.includes(workspaceId)) {
      throw new TRPCError({ code: "NOT_FOUND", message: `no bundle ${input.bundleId}` });
    }
    if (!atLeast(ctx.access, workspaceId, "owner")) {
      throw new TRPCError({ code: "FORBIDDEN", message: "only an owner of its workspace may delete a bundle" });
    }
    const done = await deleteBundle(ctx.db, input.bundleId);
    if (!done) throw new TRPCError({ code: "NOT_FOUND", message: `no bundle ${input.bundleId}` });
    return done;
  }),

  /**
   * Deletes every bundle of a campaign in the workspace of a scenario (owners), as DELETE
   * /v1/campaigns/:campaign does: what one import or CLI run stored, in whichever scenarios it went.
   */
  deleteCampaign: signedInProcedure.input(campaignRefSchema).mutation(async ({ ctx, input }) => {
    const workspaceId = await workspaceOfScenario(ctx.db, input.scenarioId);
    if (!workspaceId || !ctx.access.readable.includes(workspaceId)) {
      throw new TRPCError({ code: "NOT_FOUND", message: `no scenario ${input.scenarioId}` });
    }
    if (!atLeast(ctx.access, workspaceId, "owner")) {
      throw new TRPCError({ code: "FORBIDDEN", message: "only an owner of its workspace may delete a campaign" });
    }
    const deleted = await deleteBundles(ctx.db, { workspaceId, campaign: input.campaign });
    if (deleted.bundleIds.length === 0) {
      throw new TRPCError({ code: "NOT_FOUND", message: `no bundle of campaign ${input.campaign}` });
    }
    return deleted;
  }),

  /** A bundle dropped on the workspace page: validated and stored like an upload to the API. */
  upload: signedInProcedure.input(uploadInputSchema).mutation(async ({ ctx, input }) => {
    const w = await workspaceAs(ctx.db, ctx.access, input.slug, "member");
    const outcome = await ingestBundle(ctx.db, { workspaceId: w.id, tokenId: null, text: input.text });
    if (!outcome.ok) {
      const message =
        outcome.reason === "malformed_json"
          ? `${input.filename} is not JSON: ${outcome.message}`
          : `${input.filename} is not a valid bundle: ${outcome.issues
              .slice(0, 5)
              .map((i) => `${i.path} ${i.message}`)
              .join("; ")}`;
      throw new TRPCError({ code: "BAD_REQUEST", message });
    }
    // Its campaign's alerts are judged by the ingest API's alert worker once the campaign is complete
    // (a trigger marks it as the bundle is stored: apps/ingest-api/src/webhooks.ts); never in this request.
    return {
      scenarioId: outcome.stored.scenarioId,
      bundleId: outcome.stored.id,
      measurementCount: outcome.stored.measurementCount,
      created: outcome.stored.created,
      warnings: outcome.warnings.map((w) => w.message),
    };
  }),
});
