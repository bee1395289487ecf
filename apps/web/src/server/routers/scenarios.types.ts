import { columnKeys, maxColumns } from "@cnibench/analysis";
import {
  currentFigureSchema,
  figureSummarySchema,
  figureWarningSchema,
  paramsSchema,
  provenanceSchema,
  scenarioSummarySchema,
  seriesRunSchema,
  uploadWarningSchema,
} from "@cnibench/db/read-models";
import { betterValues } from "@cnibench/schema";
import { z } from "zod";

// Output contracts of the scenario procedures: what pages may rely on, checked on every call. The
// read models they are made of are declared once, in @cnibench/db/read-models.

/**
 * A scenario page's run of a figure: the figure of one bundle, with the campaign it belongs to. What its
 * row already says (scenario, metric, params) and its bundle's source (in `bundles`) are not repeated
 * on every run: they were a third of a run.
 */
const runSchema = seriesRunSchema.omit({
  runs: true,
  scenarioId: true,
  metric: true,
  params: true,
  paramsKey: true,
  sourceTitle: true,
  sourceUrl: true,
});

export const keyFigureSchema = currentFigureSchema.pick({
  value: true,
  unit: true,
  qualifier: true,
  low: true,
  high: true,
  params: true,
  bundleId: true,
  summary: true,
});

const facetKeySchema = z.enum(["provider", "sku", "kernel", "k8s", "cni", "mode", "kubeProxy", "source"]);

const facetFilterSchema = z.array(z.string().max(200)).max(50).optional();
const columnKeySchema = z.enum(columnKeys);

/** The facets' filters, and the table's columns (the default ones when left out). */
export const exploreInputSchema = z.object({
  provider: facetFilterSchema,
  sku: facetFilterSchema,
  kernel: facetFilterSchema,
  k8s: facetFilterSchema,
  cni: facetFilterSchema,
  mode: facetFilterSchema,
  kubeProxy: facetFilterSchema,
  source: facetFilterSchema,
  columns: z.array(columnKeySchema).max(maxColumns).optional(),
});

export const exploreOutputSchema = z.object({
  total: z.number().int(),
  facets: z.array(
    z.object({
      key: facetKeySchema,
      title: z.string(),
      values: z.array(
        z.object({ value: z.string(), label: z.string(), count: z.number().int(), selected: z.boolean() }),
      ),
    }),
  ),
  dropHints: z.array(
    z.object({ key: facetKeySchema, title: z.string(), values: z.array(z.string()), matchesWithout: z.number().int() }),
  ),
  /** The table's columns: each one metric at fixed params, in catalogue order. */
  columns: z.array(
    z.object({
      key: columnKeySchema,
      title: z.string(),
      group: z.string(),
      metric: z.string(),
      params: paramsSchema,
      unit: z.string(),
    }),
  ),
  scenarios: z.array(
    scenarioSummarySchema.extend({
      /** The CNI settings that tell it apart from the other listed scenarios, in words ("WireGuard"). */
      differingSettings: z.array(z.string()),
      keyFigures: z.partialRecord(columnKeySchema, keyFigureSchema),
    }),
  ),
});

/** A scenario as the explorer lists it, with its figure in each shown column. */
export type ExploreScenario = z.output<typeof exploreOutputSchema>["scenarios"][number];

export const scenarioViewSchema = z.object({
  scenario: scenarioSummarySchema,
  measurementCount: z.number().int(),
  bundles: z.array(provenanceSchema),
  /** Warnings stored with its bundles that are about no one figure (environment, vocabulary). */
  warnings: z.array(uploadWarningSchema),
  groups: z.array(
    z.object({
      metric: z.string(),
      label: z.string(),
      unit: z.string(),
      better: z.enum(betterValues),
      description: z.string().nullable(),
      rows: z.array(
        z.object({
          params: paramsSchema,
          /** The current figure: its value (the runs' median for a campaign of several bundles) and runs. */
          value: z.number(),
          summary: figureSummarySchema,
          /** Warnings stored about this figure by the bundles of its latest campaign. */
          warnings: z.array(figureWarningSchema),
          /**
           * The runs of the latest campaign, newest first: the first is the newest run, whose bundle holds
           * the figure's published form.
           */
          runs: z.tuple([runSchema], runSchema),
          /** Runs of older campaigns, newest first: the latest `olderRuns` of them, or all (downloads). */
          history: z.array(runSchema),
          olderRuns: z.number().int(),
        }),
      ),
    }),
  ),
});
