import { createHash } from "node:crypto";

/**
 * RFC 8785 (JCS) canonical JSON: the same data always gives the same bytes, whatever the key order,
 * so hashes of bundles and scenario identities are stable across clients.
 *
 * Written by hand rather than with the `canonicalize` package (the test checks the two agree on
 * arbitrary JSON): its recursive reduce built a new string per key and was a twelfth of the ingest
 * API's CPU time, every measurement's params key and every bundle's hash going through it.
 */
export function canonicalJson(value: unknown): string {
  const json = write(value);
  if (json === undefined) throw new Error(`cannot canonicalise a value of type ${typeof value}`);
  return json;
}

function write(value: unknown): string | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${value} is not allowed in JSON`);
    return JSON.stringify(value);
  }
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function")
    return write((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += write(value[i]) ?? "null";
    }
    return `${out}]`;
  }
  // Object.keys(…).sort() orders by UTF-16 code units, as RFC 8785 asks.
  const keys = Object.keys(value).sort();
  let out = "{";
  for (const key of keys) {
    const item = write((value as Record<string, unknown>)[key]);
    if (item === undefined) continue;
    if (out.length > 1) out += ",";
    out += `${JSON.stringify(key)}:${item}`;
  }
  return `${out}}`;
}

export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value), "utf8").digest("hex");
}
