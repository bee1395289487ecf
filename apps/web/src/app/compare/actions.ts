"use server";

import { redirect } from "next/navigation";
import { api } from "~/trpc/server";
import { readMargins } from "./params";

/** "Share": pins the compared scenarios' bundles, and the margins in force, and opens the new permalink. */
export async function shareComparison(formData: FormData): Promise<void> {
  const scenarioIds = formData.getAll("s").map(String);
  const { margins } = readMargins(formData.getAll("margin").map(String));
  const { slug } = await (await api()).compare.share({ scenarioIds, view: { margins } });
  redirect(`/d/${slug}`);
}
