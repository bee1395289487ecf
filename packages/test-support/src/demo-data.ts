// The demo data (demo-data/bundles/*.json, the five published seed benchmarks) as tests read it: every
// file parsed by the contract as an upload would be, and the figures grouped into scenarios the way
// the database hands them to the guide. The bundle file name (without .json) stands in for a bundle id.
// `npm start` stores the same files through the upload path (packages/launcher/src/demo-data.ts).
import fs from "node:fs";
import path from "node:path";
import type { GuideFigure, GuideScenario } from "@cnibench/analysis";
import { type BundleWarning, type NormalisedBundle, parseBundle, parseJsonText, scenarioKey } from "@cnibench/schema";
import { repoRoot } from "./paths.ts";

export const demoBundleDir = path.join(repoRoot, "demo-data/bundles");

/** One demo bundle file: the JSON as written, and as the contract reads it. */
export type DemoBundle = {
  /** File name, e.g. "tke-a-iptables-main.json". */
  file: string;
  input: Record<string, unknown>;
  bundle: NormalisedBundle;
  warnings: BundleWarning[];
};

export type DemoData = {
  /** Every file, in file-name order. */
  bundles: DemoBundle[];
  /** A file by its name, with or without .json. */
  bundle: (name: string) => DemoBundle;
  /** One scenario per scenarioKey (ids s1, s2, … in file order), as the guide takes them. */
  scenarios: GuideScenario[];
  /** Every figure, its bundleId the file name without .json. */
  figures: GuideFigure[];
  /** Scenario id by a bundle file name (without .json). */
  scenarioOf: (bundle: string) => string;
};

/** Reads and parses every demo bundle, afresh on each call: a test may change what it gets. */
export function loadDemoData(): DemoData {
  const bundles = fs
    .readdirSync(demoBundleDir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map(readDemoBundle);

  const scenarios = new Map<string, GuideScenario>();
  const idByKey = new Map<string, string>();
  const figures: GuideFigure[] = [];
  const byBundle = new Map<string, string>();
  for (const { file, bundle: b } of bundles) {
    const key = scenarioKey(b);
    let id = idByKey.get(key);
    if (!id) {
      id = `s${scenarios.size + 1}`;
      idByKey.set(key, id);
      scenarios.set(id, {
        id,
        label: b.cni.label ?? `${b.cni.name} ${b.cni.mode}`,
        provider: b.cluster.provider,
        sku: b.node.sku,
        kernel: b.node.kernel,
        cni: b.cni,
        key,
      } as GuideScenario);
    }
    const bundleId = file.replace(/\.json$/, "");
    byBundle.set(bundleId, id);
    for (const m of b.measurements) figures.push({ ...m, scenarioId: id, bundleId });
  }

  return {
    bundles,
    bundle: (name) => {
      const file = name.endsWith(".json") ? name : `${name}.json`;
      const found = bundles.find((d) => d.file === file);
      if (!found) throw new Error(`no demo bundle ${name}`);
      return found;
    },
    scenarios: [...scenarios.values()],
    figures,
    scenarioOf: (bundle) => {
      const id = byBundle.get(bundle);
      if (!id) throw new Error(`no demo bundle ${bundle}`);
      return id;
    },
  };
}

function readDemoBundle(file: string): DemoBundle {
  const json = parseJsonText(fs.readFileSync(path.join(demoBundleDir, file), "utf8"));
  if (!json.ok) throw new Error(`${file}: ${json.message}`);
  const parsed = parseBundle(json.value);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  return { file, input: json.value as Record<string, unknown>, bundle: parsed.bundle, warnings: parsed.warnings };
}
