// Who may do what, one model for the web app and the API.
//
// - A public workspace (the demo data's) anyone may read, signed in or not; a private one only its
//   members. Views read across every workspace the visitor may read (`Access.readable`).
// - Roles per workspace: viewer (read), member (read, create upload tokens, upload), owner (also
//   members, visibility, revoking tokens, publishing permalinks, deleting).
// - The administrator (the first user to sign in, or the one CNIBENCH_ADMIN_EMAIL names) owns the
//   public workspace; any signed-in user may create workspaces and owns those.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { workspaceIdBySlug } from "./workspace.ts";

export const roles = ["viewer", "member", "owner"] as const;
export type Role = (typeof roles)[number];
export type Visibility = "public" | "private";

export type Access = {
  userId: string | null;
  /** Ids of the workspaces this visitor may read. */
  readable: string[];
  /** The visitor's role per workspace id (members only). */
  roles: Record<string, Role>;
};

export const atLeast = (access: Access, workspaceId: string, role: Role): boolean => {
  const own = access.roles[workspaceId];
  return own !== undefined && roles.indexOf(own) >= roles.indexOf(role);
};

/** What a visitor may read and do: every public workspace, and the ones they are a member of. */
export async function accessFor(db: Db, userId: string | null): Promise<Access> {
  const [open, memberships] = await Promise.all([
    db.workspace.findMany({ where: { visibility: "public" }, select: { id: true } }),
    userId ? db.membership.findMany({ where: { userId }, select: { workspaceId: true, role: true } }) : [],
  ]);
  const roleOf = Object.fromEntries(memberships.map((m) => [m.workspaceId, m.role]));
  return {
    userId,
    readable: [...new Set([...open.map((w) => w.id), ...memberships.map((m) => m.workspaceId)])],
    roles: roleOf,
  };
}

export class WorkspaceSlugTakenError extends Error {
  constructor(slug: string) {
    super(`a workspace named "${slug}" exists already`);
  }
}

/** A new workspace, owned by its creator. */
export async function createWorkspace(
  db: Db,
  userId: string,
  input: { slug: string; name: string; visibility: Visibility },
): Promise<{ id: string; slug: string }> {
  try {
    return await db.workspace.create({
      data: { ...input, memberships: { create: { userId, role: "owner" } } },
      select: { id: true, slug: true },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new WorkspaceSlugTakenError(input.slug);
    }
    throw error;
  }
}

/** The workspaces a visitor may read, with their role in each (null where they only read). */
export async function listWorkspaces(db: Db, access: Access) {
  const found = await db.workspace.findMany({
    where: { id: { in: access.readable } },
    select: { id: true, slug: true, name: true, visibility: true, _count: { select: { bundles: true } } },
    orderBy: { slug: "asc" },
  });
  return found.map(({ _count, ...w }) => ({ ...w, bundles: _count.bundles, role: access.roles[w.id] ?? null }));
}

/** One readable workspace by slug; with its members (for its readers), its tokens with who made them (members). */
export async function getWorkspace(db: Db, access: Access, slug: string) {
  // Access first, by one lookup of the id that costs the same for an unknown slug: counting a private
  // workspace's bundles before refusing made its "not found" measurably slower (issue 43).
  const id = await workspaceIdBySlug(db, slug);
  if (!id || !access.readable.includes(id)) return null;
  const found = await db.workspace.findUniqueOrThrow({
    where: { id },
    select: { id: true, slug: true, name: true, visibility: true, _count: { select: { bundles: true } } },
  });
  const role = access.roles[found.id] ?? null;
  const [members, tokens] = await Promise.all([
    atLeast(access, found.id, "viewer")
      ? db.membership.findMany({
          where: { workspaceId: found.id },
          select: { role: true, user: { select: { id: true, email: true, name: true } } },
          orderBy: { createdAt: "asc" },
        })
      : [],
    atLeast(access, found.id, "member")
      ? db.apiToken.findMany({
          where: { workspaceId: found.id },
          select: {
            name: true,
            scope: true,
            createdAt: true,
            lastUsedAt: true,
            revokedAt: true,
            createdBy: { select: { email: true, name: true } },
          },
          orderBy: { createdAt: "asc" },
        })
      : [],
  ]);
  const { _count, ...workspace } = found;
  return {
    ...workspace,
    bundles: _count.bundles,
    role,
    members: members.map((m) => ({ ...m.user, role: m.role })),
    tokens: tokens.map(({ createdBy, ...t }) => ({ ...t, createdBy: createdBy?.email ?? createdBy?.name ?? null })),
  };
}

export class UnknownUserError extends Error {
  constructor(email: string) {
    super(
      `nobody with the verified address ${email} has signed in yet: they must sign in once before they can be added`,
    );
  }
}

export class LastOwnerError extends Error {
  constructor() {
    super("a workspace keeps at least one owner: make someone else an owner first");
  }
}

/**
 * Tokens a member created in a workspace stop working when they leave it or become a viewer (who may
 * not upload): what they could do there ends with their role.
 */
async function revokeTokensOf(tx: Prisma.TransactionClient, workspaceId: string, userId: string): Promise<number> {
  const { count } = await tx.apiToken.updateMany({
    where: { workspaceId, createdById: userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count;
}

/** Throws LastOwnerError when `userId` is the workspace's only owner (checked under a row lock). */
async function keepAnOwner(tx: Prisma.TransactionClient, workspaceId: string, userId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
  const owners = await tx.membership.findMany({ where: { workspaceId, role: "owner" }, select: { userId: true } });
  if (owners.length === 1 && owners[0]?.userId === userId) throw new LastOwnerError();
}

/**
 * Makes a user a member with `role`, or changes the role they hold, inside a transaction: the last
 * owner cannot step down; a member made viewer loses the upload tokens they created.
 */
export async function putMember(
  tx: Prisma.TransactionClient,
  workspaceId: string,
  userId: string,
  role: Role,
): Promise<{ revokedTokens: number }> {
  if (role !== "owner") await keepAnOwner(tx, workspaceId, userId);
  await tx.membership.upsert({
    where: { workspaceId_userId: { workspaceId, userId } },
    update: { role },
    create: { workspaceId, userId, role },
  });
  return { revokedTokens: role === "viewer" ? await revokeTokensOf(tx, workspaceId, userId) : 0 };
}

/**
 * Adds someone who has signed in before, by their verified address, without asking them: fixtures
 * (tests) only. The web app invites (invitations.ts): nobody joins a workspace without accepting.
 */
export async function setMember(
  db: Db,
  workspaceId: string,
  email: string,
  role: Role,
): Promise<{ revokedTokens: number }> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  if (!user) throw new UnknownUserError(email);
  return db.$transaction((tx) => putMember(tx, workspaceId, user.id, role));
}

/** Changes a member's role (owners); null when the user is not a member, who only joins by invitation. */
export async function setRole(
  db: Db,
  workspaceId: string,
  userId: string,
  role: Role,
): Promise<{ revokedTokens: number } | null> {
  return db.$transaction(async (tx) => {
    const member = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    return member ? putMember(tx, workspaceId, userId, role) : null;
  });
}

/** Removes a member and revokes the upload tokens they created; a workspace always keeps one owner. */
export async function removeMember(db: Db, workspaceId: string, userId: string): Promise<{ revokedTokens: number }> {
  return db.$transaction(async (tx) => {
    await keepAnOwner(tx, workspaceId, userId);
    await tx.membership.deleteMany({ where: { workspaceId, userId } });
    return { revokedTokens: await revokeTokensOf(tx, workspaceId, userId) };
  });
}

export async function setVisibility(db: Db, workspaceId: string, visibility: Visibility): Promise<void> {
  await db.workspace.update({ where: { id: workspaceId }, data: { visibility } });
}
