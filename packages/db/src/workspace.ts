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
