"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { api } from "~/trpc/server";

/** An owner's agreement to publish a permalink for their workspaces, or its withdrawal. */
export async function publishAction(form: FormData): Promise<void> {
  const slug = String(form.get("slug") ?? "");
  await (await api()).compare.publish({ slug, published: form.get("published") === "true" });
  revalidatePath(`/d/${slug}`);
}

/** An owner's "Delete this permalink": it stops opening for anyone. */
export async function revokeAction(form: FormData): Promise<void> {
  await (await api()).compare.revoke({ slug: String(form.get("slug") ?? "") });
  redirect("/workspaces");
}
