import { canConvert, findMetric, parseJsonText } from "@cnibench/schema";
import { ImportError } from "./types.ts";

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON.parse that names the line and column of a malformed (e.g. truncated) document. */
export function parseJson(text: string, what: string): unknown {
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new ImportError(`${what}: ${parsed.message}`);
  return parsed.value;
}

/** Follows a dotted path ("end.sum_received.bits_per_second"); undefined when any step is missing. */
export function at(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split(".")) {
    if (Array.isArray(current) && /^\d+$/.test(key)) current = current[Number(key)];
    else if (isObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

export function finite(value: unknown): number | undefined {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)
        ? Number(value)
        : undefined;
  // "1e400" and a 400-digit string are numerals too, but Infinity is no figure.
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

export function decodeText(bytes: Uint8Array): string {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** "99.9" → "p99.9", 50 → "p50": the percentile param convention. */
export function percentileName(percentile: number): string {
  return `p${Number(percentile.toPrecision(6))}`;
}

/**
 * Epoch seconds to an ISO instant the contract accepts; undefined outside years 1–9999 (toISOString
 * threw a RangeError beyond Date's range, and the contract takes four-digit years only).
 */
export function isoFromEpochSeconds(seconds: number): string | undefined {
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (!(year >= 1 && year <= 9999)) return undefined;
  return date.toISOString().replace(/\.000Z$/, "Z");
}

export function basename(path: string): string {
  const parts = path.split("/");
  return parts[parts.length - 1] ?? path;
}

/**
 * Why a unit read from a file cannot carry a catalogue metric's figure (e.g. a latency in "ec"), or
 * undefined when it can: parsers skip such a figure, naming it, rather than build a bundle the contract refuses.
 */
export function unitProblem(metric: string, unit: string): string | undefined {
  const definition = findMetric(metric);
  if (unit.trim() === "") return "no unit";
  if (!definition || canConvert(unit, definition.unit)) return undefined;
  return `unit "${unit}" is not one of ${definition.label}'s (${definition.unit})`;
}
