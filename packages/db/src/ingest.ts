import { type BundleIssue, type BundleWarning, contentHash, parseBundle, parseJsonText } from "@cnibench/schema";
import { type StoredBundle, storeBundle } from "./bundles.ts";
import type { Db } from "./client.ts";

export type IngestOutcome =
  | { ok: true; stored: StoredBundle; warnings: BundleWarning[] }
  | { ok: false; reason: "malformed_json"; message: string }
  | { ok: false; reason: "invalid_bundle"; issues: BundleIssue[] };

/**
 * The one way a bundle gets in — uploads and the demo data alike: parse the JSON text, check it
 * against the contract, normalise it, and store it idempotently in one transaction.
 */
export async function ingestBundle(
  db: Db,
  input: { workspaceId: string; tokenId: string | null; text: string },
): Promise<IngestOutcome> {
  const json = parseJsonText(input.text);
  if (!json.ok) return { ok: false, reason: "malformed_json", message: json.message };
  const parsed = parseBundle(json.value);
  if (!parsed.ok) return { ok: false, reason: "invalid_bundle", issues: parsed.issues };
  const stored = await storeBundle(db, {
    workspaceId: input.workspaceId,
    tokenId: input.tokenId,
    raw: input.text,
    contentHash: contentHash(json.value),
    bundle: parsed.bundle,
    warnings: parsed.warnings,
  });
  return { ok: true, stored, warnings: parsed.warnings };
}
