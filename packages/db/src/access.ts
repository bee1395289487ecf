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
import { DEFAULT_WORKSPACE } from "./workspace.ts";

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

export type Identity = { issuer: string; subject: string; email: string | null; name: string | null };

/**
 * Records a sign-in. The first user of an installation, or the one whose address is `adminEmail`,
 * becomes its administrator and owner of the public workspace. Serialised by an advisory lock so two
 * first sign-ins at once make one administrator.
 */
export async function recordSignIn(
  db: Db,
  identity: Identity,
  adminEmail?: string,
): Promise<{ id: string; isAdmin: boolean }> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('cnibench.sign-in'))`;
    const user = await tx.user.upsert({
      where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
      update: { email: identity.email, name: identity.name },
      create: identity,
      select: { id: true, isAdmin: true, email: true },
    });
    if (user.isAdmin) return { id: user.id, isAdmin: true };
    const named = adminEmail !== undefined && adminEmail !== "" && user.email === adminEmail;
    const first = !adminEmail && (await tx.user.count({ where: { isAdmin: true } })) === 0;
    if (!named && !first) return { id: user.id, isAdmin: false };
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
    return { id: user.id, isAdmin: true };
  });
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

/** One readable workspace by slug; with its members and tokens for those who may see them. */
export async function getWorkspace(db: Db, access: Access, slug: string) {
  const found = await db.workspace.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, visibility: true, _count: { select: { bundles: true } } },
  });
  if (!found || !access.readable.includes(found.id)) return null;
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
          select: { name: true, createdAt: true, lastUsedAt: true, revokedAt: true },
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
    tokens,
  };
}

export class UnknownUserError extends Error {
  constructor(email: string) {
    super(`nobody has signed in as ${email} yet: they must sign in once before they can be added`);
  }
}

/** Adds someone who has signed in before, or changes their role. */
export async function setMember(db: Db, workspaceId: string, email: string, role: Role): Promise<void> {
  const user = await db.user.findFirst({ where: { email }, select: { id: true } });
  if (!user) throw new UnknownUserError(email);
  await db.membership.upsert({
    where: { workspaceId_userId: { workspaceId, userId: user.id } },
    update: { role },
    create: { workspaceId, userId: user.id, role },
  });
}

/** Removes a member; a workspace always keeps one owner. Returns false when that would leave none. */
export async function removeMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const owners = await tx.membership.findMany({ where: { workspaceId, role: "owner" }, select: { userId: true } });
    if (owners.length === 1 && owners[0]?.userId === userId) return false;
    await tx.membership.deleteMany({ where: { workspaceId, userId } });
    return true;
  });
}

export async function setVisibility(db: Db, workspaceId: string, visibility: Visibility): Promise<void> {
  await db.workspace.update({ where: { id: workspaceId }, data: { visibility } });
}
