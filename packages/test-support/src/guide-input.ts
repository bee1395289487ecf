// Imported bundles as the guide receives them from the database: scenarios, and one current figure per
// series (scenario, metric, params) whose runs are the campaign's bundles. An import is one campaign
// (docs/glossary.md), so a figure's value is the median of its runs and `samples` holds the runs, as
// packages/analysis's asCampaignDistribution makes it; a series with one run keeps its value and no samples. The
// bundle ids are made up from each bundle's folder (`<setup>/<run>`), the holder being the first run.
import {
  type GuideAnswers,
  type GuideFigure,
  type GuideResult,
  type GuideScenario,
  recommendDatapaths,
} from "@cnibench/analysis";
import { type ImportedBundle, importFiles } from "@cnibench/importers";
import { type NormalisedBundle, parseBundle, scenarioKey } from "@cnibench/schema";
import { infrabuilderEnvironment, infrabuilderSetups } from "./infrabuilder-setups.ts";

export type GuideInputData = {
  scenarios: GuideScenario[];
  figures: GuideFigure[];
  /** A scenario by its label (cni.label), for tests that name setups. */
  scenarioByLabel: (label: string) => GuideScenario;
  /** A setup's figure of a metric with exactly these params; its `samples` are the runs. */
  figureOf: (label: string, metric: string, params: Record<string, string | number>) => GuideFigure;
};

const medianOf = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** `ib/results/cilium-wg/2/all.results` → `cilium-wg-2`; else the file name as it is. */
function bundleIdOf(imported: ImportedBundle): string {
  const parts = imported.file.split("/").filter((p) => p !== "" && p !== "results");
  const run = parts.findIndex((p) => /^\d+$/.test(p));
  return run > 0 ? `${parts[run - 1]}-${parts[run]}` : imported.file;
}

/** Every imported bundle parsed by the contract, grouped into scenarios, runs pooled per series. */
export function guideInputOf(imported: readonly ImportedBundle[]): GuideInputData {
  const scenarios = new Map<string, GuideScenario>();
  const runs = new Map<string, { figure: GuideFigure; values: number[] }>();
  for (const item of imported) {
    const parsed = parseBundle(item.bundle);
    if (!parsed.ok) throw new Error(`${item.file}: ${parsed.issues.map((i) => i.message).join("; ")}`);
    const b: NormalisedBundle = parsed.bundle;
    const key = scenarioKey(b);
    let scenario = scenarios.get(key);
    if (!scenario) {
      scenario = {
        id: `ib${scenarios.size + 1}`,
        label: b.cni.label ?? b.cni.name,
        provider: b.cluster.provider,
        sku: b.node.sku,
        kernel: b.node.kernel,
        nicGbps: b.node.nicGbps ?? null,
        cni: { ...b.cni },
      };
      scenarios.set(key, scenario);
    }
    for (const m of b.measurements) {
      const series = `${scenario.id} ${m.metric} ${m.paramsKey}`;
      // A bundle's runs are its rounds (samples), else its value.
      const values = m.samples.length > 0 ? m.samples : [m.value];
      const found = runs.get(series);
      if (found) found.values.push(...values);
      else runs.set(series, { figure: { ...m, scenarioId: scenario.id, bundleId: bundleIdOf(item) }, values });
    }
  }
  const figures = [...runs.values()].map(({ figure, values }) =>
    values.length < 2 ? figure : { ...figure, value: medianOf(values), samples: values },
  );
  const list = [...scenarios.values()];
  const scenarioByLabel = (label: string) => {
    const found = list.find((s) => s.label === label);
    if (!found) throw new Error(`no scenario ${label}`);
    return found;
  };
  return {
    scenarios: list,
    figures,
    scenarioByLabel,
    figureOf: (label, metric, params) => {
      const id = scenarioByLabel(label).id;
      const found = figures.filter(
        (f) =>
          f.scenarioId === id &&
          f.metric === metric &&
          Object.keys(f.params).length === Object.keys(params).length &&
          Object.entries(params).every(([k, v]) => f.params[k] === v),
      );
      if (found.length !== 1) throw new Error(`${label} ${metric} ${JSON.stringify(params)}: ${found.length} figures`);
      return found[0]!;
    },
  };
}

/** InfraBuilder's 2024 tree of 25 setups × 3 runs (infrabuilder-setups.ts), as the guide reads it. */
export function infrabuilderGuideInput(): GuideInputData {
  const { bundles, files } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const failed = files.filter((f) => f.status === "failed");
  if (failed.length > 0)
    throw new Error(`the InfraBuilder tree did not import: ${failed.map((f) => f.file).join(", ")}`);
  return guideInputOf(bundles);
}

/** The guide's answer over some scenarios and figures; unset answers: any cloud, 1,000 Services, keepalive, no needs. */
export function askGuide(
  data: { scenarios: readonly GuideScenario[]; figures: readonly GuideFigure[] },
  answers: Partial<GuideAnswers>,
): GuideResult {
  return recommendDatapaths({
    answers: { cloud: null, sku: null, services: 1000, connections: "keepalive", needs: [], ...answers },
    scenarios: data.scenarios,
    figures: data.figures,
  });
}
