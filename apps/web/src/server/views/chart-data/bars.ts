// Bars read scenarios side by side per params; a node-to-node reference and the NIC line rate are what
// they are read against, so those are drawn as lines, never as bars.
import {
  featureOverheads,
  isPrimaryMetric,
  type SettingFamily,
  settingCosts,
  settingFamilyWords,
  settingPairs,
  summaryOf,
  whiskerOf,
} from "@cnibench/analysis";
import type { LatestFigure, ScenarioSummary } from "@cnibench/db";
import type { PlottedFigure } from "@cnibench/db/read-models";
import { formatChange, natural } from "@cnibench/format";
import { cpuAccountingOf, findMetric, isReferenceCni, metricCatalogue } from "@cnibench/schema";
import { type BarView, barViews } from "../chart-views";
import { paramsLabel, seriesLabels, withoutKeys } from "./labels";
import type { Params, SeriesInfo } from "./types";
import { type Against, type Versus, versusOf } from "./versus";

/** A bar: a plotted figure (its shape is declared with the read models, @cnibench/db/read-models). */
type BarValue = PlottedFigure & { versus?: Versus };

const barValue = (f: LatestFigure, versus?: Versus): BarValue => {
  const summary = summaryOf(f);
  return {
    ...(versus ? { versus } : {}),
    y: f.value,
    qualifier: f.qualifier,
    low: f.low,
    high: f.high,
    params: f.params,
    bundleId: f.bundleId,
    sourceTitle: f.sourceTitle,
    sourceUrl: f.sourceUrl,
    summary,
    whisker: whiskerOf(summary),
  };
};

/**
 * The reference scenario's figure for a group: no datapath, so a line to read bars against, never a
 * bar; with its scenario and params, which the chart's CSV gives on the reference's row.
 */
type GroupReference = { y: number; label: string; scenarioId: string; scenario: string; params: Params };

export type BarsData = {
  metric: string;
  /** Tells two charts of one metric apart (the overheads of two settings on TCP throughput). */
  key?: string;
  /** What the chart's bars are, when the title cannot say it all. */
  note?: string;
  title: string;
  unit: string;
  series: SeriesInfo[];
  data: {
    category: string;
    values: Record<string, BarValue | undefined>;
    reference?: GroupReference | null;
  }[];
};

/**
 * One bar chart of a metric: a group per distinct params (less the keys already fixed by the view,
 * e.g. the chosen percentile), a bar per scenario. Empty when no scenario measured it.
 */
function barsOf(
  metric: string,
  scenarios: readonly ScenarioSummary[],
  figures: readonly LatestFigure[],
  options: {
    fixed?: Params;
    hideKeys?: readonly string[];
    /** A group's name from its params (less the hidden keys); paramsLabel's "key value · …" by default. */
    label?: (params: Params) => string;
    /** Each bar against the baseline (versusOf); none without. */
    versus?: (f: LatestFigure) => Versus | undefined;
  } = {},
): BarsData | null {
  const def = findMetric(metric);
  const fixed = options.fixed ?? {};
  const hide = [...Object.keys(fixed), ...(options.hideKeys ?? [])];
  // A figure without a fixed key is kept: e.g. pod RTT published as a mean has no percentile.
  const selected = figures.filter(
    (f) =>
      f.metric === metric && Object.entries(fixed).every(([k, v]) => f.params[k] === undefined || f.params[k] === v),
  );
  if (selected.length === 0) return null;
  // A node-to-node reference (no CNI) is what the datapaths' bars are read against, never one of them;
  // drawn alone, it is bars like any scenario.
  const references = new Set(scenarios.filter((s) => isReferenceCni(s.cni.name)).map((s) => s.id));
  const datapaths = selected.filter((f) => !references.has(f.scenarioId));
  const bars = datapaths.length > 0 ? datapaths : selected;
  const labels = seriesLabels(scenarios);
  const present = new Set(bars.map((f) => f.scenarioId));
  const series = scenarios
    .filter((s) => present.has(s.id))
    .map((s) => ({ id: s.id, label: labels.get(s.id) ?? s.label }));
  const versus = options.versus ?? (() => undefined);
  const categories = new Map<string, BarsData["data"][number]>();
  const labelOf = options.label ?? ((p: Params) => paramsLabel(p, hide));
  for (const f of bars) {
    const category = labelOf(withoutKeys(f.params, hide));
    const entry = categories.get(category) ?? { category, values: {} };
    entry.values[f.scenarioId] = barValue(f, versus(f));
    categories.set(category, entry);
  }
  if (bars === datapaths) {
    // The reference's path is node to node: it matches a group by every other param.
    const unpathed = (f: LatestFigure) => paramsLabel(f.params, [...hide, "path"]);
    const referenceOf = new Map<string, LatestFigure>();
    for (const f of selected)
      if (references.has(f.scenarioId) && !referenceOf.has(unpathed(f))) referenceOf.set(unpathed(f), f);
    for (const f of bars) {
      const r = referenceOf.get(unpathed(f));
      const entry = categories.get(labelOf(withoutKeys(f.params, hide)))!;
      if (r && !entry.reference) {
        const name = labels.get(r.scenarioId) ?? scenarios.find((x) => x.id === r.scenarioId)?.label ?? "no CNI";
        entry.reference = {
          y: r.value,
          label: `node-to-node reference (${name})`,
          scenarioId: r.scenarioId,
          scenario: name,
          params: r.params,
        };
      }
    }
  }
  const data = [...categories.values()].sort((a, b) => natural(a.category, b.category));
  return { metric, title: def?.label ?? metric, unit: selected[0]?.unit ?? def?.unit ?? "", series, data };
}

/**
 * The NIC line rates of the scenarios' instance types, to draw over throughput: one line per speed,
 * named by at most three of its instance types ("NIC 25 Gbit/s (a, b, c and 4 more)").
 */
export function nicCeilings(scenarios: readonly ScenarioSummary[]): { y: number; label: string }[] {
  const bySpeed = new Map<number, Set<string>>();
  for (const s of scenarios) {
    if (s.nicGbps === null) continue;
    bySpeed.set(s.nicGbps, (bySpeed.get(s.nicGbps) ?? new Set()).add(s.sku));
  }
  return [...bySpeed.entries()]
    .sort(([a], [b]) => a - b)
    .map(([y, set]) => {
      const skus = [...set].sort(natural);
      const named = skus.length > 3 ? `${skus.slice(0, 3).join(", ")} and ${skus.length - 3} more` : skus.join(", ");
      return { y, label: `NIC ${y} Gbit/s (${named})` };
    });
}

const featureWords: Record<string, Record<string, string>> = {
  policy: { l3l4: "L3/L4 policy", l7: "L7 policy" },
  hubble: { on: "Hubble on" },
};

/**
 * Overheads of policies and Hubble per scenario, computed from the raw RPS pairs (policy none vs
 * l3l4/l7, Hubble off vs on with all other params equal): a bar per scenario, a group per feature.
 */
export function overheadsOf(scenarios: readonly ScenarioSummary[], figures: readonly LatestFigure[]): BarsData | null {
  const labels = seriesLabels(scenarios);
  const categories = new Map<string, BarsData["data"][number]>();
  const present = new Set<string>();
  for (const s of scenarios) {
    const own = figures.filter((f) => f.scenarioId === s.id && f.metric === "http.rps");
    for (const [param, base] of [
      ["policy", "none"],
      ["hubble", "off"],
    ] as const) {
      for (const o of featureOverheads(own, { param, base })) {
        if (o.overheadPercent === null) continue;
        const variant = String(o.variant);
        const rest = paramsLabel(o.params as Params, ["policy", "hubble", "services", "target"]);
        const category = `${featureWords[param]?.[variant] ?? `${param} ${variant}`} · ${rest}`;
        const entry = categories.get(category) ?? { category, values: {} };
        // The figure with the feature on carries the link; its base is in the same bundle or beside it.
        entry.values[s.id] = {
          ...barValue(o.with as LatestFigure),
          y: o.overheadPercent,
          qualifier: o.approximate ? "approx" : null,
          low: null,
          high: null,
          // A difference of two medians: neither side's runs are its spread.
          summary: null,
          whisker: null,
        };
        categories.set(category, entry);
        present.add(s.id);
      }
    }
  }
  if (categories.size === 0) return null;
  return {
    metric: "http.rps",
    key: "feature:http.rps",
    title: "Feature overhead on HTTP requests per second",
    unit: barViews.overheads.unit,
    series: scenarios.filter((s) => present.has(s.id)).map((s) => ({ id: s.id, label: labels.get(s.id) ?? s.label })),
    data: [...categories.values()].sort((a, b) => natural(a.category, b.category)),
  };
}

/**
 * What one setting costs, from pairs of setups one setting apart on one testbed (settingPairs:
 * Hubble, encryption, kube-proxy replacement, encapsulation): a chart per setting and primary metric,
 * a group per params, a bar per pair ("cilium-wg vs cilium") whose height is the cost in % of the
 * setup without it (positive: the setting costs), its tooltip the pair's verdict.
 */
function settingCostsOf(scenarios: readonly ScenarioSummary[], figures: readonly LatestFigure[]): BarsData[] {
  const labels = seriesLabels(scenarios);
  const label = (s: ScenarioSummary) => labels.get(s.id) ?? s.label;
  const of = new Map<string, LatestFigure[]>();
  for (const f of figures) of.set(f.scenarioId, [...(of.get(f.scenarioId) ?? []), f]);
  const charts = new Map<string, BarsData & { family: SettingFamily }>();
  for (const pair of settingPairs(scenarios)) {
    const id = `${pair.with.id}\u0000${pair.base.id}`;
    const pairLabel = `${label(pair.with)} vs ${label(pair.base)}`;
    for (const cost of settingCosts(of.get(pair.base.id) ?? [], of.get(pair.with.id) ?? [])) {
      // A cost in % of a percentage (UDP loss 0.3 % → 0.9 % is "+200 %") misleads: rates and times only.
      if (!isPrimaryMetric(cost.metric) || cost.base.unit === "%") continue;
      const key = `${pair.family}:${cost.metric}`;
      let chart = charts.get(key);
      if (!chart) {
        const def = findMetric(cost.metric);
        chart = {
          family: pair.family,
          key,
          metric: cost.metric,
          title: `Cost of ${settingFamilyWords[pair.family]} on ${def?.label ?? cost.metric}`,
          note:
            "Each bar: a setup against the same CNI without the setting, on the same testbed; the change the verdict " +
            "judged, in % of the setup without it (positive: the setting costs).",
          unit: "%",
          series: [],
          data: [],
        };
        charts.set(key, chart);
      }
      if (!chart.series.some((x) => x.id === id)) chart.series.push({ id, label: pairLabel });
      const category = paramsLabel(cost.params as Params, []);
      let entry = chart.data.find((d) => d.category === category);
      if (!entry) {
        entry = { category, values: {} };
        chart.data.push(entry);
      }
      const withFigure = cost.with as LatestFigure;
      entry.values[id] = {
        ...barValue(withFigure),
        versus: {
          baseline: label(pair.base),
          verdict: cost.verdict,
          indicative: cost.indicative,
          percent: cost.costPercent,
          words: `${pair.words}; costs ${formatChange(cost.costPercent)}`,
        },
        y: cost.costPercent,
        qualifier: cost.base.qualifier || cost.with.qualifier ? "approx" : null,
        low: null,
        high: null,
        // A change between two setups' runs: neither side's runs are its spread.
        summary: null,
        whisker: null,
      };
    }
  }
  const order = Object.keys(settingFamilyWords);
  const metricOrder = (m: string) => metricCatalogue.findIndex((d) => d.key === m);
  return [...charts.values()]
    .sort((a, b) => order.indexOf(a.family) - order.indexOf(b.family) || metricOrder(a.metric) - metricOrder(b.metric))
    .map(({ family: _family, ...c }) => ({
      ...c,
      data: c.data.sort((a, b) => natural(a.category, b.category)),
    }));
}

/**
 * Every chart of a bar view for these scenarios; empty charts are left out. With a baseline, each
 * bar carries its verdict against the baseline's bar of the same group (overheads, differences of
 * two figures, carry none).
 */
export function barView(
  view: BarView,
  scenarios: readonly ScenarioSummary[],
  allFigures: readonly LatestFigure[],
  options: { percentile: string } & Against,
): (BarsData & { references: { y: number; label: string }[] })[] {
  const figures = view === "resources" ? wholeCpuOnly(allFigures) : allFigures;
  if (view === "overheads") {
    const o = overheadsOf(scenarios, figures);
    return [...(o ? [o] : []), ...settingCostsOf(scenarios, figures)].map((c) => ({ ...c, references: [] }));
  }
  const fixed: Params = view === "latency" ? { percentile: options.percentile } : {};
  const labels = seriesLabels(scenarios);
  const versus = versusOf(scenarios, figures, options, (id) => labels.get(id) ?? id);
  const resources = view === "resources";
  // Resources: node CPU counted one way for every setup drawn (wholeCpuOnly).
  const perGbit = resources ? cpuPerGbitOf(scenarios, figures) : null;
  return [
    ...(perGbit ? [{ ...perGbit, references: [] }] : []),
    ...barViews[view].metrics.flatMap((metric) => {
      // Resources: keys every figure shares (component "node") say nothing; groups get short names.
      const bars = barsOf(metric, scenarios, figures, {
        fixed,
        versus,
        ...(resources
          ? { hideKeys: sharedKeys(figures.filter((f) => f.metric === metric)), label: shortTestLabel }
          : {}),
      });
      if (!bars) return [];
      const shown = scenarios.filter((s) => bars.series.some((b) => b.id === s.id));
      return [{ ...bars, references: bars.unit === "Gbit/s" ? nicCeilings(shown) : [] }];
    }),
  ];
}

/**
 * Node CPU counted one way in a chart: every mode (statexec's samples, `accounting: "all-modes"`) where
 * any setup has it, else what there is; one mode's share (`accounting: "mode"`) never. A setup whose
 * CPU counts user + system only beside setups counted on every mode would look cheapest for leaving out
 * softirq (issue 39); the `accounting` key itself is dropped, as every figure then shares it.
 */
function wholeCpuOnly(figures: readonly LatestFigure[]): LatestFigure[] {
  const accounting = (f: LatestFigure) => (f.metric === "cpu.usage" ? cpuAccountingOf(f.params) : "unstated");
  const whole = figures.some((f) => accounting(f) === "all-modes");
  return figures.flatMap((f) => {
    const counts = accounting(f);
    if (counts === "unstated") return [f];
    if (counts === "mode" || (whole && counts !== "all-modes")) return [];
    const { accounting: _accounting, ...params } = f.params;
    return [{ ...f, params }];
  });
}

/** The params keys every figure has with one value: a group name need not say them. */
function sharedKeys(figures: readonly LatestFigure[]): string[] {
  const [first, ...rest] = figures;
  if (!first) return [];
  return Object.keys(first.params).filter((k) => rest.every((f) => f.params[k] === first.params[k]));
}

/**
 * A test as a resource chart's group says it, in short lines of a few characters: "tcp ×8 · pod-pod ·
 * client", "idle · server" (paramsLabel's "path pod-pod · protocol tcp · role client · streams 8" took
 * six long lines that printed over their neighbours at 18 groups, issue 40). Other keys follow as
 * paramsLabel says them.
 */
function shortTestLabel(params: Params): string {
  const { protocol, path, streams, test, role, ...rest } = params;
  const what = [test, protocol, streams !== undefined ? `×${streams}` : undefined]
    .filter((v) => v !== undefined)
    .join(" ");
  const others = Object.keys(rest).length > 0 ? paramsLabel(rest, []) : "";
  return (
    [what, path !== undefined ? String(path) : "", role !== undefined ? String(role) : "", others]
      .filter(Boolean)
      .join(" · ") || "—"
  );
}

/**
 * CPU per Gbit/s moved (issue 40): a node's CPU during a throughput test over that test's throughput,
 * per scenario, so a setup that moved an eighth of the traffic no longer reads as the "best CPU". A
 * cpu.usage figure with a `protocol` is matched with the same scenario's `<protocol>.throughput` of the
 * same path and streams; its unit names the CPU accounting ("millicores per Gbit/s").
 */
function cpuPerGbitOf(scenarios: readonly ScenarioSummary[], figures: readonly LatestFigure[]): BarsData | null {
  const labels = seriesLabels(scenarios);
  const references = new Set(scenarios.filter((s) => isReferenceCni(s.cni.name)).map((s) => s.id));
  const throughput = new Map<string, LatestFigure>();
  const key = (scenarioId: string, protocol: unknown, path: unknown, streams: unknown) =>
    `${scenarioId}\u0000${String(protocol)}\u0000${String(path)}\u0000${String(streams)}`;
  for (const f of figures) {
    if (f.metric !== "tcp.throughput" && f.metric !== "udp.throughput") continue;
    throughput.set(key(f.scenarioId, f.metric.split(".")[0], f.params.path, f.params.streams), f);
  }
  const cpu = figures.filter((f) => f.metric === "cpu.usage" && typeof f.params.protocol === "string");
  const hide = sharedKeys(cpu);
  const categories = new Map<string, BarsData["data"][number]>();
  const present = new Set<string>();
  let unit = "";
  for (const f of cpu) {
    if (references.has(f.scenarioId)) continue;
    const moved = throughput.get(key(f.scenarioId, f.params.protocol, f.params.path, f.params.streams));
    if (!moved || moved.value <= 0) continue;
    unit = `${f.unit} per ${moved.unit}`;
    const category = shortTestLabel(withoutKeys(f.params, hide));
    const entry = categories.get(category) ?? { category, values: {} };
    entry.values[f.scenarioId] = {
      ...barValue(f),
      y: f.value / moved.value,
      low: null,
      high: null,
      // A ratio of two medians: neither side's runs are its spread.
      summary: null,
      whisker: null,
    };
    categories.set(category, entry);
    present.add(f.scenarioId);
  }
  if (categories.size === 0) return null;
  const component = cpu[0]?.params.component;
  return {
    metric: "cpu.usage",
    key: "cpu.usage:per-gbit",
    title: "CPU per Gbit/s moved",
    note:
      `${component ? `The ${String(component)}'s` : "The"} CPU during each throughput test, in ${cpu[0]?.unit ?? ""} ` +
      `as the source accounts it${component === "node" ? " (the whole node, per role: every CPU mode where statexec's samples were imported, softirq included, and then only setups so counted; else the collector's user + system time)" : ""}, ` +
      "over the throughput that test " +
      "moved; lower is better. " +
      "Raw CPU follows: a setup that moved less traffic uses less CPU without being cheaper.",
    unit,
    series: scenarios.filter((s) => present.has(s.id)).map((s) => ({ id: s.id, label: labels.get(s.id) ?? s.label })),
    data: [...categories.values()].sort((a, b) => natural(a.category, b.category)),
  };
}
