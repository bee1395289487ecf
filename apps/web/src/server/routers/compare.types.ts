import { betterValues, qualifiers } from "@cnibench/schema";
import { z } from "zod";
import { barsOutputSchema, crossoverOutputSchema } from "./charts.types";
import { scenarioSummarySchema } from "./scenarios.types";

const paramValue = z.union([z.string(), z.number(), z.boolean()]);
const scenarioIds = z
  .array(z.string().min(1).max(100))
  .min(2, "choose at least 2 scenarios")
  .max(4, "choose at most 4 scenarios");

export const compareInputSchema = z.object({ scenarioIds });
export const shareInputSchema = z.object({ scenarioIds, view: z.record(z.string(), z.unknown()).default({}) });
export const permalinkInputSchema = z.object({ slug: z.string().min(1).max(40) });
export const publishInputSchema = permalinkInputSchema.extend({ published: z.boolean() });

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
      params: z.record(z.string(), paramValue),
      cells: z.array(
        z.object({
          figure: z
            .object({
              value: z.number(),
              unit: z.string(),
              qualifier: z.enum(qualifiers).nullable(),
              low: z.number().nullable(),
              high: z.number().nullable(),
              samples: z.array(z.number()),
              bundleId: z.string(),
            })
            .nullable(),
          delta: z.object({ absolute: z.number(), percent: z.number().nullable() }).nullable(),
          verdict: z.enum(["better", "worse", "within-noise", "not-comparable", "missing"]).nullable(),
          why: z.string().nullable(),
        }),
      ),
    }),
  ),
  summaries: z.array(z.string()),
  environment: z.object({
    differing: z.array(z.object({ key: z.string(), label: z.string(), cni: z.boolean(), values: z.array(z.string()) })),
    confounders: z.array(z.string()),
  }),
  crossover: crossoverOutputSchema,
  latency: barsOutputSchema,
});

export const permalinkOutputSchema = z.object({
  slug: z.string(),
  createdAt: z.date(),
  view: z.record(z.string(), z.unknown()),
  pins: z.array(z.object({ bundleId: z.string(), scenarioId: z.string(), label: z.string() })),
  missing: z.array(z.object({ bundleId: z.string(), scenarioId: z.string(), label: z.string() })),
  newer: z.array(z.object({ bundleId: z.string(), scenarioId: z.string() })),
  scenarioIds: z.array(z.string()),
  published: z.boolean(),
  /** The visitor may not read the workspace: they see a published permalink's pinned bundles only. */
  pinnedOnly: z.boolean(),
  canPublish: z.boolean(),
  comparison: compareOutputSchema,
});
