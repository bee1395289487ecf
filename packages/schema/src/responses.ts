/**
 * Response shapes of the ingest API, kept beside the bundle so the OpenAPI components, the server
 * and any client are generated from, and checked against, the same definitions.
 */
import { z } from "zod";

export const bundleIssueSchema = z
  .object({
    path: z.string().meta({ description: 'Where the problem is, e.g. "results[3].unit"; "" for the whole bundle.' }),
    message: z.string().meta({ description: "What is wrong, in words." }),
  })
  .meta({ description: "A violation of the bundle contract; the bundle was rejected." });

export const bundleWarningSchema = z
  .object({
    path: z.string().max(500).meta({ description: 'The field the warning is about, e.g. "cni.name".' }),
    message: z.string().max(2000).meta({ description: "What was accepted but deserves a look." }),
  })
  .meta({ description: "Something accepted as given but worth checking, e.g. a slug outside the vocabulary." });

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

export type BundleIssue = z.infer<typeof bundleIssueSchema>;
export type BundleWarning = z.infer<typeof bundleWarningSchema>;
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
