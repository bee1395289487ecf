import { readFileSync } from "node:fs";
import { bundleListQuerySchema } from "@cnibench/schema";
import { describe, expect, it } from "vitest";
import { apiRoutes, generatedOpenApi, openApiDocument } from "./openapi.ts";

type Schema = { required?: string[]; properties?: Record<string, unknown> };
const doc = openApiDocument("/");
const schemas = doc.components.schemas as Record<string, Schema>;

it("generated/openapi.json is the document (run `npm run schema:generate` after changing a route's schemas or the contract)", () => {
  expect(readFileSync(generatedOpenApi.path, "utf8")).toBe(generatedOpenApi.text());
});

describe("the OpenAPI document", () => {
  it("has the contract's schemas, without a dialect of their own", () => {
    expect(schemas.Bundle?.required).toEqual(["schema", "cluster", "node", "cni", "results"]);
    expect(schemas.Bundle).not.toHaveProperty("$schema");
    expect(schemas.ErrorResponse?.required).toEqual(["error", "message", "requestId"]);
  });

  it("refers between components rather than inlining them, and every reference resolves", () => {
    expect(schemas.UploadResult?.properties?.warnings).toMatchObject({
      items: { $ref: "#/components/schemas/BundleWarning" },
    });
    expect(schemas.ErrorResponse?.properties?.issues).toMatchObject({
      items: { $ref: "#/components/schemas/BundleIssue" },
    });
    expect(schemas.BundleWithMeasurements?.properties?.measurements).toMatchObject({
      items: { $ref: "#/components/schemas/Measurement" },
    });
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(20);
    for (const name of new Set(refs)) expect(schemas, name).toHaveProperty(name!);
  });

  it("gives the read models' dates as the JSON strings they are sent as", () => {
    expect(schemas.BundleSummary?.properties?.receivedAt).toEqual({ type: "string", format: "date-time" });
    expect(schemas.Measurement?.required).toEqual(expect.arrayContaining(["metric", "value", "unit", "position"]));
  });

  it("documents every field of GET /v1/bundles' query schema as a parameter, with its limits", () => {
    const list = apiRoutes().find((r) => r.method === "get" && r.path === "/v1/bundles");
    const parameters = list?.parameters as { name: string }[];
    expect(parameters.map((p) => p.name)).toEqual(Object.keys(bundleListQuerySchema.shape));
    expect(parameters.find((p) => p.name === "pageSize")).toMatchObject({
      in: "query",
      schema: { type: "integer", minimum: 1, maximum: 500, default: 50 },
    });
    expect(parameters.every((p) => !("required" in p))).toBe(true);
  });

  it("names the deployment's address as its server", () => {
    expect(openApiDocument("https://api.example").servers).toEqual([{ url: "https://api.example" }]);
  });
});
