/**
 * The OpenAPI 3.1 document of the ingest API, generated whole: its schemas from the API's contract
 * (packages/schema api.ts: the zod schemas the routes validate and answer with), its paths from one
 * route table (apiRoutes), the list endpoint's parameters from the route's query schema.
 * openapi-routes.integration.test.ts holds the table and the server's routes to each other, both ways,
 * and the answers to their schemas. It is the same for every deployment but for the server's address:
 * checked in as generated/openapi.json (scripts/generate-openapi.ts writes it, openapi.test.ts fails
 * when it drifts), served at GET /v1/openapi.json.
 */
import { environmentFields, formatNames } from "@cnibench/importers";
import {
  bundleIssueSchema,
  bundleListQuerySchema,
  bundlePageSchema,
  bundleSchema,
  bundleSummarySchema,
  bundleWarningSchema,
  bundleWithMeasurementsSchema,
  closeCampaignRequestSchema,
  closeCampaignResultSchema,
  deletedBundlesSchema,
  errorResponseSchema,
  figureFeedSchema,
  figureRowSchema,
  gateRequestSchema,
  gateResultSchema,
  gateRowSchema,
  importErrorSchema,
  importFileReportSchema,
  importResultSchema,
  measurementSchema,
  slackPayloadSchema,
  uploadResultSchema,
  webhookCreatedSchema,
  webhookPatchSchema,
  webhookPausedSchema,
  webhookPayloadSchema,
  webhookRequestSchema,
  webhookSummarySchema,
} from "@cnibench/schema";
import { z } from "zod";
import { defaultLimits } from "./limits.ts";
import { defaultMaxSeries, feedFamily, openMetricsContentType } from "./routes/metrics.ts";

/** The named schemas of the document; the paths refer to them. */
export const components = {
  Bundle: bundleSchema,
  BundleIssue: bundleIssueSchema,
  BundleWarning: bundleWarningSchema,
  UploadResult: uploadResultSchema,
  ErrorResponse: errorResponseSchema,
  BundleSummary: bundleSummarySchema,
  BundlePage: bundlePageSchema,
  Measurement: measurementSchema,
  BundleWithMeasurements: bundleWithMeasurementsSchema,
  ImportFileReport: importFileReportSchema,
  ImportResult: importResultSchema,
  ImportError: importErrorSchema,
  DeletedBundles: deletedBundlesSchema,
  GateRequest: gateRequestSchema,
  GateRow: gateRowSchema,
  GateResult: gateResultSchema,
  FigureRow: figureRowSchema,
  FigureFeed: figureFeedSchema,
  CloseCampaignRequest: closeCampaignRequestSchema,
  CloseCampaignResult: closeCampaignResultSchema,
  WebhookRequest: webhookRequestSchema,
  WebhookCreated: webhookCreatedSchema,
  WebhookPatch: webhookPatchSchema,
  WebhookPaused: webhookPausedSchema,
  WebhookSummary: webhookSummarySchema,
  WebhookPayload: webhookPayloadSchema,
  SlackPayload: slackPayloadSchema,
} satisfies Record<string, z.ZodType>;

const jsonSchemaOptions = {
  // What a client may send: the contract before its defaults and trimming apply.
  io: "input",
  target: "draft-2020-12",
  // Dates (the read models') reach the client as JSON.stringify writes them.
  unrepresentable: ({ zodSchema }) =>
    zodSchema._zod.def.type === "date" ? { type: "string", format: "date-time" } : "throw",
} satisfies z.core.ToJSONSchemaParams;

function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { ...jsonSchemaOptions, uri: (id) => `#/components/schemas/${id}` });
  // OpenAPI 3.1's default dialect is draft 2020-12, so per-schema $schema is noise, and a $id that is
  // only a fragment is not allowed by 2020-12; components are addressed by their $ref path anyway.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema;
      return [id, rest];
    }),
  );
}

const ref = (name: keyof typeof components) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ "application/json": { schema } });
const error = (description: string) => ({ description, content: json(ref("ErrorResponse")) });

/** A parameter whose schema is a zod schema's; that schema's description, if any, describes the parameter. */
function parameter(
  name: string,
  location: "query" | "path",
  schema: z.ZodType,
  more: { required?: boolean; description?: string } = {},
) {
  const { $schema: _dialect, description, ...rest } = z.toJSONSchema(schema, jsonSchemaOptions);
  return { name, in: location, ...(description === undefined ? {} : { description }), ...more, schema: rest };
}

/** One query parameter per field of a route's zod query schema. */
const queryParameters = (query: z.ZodObject) =>
  Object.entries(query.shape).map(([name, field]) =>
    parameter(name, "query", field, field.isOptional() ? {} : { required: true }),
  );

const bundleId = parameter("id", "path", bundleSummarySchema.shape.id, { required: true });
// The rule readCampaign applies to ?campaign=, a bundle's own campaign's.
const campaignSchema = bundleSchema.shape.campaign;

const workspace = {
  name: "workspace",
  in: "query",
  schema: { type: "string" },
  description: "The slug of the token's workspace, to make sure of it; another one is refused (403).",
};

const wrongWorkspace = error(
  "`?workspace=` names a workspace other than the token's (`wrong_workspace`), or the token is a read token (`read_only_token`); nothing was stored.",
);
const notOwner = error(
  "The token's creator is not an owner of its workspace (`not_owner`), or the token is a read token (`read_only_token`); nothing was deleted.",
);
const slug = {
  name: "slug",
  in: "path",
  required: true,
  schema: { type: "string" },
  description: "The workspace's slug (public is the default workspace).",
};
const notFoundWorkspace = error(
  "No such workspace, or a private one and no token of its own (read or upload): the same answer either way.",
);
/** What every route that takes an upload token may answer besides its own. */
const tokenErrors = {
  "401": error("Missing, unknown or revoked token."),
  "429": error(
    "Over the token's, or the client address's, requests a minute; retry after the Retry-After header's seconds.",
  ),
  "503": error("The database is unreachable; retry after the Retry-After header's seconds."),
};

const deliveryHeaders = {
  "X-Cnibench-Event": { schema: { type: "string", enum: ["campaign-worse", "change-point"] } },
  "X-Cnibench-Delivery": { schema: { type: "string" }, description: "The delivery's id: the same on every retry." },
  "X-Cnibench-Timestamp": { schema: { type: "string" }, description: "Unix seconds when this attempt was signed." },
  "X-Cnibench-Signature": {
    schema: { type: "string" },
    description:
      "sha256= and the hex HMAC-SHA256, with the webhook's secret, of the timestamp, a dot and the raw body. Refuse a timestamp more than 300 s from your clock.",
  },
};

type Method = "get" | "post" | "patch" | "delete";

/**
 * A route as the document gives it: its OpenAPI operation, with the method and path it is under. The
 * server registers `path` with Fastify's `:name` for `{name}`, or `*` for the one named `wildcard`.
 */
export type ApiRoute = {
  method: Method;
  path: string;
  /** A path parameter the server takes as a wildcard (`*`) rather than a `:param`. */
  wildcard?: string;
  summary: string;
  [field: string]: unknown;
};

/** The route's path as Fastify registers it: "/v1/bundles/{id}" → "/v1/bundles/:id". */
export const fastifyPath = (route: Pick<ApiRoute, "path" | "wildcard">) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === route.wildcard ? "*" : `:${name}`));

/** The document's paths: each route's operation under its path and method. */
function pathsOf(routes: readonly ApiRoute[]) {
  const paths: Record<string, Partial<Record<Method, object>>> = {};
  for (const { method, path, wildcard: _, ...operation } of routes) {
    paths[path] = { ...paths[path], [method]: operation };
  }
  return paths;
}

/** Every route of the API, in the document's order: its method and path, what it takes and answers. */
export function apiRoutes(): ApiRoute[] {
  const { maxBundleBytes, maxImportBytes, importLimits } = defaultLimits;
  return [
    {
      method: "post",
      path: "/v1/bundles",
      summary: "Upload a bundle",
      description: `Validates and stores a bundle in one transaction. The same content again returns 200 with the same id and writes nothing; cni.label is a display name, not content: the same results under a new label are the same bundle, and the label renames its scenario. Bodies above CNIBENCH_MAX_BUNDLE_BYTES (by default ${maxBundleBytes} bytes) are refused.`,
      security: [{ uploadToken: [] }],
      parameters: [workspace],
      requestBody: { required: true, content: json(ref("Bundle")) },
      responses: {
        "201": { description: "Stored.", content: json(ref("UploadResult")) },
        "200": {
          description:
            "Identical content (cni.label aside) was uploaded before; nothing was written but a new label, which renames the scenario.",
          content: json(ref("UploadResult")),
        },
        "400": error("Malformed JSON (the message says where)."),
        "403": wrongWorkspace,
        "413": error("Body above CNIBENCH_MAX_BUNDLE_BYTES (`payload_too_large`)."),
        "415": error("Not JSON."),
        "422": error("The bundle breaks the contract; `issues` lists every violation."),
        ...tokenErrors,
      },
    },
    {
      method: "get",
      path: "/v1/bundles",
      summary: "List bundles",
      parameters: queryParameters(bundleListQuerySchema),
      responses: {
        "200": {
          description: "One page of bundles, newest first.",
          content: { ...json(ref("BundlePage")), "text/csv": { schema: { type: "string" } } },
        },
        "400": error("Invalid query parameters."),
      },
    },
    {
      method: "post",
      path: "/v1/import",
      summary: "Import raw benchmark output: one file or an archive",
      description: `Reads what benchmark tools and collectors write — iperf3 -J, fortio JSON/text, netperf omni (-o/-k), knb (JSON/YAML/text), EKS cni-benchmark results/*.json, a TKE network-benchmark.sh result directory or an InfraBuilder bench.sh result tree (results/<setup>/<run>/ with setup/cni-configs, as .tar.gz/.zip), or a bundle — builds bundles, and stores all of them in one transaction (or none; with \`?partial=true\`, every valid one, listing each refused file with its reason). Raw outputs do not say where they ran: pass the environment as query parameters or as an X-Cnibench-Environment JSON header ({"provider": "tke", …, "files": {"<name or *pattern>": {…}}}); the response names each required field still missing. Bodies above CNIBENCH_IMPORT_MAX_BYTES (by default ${maxImportBytes} bytes) are refused; archives may hold at most CNIBENCH_IMPORT_MAX_ENTRIES entries (by default ${importLimits.maxEntries}) and expand to at most CNIBENCH_IMPORT_MAX_UNPACKED_BYTES (by default ${importLimits.maxUnpackedBytes} bytes), not counting statexec's per-test .prom files of an InfraBuilder tree, which are read as they inflate and never held: they count against CNIBENCH_IMPORT_MAX_STREAMED_BYTES (by default ${importLimits.maxStreamedBytes} bytes).`,
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
        parameter("campaign", "query", campaignSchema, {
          description:
            "The campaign (runs that belong together, summarised together) of every bundle built that names none of its own; trimmed, 1–200 characters. Without it the import's bundles still form one campaign, `import-` and 16 hex digits derived from the bundles built, so the same results imported again are recognised as stored (200).",
        }),
        ...Object.entries(environmentFields).map(([name, field]) => ({
          name,
          in: "query",
          schema: field.kind === "text" ? { type: "string" } : { type: field.kind === "int" ? "integer" : "number" },
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
        workspace,
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
          description: "Stored (at least one bundle is new). With ?partial=true, `refused` counts the files left out.",
          content: json(ref("ImportResult")),
        },
        "200": {
          description: "Every bundle had been stored before; nothing was written.",
          content: json(ref("ImportResult")),
        },
        "400": error("Empty body or invalid query parameters / environment header."),
        "403": wrongWorkspace,
        "413": error(
          "Body above the import size limit (`payload_too_large`, CNIBENCH_IMPORT_MAX_BYTES), or an archive expanding beyond the decompressed-size limits (`archive_too_large`, CNIBENCH_IMPORT_MAX_UNPACKED_BYTES, CNIBENCH_IMPORT_MAX_STREAMED_BYTES).",
        ),
        "415": error("A body type that is not a file or an archive (e.g. a form upload)."),
        "422": {
          description:
            "A file could not be imported (missing environment, malformed or truncated output, a broken archive) and ?partial=true was not given, no file held results or imported, or an archive has too many entries; `files` says what became of each file. Nothing was stored.",
          content: json(ref("ImportError")),
        },
        ...tokenErrors,
      },
    },
    {
      method: "get",
      path: "/v1/bundles/{id}",
      summary: "Read one bundle: as uploaded, plus its normalised measurements",
      parameters: [bundleId],
      responses: {
        "200": { description: "The bundle.", content: json(ref("BundleWithMeasurements")) },
        "404": error("No such bundle."),
      },
    },
    {
      method: "delete",
      path: "/v1/bundles/{id}",
      summary: "Delete a bundle and its measurements",
      description:
        "Deletes the bundle in one transaction; a scenario left without a bundle goes too. Only an owner of the workspace may: the token must be of the bundle's workspace and created (in the web app) by someone who is still an owner of it.",
      security: [{ uploadToken: [] }],
      parameters: [bundleId],
      responses: {
        "200": { description: "Deleted.", content: json(ref("DeletedBundles")) },
        "403": notOwner,
        "404": error("No such bundle in the token's workspace."),
        ...tokenErrors,
      },
    },
    {
      method: "delete",
      path: "/v1/campaigns/{campaign}",
      wildcard: "campaign",
      summary: "Delete every bundle of a campaign: what one import or CLI run stored",
      description:
        "Deletes, in one transaction, every bundle of the token's workspace that belongs to the campaign (the `campaign` of POST /v1/import's answer, the CLI's, or the one bundles name), with their measurements; scenarios left without a bundle go too. Only an owner of the workspace may, as for DELETE /v1/bundles/{id}.",
      security: [{ uploadToken: [] }],
      parameters: [
        parameter("campaign", "path", campaignSchema, {
          required: true,
          description: "The campaign's name, percent-encoded.",
        }),
      ],
      responses: {
        "200": { description: "Deleted.", content: json(ref("DeletedBundles")) },
        "403": notOwner,
        "404": error("No bundle of that campaign in the token's workspace."),
        ...tokenErrors,
      },
    },
    {
      method: "post",
      path: "/v1/campaigns/close",
      summary: "Say a campaign is complete: its alerts are judged now",
      description:
        "A collector that has uploaded every bundle of a campaign says so; each scenario's part of it in the token's workspace is judged for alerts at once (as POST /v1/gate with baseline `previous` judges it, and for new change points) instead of after the quiet period (CNIBENCH_ALERT_QUIET_MS, 10 minutes). A bundle that comes later opens it again. `scenarios` is 0 when the workspace has no live webhook (docs/alerts.md).",
      security: [{ uploadToken: [] }],
      requestBody: { required: true, content: json(ref("CloseCampaignRequest")) },
      responses: {
        "202": { description: "Closed; judged by the alert worker.", content: json(ref("CloseCampaignResult")) },
        "400": error("The body is not JSON, or names no campaign."),
        "403": wrongWorkspace,
        "404": error("No bundle of that campaign in the token's workspace."),
        ...tokenErrors,
      },
    },
    {
      method: "get",
      path: "/v1/webhooks",
      summary: "The workspace's webhooks and their latest deliveries (an owner's token)",
      security: [{ uploadToken: [] }],
      responses: {
        "200": { description: "Never a secret.", content: json({ type: "array", items: ref("WebhookSummary") }) },
        "403": notOwner,
        ...tokenErrors,
      },
    },
    {
      method: "post",
      path: "/v1/webhooks",
      summary: "Add a webhook (an owner's token); its signing secret is in this answer only",
      description:
        "The URL must be http or https, without credentials, and a public address unless the operator allows its range (CNIBENCH_WEBHOOK_ALLOW); names are resolved and checked again at every delivery. Payloads: WebhookPayload (json) or SlackPayload (slack), and the `webhooks` section of this document.",
      security: [{ uploadToken: [] }],
      requestBody: { required: true, content: json(ref("WebhookRequest")) },
      responses: {
        "201": { description: "Made.", content: json(ref("WebhookCreated")) },
        "400": error("The body is invalid, or the URL is refused (`issues` says why)."),
        "403": notOwner,
        "409": error("The workspace has 50 webhooks already."),
        ...tokenErrors,
      },
    },
    {
      method: "patch",
      path: "/v1/webhooks/{id}",
      summary: "Pause or resume a webhook (an owner's token)",
      security: [{ uploadToken: [] }],
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      requestBody: { required: true, content: json(ref("WebhookPatch")) },
      responses: {
        "200": { description: "Paused or resumed.", content: json(ref("WebhookPaused")) },
        "403": notOwner,
        "404": error("No such webhook in the token's workspace."),
        ...tokenErrors,
      },
    },
    {
      method: "delete",
      path: "/v1/webhooks/{id}",
      summary: "Delete a webhook and its delivery log (an owner's token)",
      security: [{ uploadToken: [] }],
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "204": { description: "Deleted." },
        "403": notOwner,
        "404": error("No such webhook in the token's workspace."),
        ...tokenErrors,
      },
    },
    {
      method: "post",
      path: "/v1/gate",
      summary: "Gate a campaign against a baseline: verdicts per figure and an outcome for CI",
      description:
        "Compares the candidate campaign (the bundle ids an upload or import answered with) with a baseline — `previous`: the latest campaign of the candidate's testbed begun before it; a scenario's latest campaign; a permalink's pinned bundles of its baseline scenario; or bundles by id — figure by figure, as the compare page does (docs/verdicts.md: Welch's t on log values against the margin δ, history noise, Benjamini–Hochberg across the figures). `outcome` is `worse` when a deciding figure (of `metrics`, or any) is worse beyond its margin, `inconclusive` when one is undecided, a chosen metric was measured by no figure of both sides, or nothing was compared, else `pass`. `npx cnibench gate` uploads and calls it (docs/ci.md). Reads only what the token may read: its own workspace and public ones.",
      security: [{ uploadToken: [] }],
      requestBody: { required: true, content: json(ref("GateRequest")) },
      responses: {
        "200": { description: "The verdicts and the outcome.", content: json(ref("GateResult")) },
        "400": error("Malformed JSON or an invalid request (`issues` says where)."),
        "404": error(
          "A candidate or baseline bundle, scenario or permalink the token cannot read or that does not exist (`candidate_not_found`, `baseline_not_found`), or no earlier campaign of the testbed (`no_previous_campaign`).",
        ),
        "403": error("A read token (`read_only_token`): the gate needs an upload token."),
        "422": error(
          "The candidate's, or the named baseline's, bundles belong to several scenarios (`several_scenarios`).",
        ),
        ...tokenErrors,
      },
    },
    {
      method: "get",
      path: "/v1/workspaces/{slug}/metrics",
      summary: "A workspace's current figures as OpenMetrics, for Prometheus to scrape",
      description: `One gauge family per metric and base unit (\`cnibench_tcp_throughput_bytes_per_second\`: the catalogue key in snake case, the base unit as suffix — ms and µs as seconds, Gbit/s as bytes a second, MiB as bytes, % as a ratio —, \`# UNIT\`, \`# HELP\` from the catalogue's label), one sample per current figure (scenario × metric × params) labelled scenario, scenario_id, testbed, provider, sku, kernel, cni, cni_version, mode, kube_proxy, metric, qualifier (when the figure is one) and each param in snake_case; its value is the figure the pages show: the median of its series' latest campaign, or a lone bundle's value. Beside each family, its \`_timestamp_seconds\` twin (same labels) says when each series was measured (samples carry no timestamp: Prometheus would drop figures older than its head block). At most CNIBENCH_FEED_MAX_SERIES (${defaultMaxSeries}) series a response, and none of scenarios not run for CNIBENCH_FEED_MAX_AGE_DAYS; \`${feedFamily}\` counts those shown, the workspace's and the expired, and its HELP says when the feed is truncated. \`promtool check metrics\` accepts it. Cached for 60 s, with an ETag that changes with the workspace's data (If-None-Match answers 304).`,
      security: [{}, { readToken: [] }],
      parameters: [slug],
      responses: {
        "200": {
          description: "OpenMetrics 1.0 text, ending with # EOF.",
          content: { [openMetricsContentType.split(";")[0]!]: { schema: { type: "string" } } },
        },
        "304": { description: "Unchanged since the ETag given in If-None-Match." },
        "404": notFoundWorkspace,
      },
    },
    {
      method: "get",
      path: "/v1/workspaces/{slug}/figures.json",
      summary: "A workspace's current figures as JSON rows, for Grafana's JSON / Infinity data sources",
      description:
        "The series of GET /v1/workspaces/{slug}/metrics as flat rows (the sample's labels as fields, `time` when the figure was measured), under `rows`. Same access, bound, caching and ETag as the OpenMetrics feed.",
      security: [{}, { readToken: [] }],
      parameters: [slug],
      responses: {
        "200": { description: "The rows.", content: json(ref("FigureFeed")) },
        "304": { description: "Unchanged since the ETag given in If-None-Match." },
        "404": notFoundWorkspace,
      },
    },
    {
      method: "get",
      path: "/v1/schema",
      summary: "JSON Schema of the bundle contract",
      responses: { "200": { description: "JSON Schema (draft 2020-12)." } },
    },
    {
      method: "get",
      path: "/v1/openapi.json",
      summary: "This document",
      responses: { "200": { description: "OpenAPI 3.1." } },
    },
    {
      method: "get",
      path: "/healthz",
      summary: "Liveness",
      responses: { "200": { description: "The process is up." } },
    },
    {
      method: "get",
      path: "/readyz",
      summary: "Readiness: the database answers",
      responses: { "200": { description: "Ready." }, "503": { description: "The database is unreachable." } },
    },
  ];
}

/** The document, naming `serverUrl` as where the API answers; generated/openapi.json names "/". */
export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "cnibench ingest API",
      version: "1",
      description: "Upload Kubernetes CNI benchmark result bundles (contract cnibench/bundle@1) and read them back.",
    },
    servers: [{ url: serverUrl }],
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        uploadToken: {
          type: "http",
          scheme: "bearer",
          description: "An upload token (npm run token -- create <name>).",
        },
        readToken: {
          type: "http",
          scheme: "bearer",
          description:
            "A token of the workspace, read (npm run token -- create <name> --scope read) or upload; a read token is refused every write (403 `read_only_token`).",
        },
      },
    },
    paths: pathsOf(apiRoutes()),
    // OpenAPI 3.1: what cnibench POSTs to a workspace's webhooks (docs/alerts.md).
    webhooks: {
      alert: {
        post: {
          summary: "An alert of a complete campaign, to a webhook of format json (SlackPayload to format slack)",
          parameters: Object.entries(deliveryHeaders).map(([name, h]) => ({
            name,
            in: "header",
            required: true,
            ...h,
          })),
          requestBody: {
            required: true,
            content: { "application/json": { schema: { oneOf: [ref("WebhookPayload"), ref("SlackPayload")] } } },
          },
          responses: { "200": { description: "Any 2xx is delivered; anything else is retried with backoff." } },
        },
      },
    },
  };
}

/** generated/openapi.json: where it is checked in, and its text. */
export const generatedOpenApi = {
  path: new URL("../generated/openapi.json", import.meta.url),
  text: () => `${JSON.stringify(openApiDocument("/"), null, 2)}\n`,
};
