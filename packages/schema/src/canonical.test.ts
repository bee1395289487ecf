import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import fc from "fast-check";
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

  it("agrees with the canonicalize package on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("orders keys by UTF-16 code units (an emoji before U+FF61) and escapes as JSON does", () => {
    expect(canonicalJson({ "\uff61": 6, "\u20ac": 1, "\r": 2, "\ud83d\ude00": 3, ö: 4, "1": 5 })).toBe(
      '{"\\r":2,"1":5,"ö":4,"€":1,"😀":3,"｡":6}',
    );
  });

  it("refuses values JSON cannot hold", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson({ a: [Number.POSITIVE_INFINITY] })).toThrow();
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
