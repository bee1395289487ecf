"use server";

import { redirect } from "next/navigation";
import { api } from "~/trpc/server";

/** "Share": pins the compared scenarios' bundles and opens the new permalink. */
export async function shareComparison(formData: FormData): Promise<void> {
  const scenarioIds = formData.getAll("s").map(String);
  const { slug } = await (await api()).compare.share({ scenarioIds, view: {} });
  redirect(`/d/${slug}`);
}
