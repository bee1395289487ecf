// The chart view's state in the URL: scope (the explorer's filters or exact scenarios), view, each
// view's choices, and the baseline the tooltips compare with. Defaults open TKE's headline chart:
// short-connection RPS against Services.
import { facetKeys } from "@cnibench/analysis";
import {
  createLoader,
  createSerializer,
  type inferParserType,
  parseAsNativeArrayOf,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";
import { chartViews } from "~/server/views/chart-views";
import { filterParams } from "../_explore/params";

const chartParams = {
  ...filterParams,
  scenario: parseAsNativeArrayOf(parseAsString),
  view: parseAsStringLiteral(chartViews).withDefault("crossover"),
  metric: parseAsString.withDefault("http.rps"),
  x: parseAsString.withDefault("services"),
  /** Params every plotted figure must have, as key=value. */
  where: parseAsNativeArrayOf(parseAsString).withDefault(["connection=short"]),
  y: parseAsStringLiteral(["absolute", "degradation"] as const).withDefault("absolute"),
  scale: parseAsStringLiteral(["linear", "log"] as const).withDefault("linear"),
  percentile: parseAsStringLiteral(["p50", "p90", "p99"] as const).withDefault("p99"),
  /** The scenario every other point's tooltip is judged against (its id); none by default. */
  baseline: parseAsString,
  /** The testbed drawn ("provider/sku/nic"), or "all"; by default the one with the most scenarios. */
  testbed: parseAsString,
  /** "1": every chart draws all its series, not only the top ones (ShowAllScope). */
  all: parseAsStringLiteral(["1"] as const),
};

export const loadChartParams = createLoader(chartParams);
export type ChartParams = inferParserType<typeof chartParams>;
export const chartsHref = createSerializer(chartParams);

/** "concurrency=64" → ["concurrency", 64]; numbers and booleans are typed as stored. */
export function parseWhere(entries: readonly string[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const entry of entries) {
    const at = entry.indexOf("=");
    if (at <= 0) continue;
    const key = entry.slice(0, at);
    const raw = entry.slice(at + 1);
    out[key] = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
  }
  return out;
}

/** { concurrency: 64 } → ["concurrency=64"]: conditions as the address writes them (parseWhere reads them). */
export const whereEntries = (params: Readonly<Record<string, string | number | boolean | null>>): string[] =>
  Object.entries(params).map(([k, v]) => `${k}=${String(v)}`);

/** What every view of the address reads: the explorer's filters (or exact scenarios) and the baseline. */
export function chartScope(params: ChartParams) {
  const filters = Object.fromEntries(facetKeys.flatMap((k) => (params[k]?.length ? [[k, params[k]]] : [])));
  return {
    filters,
    scenarioIds: params.scenario ?? undefined,
    baseline: params.baseline ?? undefined,
    testbed: params.testbed ?? undefined,
  };
}

/** charts.crossover's input for the address: the page, its embed and its link card ask the same. */
export function crossoverInput(params: ChartParams) {
  return { ...chartScope(params), metric: params.metric, x: params.x, where: parseWhere(params.where), y: params.y };
}
