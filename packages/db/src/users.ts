// Who signed in, and their sessions. A user is an identity at a provider (issuer, subject): memberships
// and the administrator are bound to that, never to an e-mail address, which is only how owners name
// someone to invite — so an address is kept only when the provider says it is verified, and for one user.
import { randomBytes } from "node:crypto";
import type { Db } from "./client.ts";
import { DEFAULT_WORKSPACE } from "./workspace.ts";

/** `email`: an address the provider says is verified (email_verified), else null. */
export type Identity = { issuer: string; subject: string; email: string | null; name: string | null };

/**
 * Records a sign-in. The first user of an installation, or the one whose verified address is
 * `adminEmail`, becomes its administrator and owner of the public workspace. Serialised by an advisory
 * lock so two first sign-ins at once make one administrator. An address another user holds already
 * is not taken over: this user keeps none (`emailTaken`), and invitations to it never reach them.
 */
export async function recordSignIn(
  db: Db,
  identity: Identity,
  adminEmail?: string,
): Promise<{ id: string; isAdmin: boolean; emailTaken: boolean }> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('cnibench.sign-in'))`;
    const wanted = identity.email?.trim().toLowerCase() || null;
    const holder = wanted
      ? await tx.user.findUnique({ where: { email: wanted }, select: { issuer: true, subject: true } })
      : null;
    const emailTaken = holder !== null && (holder.issuer !== identity.issuer || holder.subject !== identity.subject);
    const email = emailTaken ? null : wanted;
    const user = await tx.user.upsert({
      where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
      update: { email, name: identity.name },
      create: { ...identity, email },
      select: { id: true, isAdmin: true },
    });
    if (user.isAdmin) return { id: user.id, isAdmin: true, emailTaken };
    const named = adminEmail !== undefined && adminEmail !== "" && email === adminEmail.trim().toLowerCase();
    const first = !adminEmail && (await tx.user.count({ where: { isAdmin: true } })) === 0;
    if (!named && !first) return { id: user.id, isAdmin: false, emailTaken };
    await tx.user.update({ where: { id: user.id }, data: { isAdmin: true } });
    const open = await tx.workspace.upsert({
      where: { slug: DEFAULT_WORKSPACE.slug },
      update: {},
      create: { ...DEFAULT_WORKSPACE, visibility: "public" },
      select: { id: true },
    });
    await tx.membership.upsert({
      where: { workspaceId_userId: { workspaceId: open.id, userId: user.id } },
      update: { role: "owner" },
      create: { workspaceId: open.id, userId: user.id, role: "owner" },
    });
    return { id: user.id, isAdmin: true, emailTaken };
  });
}

/** A new session of a user (a signed-in browser); its id goes into the session cookie. */
export async function startSession(db: Db, userId: string, maxAgeSeconds: number): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await db.userSession.create({ data: { id, userId, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) } });
  return id;
}

/** The user of a live session, or null once it was ended, has expired, or never existed. */
export async function sessionUser(db: Db, sessionId: string): Promise<string | null> {
  const found = await db.userSession.findUnique({
    where: { id: sessionId },
    select: { userId: true, expiresAt: true },
  });
  return found && found.expiresAt > new Date() ? found.userId : null;
}

/** Signing out: the session's cookie signs nobody in from now on, whoever replays it. */
export async function endSession(db: Db, sessionId: string): Promise<void> {
  await db.userSession.deleteMany({ where: { id: sessionId } });
}
