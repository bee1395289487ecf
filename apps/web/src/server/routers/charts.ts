import { crossoverAxesOf, scopeToTestbed } from "@cnibench/analysis";
import { chartView, type LatestFigure, type ScenarioSummary } from "@cnibench/db";
import { metricCatalogue } from "@cnibench/schema";
import type { z } from "zod";
import { type Context, createTRPCRouter, keptUntilChange, publicProcedure } from "../trpc/trpc";
import { barView } from "../views/chart-data/bars";
import { axisChoices, crossoverDrawn, crossoverOf } from "../views/chart-data/crossover";
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
  query: Pick<Parameters<typeof chartView>[2], "metrics" | "params" | "drawn">,
) {
  // One testbed at a time unless "all" is asked for: bars of a 40 G and a 12.5 G NIC are no comparison.
  const onTestbed = (all: ScenarioSummary[], figures: LatestFigure[]) => {
    const { scenarios } = scopeToTestbed(all, scope.testbed);
    const ids = new Set(scenarios.map((s) => s.id));
    return { scenarios, figures: figures.filter((f) => ids.has(f.scenarioId)) };
  };
  const { drawn } = query;
  const read = await chartView(ctx.db, ctx.access.readable, {
    filters: scope.filters,
    scenarioIds: scope.scenarioIds,
    ...query,
    // What is drawn is chosen among the charted testbed's figures.
    drawn:
      drawn &&
      ((all, figures) => {
        const shown = onTestbed(all, figures);
        return drawn(shown.scenarios, shown.figures);
      }),
    history: scope.baseline !== undefined,
  });
  const shown = onTestbed(read.scenarios, read.figures);
  return { scenarios: shown.scenarios, figures: withHistory(shown.figures, read.earlier) };
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
      // Only the drawn lines' figures are read with their campaigns' runs (crossoverDrawn).
      const { scenarios, figures } = await chartFigures(ctx, input, {
        metrics: [input.metric],
        drawn: (scenarios, figures) => crossoverDrawn(scenarios, figures, input),
      });
      const data = crossoverOf(scenarios, figures, input);
      if (data.series.length > 0) return data;
      // Nothing to draw: the empty state lists what the scope's data can be drawn along instead, which
      // their params alone tell.
      const all = await chartFigures(
        ctx,
        { ...input, baseline: undefined },
        { metrics: metricCatalogue.map((m) => m.key), drawn: () => [] },
      );
      return { ...data, elsewhere: axisChoices(crossoverAxesOf(all.figures), all.figures) };
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
