import { chartView } from "@cnibench/db";
import type { z } from "zod";
import { barView } from "../chart-data/bars";
import { crossoverOf } from "../chart-data/crossover";
import { barViews } from "../chart-views";
import { withHistory } from "../compare-data";
import { keptUntilChange } from "../kept";
import { type Context, createTRPCRouter, publicProcedure } from "../trpc";
import {
  barsInputSchema,
  barsOutputSchema,
  type chartScopeSchema,
  crossoverInputSchema,
  crossoverOutputSchema,
} from "./charts.types";

/**
 * The scope's scenarios and their figures of these metrics; with a baseline, each figure carries its
 * series' history, which the verdicts against the baseline may pool.
 */
async function chartFigures(
  ctx: Context,
  scope: z.output<typeof chartScopeSchema>,
  query: Pick<Parameters<typeof chartView>[2], "metrics" | "params">,
) {
  const { scenarios, figures, earlier } = await chartView(ctx.db, ctx.access.readable, {
    filters: scope.filters,
    scenarioIds: scope.scenarioIds,
    ...query,
    history: scope.baseline !== undefined,
  });
  return { scenarios, figures: withHistory(figures, earlier) };
}

export const chartsRouter = createTRPCRouter({
  /** A metric along a numeric param, one line per scenario, with the crossovers between lines. */
  crossover: publicProcedure
    .input(crossoverInputSchema)
    .output(crossoverOutputSchema)
    .query(({ ctx, input }) =>
      keptUntilChange(ctx.db, ctx.access.readable, { name: "charts.crossover", input }, async () => {
        const { scenarios, figures } = await chartFigures(ctx, input, {
          metrics: [input.metric],
          params: { contains: input.where, numeric: input.x },
        });
        return crossoverOf(scenarios, figures, input);
      }),
    ),

  /** The bar charts of one view (latency, throughput, resources, overheads). */
  bars: publicProcedure
    .input(barsInputSchema)
    .output(barsOutputSchema)
    .query(({ ctx, input }) =>
      keptUntilChange(ctx.db, ctx.access.readable, { name: "charts.bars", input }, async () => {
        const { scenarios, figures } = await chartFigures(ctx, input, { metrics: barViews[input.view].metrics });
        return barView(input.view, scenarios, figures, { percentile: input.percentile, baseline: input.baseline });
      }),
    ),
});
