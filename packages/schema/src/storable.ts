/**
 * The one way from an uploaded text to what is stored: every way in (POST /v1/bundles, POST /v1/import,
 * the web app's upload, the demo data) goes through readStorableBundle, so they refuse the same input
 * with the same issues.
 *
 * Beside the contract (parseBundle), it refuses what the contract lets through but PostgreSQL cannot
 * keep, so that such an upload is an issue naming the place rather than a 500 from the database or a
 * stack overflow while hashing. Found by the hostile-input tests (nasty.integration.test.ts,
 * fuzz.integration.test.ts):
 *
 * - U+0000 in a string or key: PostgreSQL's text and jsonb refuse it (22021, 22P05);
 * - an unpaired UTF-16 surrogate ("\ud800"): jsonb refuses it (22P02), text would silently change it;
 * - nesting deeper than MAX_DEPTH: the canonical JSON behind the content hash recurses once per level;
 * - 1e400 (JSON.parse gives Infinity) in a field the contract does not check: the hash refuses it;
 * - figures that overflow to ±Infinity once converted to the catalogue unit (1e308 Tbit/s);
 * - integral figures from 2^53 to 1e21, which the measurement insert cannot serialise (see below);
 * - dates before year 1: PostgreSQL has no year 0.
 */

import type { BundleIssue, BundleWarning } from "./bundle.ts";
import { contentHash } from "./canonical.ts";
import { parseJsonText } from "./json-text.ts";
import { formatPath, type NormalisedBundle, parseBundle } from "./normalise.ts";

/** Far above any bundle's real nesting (results → result → params is 4), far below the stack's limit. */
export const MAX_DEPTH = 100;
/** Enough to say what is wrong without echoing a hostile document back in full. */
const MAX_ISSUES = 20;

const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorableText = (text: string) => text.includes("\u0000") || unpairedSurrogate.test(text);

type Node = { value: unknown; key: PropertyKey | undefined; parent: Node | undefined; depth: number };

/** Strings, keys and nesting of a parsed JSON document; iterative, so any depth is safe to walk. */
export function unstorableValues(document: unknown): BundleIssue[] {
  const issues: BundleIssue[] = [];
  // Paths are rebuilt from parent links only for the (rare) nodes with an issue.
  const pathOf = (node: Node, key?: PropertyKey) => {
    const path: PropertyKey[] = key === undefined ? [] : [key];
    for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) path.unshift(n.key);
    return formatPath(path);
  };
  const stack: Node[] = [{ value: document, key: undefined, parent: undefined, depth: 0 }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === "string") {
      if (unstorableText(value)) issues.push({ path: pathOf(node), message: textMessage });
      continue;
    }
    if (typeof value === "number" && !Number.isFinite(value)) {
      issues.push({ path: pathOf(node), message: "is beyond the range of a number (1e400 reads as Infinity)" });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (node.depth >= MAX_DEPTH) {
      issues.push({ path: pathOf(node), message: `nests deeper than ${MAX_DEPTH} levels` });
      continue;
    }
    const entries: Iterable<[PropertyKey, unknown]> = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [key, child] of entries) {
      if (typeof key === "string" && unstorableText(key)) {
        issues.push({ path: pathOf(node, key), message: `the key ${textMessage}` });
      }
      stack.push({ value: child, key, parent: node, depth: node.depth + 1 });
    }
  }
  return issues.slice(0, MAX_ISSUES);
}

const textMessage = "contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored";

/** Figures and dates of a normalised bundle that PostgreSQL's float8 and timestamp cannot hold. */
export function unstorableFigures(bundle: NormalisedBundle): BundleIssue[] {
  const issues: BundleIssue[] = [];
  if (bundle.runAt && !(bundle.runAt.getUTCFullYear() >= 1)) {
    issues.push({ path: "runAt", message: "must be in year 1 or later" });
  }
  const check = (m: NormalisedBundle["measurements"][number], field: string, figure: number | null, column = true) => {
    if (figure === null || issues.length >= MAX_ISSUES) return;
    let message: string;
    if (!Number.isFinite(figure)) message = `is out of range once converted to ${m.unit} (from ${m.publishedUnit})`;
    else if (column && Number.isInteger(figure) && Math.abs(figure) >= 2 ** 53 && Math.abs(figure) < 1e21) {
      // Prisma's raw-query serialisation refuses integers it writes without an exponent from 2^53 on
      // ("can't be represented as a JavaScript number"). TODO(packages/db): send the float8 columns as text.
      message = `${figure} is an integer of 2^53 or more, which cannot be stored (yet)`;
    } else return;
    const path = `results[${m.position}].${field}`;
    if (!issues.some((i) => i.path === path)) issues.push({ path, message });
  };
  for (const m of bundle.measurements) {
    check(m, "value", m.value);
    check(m, "value", m.publishedValue);
    check(m, "low", m.low);
    check(m, "high", m.high);
    // Samples travel as JSON text into the insert: only their range matters.
    for (let i = 0; i < m.samples.length; i++) check(m, `samples[${i}]`, m.samples[i]!, false);
    // Summary statistics travel as JSON too: an overflow would arrive as null beside its n.
    if (m.summary) {
      check(m, "summary.mean", m.summary.mean, false);
      if (m.summary.sd !== undefined) check(m, "summary.sd", m.summary.sd, false);
      for (const i of [0, 1]) if (m.summary.ci95) check(m, `summary.ci95[${i}]`, m.summary.ci95[i]!, false);
    }
  }
  return issues;
}

/** A bundle ready to store: the text kept verbatim, its content hash, and the normalised bundle. */
export type StorableBundle = { raw: string; contentHash: string; bundle: NormalisedBundle; warnings: BundleWarning[] };

export type StorableOutcome =
  | ({ ok: true } & StorableBundle)
  | { ok: false; reason: "malformed_json"; message: string }
  | { ok: false; reason: "invalid_bundle"; issues: BundleIssue[] };

/**
 * JSON text (an upload) or a built bundle (an import) → checked against the contract, normalised,
 * checked for storability and hashed. A built bundle is serialised first and then read like an
 * upload, so importing a file and uploading the bundle the CLI builds from it give the same hash.
 */
export function readStorableBundle(source: { text: string } | { bundle: unknown }): StorableOutcome {
  let text: string | undefined;
  if ("text" in source) text = source.text;
  else {
    try {
      text = JSON.stringify(source.bundle);
    } catch {
      // JSON.stringify recurses once per level: its stack overflow names no place, the walk does.
      const issues = unstorableValues(source.bundle);
      return { ok: false, reason: "invalid_bundle", issues: issues.length > 0 ? issues : [notSerialisable] };
    }
    if (text === undefined) return { ok: false, reason: "invalid_bundle", issues: [notSerialisable] };
  }
  const json = parseJsonText(text);
  if (!json.ok) return { ok: false, reason: "malformed_json", message: json.message };
  const parsed = parseBundle(json.value);
  if (!parsed.ok) return { ok: false, reason: "invalid_bundle", issues: parsed.issues };
  // After the contract, whose issues name the field better (params hold scalars); before the hash.
  const issues = [...unstorableValues(json.value), ...unstorableFigures(parsed.bundle)];
  if (issues.length > 0) return { ok: false, reason: "invalid_bundle", issues: issues.slice(0, MAX_ISSUES) };
  return {
    ok: true,
    raw: text,
    contentHash: bundleContentHash(json.value),
    bundle: parsed.bundle,
    warnings: parsed.warnings,
  };
}

const notSerialisable: BundleIssue = { path: "", message: "cannot be written as JSON" };

/**
 * What makes two bundles "the same bundle": the canonical JSON of the document without `cni.label`,
 * a display name (docs/design.md), and without `campaign`, which says which runs were grouped, not
 * what was measured. So the same results uploaded again under a new label are stored once and only
 * rename their scenario, and the same run uploaded again — alone, in another archive, under another
 * campaign — is "already there" and stays in the campaign it was first stored in. Imports derive
 * their campaign from it too.
 */
export function bundleContentHash(document: unknown): string {
  if (typeof document !== "object" || document === null || Array.isArray(document)) return contentHash(document);
  const { campaign: _grouping, ...rest } = document as Record<string, unknown>;
  const cni = rest.cni;
  if (typeof cni !== "object" || cni === null || !Object.hasOwn(cni, "label")) return contentHash(rest);
  const { label: _display, ...cniRest } = cni as Record<string, unknown>;
  return contentHash({ ...rest, cni: cniRest });
}
