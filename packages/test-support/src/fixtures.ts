import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { EnvironmentInput, ImportFile } from "@cnibench/importers";
import { repoRoot } from "./paths.ts";

/** packages/importers/fixtures: real tool outputs (real/) and labelled synthetic ones (synthetic/). */
export const fixturesDir = path.join(repoRoot, "packages/importers/fixtures");

export function fixtureBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(fixturesDir, relative)));
}

export function fixtureText(relative: string): string {
  return readFileSync(path.join(fixturesDir, relative), "utf8");
}

/** Every file under a fixture folder, named "<prefix>/<path inside the folder>", in sorted order. */
export function fixtureTree(relative: string, prefix: string): ImportFile[] {
  const root = path.join(fixturesDir, relative);
  const out: ImportFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ name: `${prefix}/${path.relative(root, full)}`, bytes: new Uint8Array(readFileSync(full)) });
    }
  };
  walk(root);
  return out;
}

/** The environment the tests give raw outputs that do not state it (?cluster=lab-1&provider=on-prem&…). */
export const labEnvironment = {
  cluster: "lab-1",
  provider: "on-prem",
  sku: "r6i.2xlarge",
  kernel: "6.1.0",
  cni: "cilium",
  mode: "native",
} satisfies EnvironmentInput;
