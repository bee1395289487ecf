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
    path: z.string().meta({ description: 'The field the warning is about, e.g. "cni.name".' }),
    message: z.string().meta({ description: "What was accepted but deserves a look." }),
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
