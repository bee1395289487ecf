import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errorResponseSchema, uploadResultSchema } from "./api.ts";
import { bundleJsonSchema, generatedFiles } from "./json-schema.ts";

const generatedDir = join(import.meta.dirname, "..", "generated");

describe("generated contract files", () => {
  it.each(Object.keys(generatedFiles()))(
    "generated/%s matches the zod source (run `npm run schema:generate` after changing it)",
    (name) => {
      const onDisk = readFileSync(join(generatedDir, name), "utf8");
      expect(onDisk).toBe(generatedFiles()[name]);
    },
  );
});

describe("bundleJsonSchema", () => {
  const schema = bundleJsonSchema() as Record<string, unknown> & {
    properties: Record<string, { required?: string[]; description?: string }>;
  };

  it("is draft 2020-12 with the contract's required fields", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.required).toEqual(["schema", "cluster", "node", "cni", "results"]);
    expect(schema.properties.cluster?.required).toEqual(["name", "provider"]);
    expect(schema.properties.node?.required).toEqual(["sku", "kernel"]);
    expect(schema.properties.cni?.required).toEqual(["name", "mode"]);
    // unknown top-level fields are allowed, as the contract keeps them
    expect(schema.additionalProperties).toEqual({});
  });

  it("documents the fields and the rules JSON Schema cannot check", () => {
    const text = JSON.stringify(schema);
    expect(text).toContain('\\"x.<name>\\"');
    expect(text).toContain("tcp.throughput (Gbit/s)");
    expect(text).toContain('required with qualifier \\"range\\"');
    expect(schema.properties.cni?.description).toContain("settings included");
  });
});

describe("response schemas", () => {
  it("accept what the ingest API returns and reject what it must not", () => {
    expect(
      uploadResultSchema.safeParse({
        id: "b_1",
        scenarioId: "s_1",
        measurementCount: 10,
        apiUrl: "/v1/bundles/b_1",
        webUrl: "/scenarios/s_1",
        warnings: [{ path: "cni.name", message: "…" }],
      }).success,
    ).toBe(true);
    expect(errorResponseSchema.safeParse({ error: "invalid_bundle", message: "m", requestId: "r" }).success).toBe(true);
    expect(errorResponseSchema.safeParse({ error: "invalid_bundle", message: "m" }).success).toBe(false);
  });
});
