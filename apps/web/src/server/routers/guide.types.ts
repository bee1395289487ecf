import { connectionPatterns, guideNeeds } from "@cnibench/analysis";
import { qualifiers } from "@cnibench/schema";
import { z } from "zod";

// The selection guide's contract: the answers in, the ranked answer with its evidence out.

export const guideInputSchema = z.object({
  /** A provider slug; null for any cloud. */
  cloud: z.string().trim().min(1).max(50).nullable(),
  /** An instance type; null for any. */
  sku: z.string().trim().min(1).max(100).nullable(),
  services: z.number().int().min(0).max(10_000_000),
  connections: z.enum(connectionPatterns),
  needs: z.array(z.enum(guideNeeds)).max(guideNeeds.length),
});

const paramValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const evidenceSchema = z.object({
  scenarioId: z.string(),
  scenarioLabel: z.string(),
  bundleId: z.string(),
  metric: z.string(),
  params: z.record(z.string(), paramValue),
  value: z.number(),
  unit: z.string(),
  qualifier: z.enum(qualifiers).nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});

const reasonSchema = z.object({
  text: z.string(),
  kind: z.enum(["measured", "extrapolated", "capability", "caveat"]),
  effect: z.enum(["for", "against", "neutral"]),
  /** The first few figures it rests on (the analysis caps them), and how many there are. */
  evidence: z.array(evidenceSchema),
  evidenceCount: z.number().int(),
  sources: z.array(z.object({ label: z.string(), url: z.string(), about: z.string() })),
  approximate: z.boolean(),
  /** The names the text left out after the first few ("and 5 more"), and the explorer's filters that list them. */
  rest: z
    .object({
      count: z.number().int(),
      explore: z.object({
        provider: z.array(z.string()),
        sku: z.array(z.string()),
        cni: z.array(z.string()),
        mode: z.array(z.string()),
        kubeProxy: z.array(z.string()),
      }),
    })
    .nullable(),
});

const scenarioSchema = z.object({
  id: z.string(),
  label: z.string(),
  provider: z.string(),
  sku: z.string(),
  inScope: z.boolean(),
});
const scenarioCountSchema = z.object({ all: z.number().int(), inScope: z.number().int() });

const needCheckSchema = z.object({
  need: z.enum(guideNeeds),
  status: z.enum(["met", "partial", "unmet", "unknown"]),
  hard: z.boolean(),
});

export const guideOutputSchema = z.object({
  answers: guideInputSchema,
  scope: z.object({
    clouds: z.array(z.string()),
    skus: z.array(z.string()),
    scenarioCount: z.number().int(),
    fallback: z.enum(["cloud", "sku"]).nullable(),
  }),
  summary: z.array(reasonSchema),
  /** How many of the summary's first sentences are the answer itself; the findings follow. */
  leadCount: z.number().int(),
  moreFindings: z.number().int(),
  caveats: z.array(reasonSchema),
  performanceMatters: z.boolean(),
  /** The options no other beats across the board (tier 1 of the best-fitting). */
  notBeaten: z.array(z.string()),
  /**
   * With several testbeds in scope, one ranking per testbed of every option measured there (no test
   * compares datapaths across testbeds); `options` then holds each card once. Empty with one testbed.
   */
  byTestbed: z.array(
    z.object({
      testbed: z.string(),
      places: z.array(
        z.object({
          id: z.string(),
          rank: z.number().int(),
          tier: z.number().int(),
          notBeaten: z.boolean(),
          why: reasonSchema,
          /** Its card's reasons on this testbed alone (and the Service-count lines read by proxy). */
          reasons: z.array(reasonSchema),
          moreReasons: z.number().int(),
          /** Its scenarios, this testbed's first (`inScope`: on this testbed), and how many are here. */
          scenarios: z.array(scenarioSchema),
          scenarioCount: scenarioCountSchema,
        }),
      ),
    }),
  ),
  /** The testbeds past the first few ranked in `byTestbed`, in its order: each asked about on its own. */
  moreTestbeds: z.array(
    z.object({ testbed: z.string(), provider: z.string(), sku: z.string(), options: z.number().int() }),
  ),
  /** Each figure compared in scope, and whether it ranks (a figure every option saturates does not). */
  figuresRead: z.array(
    z.object({
      what: z.string(),
      testbed: z.string(),
      options: z.number().int(),
      ranks: z.boolean(),
      words: z.string().nullable(),
    }),
  ),
  /** Findings from another cloud or instance type, only where nothing in scope answers; never ranked on. */
  closest: z.array(reasonSchema),
  options: z.array(
    z.object({
      rank: z.number().int(),
      id: z.string(),
      label: z.string(),
      capabilityRows: z.array(z.string()),
      scenarios: z.array(scenarioSchema),
      scenarioCount: scenarioCountSchema,
      explore: z.object({
        cni: z.array(z.string()),
        mode: z.array(z.string()),
        kubeProxy: z.array(z.string()),
      }),
      clouds: z.array(z.string()),
      fit: z.enum(["good", "partial", "poor"]),
      needs: z.array(needCheckSchema),
      /** 1: not beaten across the board; 2: beaten only by tier-1 options; … */
      tier: z.number().int(),
      /** What puts it below the option above it (for the first, why first), in one line. */
      why: reasonSchema,
      performance: z.number(),
      features: z.number(),
      reasons: z.array(reasonSchema),
      moreReasons: z.number().int(),
    }),
  ),
  unmeasured: z.array(
    z.object({ id: z.string(), label: z.string(), needs: z.array(needCheckSchema), reasons: z.array(reasonSchema) }),
  ),
  capabilitiesVersion: z.string(),
  /** What the form offers: the clouds and instance types with measurements, and how many scenarios each. */
  choices: z.object({
    clouds: z.array(z.object({ value: z.string(), scenarios: z.number().int() })),
    skus: z.array(z.object({ value: z.string(), provider: z.string(), scenarios: z.number().int() })),
  }),
});

export type GuideInput = z.infer<typeof guideInputSchema>;
export type GuideOutput = z.infer<typeof guideOutputSchema>;
