import { describe, expect, it } from "vitest";
import { metricCatalogue } from "./catalogue.ts";
import { categoryParams, isScaleParam, paramKind, scaleParams } from "./params.ts";

describe("params vocabulary", () => {
  it("declares every param the catalogue names either a scale or a category, never both", () => {
    const categories = new Set<string>(categoryParams);
    const named = new Set(metricCatalogue.flatMap((m) => m.params));
    const undeclared = [...named].filter((p) => !isScaleParam(p) && !categories.has(p));
    expect(undeclared).toEqual([]);
    expect(Object.keys(scaleParams).filter((p) => categories.has(p))).toEqual([]);
  });

  it("counts of a cluster and its load are scales", () => {
    for (const p of ["services", "pods", "endpoints", "networkPolicies", "nodes", "qps", "concurrency"]) {
      expect(paramKind(p), p).toBe("scale");
    }
    expect(scaleParams.services).toBe("Services");
  });

  it("streams, percentiles and message sizes are categories, numeric or not", () => {
    for (const p of ["streams", "percentile", "messageSize", "msgSize", "maxEntries", "path", "connection", "policy"]) {
      expect(paramKind(p), p).toBe("category");
    }
  });

  it("an undeclared param is a category, not a guessed scale", () => {
    expect(isScaleParam("widgets")).toBe(false);
    expect(isScaleParam("constructor")).toBe(false);
  });
});
