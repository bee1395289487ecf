"use server";

import { revalidatePath } from "next/cache";
import { api } from "~/trpc/server";

/** The owner's "Publish" / "Unpublish" on a permalink page. */
export async function publishAction(form: FormData): Promise<void> {
  const slug = String(form.get("slug") ?? "");
  await (await api()).compare.publish({ slug, published: form.get("published") === "true" });
  revalidatePath(`/d/${slug}`);
}
