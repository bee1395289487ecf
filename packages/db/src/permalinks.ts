import { randomBytes } from "node:crypto";
import type { Db } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

/** A bundle a permalink pinned, with a label that still says what it was if it is deleted later. */
export type Pin = { bundleId: string; scenarioId: string; label: string };

const pinLabel = (b: { sourceTitle: string | null; sourceSection: string | null; clusterName: string }) =>
  [b.sourceTitle ?? "uploaded bundle", b.sourceSection].filter(Boolean).join(" — ") || b.clusterName;

/**
 * Shares a comparison: pins every bundle the scenarios have now, so the permalink shows the same
 * numbers after newer uploads. Slugs are 8 random URL-safe characters (48 bits), retried on collision.
 */
export async function createPermalink(
  db: Db,
  workspaceSlug: string,
  input: { scenarioIds: readonly string[]; view: Record<string, unknown> },
): Promise<{ slug: string; pins: Pin[] } | null> {
  const scenarios = await db.scenario.findMany({
    where: { id: { in: [...input.scenarioIds] }, workspace: { slug: workspaceSlug } },
    select: {
      id: true,
      workspaceId: true,
      bundles: { select: { id: true, sourceTitle: true, sourceSection: true, clusterName: true } },
    },
  });
  if (scenarios.length !== new Set(input.scenarioIds).size) return null;
  const workspaceId = scenarios[0]?.workspaceId;
  if (!workspaceId) return null;
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
 * A permalink with what changed since it was made: pinned bundles that are gone, and newer bundles
 * of its scenarios (which the permalink does not show, but can point to).
 */
export async function getPermalink(db: Db, workspaceSlug: string, slug: string) {
  const found = await db.permalink.findFirst({ where: { slug, workspace: { slug: workspaceSlug } } });
  if (!found) return null;
  const pins = found.pins as Pin[];
  const current = await db.bundle.findMany({
    where: { scenarioId: { in: found.scenarioIds } },
    select: { id: true, scenarioId: true },
  });
  const currentIds = new Set(current.map((b) => b.id));
  const pinned = new Set(pins.map((p) => p.bundleId));
  return {
    slug: found.slug,
    scenarioIds: found.scenarioIds,
    view: found.view as Record<string, unknown>,
    createdAt: found.createdAt,
    pins,
    /** Pinned bundles that no longer exist. */
    missing: pins.filter((p) => !currentIds.has(p.bundleId)),
    /** Bundles of these scenarios uploaded after the permalink was made. */
    newer: current.filter((b) => !pinned.has(b.id)).map((b) => ({ bundleId: b.id, scenarioId: b.scenarioId })),
  };
}
