// Demo bundles as the web server sees them: scenario summaries and current figures, for its unit tests.
import type { LatestFigure, MeasurementRow, ScenarioSummary } from "@cnibench/db";
import { parseBundle } from "@cnibench/schema";
import { loadDemoData } from "./demo-data.ts";

type SeedFigure = MeasurementRow & Pick<LatestFigure, "n" | "campaignBundleIds">;

/** Scenario id → demo-data bundle files; each file is parsed by the contract as an upload would be. */
export function loadSeeds(files: Record<string, string[]>): { scenarios: ScenarioSummary[]; figures: SeedFigure[] } {
  const demo = loadDemoData();
  return seedsOf(
    Object.fromEntries(
      Object.entries(files).map(([id, names]) => [
        id,
        names.map((name) => ({ name, bundle: demo.bundle(name).input })),
      ]),
    ),
  );
}

/** Scenario id → named bundles (e.g. built by an importer), each its own campaign. */
export function seedsOf(byScenario: Record<string, { name: string; bundle: unknown }[]>): {
  scenarios: ScenarioSummary[];
  figures: SeedFigure[];
} {
  const scenarios: ScenarioSummary[] = [];
  const figures: SeedFigure[] = [];
  for (const [id, named] of Object.entries(byScenario)) {
    for (const { name, bundle } of named) {
      const parsed = parseBundle(bundle);
      if (!parsed.ok) throw new Error(`${name} does not parse`);
      const b = parsed.bundle;
      if (!scenarios.some((s) => s.id === id)) {
        scenarios.push({
          id,
          workspaceId: "seed",
          label: b.cni.label ?? b.cni.name,
          provider: b.cluster.provider,
          region: b.cluster.region,
          kubernetesVersion: b.cluster.kubernetesVersion,
          nodeCount: b.cluster.nodeCount,
          sku: b.node.sku,
          vcpus: b.node.vcpus,
          memoryGiB: b.node.memoryGiB,
          nicGbps: b.node.nicGbps,
          os: b.node.os,
          kernel: b.node.kernel,
          cni: b.cni,
          sources: [],
          bundleCount: 1,
          lastRunAt: null,
        });
      }
      for (const { summary, samplesAre, ...m } of b.measurements) {
        figures.push({
          ...m,
          // As the database reads them back (packages/db measurements.ts).
          summaryStatistics: summary ?? null,
          samplesAre: samplesAre ?? null,
          id: `${name}#${m.position}`,
          scenarioId: id,
          bundleId: name,
          measuredAt: new Date(0),
          sourceTitle: b.source?.title ?? null,
          sourceUrl: b.source?.url ?? null,
          // Each seed bundle is its own campaign: its rounds (samples) are its runs.
          n: (samplesAre !== "clients" && m.samples.length) || 1,
          campaignBundleIds: [name],
        });
      }
    }
  }
  return { scenarios, figures };
}

/** TKE's three seed scenarios (a: kube-proxy iptables, b: Cilium native, c: Cilium overlay) with every table they ship. */
export function tkeSeeds() {
  return loadSeeds({
    a: ["tke-a-iptables-service-scale.json", "tke-a-iptables-main.json"],
    b: [
      "tke-b-cilium-native-service-scale.json",
      "tke-b-cilium-native-main.json",
      "tke-b-cilium-native-hubble-policy.json",
    ],
    c: [
      "tke-c-cilium-overlay-service-scale.json",
      "tke-c-cilium-overlay-main.json",
      "tke-c-cilium-overlay-hubble-policy.json",
    ],
  });
}
