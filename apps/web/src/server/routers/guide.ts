import { isLab, recommendDatapaths } from "@cnibench/analysis";
import type { Db } from "@cnibench/db";
import { createTRPCRouter, keptUntilChange, publicProcedure } from "../trpc/trpc";
import { guideFigures } from "../views/guide-figures";
import { type GuideInput, guideInputSchema, guideOutputSchema } from "./guide.types";

/** How many scenarios each value has, most first. */
function counted<T extends string>(values: readonly T[]): { value: T; scenarios: number }[] {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .map(([value, scenarios]) => ({ value, scenarios }))
    .sort((a, b) => b.scenarios - a.scenarios || a.value.localeCompare(b.value));
}

/**
 * "What should I run?": every scenario's current figures of the metrics the guide reads, ranked by
 * @cnibench/analysis. The scope (cloud, instance type, their fallbacks) is the analysis's to decide,
 * so it sees every scenario.
 */
export async function recommend(db: Db, workspaceIds: readonly string[], answers: GuideInput) {
  const { scenarios, figures } = await guideFigures(db, workspaceIds);
  const result = recommendDatapaths({ answers, scenarios, figures });
  const skus = new Map<string, { value: string; provider: string; scenarios: number }>();
  // Lab scenarios are no cloud's (the guide cites them as mechanism evidence only): never a choice of cloud.
  const onClouds = scenarios.filter((s) => !isLab(s));
  for (const s of onClouds) {
    if (s.sku === "unknown") continue;
    const key = `${s.provider} ${s.sku}`;
    const found = skus.get(key);
    if (found) found.scenarios += 1;
    else skus.set(key, { value: s.sku, provider: s.provider, scenarios: 1 });
  }
  return {
    ...result,
    answers: { ...result.answers, needs: [...result.answers.needs] },
    choices: {
      clouds: counted(onClouds.map((s) => s.provider)),
      skus: [...skus.values()].sort((a, b) => a.provider.localeCompare(b.provider) || a.value.localeCompare(b.value)),
    },
  };
}

export const guideRouter = createTRPCRouter({
  recommend: publicProcedure
    .input(guideInputSchema)
    .use(keptUntilChange)
    .output(guideOutputSchema)
    .query(({ ctx, input }) => recommend(ctx.db, ctx.access.readable, input)),
});
