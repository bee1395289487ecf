import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** packages/importers/fixtures: real tool outputs (real/) and labelled synthetic ones (synthetic/). */
export const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");

export function fixtureBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(fixturesDir, relative)));
}

export function fixtureText(relative: string): string {
  return readFileSync(path.join(fixturesDir, relative), "utf8");
}
