import { verdicts } from "@cnibench/analysis";
import {
  annotationChangeSchema,
  historyCampaignSchema,
  seriesHistorySchema,
  settingValueSchema,
} from "@cnibench/db/read-models";
import { z } from "zod";

// Input and output contracts of scenarios.history: a series followed across its testbed's campaigns,
// with its change points. The read models it is made of are declared once, in @cnibench/db/read-models.

/** A series: a readable scenario (any of its testbed), a metric and its exact params. */
export const historyInputSchema = z.object({
  scenarioId: z.string().min(1).max(100),
  metric: z.string().min(1).max(100),
  params: z
    .record(z.string().max(100), z.union([z.string().max(200), z.number(), z.boolean()]))
    .refine((p) => Object.keys(p).length <= 20, "at most 20 params")
    .default({}),
});

/** Where a chart puts a campaign: x its time in ms since the epoch, y its runs' median. */
const drawn = {
  /** Its place in `campaigns`, oldest first: what change points and annotations point at. */
  index: z.number().int().min(0),
  x: z.number(),
  y: z.number(),
};

/** A campaign as the chart draws it: a point at its median with min–max whiskers, its runs, what it ran on. */
const historyPointSchema = historyCampaignSchema.extend(drawn);

/** The campaigns between two change points (or an end), by index in `campaigns`. */
const segmentSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  campaigns: z.number().int(),
  runs: z.number().int(),
  /** Mean and median of its campaigns' medians. */
  mean: z.number(),
  median: z.number(),
});

/** Where the series shifted (packages/analysis change-points.ts): at campaign `index`, the first after it. */
const changePointSchema = z.object({
  index: z.number().int().min(0),
  campaign: z.string(),
  scenarioId: z.string(),
  measuredAt: z.date(),
  x: z.number(),
  before: segmentSchema,
  after: segmentSchema,
  /** After against before, in % of before. */
  changePercent: z.number().nullable(),
  /** Student's t of the campaign medians on either side. */
  p: z.number(),
  /** After against before by the verdict rules (docs/verdicts.md), each campaign's median a run. */
  verdict: z.enum(verdicts),
  /** A worse verdict is a regression, a better one an improvement; null within ±δ or undecided. */
  direction: z.enum(["regression", "improvement"]).nullable(),
  /** The margin δ the verdict used, in ± %; null when it had none. */
  marginPercent: z.number().nullable(),
  /** What changed between the last campaign before the shift and the first after it. */
  annotations: z.array(z.object({ key: z.string(), before: settingValueSchema, after: settingValueSchema })),
});

/** A change of what the campaigns ran on (CNI version, kernel, OS, Kubernetes version): a marker on the chart. */
const annotationMarkerSchema = annotationChangeSchema.extend({
  index: drawn.index,
  x: drawn.x,
  campaign: z.string(),
  measuredAt: z.date(),
});

const { testbed, metric, params, unit, better, totalCampaigns } = seriesHistorySchema.shape;
export const historyOutputSchema = z.object({
  testbed,
  metric,
  params,
  unit,
  better,
  /** The latest campaigns, oldest first (at most historyLimit of @cnibench/db). */
  campaigns: z.array(historyPointSchema),
  totalCampaigns,
  changePoints: z.array(changePointSchema),
  /** Why the series was not searched for change points (too few campaigns); null when it was. */
  changePointsReason: z.string().nullable(),
  /** Every change of what the campaigns ran on, in time order. */
  annotations: z.array(annotationMarkerSchema),
});
export type HistoryView = z.infer<typeof historyOutputSchema>;
