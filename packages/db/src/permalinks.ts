import { randomBytes } from "node:crypto";
import { type Access, atLeast } from "./access.ts";
import type { Db } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

/** A bundle a permalink pinned, with a label that still says what it was if it is deleted later. */
export type Pin = { bundleId: string; scenarioId: string; label: string };

const pinLabel = (b: { sourceTitle: string | null; sourceSection: string | null; clusterName: string }) =>
  [b.sourceTitle ?? "uploaded bundle", b.sourceSection].filter(Boolean).join(" — ") || b.clusterName;

/**
 * Shares a comparison: pins every bundle the scenarios have now, so the permalink shows the same
 * numbers after newer uploads. Slugs are 8 random URL-safe characters (48 bits), retried on collision.
 * It belongs to the first private workspace among its scenarios' (whose owners may publish it), else
 * to the first scenario's.
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
      workspace: { select: { id: true, visibility: true } },
      bundles: { select: { id: true, sourceTitle: true, sourceSection: true, clusterName: true } },
    },
  });
  if (scenarios.length !== new Set(input.scenarioIds).size) return null;
  const home = scenarios.find((s) => s.workspace.visibility === "private") ?? scenarios[0];
  if (!home) return null;
  const workspaceId = home.workspace.id;
  const pins = scenarios.flatMap((s) =>
    s.bundles.map((b) => ({ bundleId: b.id, scenarioId: s.id, label: pinLabel(b) })),
  );
  for (let attempt = 0; ; attempt++) {
    const slug = randomBytes(6).toString("base64url");
    try {
      await db.permalink.create({
        data: {
          slug,
          workspaceId,
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

/**
 * A permalink as a visitor may see it, with what changed since it was made: pinned bundles that are
 * gone, and newer bundles of its scenarios. A visitor who may read every scenario's workspace sees
 * all of that; anyone else sees a published permalink's pinned bundles only (`pinnedOnly`), and an
 * unpublished one not at all (null, as if it did not exist).
 */
export async function getPermalink(db: Db, access: Access, slug: string) {
  const found = await db.permalink.findUnique({ where: { slug } });
  if (!found) return null;
  const pins = found.pins as Pin[];
  const scenarios = await db.scenario.findMany({
    where: { id: { in: found.scenarioIds } },
    select: { id: true, workspaceId: true },
  });
  const workspaceIds = [...new Set(scenarios.map((s) => s.workspaceId))];
  const reader = workspaceIds.every((id) => access.readable.includes(id));
  if (!reader && !found.published) return null;
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
  return {
    slug: found.slug,
    scenarioIds: found.scenarioIds,
    /** The workspaces of its scenarios: what a view of the pinned bundles reads from. */
    workspaceIds,
    view: found.view as Record<string, unknown>,
    createdAt: found.createdAt,
    published: found.published,
    pinnedOnly: !reader,
    /** Whether this visitor may publish or unpublish it: an owner of the workspace it belongs to. */
    canPublish: reader && atLeast(access, found.workspaceId, "owner"),
    pins,
    /** Pinned bundles that no longer exist. */
    missing: pins.filter((p) => !currentIds.has(p.bundleId)),
    /** Bundles of these scenarios uploaded after the permalink was made (readers only). */
    newer: current.filter((b) => !pinned.has(b.id)).map((b) => ({ bundleId: b.id, scenarioId: b.scenarioId })),
  };
}

/** Publishes or unpublishes a permalink; false when the visitor does not own its workspace. */
export async function setPermalinkPublished(db: Db, access: Access, slug: string, published: boolean) {
  const found = await db.permalink.findUnique({ where: { slug }, select: { id: true, workspaceId: true } });
  if (!found || !atLeast(access, found.workspaceId, "owner")) return false;
  await db.permalink.update({ where: { id: found.id }, data: { published } });
  return true;
}
