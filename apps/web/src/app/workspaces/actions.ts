"use server";

import { TRPCError } from "@trpc/server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { z } from "zod";
import { tokenScopeSchema } from "~/server/routers/workspaces.types";
import { api } from "~/trpc/server";

type TokenScope = z.infer<typeof tokenScopeSchema>;

/** What a form shows after it was sent: an error in words, or what was done. */
export type ActionState = {
  error?: string;
  done?: string;
  token?: string;
  scope?: TokenScope;
  scenarioId?: string;
  /** A new webhook's signing secret: shown once. */
  secret?: string;
} | null;

const field = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Runs a procedure for a form; refusals and bad input come back as words, not as an error page. */
async function attempt(run: () => Promise<ActionState>): Promise<ActionState> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TRPCError) {
      const issues = (error.cause as { issues?: { path: PropertyKey[]; message: string }[] } | undefined)?.issues;
      return {
        error: issues?.length ? issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : error.message,
      };
    }
    throw error;
  }
}

export async function createWorkspaceAction(_: ActionState, form: FormData): Promise<ActionState> {
  const result = await attempt(async () => {
    const created = await (await api()).workspaces.create({
      slug: field(form, "slug"),
      name: field(form, "name"),
      visibility: field(form, "visibility") === "public" ? "public" : "private",
    });
    return { done: created.slug };
  });
  if (result?.done) redirect(`/workspaces/${result.done}`);
  return result;
}

export async function setVisibilityAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    const visibility = field(form, "visibility") === "public" ? "public" : "private";
    await (await api()).workspaces.setVisibility({ slug, visibility });
    revalidatePath(`/workspaces/${slug}`);
    return { done: `Now ${visibility}.` };
  });
}

export async function inviteAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    const role = field(form, "role") as "viewer" | "member" | "owner";
    await (await api()).workspaces.invite({ slug, email: field(form, "email"), role });
    revalidatePath(`/workspaces/${slug}`);
    return { done: `${field(form, "email")} is invited as a ${role}: they join once they accept.` };
  });
}

export async function withdrawInvitationAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    await (await api()).workspaces.withdrawInvitation({ slug, email: field(form, "email") });
    revalidatePath(`/workspaces/${slug}`);
    return { done: `Withdrew the invitation of ${field(form, "email")}.` };
  });
}

export async function setRoleAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    const role = field(form, "role") as "viewer" | "member" | "owner";
    const { revokedTokens } = await (await api()).workspaces.setRole({ slug, userId: field(form, "userId"), role });
    revalidatePath(`/workspaces/${slug}`);
    const revoked = revokedTokens > 0 ? `; ${revokedTokens} upload token(s) they created revoked` : "";
    return { done: `Now a ${role}${revoked}.` };
  });
}

/** The invitee joins: on to the workspace's page, as a member. */
export async function acceptInvitationAction(_: ActionState, form: FormData): Promise<ActionState> {
  const result = await attempt(async () => {
    const { slug } = await (await api()).workspaces.acceptInvitation({ id: field(form, "id") });
    return { done: slug };
  });
  if (result?.done) redirect(`/workspaces/${result.done}`);
  return result;
}

export async function declineInvitationAction(_: ActionState, form: FormData): Promise<ActionState> {
  return attempt(async () => {
    await (await api()).workspaces.declineInvitation({ id: field(form, "id") });
    revalidatePath("/workspaces");
    return { done: "Declined." };
  });
}

export async function removeMemberAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    const { revokedTokens } = await (await api()).workspaces.removeMember({ slug, userId: field(form, "userId") });
    revalidatePath(`/workspaces/${slug}`);
    return { done: `Removed${revokedTokens > 0 ? `; ${revokedTokens} upload token(s) they created revoked` : ""}.` };
  });
}

export async function revokePermalinkAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    await (await api()).compare.revoke({ slug: field(form, "permalink") });
    revalidatePath(`/workspaces/${slug}`);
    return { done: `Deleted /d/${field(form, "permalink")}.` };
  });
}

export async function createTokenAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    // Checked here too: a scope the form never offers is refused in words, never made an upload token.
    const asked = tokenScopeSchema.safeParse(form.get("scope") ?? "upload");
    if (!asked.success) return { error: "scope: upload or read" };
    const { token, name, scope } = await (await api()).workspaces.createToken({
      slug,
      name: field(form, "name"),
      scope: asked.data,
    });
    revalidatePath(`/workspaces/${slug}`);
    return { done: name, token, scope };
  });
}

export async function revokeTokenAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    await (await api()).workspaces.revokeToken({ slug, name: field(form, "name") });
    revalidatePath(`/workspaces/${slug}`);
    return { done: `Revoked ${field(form, "name")}.` };
  });
}

/** A dropped bundle file, stored in the workspace. */
export async function uploadAction(slug: string, filename: string, text: string): Promise<ActionState> {
  return attempt(async () => {
    const stored = await (await api()).workspaces.upload({ slug, filename, text });
    revalidatePath(`/workspaces/${slug}`);
    return {
      done: `${filename}: ${stored.created ? "stored" : "already stored"}, ${stored.measurementCount} measurements.`,
      scenarioId: stored.scenarioId,
    };
  });
}

export async function createWebhookAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    const events = form.getAll("events").map(String) as ("campaign-worse" | "change-point")[];
    const format = field(form, "format") === "slack" ? "slack" : "json";
    const { secret } = await (await api()).webhooks.create({ slug, url: field(form, "url"), format, events });
    revalidatePath(`/workspaces/${slug}`);
    return { done: field(form, "url"), secret };
  });
}

export async function pauseWebhookAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    const paused = field(form, "paused") === "true";
    await (await api()).webhooks.pause({ slug, id: field(form, "id"), paused });
    revalidatePath(`/workspaces/${slug}`);
    return { done: paused ? "Webhook paused." : "Webhook resumed." };
  });
}

export async function deleteWebhookAction(_: ActionState, form: FormData): Promise<ActionState> {
  const slug = field(form, "slug");
  return attempt(async () => {
    await (await api()).webhooks.delete({ slug, id: field(form, "id") });
    revalidatePath(`/workspaces/${slug}`);
    return { done: "Webhook deleted." };
  });
}
