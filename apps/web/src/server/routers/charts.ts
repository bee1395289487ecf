import { crossoverAxesOf, scopeToTestbed } from "@cnibench/analysis";
import { chartView } from "@cnibench/db";
import { metricCatalogue } from "@cnibench/schema";
import type { z } from "zod";
import { type Context, createTRPCRouter, keptUntilChange, publicProcedure } from "../trpc/trpc";
import { barView } from "../views/chart-data/bars";
import { axisChoices, crossoverOf } from "../views/chart-data/crossover";
import { barViews } from "../views/chart-views";
import { withHistory } from "../views/compare-data";
import {
  barsInputSchema,
  barsOutputSchema,
  chartScopeSchema,
  crossoverInputSchema,
  crossoverOutputSchema,
  testbedsOutputSchema,
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
  // One testbed at a time unless "all" is asked for: bars of a 40 G and a 12.5 G NIC are no comparison.
  const scoped = scopeToTestbed(scenarios, scope.testbed);
  const drawn = new Set(scoped.scenarios.map((s) => s.id));
  return {
    scenarios: scoped.scenarios,
    figures: withHistory(
      figures.filter((f) => drawn.has(f.scenarioId)),
      earlier,
    ),
  };
}

const chartScopeInput = chartScopeSchema;

export const chartsRouter = createTRPCRouter({
  /** The testbeds of the scope's scenarios, and the one the charts draw. */
  testbeds: publicProcedure
    .input(chartScopeInput)
    .use(keptUntilChange)
    .output(testbedsOutputSchema)
    .query(async ({ ctx, input }) => {
      const { scenarios } = await chartView(ctx.db, ctx.access.readable, {
        filters: input.filters,
        scenarioIds: input.scenarioIds,
        metrics: [],
      });
      const { chosen, testbeds } = scopeToTestbed(scenarios, input.testbed);
      return { chosen, testbeds };
    }),

  /** A metric along a numeric param, one line per scenario, with the crossovers between lines. */
  crossover: publicProcedure
    .input(crossoverInputSchema)
    .use(keptUntilChange)
    .output(crossoverOutputSchema)
    .query(async ({ ctx, input }) => {
      // Every figure of the metric, not only those along x: they tell which other axes it has.
      const { scenarios, figures } = await chartFigures(ctx, input, { metrics: [input.metric] });
      const data = crossoverOf(scenarios, figures, input);
      if (data.series.length > 0) return data;
      // Nothing to draw: the empty state lists what the scope's data can be drawn along instead.
      const all = await chartFigures(
        ctx,
        { ...input, baseline: undefined },
        { metrics: metricCatalogue.map((m) => m.key) },
      );
      return { ...data, elsewhere: axisChoices(crossoverAxesOf(all.figures)) };
    }),

  /** The bar charts of one view (latency, throughput, resources, overheads). */
  bars: publicProcedure
    .input(barsInputSchema)
    .use(keptUntilChange)
    .output(barsOutputSchema)
    .query(async ({ ctx, input }) => {
      const view: { metrics: readonly string[]; reads?: readonly string[] } = barViews[input.view];
      const { scenarios, figures } = await chartFigures(ctx, input, {
        metrics: [...view.metrics, ...(view.reads ?? [])],
      });
      return barView(input.view, scenarios, figures, { percentile: input.percentile, baseline: input.baseline });
    }),
});
