/**
 * Campaigns of imports (docs/design.md, series and campaigns): the bundles built by one POST /v1/import, or
 * by one `cnibench upload`, are runs that belong together, so each of them that names no campaign of
 * its own gets the import's: the one the caller names (`?campaign=`, `--campaign`), or else one derived
 * from what the import built.
 *
 * Derived, not drawn at random, from the built bundles rather than from the uploaded bytes: the same
 * results in other packaging (a .zip rather than a .tar.gz, files in another order, the CLI rather than
 * the API) give the same campaign. A bundle's content hash leaves its campaign out, so a run already
 * stored is "already there" whatever campaign an upload gives it (a subset of an import, another name),
 * and stays in the campaign it was first stored in.
 */
import { createHash } from "node:crypto";
import { bundleContentHash, bundleSchema } from "@cnibench/schema";
import type { ImportedBundle } from "./types.ts";

export type CampaignRead = { ok: true; campaign: string } | { ok: false; message: string };

/** A campaign named by the caller, read as the contract reads a bundle's `campaign`: trimmed, 1–200 characters. */
export function readCampaign(value: string): CampaignRead {
  const read = bundleSchema.shape.campaign.safeParse(value);
  if (read.success && read.data !== undefined) return { ok: true, campaign: read.data };
  return { ok: false, message: "must be 1 to 200 characters once trimmed (like a bundle's campaign)" };
}

/**
 * The campaign of an import that names none: `import-` and 16 hex digits of a SHA-256 over the content
 * hashes of the bundles it built, in sorted order. Content hashes leave labels out, so importing the
 * same results under a new label gives the same campaign, the same bundles, and a renamed scenario.
 */
export function derivedCampaign(bundles: readonly ImportedBundle[]): string {
  const hashes = bundles.map((b) => {
    try {
      return bundleContentHash(b.bundle);
    } catch {
      // Not JSON (1e400 read as Infinity, nesting deep enough to overflow the stack): the contract
      // check refuses such a bundle before anything is stored, so its share of the name does not matter.
      return "unhashable";
    }
  });
  const digest = createHash("sha256").update(hashes.sort().join("\n"), "utf8").digest("hex");
  return `import-${digest.slice(0, 16)}`;
}

/** The import's bundles, each naming a campaign: its own, or the import's (named, else derived). */
export function withCampaign(
  bundles: readonly ImportedBundle[],
  named?: string,
): { campaign: string; bundles: ImportedBundle[] } {
  const campaign = named ?? derivedCampaign(bundles);
  return {
    campaign,
    bundles: bundles.map((b) => (b.bundle.campaign === undefined ? { ...b, bundle: { ...b.bundle, campaign } } : b)),
  };
}
