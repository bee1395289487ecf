/**
 * The environment of a run: raw tool outputs do not say which cloud, instance type or CNI they ran
 * on, so users supply it (flags, query parameters, a JSON header, a cnibench-environment.json next
 * to the files). Values read from the files themselves fill what users leave out; a required field
 * nobody supplies is named, never guessed. "unknown" counts only when a user passes it.
 */
import { type BundleWarning, resolveSlug, type VocabularyKind } from "@cnibench/schema";
import type { EnvironmentFields, EnvironmentInput, MissingField, Params, ParamValue } from "./types.ts";

type FieldKind = "text" | "int" | "number";

/** Every environment key, the bundle field it fills, and whether the contract requires it. */
export const environmentFields = {
  cluster: { path: "cluster.name", kind: "text", required: true },
  provider: { path: "cluster.provider", kind: "text", required: true },
  region: { path: "cluster.region", kind: "text", required: false },
  k8s: { path: "cluster.kubernetesVersion", kind: "text", required: false },
  nodeCount: { path: "cluster.nodeCount", kind: "int", required: false },
  sku: { path: "node.sku", kind: "text", required: true },
  vcpus: { path: "node.vcpus", kind: "number", required: false },
  memoryGiB: { path: "node.memoryGiB", kind: "number", required: false },
  nicGbps: { path: "node.nicGbps", kind: "number", required: false },
  os: { path: "node.os", kind: "text", required: false },
  kernel: { path: "node.kernel", kind: "text", required: true },
  cni: { path: "cni.name", kind: "text", required: true },
  cniVersion: { path: "cni.version", kind: "text", required: false },
  mode: { path: "cni.mode", kind: "text", required: true },
  kubeProxy: { path: "cni.kubeProxy", kind: "text", required: false },
  label: { path: "cni.label", kind: "text", required: false },
  sourceTitle: { path: "source.title", kind: "text", required: false },
  sourceUrl: { path: "source.url", kind: "text", required: false },
} as const satisfies Record<string, { path: string; kind: FieldKind; required: boolean }>;

export type ScalarEnvironmentKey = keyof typeof environmentFields;
export const scalarEnvironmentKeys = Object.keys(environmentFields) as ScalarEnvironmentKey[];

/** File name of the optional sidecar that gives the environment of the files beside and below it. */
export const ENVIRONMENT_FILE = "cnibench-environment.json";

export type EnvironmentIssue = { key: string; message: string };

/**
 * Reads environment fields given as strings (query parameters, CLI flags): numbers are parsed,
 * "setting" and "param" entries are `key=value` pairs. Unknown keys are returned so callers can
 * ignore or refuse them.
 */
export function environmentFromStrings(input: Record<string, string | string[] | undefined>): {
  environment: EnvironmentFields;
  issues: EnvironmentIssue[];
} {
  const environment: EnvironmentFields = {};
  const issues: EnvironmentIssue[] = [];
  for (const [key, raw] of Object.entries(input)) {
    if (raw === undefined) continue;
    const values = Array.isArray(raw) ? raw : [raw];
    if (key === "setting" || key === "param") {
      const target: Record<string, ParamValue | null> = {};
      for (const pair of values) {
        const at = pair.indexOf("=");
        if (at <= 0) {
          issues.push({ key, message: `"${pair}" is not key=value` });
          continue;
        }
        const value = scalarFromString(pair.slice(at + 1));
        if (key === "param" && value === null) {
          issues.push({ key, message: `param "${pair.slice(0, at)}" needs a value` });
          continue;
        }
        target[pair.slice(0, at)] = value;
      }
      if (key === "setting") environment.settings = { ...environment.settings, ...target };
      else environment.params = { ...environment.params, ...(target as Params) };
      continue;
    }
    if (!(key in environmentFields)) continue;
    const field = environmentFields[key as ScalarEnvironmentKey];
    const value = values[values.length - 1]?.trim() ?? "";
    if (value === "") {
      issues.push({ key, message: "is empty" });
      continue;
    }
    if (field.kind === "text") {
      (environment as Record<string, unknown>)[key] = value;
    } else {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0 || (field.kind === "int" && !Number.isInteger(n))) {
        issues.push({
          key,
          message: `must be a positive ${field.kind === "int" ? "whole " : ""}number, not "${value}"`,
        });
      } else {
        (environment as Record<string, unknown>)[key] = n;
      }
    }
  }
  return { environment, issues };
}

/** Checks a JSON environment (header or sidecar file) and keeps only what is well-formed. */
export function environmentFromJson(value: unknown): { environment: EnvironmentInput; issues: EnvironmentIssue[] } {
  const issues: EnvironmentIssue[] = [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { environment: {}, issues: [{ key: "", message: "the environment must be a JSON object" }] };
  }
  const read = (object: Record<string, unknown>, prefix: string): EnvironmentFields => {
    const out: EnvironmentFields = {};
    for (const [key, raw] of Object.entries(object)) {
      const where = `${prefix}${key}`;
      if (key === "files" && prefix === "") continue;
      if (key === "settings" || key === "params") {
        if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
          issues.push({ key: where, message: "must be an object of key: value" });
          continue;
        }
        const entries = Object.entries(raw).filter(([k, v]) => {
          const ok =
            typeof v === "string" ||
            typeof v === "boolean" ||
            (typeof v === "number" && Number.isFinite(v)) ||
            (v === null && key === "settings");
          if (!ok) issues.push({ key: `${where}.${k}`, message: "must be a string, number or boolean" });
          return ok;
        });
        (out as Record<string, unknown>)[key] = Object.fromEntries(entries);
        continue;
      }
      if (!(key in environmentFields)) {
        issues.push({ key: where, message: `is not an environment field (${scalarEnvironmentKeys.join(", ")})` });
        continue;
      }
      const field = environmentFields[key as ScalarEnvironmentKey];
      if (field.kind === "text") {
        if (typeof raw !== "string" || raw.trim() === "")
          issues.push({ key: where, message: "must be a non-empty string" });
        else (out as Record<string, unknown>)[key] = raw.trim();
      } else {
        const n = typeof raw === "string" ? Number(raw) : raw;
        if (typeof n !== "number" || !Number.isFinite(n) || n <= 0 || (field.kind === "int" && !Number.isInteger(n))) {
          issues.push({ key: where, message: "must be a positive number" });
        } else {
          (out as Record<string, unknown>)[key] = n;
        }
      }
    }
    return out;
  };
  const object = value as Record<string, unknown>;
  const environment: EnvironmentInput = read(object, "");
  if (object.files !== undefined) {
    if (typeof object.files !== "object" || object.files === null || Array.isArray(object.files)) {
      issues.push({ key: "files", message: "must map file names or patterns to environment objects" });
    } else {
      environment.files = {};
      for (const [pattern, fields] of Object.entries(object.files)) {
        if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
          issues.push({ key: `files.${pattern}`, message: "must be an object" });
          continue;
        }
        environment.files[pattern] = read(fields as Record<string, unknown>, `files.${pattern}.`);
      }
    }
  }
  return { environment, issues };
}

function scalarFromString(raw: string): ParamValue | null {
  const value = raw.trim();
  if (value === "true") return true;
  if (value === "false") return false;
  if (value === "null" || value === "") return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

/** Values that say nothing: a file's "unknown" or an empty string is not an answer. */
function informative(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    return v !== "" && v !== "unknown" && v !== "n/a" && v !== "<none>";
  }
  return true;
}

/** Keeps the informative values of environment fields read from a file. */
function cleanDerived(derived: EnvironmentFields): EnvironmentFields {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(derived)) {
    if (informative(value)) out[key] = typeof value === "string" ? value.trim() : value;
  }
  return out as EnvironmentFields;
}

/** Does a `files` key of an environment apply to this file path? Name, path suffix or `*` pattern. */
export function matchesFile(pattern: string, file: string): boolean {
  const normalised = file.replaceAll("\\", "/");
  if (pattern.includes("*")) {
    // `*` stays within one path segment, so the pattern matches the file's last segments one by one.
    // (It was a regular expression of `[^/]*` per star: "*****a" took seconds against a long name.)
    const wanted = pattern.split("/");
    const parts = normalised.split("/");
    if (wanted.length > parts.length) return false;
    const tail = parts.slice(parts.length - wanted.length);
    return wanted.every((segment, i) => globSegment(segment, tail[i]!));
  }
  return normalised === pattern || normalised.endsWith(`/${pattern}`);
}

/** Wildcard match of one segment, `*` for any run of characters: greedy with one backtrack point, O(n·m). */
function globSegment(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/**
 * `base` refined by `more`: what `more` gives wins, its settings and params merge into base's key by key,
 * and base's per-file entries stay. How flags refine a sidecar and query parameters a header.
 */
export function refineEnvironment<E extends EnvironmentFields>(base: E, more: EnvironmentFields): E {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(more)) {
    if (value === undefined) continue;
    merged[key] =
      key === "settings" || key === "params" ? { ...(merged[key] as object | undefined), ...(value as object) } : value;
  }
  return merged as E;
}

/**
 * Layers, lowest first: what the file says; then every layer's general fields (in layer order);
 * then every layer's entries for this file (in layer order). The more specific an entry, the more
 * it weighs: a sidecar's entry for scenario-a.json beats a --cni given for the whole folder.
 */
export function resolveEnvironment(
  file: string,
  derived: EnvironmentFields,
  layers: EnvironmentInput[],
): EnvironmentFields {
  let merged: EnvironmentFields = cleanDerived(derived);
  for (const { files: _perFile, ...general } of layers) merged = refineEnvironment(merged, general);
  for (const layer of layers) {
    for (const [pattern, fields] of Object.entries(layer.files ?? {})) {
      if (matchesFile(pattern, file)) merged = refineEnvironment(merged, fields);
    }
  }
  return merged;
}

/** Names people choose, not facts about the run: giving another one is no contradiction. */
const names = new Set<ScalarEnvironmentKey>(["cluster", "label", "sourceTitle", "sourceUrl"]);

const vocabularyKinds: Partial<Record<ScalarEnvironmentKey, VocabularyKind>> = {
  provider: "provider",
  cni: "cniName",
  mode: "cniMode",
  kubeProxy: "kubeProxy",
};

/** A value as it is compared: vocabulary fields by slug ("Cilium" is cilium), versions without their "v". */
function comparable(key: ScalarEnvironmentKey, value: string | number): string | number {
  if (typeof value === "number") return value;
  const kind = vocabularyKinds[key];
  if (kind) return resolveSlug(kind, value).slug;
  const text = value.trim().toLowerCase();
  return key === "k8s" || key === "cniVersion" ? text.replace(/^v(?=\d)/, "") : text;
}

/**
 * Where what users passed overrides a different value the files state (resolveEnvironment lets users
 * win): one warning each, naming both values, so a typed kernel never silently replaces the real one.
 */
export function environmentContradictions(derived: EnvironmentFields, resolved: EnvironmentFields): BundleWarning[] {
  const stated = cleanDerived(derived);
  const warnings: BundleWarning[] = [];
  for (const key of scalarEnvironmentKeys) {
    const fromFiles = stated[key];
    const passed = resolved[key];
    if (names.has(key) || fromFiles === undefined || passed === undefined) continue;
    if (comparable(key, passed) === comparable(key, fromFiles)) continue;
    const path = environmentFields[key].path;
    warnings.push({
      path,
      message: `${path}: you passed ${quoted(passed)}, the files state ${quoted(fromFiles)}; stored as you passed`,
    });
  }
  return warnings;
}

/** Cut to the contract's longest environment text, so a file's runaway line cannot outgrow a warning. */
function quoted(value: string | number): string {
  return typeof value === "number"
    ? String(value)
    : JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}

export function missingFields(environment: EnvironmentFields): MissingField[] {
  return scalarEnvironmentKeys
    .filter((key) => environmentFields[key].required && environment[key] === undefined)
    .map((key) => ({ path: environmentFields[key].path, input: key }));
}

/** "node.sku (sku), cni.mode (mode)": the message part naming what is missing. */
export function describeMissing(missing: MissingField[]): string {
  return missing.map((m) => `${m.path} (${m.input})`).join(", ");
}
