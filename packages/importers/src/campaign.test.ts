import { readStorableBundle } from "@cnibench/schema";
import { fixtureBytes } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { derivedCampaign, readCampaign, withCampaign } from "./campaign.ts";
import { importFiles } from "./import.ts";
import type { EnvironmentInput } from "./types.ts";

const environment: EnvironmentInput = { provider: "eks", sku: "m6i.xlarge", kernel: "6.1", cni: "cilium", mode: "eni" };
const eks = (...names: string[]) =>
  importFiles(
    names.map((n) => ({ name: `${n}.json`, bytes: fixtureBytes(`real/eks-devfloor9/${n}.json`) })),
    environment,
  ).bundles;

describe("readCampaign", () => {
  it("reads a campaign as the contract does: trimmed, 1 to 200 characters", () => {
    expect(readCampaign("  cilium-1.19-upgrade ")).toEqual({ ok: true, campaign: "cilium-1.19-upgrade" });
    expect(readCampaign("x".repeat(200))).toEqual({ ok: true, campaign: "x".repeat(200) });
    for (const bad of ["", "   ", "x".repeat(201)]) {
      expect(readCampaign(bad)).toEqual({ ok: false, message: expect.stringContaining("1 to 200 characters") });
    }
  });
});

describe("withCampaign", () => {
  it("gives every bundle naming none the named campaign, and keeps a bundle's own", () => {
    const [a, b] = eks("scenario-a-vpccni", "scenario-b-cilium-kp");
    const own = { ...b!, bundle: { ...b!.bundle, campaign: "its-own" } };
    const { campaign, bundles } = withCampaign([a!, own], "upgrade-2026-11");
    expect(campaign).toBe("upgrade-2026-11");
    expect(bundles.map((x) => x.bundle.campaign)).toEqual(["upgrade-2026-11", "its-own"]);
    expect(a!.bundle.campaign).toBeUndefined(); // the input is left as it was
    const stored = readStorableBundle({ bundle: bundles[0]!.bundle });
    expect(stored.ok && stored.bundle.campaign).toBe("upgrade-2026-11");
    expect(stored.ok && JSON.parse(stored.raw).campaign).toBe("upgrade-2026-11");
  });

  it("derives the campaign from what was built: the same bundles in any order give the same one", () => {
    const first = withCampaign(eks("scenario-a-vpccni", "scenario-b-cilium-kp"));
    const reordered = withCampaign(eks("scenario-b-cilium-kp", "scenario-a-vpccni"));
    expect(first.campaign).toMatch(/^import-[0-9a-f]{16}$/);
    expect(reordered.campaign).toBe(first.campaign);
    expect(first.bundles.every((b) => b.bundle.campaign === first.campaign)).toBe(true);
    // so the same import again has the same content hashes (and is recognised as stored)
    const hash = (b: (typeof first.bundles)[number]) => {
      const read = readStorableBundle({ bundle: b.bundle });
      return read.ok ? read.contentHash : read.reason;
    };
    expect(reordered.bundles.map(hash).sort()).toEqual(first.bundles.map(hash).sort());

    expect(withCampaign(eks("scenario-a-vpccni")).campaign).not.toBe(first.campaign);
    const elsewhere = importFiles(
      [{ name: "a.json", bytes: fixtureBytes("real/eks-devfloor9/scenario-a-vpccni.json") }],
      {
        ...environment,
        kernel: "6.2",
      },
    ).bundles;
    expect(derivedCampaign(elsewhere)).not.toBe(derivedCampaign(eks("scenario-a-vpccni")));
  });

  it("derives a campaign even from a bundle that is not JSON (the contract check refuses it later)", () => {
    const [a] = eks("scenario-a-vpccni");
    const infinite = { ...a!, bundle: { ...a!.bundle, extra: Number.POSITIVE_INFINITY } };
    expect(derivedCampaign([infinite])).toMatch(/^import-[0-9a-f]{16}$/);
  });
});
