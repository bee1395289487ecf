import { verdicts } from "@cnibench/analysis";
import { crossoverPointSchema, plottedFigureSchema } from "@cnibench/db/read-models";
import { z } from "zod";
import { barViewNames } from "../views/chart-views";
import { exploreInputSchema } from "./scenarios.types";

/** A point against the chart's baseline: the compare table's verdict, change and evidence in short. */
const versusSchema = z.object({
  baseline: z.string(),
  verdict: z.enum(verdicts),
  indicative: z.boolean(),
  percent: z.number().nullable(),
  words: z.string(),
});
// An output schema keeps only the keys it names: without these, the verdicts would not reach the page.
const withVersus = { versus: versusSchema.optional() };

/** Params a chart is narrowed to: a few short values. */
const whereSchema = z
  .record(z.string().max(100), z.union([z.string().max(200), z.number(), z.boolean()]))
  .refine((w) => Object.keys(w).length <= 20, "at most 20 params");

/** Which scenarios a chart covers (the explorer's filters, or exactly the listed ids) and its baseline. */
export const chartScopeSchema = z.object({
  filters: exploreInputSchema,
  scenarioIds: z.array(z.string().max(100)).max(50).optional(),
  /** The scenario the others are judged against (its id); none when absent or outside the scope. */
  baseline: z.string().max(100).optional(),
  /**
   * The testbed drawn ("provider/sku/nic", testbedKey), or "all" to mix them on purpose; by default the
   * testbed with the most scenarios, so no chart mixes testbeds silently (issue 40).
   */
  testbed: z.string().max(300).optional(),
});

export const testbedsOutputSchema = z.object({
  /** The testbed drawn, or "all". */
  chosen: z.string(),
  testbeds: z.array(z.object({ key: z.string(), label: z.string(), scenarios: z.number().int() })),
});

export const crossoverInputSchema = chartScopeSchema.extend({
  metric: z.string().min(1).max(100),
  /**
   * The param along x. Any param name is accepted: along one that is not a scale (streams, message
   * size…) the points are drawn unjoined, with no crossing, and a `notice` says why.
   */
  x: z.string().min(1).max(100),
  where: whereSchema,
  y: z.enum(["absolute", "degradation"]),
});

/** A (metric, param) the scope's data can be drawn along: ≥2 setups share ≥2 of its values. */
const crossoverAxisSchema = z.object({
  metric: z.string(),
  title: z.string(),
  param: z.string(),
  words: z.string(),
  kind: z.enum(["scale", "category"]),
  setups: z.number().int(),
  /** The conditions that draw each setup as one line along it. */
  where: plottedFigureSchema.shape.params,
});

export const crossoverOutputSchema = z.object({
  metric: z.string(),
  title: z.string(),
  unit: z.string(),
  xParam: z.string(),
  scenarios: z.array(z.object({ id: z.string(), label: z.string() })),
  series: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      scenarioId: z.string(),
      points: z.array(crossoverPointSchema.extend(withVersus)),
    }),
  ),
  markers: z.array(z.object({ x: z.number(), y: z.number(), label: z.string() })),
  sentences: z.array(z.string()),
  undecided: z.array(z.string()),
  withinNoise: z.array(z.string()),
  allSentences: z.array(z.string()),
  notice: z.string().nullable(),
  hiddenLines: z.number().int(),
  joined: z.boolean(),
  band: z.object({ kind: z.enum(["runs", "margin"]), marginPercent: z.number(), words: z.string() }).nullable(),
  axes: z.array(crossoverAxisSchema),
  /** When nothing is drawn: every axis the scope's data has, of any metric, for the empty state's links. */
  elsewhere: z.array(crossoverAxisSchema),
  /** Where a drawn setup has several lines: the conditions, besides the query's, that leave it one. */
  oneLine: plottedFigureSchema.shape.params.nullable(),
});

export const barsInputSchema = chartScopeSchema.extend({
  view: z.enum(barViewNames),
  percentile: z.string().max(20),
});

export const barsOutputSchema = z.array(
  z.object({
    metric: z.string(),
    key: z.string().optional(),
    note: z.string().optional(),
    title: z.string(),
    unit: z.string(),
    series: z.array(z.object({ id: z.string(), label: z.string() })),
    data: z.array(
      z.object({
        category: z.string(),
        values: z.record(z.string(), plottedFigureSchema.extend(withVersus).optional()),
        // The reference's scenario and params: its row of the chart's CSV names them as a bar's does.
        reference: z
          .object({
            y: z.number(),
            label: z.string(),
            scenarioId: z.string(),
            scenario: z.string(),
            params: plottedFigureSchema.shape.params,
          })
          .nullable()
          .optional(),
      }),
    ),
    references: z.array(z.object({ y: z.number(), label: z.string() })),
  }),
);
