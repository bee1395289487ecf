import { qualifiers } from "@cnibench/schema";
import { z } from "zod";
import { figureSummarySchema } from "../figure-summary";
import { exploreInputSchema } from "./scenarios.types";

const paramValue = z.union([z.string(), z.number(), z.boolean()]);
const params = z.record(z.string(), paramValue);
/** Params a chart is narrowed to: a few short values. */
const whereSchema = z
  .record(z.string().max(100), z.union([z.string().max(200), z.number(), z.boolean()]))
  .refine((w) => Object.keys(w).length <= 20, "at most 20 params");

/** A plotted figure: its value on the chart's scale, qualifier, params and where it came from. */
const plotted = z.object({
  y: z.number(),
  qualifier: z.enum(qualifiers).nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  params,
  bundleId: z.string(),
  sourceTitle: z.string().nullable(),
  sourceUrl: z.string().nullable(),
  /** The current figure's runs; null for a derived value (an overhead). */
  summary: figureSummarySchema.nullable(),
  /** Min–max of the runs on the drawn scale, where there are several; the chart's whiskers. */
  whisker: z.tuple([z.number(), z.number()]).nullable(),
});

/** Which scenarios a chart covers: the explorer's filters, or exactly the listed ids. */
export const chartScopeSchema = z.object({
  filters: exploreInputSchema,
  scenarioIds: z.array(z.string().max(100)).max(50).optional(),
});

export const crossoverInputSchema = chartScopeSchema.extend({
  metric: z.string().min(1).max(100),
  x: z.string().min(1).max(100),
  where: whereSchema,
  y: z.enum(["absolute", "degradation"]),
});

export const crossoverOutputSchema = z.object({
  metric: z.string(),
  title: z.string(),
  unit: z.string(),
  xParam: z.string(),
  series: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      scenarioId: z.string(),
      points: z.array(plotted.extend({ x: z.number(), scenarioId: z.string() })),
    }),
  ),
  markers: z.array(z.object({ x: z.number(), y: z.number(), label: z.string() })),
  sentences: z.array(z.string()),
  undecided: z.array(z.string()),
  hiddenLines: z.number().int(),
});

export const barsInputSchema = chartScopeSchema.extend({
  view: z.enum(["latency", "throughput", "resources", "overheads"]),
  percentile: z.string().max(20),
});

export const barsOutputSchema = z.array(
  z.object({
    metric: z.string(),
    title: z.string(),
    unit: z.string(),
    series: z.array(z.object({ id: z.string(), label: z.string() })),
    data: z.array(
      z.object({
        category: z.string(),
        values: z.record(z.string(), plotted.optional()),
      }),
    ),
    references: z.array(z.object({ y: z.number(), label: z.string() })),
  }),
);
