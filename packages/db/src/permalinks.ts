import { randomBytes } from "node:crypto";
import { type Access, atLeast } from "./access.ts";
import type { Db } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

/**
 * A bundle a permalink pinned, with a label that still says what it was if it is deleted later, and
 * its scenario's name as it was then (`scenarioLabel`; absent in permalinks made before it was kept):
 * a later upload that renames the scenario does not rename what was shared (issue 43).
 */
export type Pin = { bundleId: string; scenarioId: string; label: string; scenarioLabel?: string | null };

/** The scenarios' names as they were pinned; a scenario of a permalink made before they were kept is left out. */
export function pinnedLabels(pins: readonly Pin[]): Record<string, string | null> {
  const labels: Record<string, string | null> = {};
  for (const pin of pins) if (pin.scenarioLabel !== undefined) labels[pin.scenarioId] = pin.scenarioLabel;
  return labels;
}

const pinLabel = (b: { sourceTitle: string | null; sourceSection: string | null; clusterName: string }) =>
  [b.sourceTitle ?? "uploaded bundle", b.sourceSection].filter(Boolean).join(" — ") || b.clusterName;

/**
 * Shares a comparison: pins every bundle the scenarios have now, so the permalink shows the same
 * numbers after newer uploads. Slugs are 8 random URL-safe characters (48 bits), retried on collision.
 * It names every workspace it pins, for good: it opens for readers of all of them, and for anyone once
 * it is public (see `isPublic`).
 */
export async function createPermalink(
  db: Db,
  access: Access,
  input: { scenarioIds: readonly string[]; view: Record<string, unknown> },
): Promise<{ slug: string; pins: Pin[] } | null> {
  const scenarios = await db.scenario.findMany({
    where: { id: { in: [...input.scenarioIds] }, workspaceId: { in: access.readable } },
    select: {
      id: true,
      workspaceId: true,
      label: true,
      bundles: { select: { id: true, sourceTitle: true, sourceSection: true, clusterName: true } },
    },
  });
  if (scenarios.length === 0 || scenarios.length !== new Set(input.scenarioIds).size) return null;
  const workspaceIds = [...new Set(scenarios.map((s) => s.workspaceId))].sort();
  const pins = scenarios.flatMap((s) =>
    s.bundles.map((b) => ({ bundleId: b.id, scenarioId: s.id, label: pinLabel(b), scenarioLabel: s.label })),
  );
  for (let attempt = 0; ; attempt++) {
    const slug = randomBytes(6).toString("base64url");
    try {
      await db.permalink.create({
        data: {
          slug,
          workspaceIds,
          scenarioIds: [...input.scenarioIds],
          pins,
          view: input.view as Prisma.InputJsonObject,
        },
      });
      return { slug, pins };
    } catch (error) {
      const collision = error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
      if (!collision || attempt >= 3) throw error;
    }
  }
}

type PinnedWorkspace = { id: string; slug: string; name: string; visibility: "public" | "private" };

/**
 * Where a permalink stands with each workspace it pins: public workspaces need nobody's consent,
 * private ones an approval by one of their owners. A workspace that no longer exists can never
 * agree, so deleting data never makes a private link public.
 */
function consent(link: { workspaceIds: string[]; approvals: string[] }, found: PinnedWorkspace[]) {
  const byId = new Map(found.map((w) => [w.id, w]));
  const parts = link.workspaceIds.map((id) => {
    const w = byId.get(id);
    return {
      id,
      workspace: w ?? null,
      agreed: w !== undefined && (w.visibility === "public" || link.approvals.includes(id)),
    };
  });
  return { parts, isPublic: parts.every((p) => p.agreed) };
}

async function pinnedWorkspaces(db: Db, ids: string[]): Promise<PinnedWorkspace[]> {
  return db.workspace.findMany({
    where: { id: { in: ids } },
    select: { id: true, slug: true, name: true, visibility: true },
  });
}

/**
 * A permalink as a visitor may see it. A reader of every workspace it pins sees it whole, with what
 * changed since it was made (pinned bundles that are gone, newer bundles of its scenarios); anyone
 * else sees a public permalink's pinned bundles only (`pinnedOnly`), and any other not at all (null,
 * as if it did not exist). Workspaces are named only to their own readers.
 */
export async function getPermalink(db: Db, access: Access, slug: string) {
  const found = await db.permalink.findUnique({ where: { slug } });
  if (!found) return null;
  const pins = found.pins as Pin[];
  const { parts, isPublic } = consent(found, await pinnedWorkspaces(db, found.workspaceIds));
  const reader = parts.every((p) => p.workspace !== null && access.readable.includes(p.id));
  if (!reader && !isPublic) return null;
  const current = reader
    ? await db.bundle.findMany({
        where: { scenarioId: { in: found.scenarioIds } },
        select: { id: true, scenarioId: true },
      })
    : await db.bundle.findMany({
        where: { id: { in: pins.map((p) => p.bundleId) } },
        select: { id: true, scenarioId: true },
      });
  const currentIds = new Set(current.map((b) => b.id));
  const pinned = new Set(pins.map((p) => p.bundleId));
  const owned = parts.filter((p) => p.workspace?.visibility === "private" && atLeast(access, p.id, "owner"));
  return {
    slug: found.slug,
    scenarioIds: found.scenarioIds,
    /** The workspaces it pins: what a view of the pinned bundles reads from. */
    workspaceIds: found.workspaceIds,
    view: found.view as Record<string, unknown>,
    createdAt: found.createdAt,
    published: isPublic,
    pinnedOnly: !reader,
    /** Each private workspace it pins and whether an owner agreed to publish (readers only). */
    approvals: reader
      ? parts.flatMap((p) =>
          p.workspace?.visibility === "private"
            ? [{ slug: p.workspace.slug, name: p.workspace.name, agreed: p.agreed }]
            : [],
        )
      : [],
    /** Whether this visitor owns a private workspace it pins: they may agree to publish it, or withdraw. */
    canPublish: owned.length > 0,
    /** Whether this visitor's own workspaces have agreed. */
    approvedByVisitor: owned.length > 0 && owned.every((p) => p.agreed),
    pins,
    /** Pinned bundles that no longer exist. */
    missing: pins.filter((p) => !currentIds.has(p.bundleId)),
    /** Bundles of these scenarios uploaded after the permalink was made (readers only). */
    newer: current.filter((b) => !pinned.has(b.id)).map((b) => ({ bundleId: b.id, scenarioId: b.scenarioId })),
  };
}

/**
 * An owner agrees to publish a permalink for every private workspace of theirs it pins (or withdraws
 * that agreement, which makes it private again). False when the visitor owns none of them.
 */
export async function setPermalinkPublished(db: Db, access: Access, slug: string, published: boolean) {
  const found = await db.permalink.findUnique({ where: { slug }, select: { id: true, workspaceIds: true } });
  if (!found) return false;
  // Public workspaces need nobody's agreement: only owners of the private ones it pins have a say.
  const owned = found.workspaceIds.filter((id) => atLeast(access, id, "owner"));
  const own = (await pinnedWorkspaces(db, owned)).filter((w) => w.visibility === "private").map((w) => w.id);
  if (own.length === 0) return false;
  // One statement, so two owners agreeing at once both count.
  await db.$executeRaw`UPDATE "Permalink" SET "approvals" = ${
    published
      ? Prisma.sql`ARRAY(SELECT DISTINCT unnest("approvals" || ${own}::text[]))`
      : Prisma.sql`ARRAY(SELECT a FROM unnest("approvals") AS a WHERE a <> ALL(${own}::text[]))`
  } WHERE "id" = ${found.id}`;
  return true;
}

/** Every permalink that pins bundles of a workspace (its owners list them on the workspace page). */
export async function listWorkspacePermalinks(db: Db, workspaceId: string) {
  const found = await db.permalink.findMany({
    where: { workspaceIds: { has: workspaceId } },
    select: { slug: true, createdAt: true, scenarioIds: true, pins: true, workspaceIds: true, approvals: true },
    orderBy: { createdAt: "desc" },
  });
  const workspaces = await pinnedWorkspaces(db, [...new Set(found.flatMap((l) => l.workspaceIds))]);
  return found.map((l) => ({
    slug: l.slug,
    createdAt: l.createdAt,
    scenarios: l.scenarioIds.length,
    bundles: (l.pins as Pin[]).length,
    /** Other workspaces it pins: counted, not named (this workspace's owners may not read them). */
    otherWorkspaces: l.workspaceIds.length - 1,
    approved: l.approvals.includes(workspaceId),
    published: consent(l, workspaces).isPublic,
  }));
}

/** Deletes a permalink for good: any owner of a workspace it pins may. False otherwise. */
export async function revokePermalink(db: Db, access: Access, slug: string): Promise<boolean> {
  const found = await db.permalink.findUnique({ where: { slug }, select: { id: true, workspaceIds: true } });
  if (!found?.workspaceIds.some((id) => atLeast(access, id, "owner"))) return false;
  await db.permalink.delete({ where: { id: found.id } });
  return true;
}
