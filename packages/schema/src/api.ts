/**
 * The ingest API's contract: the request and response schemas of every route, beside the bundle. The
 * routes validate and answer through them, the OpenAPI document is generated from them
 * (apps/ingest-api/src/openapi.ts) and the CLI takes its types from them: one definition each.
 */
import { z } from "zod";
import {
  aggregates,
  betterValues,
  bundleIssueSchema,
  bundleSchema,
  bundleWarningSchema,
  qualifiers,
  samplesKinds,
} from "./bundle.ts";
import { findMetric } from "./catalogue.ts";

/** What a comparison may say of a figure (docs/verdicts.md); the analysis decides which. */
export const verdicts = [
  "better",
  "worse",
  "equivalent",
  "small-but-real",
  "inconclusive",
  "not-comparable",
  "missing",
] as const;
export type Verdict = (typeof verdicts)[number];

/** What a workspace's webhooks may be told (docs/alerts.md). */
export const alertEvents = ["campaign-worse", "change-point"] as const;
export type AlertEvent = (typeof alertEvents)[number];

/** A figure's param value: what a bundle's measurement may be keyed by. */
export const paramValueSchema = z.union([z.string(), z.number(), z.boolean()]);
export const paramsSchema = z.record(z.string(), paramValueSchema);

export const uploadResultSchema = z
  .object({
    id: z.string().meta({ description: "Id of the stored bundle." }),
    scenarioId: z.string().meta({ description: "Id of the scenario the bundle's figures belong to." }),
    measurementCount: z.number().int().min(0).meta({ description: "Number of measurements stored." }),
    apiUrl: z.string().meta({ description: "Where to read the bundle back through the API." }),
    webUrl: z.string().meta({ description: "Where to see the scenario in the web app." }),
    warnings: z.array(bundleWarningSchema),
    campaign: z.string().nullable().optional().meta({
      description:
        "For a bundle that was already there (200): the campaign it is stored in, null when its own. The same run uploaded again — alone, in another archive, under another campaign — is not stored twice: it stays in the campaign it was first stored in. In an import's answer it is given only when that is not the import's campaign.",
    }),
  })
  .meta({ description: "The bundle was accepted." });

export const errorResponseSchema = z
  .object({
    error: z.string().meta({ description: "Stable machine-readable code.", examples: ["invalid_bundle"] }),
    message: z.string().meta({ description: "Human-readable explanation." }),
    requestId: z.string().meta({ description: "Quote it when reporting a problem." }),
    issues: z.array(bundleIssueSchema).optional().meta({ description: "Every contract violation found." }),
  })
  .meta({ description: "The request failed." });

export type UploadResult = z.infer<typeof uploadResultSchema>;
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** POST /v1/import: one entry per input file (or result directory), whether it became bundles or not. */
export const importFileReportSchema = z
  .object({
    file: z
      .string()
      .meta({ description: 'The file, archive entry ("results.tar.gz/run/context.yaml") or result directory.' }),
    format: z.string().nullable().meta({
      description:
        "Format it was read as: tke, infrabuilder, eks, knb, iperf3, fortio, netperf, clusterloader2, vegeta, k8s-netperf, kube-burner, cilium-perf or bundle; null when none fits.",
    }),
    status: z.enum(["imported", "skipped", "failed"]).meta({
      description: "imported: became bundles; skipped: not results (README, empty, unknown format); failed: see error.",
    }),
    bundles: z.number().int().min(0).meta({ description: "Bundles built from it." }),
    error: z.string().optional().meta({ description: "Why it failed or was skipped." }),
    missing: z
      .array(
        z.object({
          path: z.string().meta({ description: 'Bundle field, e.g. "node.sku".' }),
          input: z.string().meta({ description: 'Query parameter / environment key that supplies it, e.g. "sku".' }),
        }),
      )
      .optional()
      .meta({ description: "Required environment fields the file does not state and nobody supplied." }),
    issues: z
      .array(bundleIssueSchema)
      .optional()
      .meta({ description: "Contract violations of the bundle built from it." }),
    skippedParts: z
      .array(z.string())
      .optional()
      .meta({ description: "Parts of an imported file that were left out, and why." }),
    warnings: z.array(z.string()).optional(),
  })
  .meta({ description: "What became of one input file." });

export const importedBundleSchema = uploadResultSchema
  .extend({
    file: z.string().meta({ description: "The file or result directory the bundle was built from." }),
    format: z.string().meta({ description: "Format the file was read as." }),
    created: z.boolean().meta({ description: "false when identical content was stored before (nothing written)." }),
  })
  .meta({ description: "A bundle built from the upload and stored." });

export const importResultSchema = z
  .object({
    campaign: z.string().meta({
      description:
        "The campaign of every stored bundle that names none of its own: ?campaign=, or `import-` and 16 hex digits derived from the bundles the import built (the same results imported again give the same campaign).",
    }),
    refused: z.number().int().min(0).meta({
      description:
        "Files refused (status `failed` in `files`, each with its reason). Only ?partial=true stores an import with refused files; otherwise 0.",
    }),
    bundles: z.array(importedBundleSchema),
    files: z.array(importFileReportSchema),
  })
  .meta({ description: "Every bundle of the import was stored in one transaction." });

export const importErrorSchema = errorResponseSchema
  .extend({
    files: z.array(importFileReportSchema).optional().meta({ description: "Per-file outcome; nothing was stored." }),
  })
  .meta({ description: "The import failed; nothing was stored." });

/** DELETE /v1/bundles/:id and DELETE /v1/campaigns/:campaign. */
export const deletedBundlesSchema = z
  .object({
    bundleIds: z.array(z.string()).meta({ description: "The bundles deleted, with their measurements." }),
    scenarioIds: z.array(z.string()).meta({ description: "The scenarios they belonged to." }),
    removedScenarioIds: z
      .array(z.string())
      .meta({ description: "Those of them left without a bundle, which were deleted too." }),
  })
  .meta({
    description:
      "What was deleted, in one transaction. Permalinks that pinned these bundles keep standing and name them as deleted.",
  });

export type ImportFileReport = z.infer<typeof importFileReportSchema>;
export type ImportedBundleResult = z.infer<typeof importedBundleSchema>;
export type ImportResult = z.infer<typeof importResultSchema>;

/** A bundle as the ingest API lists it (GET /v1/bundles) and heads its reading (GET /v1/bundles/{id}). */
export const bundleSummarySchema = z
  .object({
    id: z.string(),
    scenarioId: z.string(),
    clusterName: z.string(),
    sourceTitle: z.string().nullable(),
    sourceUrl: z.string().nullable(),
    collectorName: z.string().nullable(),
    runAt: z.date().nullable(),
    receivedAt: z.date(),
    measurementCount: z.number().int(),
  })
  .meta({ description: "A stored bundle: where it came from and how many measurements it holds." });
export type BundleSummary = z.infer<typeof bundleSummarySchema>;

/** A bundle's stored figure as the ingest API returns it (GET /v1/bundles/{id}). */
/**
 * Summary statistics a tool published instead of samples (the contract's result.summary), in the
 * figure's stored unit: its mean, sample standard deviation or 95 % interval, and n runs or clients.
 */
export const summaryStatisticsSchema = z
  .object({
    mean: z.number(),
    sd: z.number().optional(),
    ci95: z.tuple([z.number(), z.number()]).optional(),
    n: z.number().int(),
    of: z.enum(samplesKinds),
  })
  .meta({ description: "Summary statistics the tool published instead of samples, in the stored unit." });
export type SummaryStatistics = z.infer<typeof summaryStatisticsSchema>;

export const measurementSchema = z
  .object({
    metric: z.string(),
    params: paramsSchema,
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
    /** Its summary statistics, when the tool published them instead of samples. */
    summaryStatistics: summaryStatisticsSchema.nullish(),
    /** "clients": its samples are concurrent clients of one run (one run to verdicts); else runs. */
    samplesAre: z.enum(samplesKinds).nullish(),
    position: z.number().int().min(0).meta({ description: "Index of the result in the bundle's results." }),
    campaign: z.string().meta({
      description:
        "The bundle's campaign, or the bundle's id when it is a campaign of its own: runs of one campaign are summarised together.",
    }),
  })
  .meta({ description: "A figure in the catalogue's unit, with the published value and unit beside it." });

/** GET /v1/bundles' query; the OpenAPI document's parameters are generated from it. */
export const bundleListQuerySchema = z.object({
  scenario: z.string().min(1).max(100).optional().meta({ description: "Only bundles of this scenario id." }),
  metric: z.string().min(1).max(200).optional().meta({ description: "Only bundles holding this metric." }),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
  format: z.enum(["json", "csv"]).optional().meta({ description: "json by default; or send Accept: text/csv." }),
});

/** GET /v1/bundles as JSON. */
export const bundlePageSchema = z
  .object({
    items: z.array(bundleSummarySchema),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int().min(0),
    nextPage: z.number().int().nullable().meta({ description: "null on the last page." }),
  })
  .meta({ description: "One page of bundles, newest first." });

/** GET /v1/bundles/{id}. */
export const bundleWithMeasurementsSchema = bundleSummarySchema
  .extend({
    warnings: z.array(bundleWarningSchema),
    bundle: bundleSchema,
    measurements: z.array(measurementSchema),
  })
  .meta({ description: "A stored bundle as uploaded, with its warnings and normalised measurements." });

/** POST /v1/gate. */
const id = z.string().min(1).max(100);
const bundleIds = z.array(id).min(1).max(1000);
/** A metric a gate may choose or set a margin for: a catalogue metric, or an x. metric. */
const metricKey = z
  .string()
  .max(100)
  .refine((k) => findMetric(k) !== undefined || /^x\.\S+$/.test(k), "a catalogue metric or x.…");

/** POST /v1/gate's body; the OpenAPI document's GateRequest. */
export const gateRequestSchema = z
  .strictObject({
    candidate: z
      .strictObject({ bundleIds })
      .meta({ description: "The candidate campaign: the bundle ids its upload or import answered with." }),
    baseline: z
      .union([
        z
          .strictObject({ previous: z.literal(true) })
          .meta({ description: "The latest earlier campaign of the candidate's testbed." }),
        z
          .strictObject({ scenarioId: id })
          .meta({ description: "A scenario's latest campaign, the candidate's aside." }),
        z
          .strictObject({ permalink: id })
          .meta({ description: "A permalink's slug: the pinned bundles of its baseline (first) scenario." }),
        z.strictObject({ bundleIds }).meta({ description: "These bundles, of one scenario." }),
      ])
      .meta({ description: "What the candidate is compared with." }),
    metrics: z
      .array(metricKey)
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Only these metrics' figures decide the outcome (all are compared and listed)." }),
    margins: z
      .record(metricKey, z.number().gt(0).max(100))
      .refine((m) => Object.keys(m).length <= 100, "at most 100 margins")
      .optional()
      .meta({ description: "Practical margins δ in ± % by metric, overriding the catalogue's (docs/verdicts.md)." }),
  })
  .meta({ description: "A candidate campaign, its baseline, and what decides the gate." });

const gateSide = z
  .object({
    n: z.number().int().min(1).meta({ description: "Runs: the campaign's runs, or the bundle's rounds." }),
    median: z.number().meta({ description: "The runs' median (a single run: its value), in `unit`." }),
  })
  .nullable()
  .meta({ description: "null when this side did not measure the figure." });

export const gateRowSchema = z
  .object({
    metric: z.string(),
    label: z.string().meta({ description: "The metric's name in the catalogue." }),
    params: paramsSchema,
    unit: z.string(),
    baseline: gateSide,
    candidate: gateSide,
    changePercent: z.number().nullable().meta({
      description: "The candidate's median against the baseline's, in % (null: a side missing, or a baseline of 0).",
    }),
    verdict: z.enum(verdicts),
    indicative: z.boolean().meta({
      description:
        "One value on a side (a single run, or a published median without its runs): the change against the margin only.",
    }),
    why: z.string().meta({ description: "The evidence in words: runs, ratio and interval, test, p, noise." }),
    marginPercent: z.number().nullable(),
    gated: z.boolean().meta({ description: "Whether this figure decides the outcome (its metric was chosen)." }),
    caveat: z.string().nullable().meta({
      description:
        'What the verdict must be read with, as the compare page says it: a CPU or memory figure of a test that moved more or less traffic ("while moving 100.0 % more traffic"), a UDP throughput gain with more loss.',
    }),
    text: z
      .object({
        params: z.string(),
        baseline: z.string(),
        candidate: z.string(),
        change: z.string(),
        verdict: z.string(),
      })
      .meta({ description: "The same as people read it (units, Unicode minus), for summaries." }),
  })
  .meta({ description: "One figure (metric and params) of the gate." });

/** A side of the gate as it was found. */
const described = z.object({ description: z.string(), bundleIds: z.array(z.string()) });

export const gateResultSchema = z
  .object({
    candidate: described,
    baseline: described,
    rows: z.array(gateRowSchema),
    metrics: z.array(z.string()).nullable().meta({ description: "The metrics chosen; null: every one decides." }),
    unmeasured: z
      .array(z.string())
      .meta({ description: "Chosen metrics with no figure measured by both sides (each counts as inconclusive)." }),
    compared: z.number().int().meta({ description: "Figures measured by both sides." }),
    worse: z.number().int().meta({ description: "Deciding figures worse beyond their margin." }),
    inconclusive: z
      .number()
      .int()
      .meta({ description: "Deciding figures left undecided, chosen metrics unmeasured, or 1 when nothing compared." }),
    outcome: z.enum(["pass", "worse", "inconclusive"]),
  })
  .meta({ description: "The gate's verdicts, one row per figure, and its outcome." });

export type GateRequest = z.infer<typeof gateRequestSchema>;
export type GateRow = z.infer<typeof gateRowSchema>;
export type GateResult = z.infer<typeof gateResultSchema>;

/** A row of GET /v1/workspaces/{slug}/figures.json: flat, as Grafana's Infinity data source reads it. */
export const figureRowSchema = z
  .looseObject({
    time: z
      .string()
      .meta({ description: "When the figure was measured (its bundle's runAt, else when it was uploaded)." }),
    series: z.string().meta({ description: "The OpenMetrics family name of GET /v1/workspaces/{slug}/metrics." }),
    value: z.number().meta({
      description:
        "The current figure in the base unit `unit`: the median of its series' latest campaign (a lone bundle's value).",
    }),
    unit: z.string().meta({
      description: "The base unit the feed gives it in (seconds, bytes, bytes_per_second, ratio, cores, count, …).",
    }),
    n: z.number().int().min(1).meta({ description: "Runs in the latest campaign." }),
    scenario: z.string(),
    scenario_id: z.string(),
    testbed: z.string().meta({ description: "The same for the scenarios of one testbed (CNI upgrades)." }),
    provider: z.string(),
    sku: z.string(),
    kernel: z.string(),
    cni: z.string(),
    cni_version: z.string(),
    mode: z.string(),
    kube_proxy: z.string(),
    metric: z.string().meta({ description: "The catalogue key (x.… outside it)." }),
  })
  .meta({
    description:
      "A series' current figure with the OpenMetrics sample's labels as fields: scenario labels, `qualifier` when the figure is one (≈, ≤…), and each param (a name clashing with another label prefixed `param_`).",
  });

export const figureFeedSchema = z
  .object({
    workspace: z.string(),
    total: z.number().int().min(0).meta({ description: "Series of the workspace in all." }),
    expired: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Series left out because their scenario was not run in `maxAgeDays` days." }),
    maxAgeDays: z.number().int().min(1),
    truncated: z.boolean().meta({ description: "true when `rows` holds only the first `maxSeries` of them." }),
    maxSeries: z.number().int().min(1),
    rows: z.array(figureRowSchema),
  })
  .meta({ description: "A workspace's current figures, one row per scenario × metric × params." });

/** POST /v1/campaigns/close and /v1/webhooks; what webhooks receive. */
const campaignName = z.string().min(1).max(200);

export const closeCampaignRequestSchema = z
  .strictObject({ campaign: campaignName.meta({ description: "The campaign its bundles name." }) })
  .meta({ description: "A campaign its collector has finished: its alerts are judged now." });

export const closeCampaignResultSchema = z
  .object({
    campaign: z.string(),
    scenarios: z.number().int().meta({ description: "Scenarios whose part of the campaign is judged now." }),
  })
  .meta({ description: "The campaign closed." });

export const webhookRequestSchema = z
  .strictObject({
    url: z.string().max(2000).meta({ description: "http or https; a public address unless the operator allows it." }),
    format: z.enum(["json", "slack"]).meta({ description: "json: WebhookPayload. slack: SlackPayload." }),
    events: z.array(z.enum(alertEvents)).min(1).max(alertEvents.length),
  })
  .meta({ description: "A new webhook of the token's workspace." });

export const webhookCreatedSchema = z
  .object({
    id: z.string(),
    secret: z.string().meta({ description: "The signing secret: shown here once, never again." }),
  })
  .meta({ description: "The webhook made." });

export const webhookPatchSchema = z
  .strictObject({ paused: z.boolean().meta({ description: "Paused: nothing is queued for it or sent to it." }) })
  .meta({ description: "Pause or resume a webhook." });

export const webhookPausedSchema = z
  .object({ id: z.string(), paused: z.boolean() })
  .meta({ description: "The webhook, and whether it is paused now." });

const deliveryStatus = z.enum(["pending", "delivered", "failed"]);
export const webhookSummarySchema = z
  .object({
    id: z.string(),
    url: z.string(),
    format: z.enum(["json", "slack"]),
    events: z.array(z.enum(alertEvents)),
    createdAt: z.date(),
    paused: z.boolean(),
    deliveries: z.array(
      z.object({
        id: z.string(),
        event: z.enum(alertEvents),
        status: deliveryStatus,
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        createdAt: z.date(),
        deliveredAt: z.date().nullable(),
        about: z.string(),
      }),
    ),
  })
  .meta({ description: "A webhook, without its secret, and its latest deliveries." });

const alertSide = z.object({
  scenarioId: z.string(),
  campaign: z.string(),
  runs: z.number().int(),
  median: z.number(),
  campaigns: z.number().int().meta({ description: "A change point's side: the campaigns of its segment." }),
});
const campaignRef = z.object({
  campaign: z.string(),
  scenarioId: z.string(),
  bundles: z.number().int(),
  description: z.string(),
});

/** What a webhook of format json receives (packages/analysis alerts.ts AlertPayload). */
export const webhookPayloadSchema = z
  .object({
    event: z.enum(alertEvents),
    workspace: z.object({ slug: z.string(), name: z.string() }),
    testbed: z.string(),
    scenario: z.object({ id: z.string(), label: z.string() }),
    campaign: campaignRef.meta({ description: "The whole campaign judged." }),
    baseline: campaignRef.nullable().meta({ description: "campaign-worse: the previous campaign of the testbed." }),
    figures: z.array(
      z.object({
        metric: z.string(),
        params: paramsSchema,
        unit: z.string().nullable(),
        previous: alertSide,
        current: alertSide,
        changePercent: z.number().nullable(),
        verdict: z.enum(verdicts),
        caveat: z.string().nullable().meta({
          description:
            'campaign-worse: what the verdict must be read with ("while moving 100.0 % more traffic": more CPU for more throughput); null for change points.',
        }),
        p: z.number().nullable().meta({ description: "change-point: the change point's p; null for campaign-worse." }),
        changes: z
          .array(
            z.object({
              key: z.string(),
              before: z.union([z.string(), z.number(), z.boolean(), z.null()]),
              after: z.union([z.string(), z.number(), z.boolean(), z.null()]),
            }),
          )
          .meta({ description: "change-point: what changed at it (kernel, CNI version…); empty for campaign-worse." }),
      }),
    ),
    total: z.number().int().meta({ description: "Figures in all; `figures` lists the first 20." }),
    link: z.string(),
  })
  .meta({
    description:
      "The body of a json webhook's delivery, signed: X-Cnibench-Signature is sha256= and the hex HMAC-SHA256 of X-Cnibench-Timestamp, a dot and the body; refuse timestamps more than 300 s away.",
  });

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** What a webhook of format slack receives: an incoming-webhook message, text escaped per Slack's rules. */
export const slackPayloadSchema = z
  .object({
    text: z.string(),
    blocks: z.array(
      z.union([
        z.object({ type: z.literal("header"), text: z.object({ type: z.literal("plain_text"), text: z.string() }) }),
        z.object({ type: z.literal("section"), text: z.object({ type: z.literal("mrkdwn"), text: z.string() }) }),
      ]),
    ),
  })
  .meta({ description: "The body of a slack webhook's delivery (Slack incoming webhooks: text and blocks)." });

export type SlackPayload = z.infer<typeof slackPayloadSchema>;
