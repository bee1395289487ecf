import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { cardFamilies, parseUnicodeRange, subsetsFor, type UnicodeRanges } from "./card-fonts";

const require = createRequire(import.meta.url);
// The packages' own subset tables, as the server reads them.
const ranges = new Map(
  cardFamilies.map((f) => [
    f.id,
    JSON.parse(fs.readFileSync(require.resolve(`@fontsource/${f.id}/unicode.json`), "utf8")) as UnicodeRanges,
  ]),
);
const files = (text: string) => subsetsFor(text, ranges).subsets.map((s) => s.file(400));

describe("parseUnicodeRange", () => {
  it("reads single code points and spans", () => {
    expect(parseUnicodeRange("U+0000-00FF, U+0131,U+1f1e9-1f1f5")).toEqual([
      [0, 255],
      [305, 305],
      [0x1f1e9, 0x1f1f5],
    ]);
  });
});

// Expected subsets worked out apart, in Python: for each character, the first of noto-sans, -sc, -kr
// whose unicode.json has a range holding its code point (int(hex, 16) bounds).
describe("subsetsFor", () => {
  it("loads Noto Sans latin alone for Latin words, signs and the Unicode minus", () => {
    expect(files("Cilium vs kube-proxy iptables @ services 30,000: −42.1 % · é — …")).toEqual([
      "noto-sans-latin-400-normal.woff",
    ]);
  });

  it("adds the SC subsets holding a Chinese title's characters, and only those", () => {
    expect(files("VPC CNI 与 Cilium CNI 性能对比基准测试").sort()).toEqual(
      [
        "noto-sans-latin-400-normal.woff",
        "noto-sans-sc-115-400-normal.woff",
        "noto-sans-sc-116-400-normal.woff",
        "noto-sans-sc-117-400-normal.woff",
        "noto-sans-sc-118-400-normal.woff",
      ].sort(),
    );
  });

  it("takes Hangul from KR, and a sign Noto Sans lacks (≈) from SC", () => {
    expect(files("쿠버네티스 네트워크 성능").sort()).toEqual(
      [
        "noto-sans-latin-400-normal.woff",
        "noto-sans-kr-114-400-normal.woff",
        "noto-sans-kr-116-400-normal.woff",
        "noto-sans-kr-117-400-normal.woff",
        "noto-sans-kr-118-400-normal.woff",
        "noto-sans-kr-119-400-normal.woff",
      ].sort(),
    );
    expect(files("≈19,649")).toEqual(["noto-sans-latin-400-normal.woff", "noto-sans-sc-90-400-normal.woff"]);
  });

  it("says which characters no font has: an emoji", () => {
    const { uncovered } = subsetsFor("Cilium 😀 🦜 ✓", ranges);
    expect([...uncovered]).toEqual(["😀", "🦜"]);
  });

  it("names files that exist, in both weights", () => {
    for (const s of subsetsFor("VPC CNI 与 쿠버네티스 ≈", ranges).subsets) {
      for (const w of [400, 700]) {
        expect(fs.existsSync(require.resolve(`@fontsource/${s.family.id}/files/${s.file(w)}`)), s.file(w)).toBe(true);
      }
    }
  });
});
