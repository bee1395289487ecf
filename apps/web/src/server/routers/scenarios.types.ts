import { aggregates, betterValues, qualifiers } from "@cnibench/schema";
import { z } from "zod";
import { figureSummarySchema } from "../figure-summary";

// Output contracts of the scenario procedures: what pages may rely on, checked on every call.

const paramValue = z.union([z.string(), z.number(), z.boolean()]);
const settingValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const scenarioSummarySchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  label: z.string(),
  provider: z.string(),
  region: z.string(),
  kubernetesVersion: z.string(),
  nodeCount: z.number().int().nullable(),
  sku: z.string(),
  vcpus: z.number().nullable(),
  memoryGiB: z.number().nullable(),
  nicGbps: z.number().nullable(),
  os: z.string(),
  kernel: z.string(),
  cni: z.object({
    name: z.string(),
    version: z.string(),
    mode: z.string(),
    kubeProxy: z.string(),
    label: z.string().nullable(),
    settings: z.record(z.string(), settingValue),
  }),
  sources: z.array(z.string()),
  bundleCount: z.number().int(),
  lastRunAt: z.date().nullable(),
});

export const figureSchema = z.object({
  id: z.string(),
  scenarioId: z.string(),
  bundleId: z.string(),
  metric: z.string(),
  params: z.record(z.string(), paramValue),
  paramsKey: z.string(),
  value: z.number(),
  unit: z.string(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  samples: z.array(z.number()),
  publishedValue: z.number(),
  publishedUnit: z.string(),
  qualifier: z.enum(qualifiers).nullable(),
  aggregate: z.enum(aggregates).nullable(),
  better: z.enum(betterValues),
  measuredAt: z.date(),
  sourceTitle: z.string().nullable(),
  sourceUrl: z.string().nullable(),
});

/** A scenario page's run of a figure: the figure of one bundle, with the campaign it belongs to. */
const runSchema = figureSchema.extend({ campaign: z.string() });

const keyFigureSchema = figureSchema
  .pick({
    value: true,
    unit: true,
    qualifier: true,
    low: true,
    high: true,
    params: true,
    bundleId: true,
  })
  .extend({ summary: figureSummarySchema });

export const facetKeySchema = z.enum(["provider", "sku", "kernel", "k8s", "cni", "mode", "kubeProxy", "source"]);

export const exploreInputSchema = z.partialRecord(facetKeySchema, z.array(z.string().max(200)).max(50));

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
  scenarios: z.array(
    scenarioSummarySchema.extend({
      keyFigures: z.partialRecord(z.enum(["throughput", "keepaliveRps", "shortRps", "tcpRrP99"]), keyFigureSchema),
    }),
  ),
});

export const provenanceSchema = z.object({
  id: z.string(),
  clusterName: z.string(),
  sourceTitle: z.string().nullable(),
  sourceUrl: z.string().nullable(),
  sourcePublishedAt: z.string().nullable(),
  sourceSection: z.string().nullable(),
  collectorName: z.string().nullable(),
  collectorVersion: z.string().nullable(),
  collectorCommand: z.string().nullable(),
  runAt: z.date().nullable(),
  receivedAt: z.date(),
  measurementCount: z.number().int(),
});

export const scenarioViewSchema = z.object({
  scenario: scenarioSummarySchema,
  measurementCount: z.number().int(),
  bundles: z.array(provenanceSchema),
  groups: z.array(
    z.object({
      metric: z.string(),
      label: z.string(),
      unit: z.string(),
      better: z.enum(betterValues),
      description: z.string().nullable(),
      rows: z.array(
        z.object({
          params: z.record(z.string(), paramValue),
          /** The newest run (its bundle holds the figure's published form). */
          current: runSchema,
          /** The current figure: its value (the runs' median for a campaign of several bundles) and runs. */
          value: z.number(),
          summary: figureSummarySchema,
          /** The runs of the latest campaign, newest first (`current` among them). */
          runs: z.array(runSchema),
          /** Runs of older campaigns, newest first: the latest `olderRuns` of them, or all (downloads). */
          history: z.array(runSchema),
          olderRuns: z.number().int(),
        }),
      ),
    }),
  ),
});
