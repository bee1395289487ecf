import { tkeCiliumOverlay } from "@cnibench/test-support/seed-bundles";
import { describe, expect, it } from "vitest";
import { contentHash } from "./canonical.ts";
import {
  bundleContentHash,
  MAX_DEPTH,
  readStorableBundle,
  type StorableOutcome,
  unstorableValues,
} from "./storable.ts";

const text = (value: unknown) => JSON.stringify(value);
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

function issuesOf(outcome: StorableOutcome) {
  if (outcome.ok || outcome.reason !== "invalid_bundle") throw new Error(`expected invalid_bundle: ${text(outcome)}`);
  return outcome.issues;
}

describe("readStorableBundle: what PostgreSQL cannot hold is an issue naming the place", () => {
  it("stores a bundle as sent, hashed by its canonical JSON without its label", () => {
    const sent = text(tkeCiliumOverlay());
    const read = readStorableBundle({ text: sent });
    if (!read.ok) throw new Error(text(read));
    expect(read.raw).toBe(sent);
    const { label, ...cni } = tkeCiliumOverlay().cni;
    expect(label).toBe("Cilium Overlay");
    expect(read.contentHash).toBe(contentHash({ ...JSON.parse(sent), cni }));
    // A built bundle (an import) reads the same as its text (an upload).
    const built = readStorableBundle({ bundle: tkeCiliumOverlay() });
    expect(built.ok && built.contentHash).toBe(read.contentHash);
  });

  it("gives the same results under another label, or none, the same hash: the label is a display name", () => {
    const hash = (bundle: unknown) => {
      const read = readStorableBundle({ text: text(bundle) });
      if (!read.ok) throw new Error(text(read));
      return read.contentHash;
    };
    const labelled = tkeCiliumOverlay();
    const { label: _label, ...unlabelled } = labelled.cni;
    const relabelled = { ...labelled, cni: { ...labelled.cni, label: "Cilium VXLAN" } };
    expect(hash({ ...labelled, cni: unlabelled })).toBe(hash(labelled));
    expect(hash(relabelled)).toBe(hash(labelled));
    // Anything else still tells two bundles apart: the label only is left out.
    expect(hash({ ...labelled, cni: { ...labelled.cni, version: "1.19.5" } })).not.toBe(hash(labelled));
    expect(bundleContentHash({ cni: { label: "x" }, a: 1 })).toBe(contentHash({ cni: {}, a: 1 }));
    expect(bundleContentHash([1, 2])).toBe(contentHash([1, 2]));
  });

  it("gives the same run under another campaign, or none, the same hash: a campaign groups runs", () => {
    const run = tkeCiliumOverlay();
    const hash = (bundle: unknown) => {
      const read = readStorableBundle({ text: text(bundle) });
      if (!read.ok) throw new Error(text(read));
      return read.contentHash;
    };
    expect(hash({ ...run, campaign: "import-0123456789abcdef" })).toBe(hash(run));
    expect(hash({ ...run, campaign: "nightly-08" })).toBe(hash({ ...run, campaign: "nightly-09" }));
    expect(bundleContentHash({ campaign: "c", cni: { label: "x" }, a: 1 })).toBe(contentHash({ cni: {}, a: 1 }));
    // A figure still tells two runs apart.
    expect(hash({ ...run, runAt: "2026-02-10T00:00:00Z" })).not.toBe(hash(run));
  });

  it("says where malformed JSON breaks", () => {
    expect(readStorableBundle({ text: '{"a":' })).toMatchObject({ ok: false, reason: "malformed_json" });
  });

  it.each([
    ["U+0000 in a string", { cluster: { name: "tke\u0000c" } }, "cluster.name"],
    ["an unpaired surrogate", { node: { os: "os \ud800" } }, "node.os"],
    ["U+0000 in a key", { source: { "a\u0000": 1 } }, 'source["a\\u0000"]'],
    ["a year before 1", { runAt: "0000-01-01" }, "runAt"],
  ])("%s", (_, patch, path) => {
    const b = tkeCiliumOverlay() as Record<string, unknown>;
    for (const [key, value] of Object.entries(patch)) b[key] = { ...(b[key] as object), ...value };
    if ("runAt" in patch) b.runAt = patch.runAt;
    expect(issuesOf(readStorableBundle({ text: text(b) }))[0]?.path).toBe(path);
  });

  it("refuses 1e400 where the contract does not look, and figures that overflow once converted", () => {
    const b = tkeCiliumOverlay();
    const unchecked = text({ ...b, extra: "@@" }).replace('"@@"', "1e400");
    expect(issuesOf(readStorableBundle({ text: unchecked }))[0]).toEqual({
      path: "extra",
      message: expect.stringContaining("1e400"),
    });
    const huge = { ...b, results: [{ metric: "tcp.throughput", value: 1e308, unit: "Tbit/s" }] };
    expect(issuesOf(readStorableBundle({ text: text(huge) }))[0]?.path).toBe("results[0].value");
    // A summary's mean overflowing once converted (1e308 Tbit/s in Gbit/s) would reach the insert as null.
    const summary = { mean: 1e308, sd: 1, n: 3, of: "runs" };
    const stated = { ...b, results: [{ metric: "tcp.throughput", value: 1, unit: "Tbit/s", summary }] };
    expect(issuesOf(readStorableBundle({ text: text(stated) }))[0]?.path).toBe("results[0].summary.mean");
    const wide = { ...b, results: [{ metric: "tcp.throughput", value: 2 ** 53, unit: "Gbps" }] };
    expect(issuesOf(readStorableBundle({ text: text(wide) }))[0]?.path).toBe("results[0].value");
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} levels, however deep, as text or as a built bundle`, () => {
    const deep = (depth: number) => text({ ...tkeCiliumOverlay(), deep: "@@" }).replace('"@@"', nested(depth));
    expect(readStorableBundle({ text: deep(50) }).ok).toBe(true);
    for (const depth of [MAX_DEPTH + 1, 5_000, 100_000]) {
      expect(issuesOf(readStorableBundle({ text: deep(depth) }))[0]?.message).toBe(
        `nests deeper than ${MAX_DEPTH} levels`,
      );
      // JSON.stringify overflows its stack at 100,000 levels: the walk still names the place.
      const built = readStorableBundle({ bundle: JSON.parse(deep(depth)) });
      expect(issuesOf(built)[0]?.message).toBe(`nests deeper than ${MAX_DEPTH} levels`);
    }
  });

  it("reports a broken contract before storability (params hold scalars)", () => {
    const b = tkeCiliumOverlay();
    const sent = text({ ...b, results: [{ ...b.results[0], params: { x: "@@" } }] }).replace('"@@"', nested(1_000));
    expect(issuesOf(readStorableBundle({ text: sent }))[0]?.path).toBe("results[0].params.x");
  });
});

describe("unstorableValues", () => {
  it("walks any depth without recursion and stops at 20 issues", () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "\u0000"]));
    expect(unstorableValues(many)).toHaveLength(20);
    expect(unstorableValues(JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`))).toHaveLength(1);
  });
});
