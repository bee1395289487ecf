import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, contentHash } from "./canonical.ts";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops whitespace (RFC 8785)", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  it("writes numbers the ECMAScript way", () => {
    expect(canonicalJson([1.0, 1e21, 0.000001, -0])).toBe("[1,1e+21,0.000001,0]");
  });

  it("refuses values JSON cannot hold", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson(undefined)).toThrow("cannot canonicalise");
  });
});

describe("contentHash", () => {
  it("is the sha-256 of the canonical JSON, independent of key order", () => {
    const expected = createHash("sha256").update('{"a":1,"b":[2]}').digest("hex");
    expect(contentHash({ b: [2], a: 1 })).toBe(expected);
    expect(contentHash({ a: 1, b: [2] })).toBe(expected);
    expect(contentHash({ a: 1, b: [2, 3] })).not.toBe(expected);
  });
});
