import type { Visibility } from "./access.ts";
import type { Db } from "./client.ts";

/** The public workspace: the demo data, and where the local upload token and `npm run token` write. */
export const DEFAULT_WORKSPACE = { slug: "public", name: "Public results" } as const;

export async function ensureDefaultWorkspace(db: Db): Promise<{ id: string; slug: string }> {
  return db.workspace.upsert({
    where: { slug: DEFAULT_WORKSPACE.slug },
    update: {},
    create: { ...DEFAULT_WORKSPACE, visibility: "public" },
    select: { id: true, slug: true },
  });
}

/** A workspace by its slug: its id, slug and visibility, or null for an unknown slug. */
export function workspaceBySlug(
  db: Db,
  slug: string,
): Promise<{ id: string; slug: string; visibility: Visibility } | null> {
  return db.workspace.findUnique({ where: { slug }, select: { id: true, slug: true, visibility: true } });
}

/** The slug of a workspace by its id, or null for an unknown id. */
export async function workspaceSlug(db: Db, id: string): Promise<string | null> {
  return (await db.workspace.findUnique({ where: { id }, select: { slug: true } }))?.slug ?? null;
}

/** A workspace's id by its slug, or null: one lookup, the same cost for a private slug as a made-up one. */
export async function workspaceIdBySlug(db: Db, slug: string): Promise<string | null> {
  return (await workspaceBySlug(db, slug))?.id ?? null;
}

/** The workspace a bundle belongs to, or null for an unknown bundle. */
export async function workspaceOfBundle(db: Db, bundleId: string): Promise<string | null> {
  return (await db.bundle.findUnique({ where: { id: bundleId }, select: { workspaceId: true } }))?.workspaceId ?? null;
}

/** The workspace a scenario belongs to, or null for an unknown scenario. */
export async function workspaceOfScenario(db: Db, scenarioId: string): Promise<string | null> {
  return (
    (await db.scenario.findUnique({ where: { id: scenarioId }, select: { workspaceId: true } }))?.workspaceId ?? null
  );
}
