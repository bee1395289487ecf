import type { StoreBundleInput } from "@cnibench/db";
import { type BundleInput, type BundleIssue, type BundleWarning, contentHash, parseBundle } from "@cnibench/schema";

export type PreparedBundle = { input: StoreBundleInput; warnings: BundleWarning[] };

/**
 * A built bundle as POST /v1/bundles would receive it: serialised, validated, normalised and hashed
 * the same way (JSON text → parseBundle → contentHash of the parsed value), so importing a file and
 * uploading the bundle the CLI builds from it give the same content hash and the same stored bundle.
 */
export function prepareBundle(
  bundle: BundleInput,
  uploader: { workspaceId: string; tokenId: string | null },
): { ok: true; prepared: PreparedBundle } | { ok: false; issues: BundleIssue[] } {
  const raw = JSON.stringify(bundle);
  const value = JSON.parse(raw) as unknown;
  const parsed = parseBundle(value);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  return {
    ok: true,
    prepared: {
      input: {
        workspaceId: uploader.workspaceId,
        tokenId: uploader.tokenId,
        raw,
        contentHash: contentHash(value),
        bundle: parsed.bundle,
        warnings: parsed.warnings,
      },
      warnings: parsed.warnings,
    },
  };
}
