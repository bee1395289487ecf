// Keys for a figure's params: what comparisons, the guide's selectors and its evidence lists match
// figures by, equal whatever the order of the keys.
import { canonicalJson } from "@cnibench/schema";
import type { Params } from "./types.ts";

// Worked out once per params object: a comparison or a guide answer keys each figure several times,
// and canonicalising was most of that time. Params are never changed after they are read.
const canonical = new WeakMap<Params, string>();

/** Canonical JSON of the params. */
export function paramsKey(params: Params): string {
  let key = canonical.get(params);
  if (key === undefined) {
    key = canonicalJson(params);
    canonical.set(params, key);
  }
  return key;
}

const canonicalWithout = new WeakMap<Params, Map<string, string>>();

/**
 * A key for the params apart from one (the x of a line), also worked out once per params object.
 * Params hold primitives, so a sorted key=value list is as good as canonical JSON of a copy without
 * `skip`, and building that copy per figure was a tenth of the guide's time.
 */
export function paramsKeyWithout(params: Params, skip: string): string {
  let keys = canonicalWithout.get(params);
  if (!keys) {
    keys = new Map();
    canonicalWithout.set(params, keys);
  }
  let key = keys.get(skip);
  if (key === undefined) {
    key = "";
    for (const k of Object.keys(params).sort())
      if (k !== skip) key += `${JSON.stringify(k)}=${JSON.stringify(params[k])};`;
    keys.set(skip, key);
  }
  return key;
}
