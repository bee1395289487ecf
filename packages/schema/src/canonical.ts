import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * RFC 8785 (JCS) canonical JSON: the same data always gives the same bytes, whatever the key order,
 * so hashes of bundles and scenario identities are stable across clients.
 */
export function canonicalJson(value: unknown): string {
  const json = canonicalize(value);
  if (json === undefined) throw new Error(`cannot canonicalise a value of type ${typeof value}`);
  return json;
}

export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value), "utf8").digest("hex");
}
