// Membership by invitation (issue 43). An owner invites an address; nobody becomes a member until the
// user holding that verified address accepts. Inviting reads no user: the answer, and the work done,
// are the same whether or not anyone has signed in with the address, so owners cannot test addresses,
// and until the invitee accepts, the owner sees only the address they typed, "invited" — a declined
// invitation too, which only leaves the invitee's list.
import { putMember, type Role, roles } from "./access.ts";
import type { Db } from "./client.ts";

/** Addresses are matched as users' verified ones are kept: trimmed and lower-cased. */
const normalise = (email: string) => email.trim().toLowerCase();

/**
 * Invites an address into a workspace with a role; inviting it again changes the role offered. A
 * declined invitation stays declined (the owner cannot tell it was): withdraw it to ask anew.
 */
export async function invite(
  db: Db,
  invitation: { workspaceId: string; email: string; role: Role; invitedById: string },
): Promise<void> {
  const email = normalise(invitation.email);
  await db.invitation.upsert({
    where: { workspaceId_email: { workspaceId: invitation.workspaceId, email } },
    update: { role: invitation.role, invitedById: invitation.invitedById },
    create: { ...invitation, email },
  });
}

/** Withdraws a pending invitation; false when there was none for the address. */
export async function withdrawInvitation(db: Db, workspaceId: string, email: string): Promise<boolean> {
  const { count } = await db.invitation.deleteMany({ where: { workspaceId, email: normalise(email) } });
  return count > 0;
}

/** A workspace's pending invitations, for its owners: the address as invited, the role, when. */
export async function listInvitations(db: Db, workspaceId: string) {
  return db.invitation.findMany({
    where: { workspaceId },
    select: { email: true, role: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  });
}

/** The invitations waiting for a user: those to their verified address (none without one). */
export async function invitationsFor(db: Db, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user?.email) return [];
  const found = await db.invitation.findMany({
    where: { email: user.email, declinedAt: null },
    select: {
      id: true,
      role: true,
      createdAt: true,
      workspace: { select: { slug: true, name: true } },
      invitedBy: { select: { email: true, name: true } },
    },
    orderBy: { createdAt: "asc" },
  });
  return found.map(({ invitedBy, ...i }) => ({ ...i, invitedBy: invitedBy?.email ?? invitedBy?.name ?? null }));
}

/** An invitation addressed to this user's verified address, or null: anyone else's is as unknown as a made-up id. */
async function ownInvitation(db: Pick<Db, "user" | "invitation">, userId: string, invitationId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user?.email) return null;
  return db.invitation.findFirst({
    where: { id: invitationId, email: user.email, declinedAt: null },
    select: { id: true, workspaceId: true, role: true, workspace: { select: { slug: true } } },
  });
}

/**
 * The invitee accepts: they become a member with the role offered (an invitation never lowers a role
 * they hold already). Null when the invitation is not theirs or no longer exists.
 */
export async function acceptInvitation(db: Db, userId: string, invitationId: string): Promise<{ slug: string } | null> {
  return db.$transaction(async (tx) => {
    const found = await ownInvitation(tx, userId, invitationId);
    if (!found) return null;
    const held = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: found.workspaceId, userId } },
      select: { role: true },
    });
    if (!held || roles.indexOf(held.role) < roles.indexOf(found.role)) {
      await putMember(tx, found.workspaceId, userId, found.role);
    }
    await tx.invitation.deleteMany({ where: { id: found.id } });
    return { slug: found.workspace.slug };
  });
}

/**
 * The invitee declines: it leaves their list and they never join; its owners still see it as invited
 * until they withdraw it. False when it is not theirs.
 */
export async function declineInvitation(db: Db, userId: string, invitationId: string): Promise<boolean> {
  const found = await ownInvitation(db, userId, invitationId);
  if (!found) return false;
  // updateMany: a decline racing an accept or a withdrawal finds nothing left, and that is no error.
  await db.invitation.updateMany({ where: { id: found.id }, data: { declinedAt: new Date() } });
  return true;
}
