/**
 * JSON Schema and OpenAPI components generated from the zod source, so the published contract can
 * never disagree with what the server validates. The cross-field rules (catalogue units, "x."
 * metrics, ranges) live in refinements that JSON Schema cannot express; field descriptions say them.
 */
import { z } from "zod";
import { bundleSchema } from "./bundle.ts";
import { bundleIssueSchema, bundleWarningSchema, errorResponseSchema, uploadResultSchema } from "./responses.ts";

export function bundleJsonSchema(): object {
  return z.toJSONSchema(bundleSchema, { io: "input", target: "draft-2020-12" });
}

export function openApiComponents(): object {
  const registry = z.registry<{ id: string }>();
  registry.add(bundleSchema, { id: "Bundle" });
  registry.add(bundleIssueSchema, { id: "BundleIssue" });
  registry.add(bundleWarningSchema, { id: "BundleWarning" });
  registry.add(uploadResultSchema, { id: "UploadResult" });
  registry.add(errorResponseSchema, { id: "ErrorResponse" });
  const { schemas } = z.toJSONSchema(registry, {
    io: "input",
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
  });
  // OpenAPI 3.1's default dialect is draft 2020-12, so per-schema $schema is noise, and a $id that is
  // only a fragment is not allowed by 2020-12; components are addressed by their $ref path anyway.
  const cleaned = Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
  return { components: { schemas: cleaned } };
}

/** The checked-in files under generated/, by name; the generate script writes them, a test compares them. */
export function generatedFiles(): Record<string, string> {
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    "bundle.schema.json": json(bundleJsonSchema()),
    "openapi-components.json": json(openApiComponents()),
  };
}
