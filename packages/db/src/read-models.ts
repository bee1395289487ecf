// The shapes the views read, declared once as zod schemas: the query functions' types are inferred from
// them, the web server's output contracts reuse them (extending where a procedure adds fields), and its
// pages see them through those contracts. Field order is the order outputs are written in.
import type { FigureSummary } from "@cnibench/analysis";
import {
  type BundleSummary,
  betterValues,
  bundleSummarySchema,
  measurementSchema,
  paramsSchema,
  paramValueSchema,
  summaryStatisticsSchema,
} from "@cnibench/schema";
import { z } from "zod";

// A figure's params are the API's (packages/schema api.ts).
export { paramsSchema, paramValueSchema };
/** A CNI setting's value (null: set to nothing). */
export const settingValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const scenarioSummarySchema = z.object({
  id: z.string(),
  /** The workspace it belongs to (what a visitor's role there allows on it). */
  workspaceId: z.string(),
  /** Its name: the label given (cni.label below), else CNI and mode. */
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
    /** The cni.label of its most recent upload that named one: a display name, not part of its identity. */
    label: z.string().nullable(),
    settings: z.record(z.string(), settingValueSchema),
  }),
  /** Titles of the sources its bundles transcribe or were collected for (the explorer's source facet). */
  sources: z.array(z.string()),
  bundleCount: z.number().int(),
  lastRunAt: z.date().nullable(),
});
export type ScenarioSummary = z.infer<typeof scenarioSummarySchema>;

// Summary statistics are the API's (packages/schema api.ts).
export type { SummaryStatistics } from "@cnibench/schema";
export { summaryStatisticsSchema };

/**
 * A stored measurement with where it came from: what views, charts and downloads are made of. Its
 * fields are the API's measurement's (packages/schema api.ts) but for its place in the bundle and
 * campaign.
 */
export const measurementRowSchema = z.object({
  id: z.string(),
  scenarioId: z.string(),
  bundleId: z.string(),
  ...measurementSchema.omit({ position: true, campaign: true }).shape,
  paramsKey: z.string(),
  /** When the figure was measured: the bundle's runAt, else when it was uploaded. */
  measuredAt: z.date(),
  /** The bundle's source, for links next to the figure. */
  sourceTitle: z.string().nullable(),
  sourceUrl: z.string().nullable(),
});
export type MeasurementRow = z.infer<typeof measurementRowSchema>;

/**
 * A current figure as views use it: the figure and its bundle's source. The audit fields (published
 * value, aggregate, when measured) stay on the scenario page's runs (`SeriesRun`): leaving them out
 * halved the time node-postgres spent building the guide's 12,000 figures.
 */
export const latestFigureSchema = measurementRowSchema
  .pick({
    scenarioId: true,
    bundleId: true,
    metric: true,
    params: true,
    value: true,
    unit: true,
    low: true,
    high: true,
    samples: true,
    qualifier: true,
    better: true,
    summaryStatistics: true,
    samplesAre: true,
    sourceTitle: true,
    sourceUrl: true,
  })
  .extend({
    /** Runs in the series' latest campaign: `samples` holds them (one run: the value itself, n = 1). */
    n: z.number().int().min(1),
    /** The bundles of that campaign, newest first (the figure's own `bundleId` is the first). */
    campaignBundleIds: z.array(z.string()),
  });
export type LatestFigure = z.infer<typeof latestFigureSchema>;

/**
 * A run of a scenario's series: a stored measurement with how many runs measured the same thing (this
 * one included), and the campaign its bundle belongs to (the bundle's campaign, or the bundle itself): the rows sharing the newest
 * row's campaign are the current figure's runs, the others its history.
 */
export const seriesRunSchema = measurementRowSchema.extend({ runs: z.number().int(), campaign: z.string() });
export type SeriesRun = z.infer<typeof seriesRunSchema>;

/** A bundle behind a scenario: where its figures come from. */
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
  /** The campaign it names or was given (null: it is a campaign of its own). */
  campaign: z.string().nullable(),
  /** Bundles of that campaign in the workspace, in every scenario: what deleting the campaign deletes. */
  campaignBundles: z.number().int(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

// The ingest API's answers are declared with its contract (packages/schema api.ts).
export type { BundleSummary };
export type Measurement = z.infer<typeof measurementSchema>;
export { bundleSummarySchema, measurementSchema };

/**
 * What every view says of a current figure besides its value: how many runs its series' latest
 * campaign holds, which bundles they came from, and their distribution (packages/analysis's
 * `summaryOf` computes it; its type is analysis's `FigureSummary`, which this schema must give).
 */
export const figureSummarySchema = z.object({
  /** Runs in the series' latest campaign (a bundle's rounds, or its value). */
  n: z.number().int().min(1),
  /** The campaign's bundles, newest first. */
  campaignBundleIds: z.array(z.string()),
  /** The runs' distribution; null for a single run, whose value is the figure itself. */
  distribution: z
    .object({
      n: z.number().int(),
      median: z.number(),
      mean: z.number(),
      min: z.number(),
      max: z.number(),
      sd: z.number().nullable(),
      cv: z.number().nullable(),
    })
    .nullable(),
}) satisfies z.ZodType<FigureSummary>;
export type { FigureSummary };

/** A current figure as pages show it: the figure with its summary in place of the raw run count. */
export const currentFigureSchema = latestFigureSchema
  .omit({ n: true, campaignBundleIds: true })
  .extend({ summary: figureSummarySchema });
export type CurrentFigure = z.infer<typeof currentFigureSchema>;

/** A plotted figure: its value on the chart's scale, qualifier, params and where it came from. */
export const plottedFigureSchema = z.object({
  y: z.number(),
  qualifier: measurementRowSchema.shape.qualifier,
  low: z.number().nullable(),
  high: z.number().nullable(),
  params: paramsSchema,
  bundleId: z.string(),
  sourceTitle: z.string().nullable(),
  sourceUrl: z.string().nullable(),
  /** The current figure's runs; null for a derived value (an overhead). */
  summary: figureSummarySchema.nullable(),
  /** Min–max of the runs on the drawn scale, where there are several; the chart's whiskers. */
  whisker: z.tuple([z.number(), z.number()]).nullable(),
});
export type PlottedFigure = z.infer<typeof plottedFigureSchema>;

/**
 * A point of a crossover line: a chart point along a numeric param, its scenario, and its noise band
 * (its runs' min–max, or the metric's margin around a single run; null where none is drawn).
 */
export const crossoverPointSchema = plottedFigureSchema.extend({
  x: z.number(),
  scenarioId: z.string(),
  band: z.tuple([z.number(), z.number()]).nullable(),
});
export type CrossoverPoint = z.infer<typeof crossoverPointSchema>;

/**
 * A warning stored with a bundle about one of its figures (at `results[i]`: above the NIC line rate, a
 * failed round…), as its upload answered it, with the bundle that carries it.
 */
export const figureWarningSchema = z.object({ bundleId: z.string(), path: z.string(), message: z.string() });
export type FigureWarning = z.infer<typeof figureWarningSchema>;

/**
 * A warning about an upload as a whole (an environment field that contradicts the files, a slug outside
 * the vocabulary), once for all the bundles that carry it.
 */
export const uploadWarningSchema = z.object({ path: z.string(), message: z.string(), bundleIds: z.array(z.string()) });
export type UploadWarning = z.infer<typeof uploadWarningSchema>;

/** What a campaign ran on that may change along its testbed (docs/design.md): its scenario's. */
export const campaignAnnotationsSchema = z.object({
  cniVersion: z.string(),
  kernel: z.string(),
  /** The node image's OS. */
  os: z.string(),
  kubernetesVersion: z.string(),
});
export type CampaignAnnotations = z.infer<typeof campaignAnnotationsSchema>;
export const annotationKeys = ["cniVersion", "kernel", "os", "kubernetesVersion"] as const;

/** An annotation whose value differs from the previous campaign's. */
export const annotationChangeSchema = z.object({
  key: z.enum(annotationKeys),
  before: z.string(),
  after: z.string(),
});
export type AnnotationChange = z.infer<typeof annotationChangeSchema>;

/**
 * One campaign of a series followed along its testbed: its runs as the verdicts read them (each
 * unqualified bundle's rounds, else its value), their summary, and what it ran on.
 */
export const historyCampaignSchema = z.object({
  /** The campaign's key (Measurement.campaign: the campaign named, else its one bundle's id). */
  campaign: z.string(),
  /** The testbed's scenario it was measured in. */
  scenarioId: z.string(),
  /** Its latest run's time: the bundles' runAt, else when they were uploaded. */
  measuredAt: z.date(),
  /** Its bundles, in time order. */
  bundleIds: z.array(z.string()),
  /** Its runs, in time order. */
  runs: z.array(z.number()),
  n: z.number().int().min(1),
  median: z.number(),
  min: z.number(),
  max: z.number(),
  annotations: campaignAnnotationsSchema,
  /** What differs from the campaign before it (none for the first). */
  changes: z.array(annotationChangeSchema),
});
export type HistoryCampaign = z.infer<typeof historyCampaignSchema>;

/** A series (metric, params) across the scenarios of one testbed that the visitor may read, oldest first. */
export const seriesHistorySchema = z.object({
  testbed: z.object({
    /** Scenario.testbedKey: a testbed is (workspace, key). */
    key: z.string(),
    workspaceId: z.string(),
    /** Its workspace's: public history anyone may read (and caches keep), private its members'. */
    visibility: z.enum(["public", "private"]),
    /** Its scenarios, oldest first: one per CNI version, kernel, node image and Kubernetes version seen. */
    scenarios: z.array(scenarioSummarySchema),
  }),
  metric: z.string(),
  params: paramsSchema,
  /** The stored unit and better direction of its runs; null when it has no campaign. */
  unit: z.string().nullable(),
  better: z.enum(betterValues).nullable(),
  /** The latest campaigns (at most a bound), oldest first. */
  campaigns: z.array(historyCampaignSchema),
  /** Campaigns in all: more than `campaigns` holds when the bound cut older ones. */
  totalCampaigns: z.number().int(),
});
export type SeriesHistory = z.infer<typeof seriesHistorySchema>;
