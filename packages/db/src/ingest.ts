import { type BundleIssue, type BundleWarning, readStorableBundle } from "@cnibench/schema";
import { type StoredBundle, storeBundle } from "./bundles.ts";
import type { Db } from "./client.ts";

export type IngestOutcome =
  | { ok: true; stored: StoredBundle; warnings: BundleWarning[] }
  | { ok: false; reason: "malformed_json"; message: string }
  | { ok: false; reason: "invalid_bundle"; issues: BundleIssue[] };

/**
 * The one way a bundle's text gets in — POST /v1/bundles, the web app's upload and the demo data
 * alike: read it for storage (readStorableBundle: JSON, the contract, what PostgreSQL can hold,
 * normalised and hashed; POST /v1/import reads its built bundles the same way) and store it
 * idempotently in one transaction.
 */
export async function ingestBundle(
  db: Db,
  input: { workspaceId: string; tokenId: string | null; text: string },
): Promise<IngestOutcome> {
  const read = readStorableBundle({ text: input.text });
  if (!read.ok) return read;
  const { raw, contentHash, bundle, warnings } = read;
  const { workspaceId, tokenId } = input;
  const stored = await storeBundle(db, { workspaceId, tokenId, raw, contentHash, bundle, warnings });
  return { ok: true, stored, warnings };
}
