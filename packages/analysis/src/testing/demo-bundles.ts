// The demo bundles (demo-data/bundles/*.json, the five seed benchmarks) as the guide's input, the way
// the database hands them over: one scenario per scenarioKey, the figures normalised by the contract.
// For tests only; the bundle file name stands in for the bundle id.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseBundle, scenarioKey } from "@cnibench/schema";
import type { GuideFigure, GuideScenario } from "../guide/types.ts";

export const demoBundleDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../demo-data/bundles",
);

export type DemoData = {
  scenarios: GuideScenario[];
  figures: GuideFigure[];
  /** Scenario id by a bundle file name (without .json). */
  scenarioOf: (bundle: string) => string;
};

export function loadDemoData(): DemoData {
  const scenarios = new Map<string, GuideScenario>();
  const figures: GuideFigure[] = [];
  const byBundle = new Map<string, string>();
  for (const name of fs
    .readdirSync(demoBundleDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const parsed = parseBundle(JSON.parse(fs.readFileSync(path.join(demoBundleDir, name), "utf8")));
    if (!parsed.ok) throw new Error(`${name} does not parse: ${JSON.stringify(parsed.issues)}`);
    const b = parsed.bundle;
    const key = scenarioKey(b);
    let id = [...scenarios.values()].find((s) => (s as GuideScenario & { key: string }).key === key)?.id;
    if (!id) {
      id = `s${scenarios.size + 1}`;
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
    const bundleId = name.replace(/\.json$/, "");
    byBundle.set(bundleId, id);
    for (const m of b.measurements) figures.push({ ...m, scenarioId: id, bundleId });
  }
  return {
    scenarios: [...scenarios.values()],
    figures,
    scenarioOf: (bundle) => {
      const id = byBundle.get(bundle);
      if (!id) throw new Error(`no demo bundle ${bundle}`);
      return id;
    },
  };
}
