import { chartView } from "@cnibench/db";
import { barView, crossoverOf } from "../chart-data";
import { barViews } from "../chart-views";
import { withHistory } from "../compare-data";
import { createTRPCRouter, publicProcedure } from "../trpc";
import { barsInputSchema, barsOutputSchema, crossoverInputSchema, crossoverOutputSchema } from "./charts.types";

export const chartsRouter = createTRPCRouter({
  /** A metric along a numeric param, one line per scenario, with the crossovers between lines. */
  crossover: publicProcedure
    .input(crossoverInputSchema)
    .output(crossoverOutputSchema)
    .query(async ({ ctx, input }) => {
      const { scenarios, figures, earlier } = await chartView(ctx.db, ctx.access.readable, {
        filters: input.filters,
        scenarioIds: input.scenarioIds,
        metrics: [input.metric],
        params: { contains: input.where, numeric: input.x },
        history: input.baseline !== undefined,
      });
      return crossoverOf(scenarios, withHistory(figures, earlier), input);
    }),

  /** The bar charts of one view (latency, throughput, resources, overheads). */
  bars: publicProcedure
    .input(barsInputSchema)
    .output(barsOutputSchema)
    .query(async ({ ctx, input }) => {
      const { scenarios, figures, earlier } = await chartView(ctx.db, ctx.access.readable, {
        filters: input.filters,
        scenarioIds: input.scenarioIds,
        metrics: barViews[input.view].metrics,
        history: input.baseline !== undefined,
      });
      return barView(input.view, scenarios, withHistory(figures, earlier), {
        percentile: input.percentile,
        baseline: input.baseline,
      });
    }),
});
