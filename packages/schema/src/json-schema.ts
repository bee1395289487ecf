/**
 * The contract's JSON Schema, generated from the zod source (as the ingest API's OpenAPI document is),
 * so the published contract can never disagree with what the server validates. The cross-field rules
 * (catalogue units, "x." metrics, ranges) live in refinements that JSON Schema cannot express; field
 * descriptions say them.
 */
import { z } from "zod";
import { bundleSchema } from "./bundle.ts";

export function bundleJsonSchema(): object {
  return z.toJSONSchema(bundleSchema, { io: "input", target: "draft-2020-12" });
}

/** The checked-in files under generated/, by name; the generate script writes them, a test compares them. */
export function generatedFiles(): Record<string, string> {
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    "bundle.schema.json": json(bundleJsonSchema()),
  };
}
