"use server";

import { redirect } from "next/navigation";
import { api } from "~/trpc/server";

/** An owner's "Delete this bundle": back to the scenario, or to the explorer when it had no other bundle. */
export async function deleteBundleAction(form: FormData): Promise<void> {
  const { scenarioId, scenarioDeleted } = await (await api()).workspaces.deleteBundle({
    bundleId: String(form.get("bundleId") ?? ""),
  });
  redirect(scenarioDeleted ? "/" : `/scenarios/${scenarioId}`);
}

/** An owner's "Delete this campaign": back to the scenario, or to the explorer when it had no other bundle. */
export async function deleteCampaignAction(form: FormData): Promise<void> {
  const scenarioId = String(form.get("scenarioId") ?? "");
  const { removedScenarioIds } = await (await api()).workspaces.deleteCampaign({
    scenarioId,
    campaign: String(form.get("campaign") ?? ""),
  });
  redirect(removedScenarioIds.includes(scenarioId) ? "/" : `/scenarios/${scenarioId}`);
}
