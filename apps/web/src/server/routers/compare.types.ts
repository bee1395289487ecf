import { caveatKinds, verdicts } from "@cnibench/analysis";
import {
  currentFigureSchema,
  figureSummarySchema,
  paramsSchema,
  scenarioSummarySchema,
} from "@cnibench/db/read-models";
import { betterValues, findMetric } from "@cnibench/schema";
import { z } from "zod";
import { barsOutputSchema, crossoverOutputSchema } from "./charts.types";

const shown = currentFigureSchema.shape;
const scenarioIds = z
  .array(z.string().min(1).max(100))
  .min(2, "choose at least 2 scenarios")
  .max(4, "choose at most 4 scenarios");

/** Margins a comparison may carry: the catalogue's (a permalink keeps them all) and many x. metrics'. */
export const maxMargins = 100;
/** A metric a margin may be set for: a catalogue metric with a winner (not a count), or an x. metric. */
export const marginMetricSchema = z
  .string()
  .max(100)
  .refine(
    (k) => (findMetric(k)?.margin ?? null) !== null || /^x\.\S+$/.test(k),
    "a catalogue metric with a winner, or x.…",
  );
/** A practical margin δ in ± % of the baseline. */
export const marginPercentSchema = z.number().gt(0).max(100);
/** Margins δ by metric overriding the catalogue's for one comparison (`margin=` in the compare address). */
export const marginsSchema = z
  .record(marginMetricSchema, marginPercentSchema)
  .refine((m) => Object.keys(m).length <= maxMargins, `at most ${maxMargins} margins`);

export const compareInputSchema = z.object({ scenarioIds, margins: marginsSchema.default({}) });
/**
 * View settings kept with a permalink: a few short values, never a document; `margins` the margins δ
 * its verdicts were computed with.
 */
const viewSchema = z
  .record(z.string().min(1).max(40), z.union([z.string().max(200), z.number(), z.boolean(), marginsSchema]))
  .refine((v) => Object.keys(v).length <= 20, "at most 20 view settings")
  .refine((v) => v.margins === undefined || marginsSchema.safeParse(v.margins).success, "margins: δ % by metric")
  .default({});
export const shareInputSchema = z.object({ scenarioIds, view: viewSchema });
export const permalinkInputSchema = z.object({ slug: z.string().min(1).max(40) });
export const publishInputSchema = permalinkInputSchema.extend({ published: z.boolean() });

/** The numbers behind a verdict; the interval test's fields are null for the other tests. */
const cellEvidenceSchema = z.object({
  /** welch-summary: Welch's t from summary statistics (a side published a mean, its spread and n, not runs). */
  test: z.enum(["welch-log", "welch-linear", "welch-summary", "single value", "bounds"]),
  marginPercent: z.number(),
  /** Candidate / baseline with its 95 % interval. */
  ratio: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  p: z.number().nullable(),
  pAdjusted: z.number().nullable(),
  /** Runs per side that would decide at this noise (inconclusive verdicts). */
  runsNeeded: z.number().nullable(),
  /** The difference in % these runs detect 80 % of the time. */
  detectablePercent: z.number().nullable(),
  /** Where each side's variance came from: "runs", or its series' history ("history: 12 runs in 4 campaigns"). */
  baselineNoise: z.string().nullable(),
  candidateNoise: z.string().nullable(),
});

/** One scenario's figure in a compare row, against the baseline (the first scenario). */
const compareCellSchema = z.object({
  // A current figure's fields, in the order the comparison writes them: what the page, the evidence CSV
  // and the badges read. Its runs are in `summary.distribution`, their bundles behind its own.
  figure: z
    .object({
      value: shown.value,
      unit: shown.unit,
      qualifier: shown.qualifier,
      low: shown.low,
      high: shown.high,
      bundleId: shown.bundleId,
      summary: figureSummarySchema.omit({ campaignBundleIds: true }),
      /** The mean, spread and n the tool published instead of samples (k8s-netperf), when it did. */
      summaryStatistics: shown.summaryStatistics,
    })
    .nullable(),
  /** Against the baseline; null for the baseline itself or when a side is missing. */
  delta: z.object({ absolute: z.number(), percent: z.number().nullable() }).nullable(),
  /**
   * The change the verdict judged, in %, and what it is of: with runs the ratio of their geometric
   * means, which can differ from the change of the medians shown beside it (issue 40).
   */
  change: z.object({ percent: z.number(), basis: z.string() }).nullable(),
  verdict: z.enum(verdicts).nullable(),
  /** A single value on a side (a single run, or a published median): the verdict comes from the margin alone. */
  indicative: z.boolean(),
  /**
   * What the verdict must be read with: a UDP throughput gain bought with more loss, a CPU figure of a
   * test that moved more or less traffic. Its kind is what the summary counts.
   */
  caveat: z.object({ text: z.string(), kind: z.enum(caveatKinds) }).nullable(),
  /** How the verdict was reached, in words (shown under the verdict). */
  why: z.string().nullable(),
  /** The same in figures, for the evidence CSV; null for the baseline and where no test ran. */
  evidence: cellEvidenceSchema.nullable(),
});

export const compareOutputSchema = z.object({
  scenarios: z.array(scenarioSummarySchema),
  labels: z.array(z.string()),
  unknownIds: z.array(z.string()),
  rows: z.array(
    z.object({
      key: z.string(),
      metric: z.string(),
      label: z.string(),
      better: z.enum(betterValues),
      params: paramsSchema,
      cells: z.array(compareCellSchema),
    }),
  ),
  summaries: z.array(z.string()),
  /** The margin δ of each metric compared: the catalogue's, or this comparison's override. */
  margins: z.array(
    z.object({
      metric: z.string(),
      label: z.string(),
      percent: z.number(),
      /** The catalogue's margin (10 % for x. metrics). */
      standard: z.number(),
      /** `percent` differs from the catalogue's: set in the address, or kept by a permalink since. */
      overridden: z.boolean(),
    }),
  ),
  environment: z.object({
    differing: z.array(z.object({ key: z.string(), label: z.string(), cni: z.boolean(), values: z.array(z.string()) })),
    confounders: z.array(z.string()),
  }),
  crossover: crossoverOutputSchema,
  latency: barsOutputSchema,
});

// The shapes compare-data.ts builds, inferred from the output they are validated against.
export type CompareOutput = z.infer<typeof compareOutputSchema>;
export type CompareRow = CompareOutput["rows"][number];
export type CompareCell = z.infer<typeof compareCellSchema>;
export type MarginInForce = CompareOutput["margins"][number];

export const permalinkOutputSchema = z.object({
  slug: z.string(),
  createdAt: z.date(),
  view: z.record(z.string(), z.unknown()),
  pins: z.array(z.object({ bundleId: z.string(), scenarioId: z.string(), label: z.string() })),
  missing: z.array(z.object({ bundleId: z.string(), scenarioId: z.string(), label: z.string() })),
  newer: z.array(z.object({ bundleId: z.string(), scenarioId: z.string() })),
  scenarioIds: z.array(z.string()),
  /** Public: every private workspace it pins has agreed (or it pins public workspaces only). */
  published: z.boolean(),
  /** The visitor may not read every workspace it pins: they see a public permalink's pinned bundles only. */
  pinnedOnly: z.boolean(),
  /** Each private workspace it pins and whether one of its owners agreed (readers only). */
  approvals: z.array(z.object({ slug: z.string(), name: z.string(), agreed: z.boolean() })),
  /** The visitor owns a private workspace it pins: they may agree to publish it, withdraw, or delete it. */
  canPublish: z.boolean(),
  approvedByVisitor: z.boolean(),
  comparison: compareOutputSchema,
});
