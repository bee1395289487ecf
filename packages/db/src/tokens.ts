import { createHash, randomBytes } from "node:crypto";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

/** Tokens are shown once; only their SHA-256 is stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newTokenValue(): string {
  return `cnb_${randomBytes(32).toString("base64url")}`;
}

/**
 * What a token may do: `upload` stores, imports, gates and (an owner's) deletes in its workspace, and
 * reads it; `read` only reads it (GET routes, the metrics feed), for dashboards and scrapers.
 */
const tokenScopes = ["upload", "read"] as const;
export type TokenScope = (typeof tokenScopes)[number];

export type TokenSummary = {
  name: string;
  scope: TokenScope;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export class TokenNameTakenError extends Error {
  constructor(name: string) {
    super(`a token named "${name}" already exists in this workspace`);
  }
}

/** A new token (upload unless `scope` says read); `createdById` is the member who made it (null for the command-line tool). */
export async function createToken(
  db: Db,
  workspaceId: string,
  name: string,
  createdById: string | null = null,
  scope: TokenScope = "upload",
): Promise<{ id: string; token: string }> {
  const token = newTokenValue();
  const existing = await db.apiToken.findUnique({
    where: { workspaceId_name: { workspaceId, name } },
    select: { id: true },
  });
  if (existing) throw new TokenNameTakenError(name);
  const created = await db.apiToken.create({
    data: { workspaceId, name, tokenHash: hashToken(token), createdById, scope },
    select: { id: true },
  });
  return { id: created.id, token };
}

/** Revokes by name; returns false when no live token has that name. */
export async function revokeToken(db: Db, workspaceId: string, name: string): Promise<boolean> {
  const { count } = await db.apiToken.updateMany({
    where: { workspaceId, name, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

export function listTokens(db: Db, workspaceId: string): Promise<TokenSummary[]> {
  return db.apiToken.findMany({
    where: { workspaceId },
    select: { name: true, scope: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * The workspace of a live token and its scope, or null for an unknown or revoked token. Read through the
 * plain pool, and the last-used time written at most once a minute: two Prisma calls and a write to
 * the one token row every upload queued behind were the largest cost of an upload after storing it
 * (npm run bench:ingest).
 */
export async function authenticateToken(
  db: Db,
  token: string,
): Promise<{ tokenId: string; workspaceId: string; scope: TokenScope } | null> {
  const [found] = await readRows<{ id: string; workspaceId: string; scope: TokenScope; stale: boolean }>(
    db,
    Prisma.sql`SELECT id, "workspaceId", scope::text AS scope,
      "lastUsedAt" IS NULL OR "lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '1 minute' AS stale
    FROM "ApiToken" WHERE "tokenHash" = ${hashToken(token)} AND "revokedAt" IS NULL`,
  );
  if (!found) return null;
  if (found.stale) await db.apiToken.update({ where: { id: found.id }, data: { lastUsedAt: new Date() } });
  return { tokenId: found.id, workspaceId: found.workspaceId, scope: found.scope };
}

/**
 * Whether an upload token may delete in its workspace. As in the web app only owners may, so its
 * creator must still be an owner there; a token made with `npm run token` has no creator and may not.
 */
export async function tokenOfOwner(db: Db, tokenId: string): Promise<boolean> {
  const token = await db.apiToken.findUnique({
    where: { id: tokenId },
    select: { workspaceId: true, createdById: true },
  });
  if (!token?.createdById) return false;
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: token.workspaceId, userId: token.createdById } },
    select: { role: true },
  });
  return membership?.role === "owner";
}
