import { summaryOf } from "@cnibench/analysis";
import { exploreView, scenarioView } from "@cnibench/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createTRPCRouter, keptUntilChange, publicProcedure } from "../trpc/trpc";
import { exploreInputSchema, exploreOutputSchema, scenarioViewSchema } from "./scenarios.types";

/** Older runs a scenario page shows per figure: enough to see a trend, bounded however often it is measured. */
const recentOlderRuns = 3;

export const scenariosRouter = createTRPCRouter({
  /**
   * The explorer and its CSV: facets with counts, and the matching scenarios with their figure in each
   * chosen column and the settings that tell them apart.
   */
  explore: publicProcedure
    .input(exploreInputSchema)
    .use(keptUntilChange)
    .output(exploreOutputSchema)
    .query(async ({ ctx, input }) => {
      const { columns, ...filters } = input;
      const view = await exploreView(ctx.db, ctx.access.readable, filters, columns);
      return {
        ...view,
        scenarios: view.scenarios.map((s) => ({
          ...s,
          keyFigures: Object.fromEntries(
            Object.entries(s.keyFigures).map(([key, f]) => [key, { ...f, summary: summaryOf(f) }]),
          ),
        })),
      };
    }),

  /**
   * One scenario with every figure, its recent history (all of it for downloads) and provenance;
   * NOT_FOUND for an unknown id.
   */
  byId: publicProcedure
    .input(z.object({ id: z.string().min(1).max(100), history: z.enum(["recent", "all"]).default("recent") }))
    .use(keptUntilChange)
    .output(scenarioViewSchema)
    .query(async ({ ctx, input }) => {
      const olderRuns = input.history === "all" ? undefined : recentOlderRuns;
      const view = await scenarioView(ctx.db, ctx.access.readable, input.id, olderRuns);
      if (!view) throw new TRPCError({ code: "NOT_FOUND", message: `no scenario ${input.id}` });
      const groups = view.groups.map((g) => ({
        ...g,
        rows: g.rows.map(({ latest, ...row }) => ({ ...row, value: latest.value, summary: summaryOf(latest) })),
      }));
      return { ...view, groups };
    }),
});
