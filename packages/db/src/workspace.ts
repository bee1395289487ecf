import type { Db } from "./client.ts";

/** Until sign-in exists every bundle and token belongs to this workspace. */
export const DEFAULT_WORKSPACE = { slug: "public", name: "Public results" } as const;

export async function ensureDefaultWorkspace(db: Db): Promise<{ id: string; slug: string }> {
  return db.workspace.upsert({
    where: { slug: DEFAULT_WORKSPACE.slug },
    update: {},
    create: DEFAULT_WORKSPACE,
    select: { id: true, slug: true },
  });
}
