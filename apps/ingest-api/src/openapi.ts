import type { ArchiveLimits } from "@cnibench/importers";
import { environmentFields, formatNames } from "@cnibench/importers";
import { deletedBundlesSchema, importErrorSchema, importResultSchema, openApiComponents } from "@cnibench/schema";
import { z } from "zod";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ "application/json": { schema } });
const error = (description: string) => ({ description, content: json(ref("ErrorResponse")) });

/** The OpenAPI 3.1 document of the ingest API; its schemas come from the zod contract. */
export function openApiDocument(options: {
  serverUrl: string;
  maxBundleBytes: number;
  maxImportBytes: number;
  importLimits: ArchiveLimits;
}) {
  const { components } = openApiComponents() as { components: { schemas: Record<string, unknown> } };
  // Import responses come from the same zod definitions (packages/schema/src/responses.ts), inlined.
  const inline = (schema: z.ZodType) => {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as Record<
      string,
      unknown
    >;
    return rest;
  };
  const bundleSummary = {
    type: "object",
    properties: {
      id: { type: "string" },
      scenarioId: { type: "string" },
      clusterName: { type: "string" },
      sourceTitle: { type: ["string", "null"] },
      sourceUrl: { type: ["string", "null"] },
      collectorName: { type: ["string", "null"] },
      runAt: { type: ["string", "null"], format: "date-time" },
      receivedAt: { type: "string", format: "date-time" },
      measurementCount: { type: "integer" },
    },
    required: ["id", "scenarioId", "clusterName", "receivedAt", "measurementCount"],
  };
  const measurement = {
    type: "object",
    description: "A figure in the catalogue's unit, with the published value and unit beside it.",
    properties: {
      position: { type: "integer" },
      metric: { type: "string" },
      params: { type: "object" },
      value: { type: "number" },
      unit: { type: "string" },
      low: { type: ["number", "null"] },
      high: { type: ["number", "null"] },
      samples: { type: "array", items: { type: "number" } },
      publishedValue: { type: "number" },
      publishedUnit: { type: "string" },
      qualifier: { enum: ["approx", "at-most", "at-least", "range", null] },
      aggregate: { enum: ["single", "median", "mean", "min", "max", null] },
      better: { enum: ["higher", "lower", "none"] },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "cnibench ingest API",
      version: "1",
      description: "Upload Kubernetes CNI benchmark result bundles (contract cnibench/bundle@1) and read them back.",
    },
    servers: [{ url: options.serverUrl }],
    components: {
      schemas: {
        ...components.schemas,
        BundleSummary: bundleSummary,
        Measurement: measurement,
        ImportResult: inline(importResultSchema),
        ImportError: inline(importErrorSchema),
        DeletedBundles: inline(deletedBundlesSchema),
      },
      securitySchemes: {
        uploadToken: {
          type: "http",
          scheme: "bearer",
          description: "An upload token (npm run token -- create <name>).",
        },
      },
    },
    paths: {
      "/v1/bundles": {
        post: {
          summary: "Upload a bundle",
          description: `Validates and stores a bundle in one transaction. The same content again returns 200 with the same id and writes nothing; cni.label is a display name, not content: the same results under a new label are the same bundle, and the label renames its scenario. Bodies above ${options.maxBundleBytes} bytes are refused.`,
          security: [{ uploadToken: [] }],
          requestBody: { required: true, content: json(ref("Bundle")) },
          responses: {
            "201": { description: "Stored.", content: json(ref("UploadResult")) },
            "200": {
              description:
                "Identical content (cni.label aside) was uploaded before; nothing was written but a new label, which renames the scenario.",
              content: json(ref("UploadResult")),
            },
            "400": error("Malformed JSON (the message says where)."),
            "401": error("Missing, unknown or revoked token."),
            "403": error(
              "`?workspace=` names a workspace other than the token's (`wrong_workspace`); nothing was stored.",
            ),
            "429": error(
              "Over the token's, or the client address's, requests a minute; retry after the Retry-After header's seconds.",
            ),
            "413": error("Body above the size limit."),
            "415": error("Not JSON."),
            "422": error("The bundle breaks the contract; `issues` lists every violation."),
            "503": error("The database is unreachable; retry after the Retry-After header's seconds."),
          },
        },
        get: {
          summary: "List bundles",
          parameters: [
            {
              name: "scenario",
              in: "query",
              schema: { type: "string" },
              description: "Only bundles of this scenario id.",
            },
            {
              name: "metric",
              in: "query",
              schema: { type: "string" },
              description: "Only bundles holding this metric.",
            },
            { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
            { name: "pageSize", in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
            {
              name: "format",
              in: "query",
              schema: { enum: ["json", "csv"] },
              description: "Or send Accept: text/csv.",
            },
          ],
          responses: {
            "200": {
              description: "One page of bundles, newest first.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      items: { type: "array", items: ref("BundleSummary") },
                      page: { type: "integer" },
                      pageSize: { type: "integer" },
                      total: { type: "integer" },
                      nextPage: { type: ["integer", "null"] },
                    },
                  },
                },
                "text/csv": { schema: { type: "string" } },
              },
            },
            "400": error("Invalid query parameters."),
          },
        },
      },
      "/v1/import": {
        post: {
          summary: "Import raw benchmark output: one file or an archive",
          description: `Reads what benchmark tools and collectors write — iperf3 -J, fortio JSON/text, netperf omni (-o/-k), knb (JSON/YAML/text), EKS cni-benchmark results/*.json, a TKE network-benchmark.sh result directory or an InfraBuilder bench.sh result tree (results/<setup>/<run>/ with setup/cni-configs, as .tar.gz/.zip), or a bundle — builds bundles, and stores all of them in one transaction (or none; with \`?partial=true\`, every valid one, listing each refused file with its reason). Raw outputs do not say where they ran: pass the environment as query parameters or as an X-Cnibench-Environment JSON header ({"provider": "tke", …, "files": {"<name or *pattern>": {…}}}); the response names each required field still missing. Bodies above ${options.maxImportBytes} bytes (CNIBENCH_IMPORT_MAX_BYTES) are refused; archives may hold at most ${options.importLimits.maxEntries} entries and expand to at most ${options.importLimits.maxUnpackedBytes} bytes.`,
          security: [{ uploadToken: [] }],
          parameters: [
            {
              name: "format",
              in: "query",
              schema: { enum: ["auto", ...formatNames], default: "auto" },
              description: "How to read the body; auto detects by content.",
            },
            {
              name: "filename",
              in: "query",
              schema: { type: "string" },
              description:
                "Name of the uploaded file (or Content-Disposition: filename=…); matters for context.yaml or benchmark-summary.json sent alone.",
            },
            {
              name: "partial",
              in: "query",
              schema: { enum: ["true", "false"], default: "false" },
              description:
                "true: store the bundles of every file that imports, and refuse the others (`refused` counts them; `files` gives each one's reason). Still 422 when no file imports. false: one file failing refuses the whole upload.",
            },
            {
              name: "campaign",
              in: "query",
              schema: { type: "string", minLength: 1, maxLength: 200 },
              description:
                "The campaign (runs that belong together, summarised together) of every bundle built that names none of its own; trimmed, 1–200 characters. Without it the import's bundles still form one campaign, `import-` and 16 hex digits derived from the bundles built, so the same results imported again are recognised as stored (200).",
            },
            ...Object.entries(environmentFields).map(([name, field]) => ({
              name,
              in: "query",
              schema:
                field.kind === "text" ? { type: "string" } : { type: field.kind === "int" ? "integer" : "number" },
              description: `Fills ${field.path}${field.required ? " (required when the file does not state it)" : ""}.`,
            })),
            {
              name: "setting",
              in: "query",
              schema: { type: "array", items: { type: "string" } },
              style: "form",
              explode: true,
              description: "cni.settings entry as key=value (repeatable), e.g. setting=bpf.hostLegacyRouting=false.",
            },
            {
              name: "param",
              in: "query",
              schema: { type: "array", items: { type: "string" } },
              style: "form",
              explode: true,
              description:
                "Param added to every result that does not set it, as key=value (repeatable), e.g. param=path=pod-pod.",
            },
            {
              name: "X-Cnibench-Environment",
              in: "header",
              schema: { type: "string" },
              description:
                'The environment as JSON, with optional per-file entries under "files"; query parameters override its general fields.',
            },
          ],
          requestBody: {
            required: true,
            content: Object.fromEntries(
              [
                "application/octet-stream",
                "application/json",
                "application/gzip",
                "application/zip",
                "application/x-tar",
                "text/plain",
              ].map((type) => [type, { schema: { type: "string", format: "binary" } }]),
            ),
          },
          responses: {
            "201": {
              description:
                "Stored (at least one bundle is new). With ?partial=true, `refused` counts the files left out.",
              content: json(ref("ImportResult")),
            },
            "200": {
              description: "Every bundle had been stored before; nothing was written.",
              content: json(ref("ImportResult")),
            },
            "400": error("Empty body or invalid query parameters / environment header."),
            "401": error("Missing, unknown or revoked token."),
            "403": error(
              "`?workspace=` names a workspace other than the token's (`wrong_workspace`); nothing was stored.",
            ),
            "429": error(
              "Over the token's, or the client address's, requests a minute; retry after the Retry-After header's seconds.",
            ),
            "413": error(
              "Body above the import size limit (`payload_too_large`, CNIBENCH_IMPORT_MAX_BYTES), or an archive expanding beyond the decompressed-size limit (`archive_too_large`).",
            ),
            "415": error("A body type that is not a file or an archive (e.g. a form upload)."),
            "422": {
              description:
                "A file could not be imported (missing environment, malformed or truncated output, a broken archive) and ?partial=true was not given, no file held results or imported, or an archive has too many entries; `files` says what became of each file. Nothing was stored.",
              content: json(ref("ImportError")),
            },
            "503": error("The database is unreachable; retry after the Retry-After header's seconds."),
          },
        },
      },
      "/v1/bundles/{id}": {
        get: {
          summary: "Read one bundle: as uploaded, plus its normalised measurements",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": {
              description: "The bundle.",
              content: json({
                allOf: [
                  ref("BundleSummary"),
                  {
                    type: "object",
                    properties: {
                      warnings: { type: "array", items: ref("BundleWarning") },
                      bundle: ref("Bundle"),
                      measurements: { type: "array", items: ref("Measurement") },
                    },
                  },
                ],
              }),
            },
            "404": error("No such bundle."),
          },
        },
        delete: {
          summary: "Delete a bundle and its measurements",
          description:
            "Deletes the bundle in one transaction; a scenario left without a bundle goes too. Only an owner of the workspace may: the token must be of the bundle's workspace and created (in the web app) by someone who is still an owner of it.",
          security: [{ uploadToken: [] }],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "Deleted.", content: json(ref("DeletedBundles")) },
            "401": error("Missing, unknown or revoked token."),
            "403": error("The token's creator is not an owner of its workspace (`not_owner`); nothing was deleted."),
            "404": error("No such bundle in the token's workspace."),
            "429": error(
              "Over the token's, or the client address's, requests a minute; retry after the Retry-After header's seconds.",
            ),
            "503": error("The database is unreachable; retry after the Retry-After header's seconds."),
          },
        },
      },
      "/v1/campaigns/{campaign}": {
        delete: {
          summary: "Delete every bundle of a campaign: what one import or CLI run stored",
          description:
            "Deletes, in one transaction, every bundle of the token's workspace that belongs to the campaign (the `campaign` of POST /v1/import's answer, the CLI's, or the one bundles name), with their measurements; scenarios left without a bundle go too. Only an owner of the workspace may, as for DELETE /v1/bundles/{id}.",
          security: [{ uploadToken: [] }],
          parameters: [
            {
              name: "campaign",
              in: "path",
              required: true,
              schema: { type: "string", minLength: 1, maxLength: 200 },
              description: "The campaign's name, percent-encoded.",
            },
          ],
          responses: {
            "200": { description: "Deleted.", content: json(ref("DeletedBundles")) },
            "401": error("Missing, unknown or revoked token."),
            "403": error("The token's creator is not an owner of its workspace (`not_owner`); nothing was deleted."),
            "404": error("No bundle of that campaign in the token's workspace."),
            "429": error(
              "Over the token's, or the client address's, requests a minute; retry after the Retry-After header's seconds.",
            ),
            "503": error("The database is unreachable; retry after the Retry-After header's seconds."),
          },
        },
      },
      "/v1/schema": {
        get: {
          summary: "JSON Schema of the bundle contract",
          responses: { "200": { description: "JSON Schema (draft 2020-12)." } },
        },
      },
      "/v1/openapi.json": { get: { summary: "This document", responses: { "200": { description: "OpenAPI 3.1." } } } },
      "/healthz": { get: { summary: "Liveness", responses: { "200": { description: "The process is up." } } } },
      "/readyz": {
        get: {
          summary: "Readiness: the database answers",
          responses: { "200": { description: "Ready." }, "503": { description: "The database is unreachable." } },
        },
      },
    },
  };
}
