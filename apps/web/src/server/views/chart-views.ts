// The charts page's views, declared once: the page's tabs and titles, the view names its address and
// the charts API accept, the metrics each bar view draws, and the words of every chart's axes.

import { isScaleParam, scaleParams } from "@cnibench/schema";

/** What a crossover's x axis counts, in the plural: "Services"; a param not a scale is its own word. */
export const crossoverAxisWords = (param: string): string => (isScaleParam(param) ? scaleParams[param] : param);

type BarViewWords = {
  title: string;
  /** The metrics drawn, one chart each. */
  metrics: readonly string[];
  /** The category axis: what one group of bars is. */
  groups: string;
  /** The value axis' unit when the view computes its own (overheads in %); else each metric's. */
  unit?: string;
  /** Metrics read for a derived chart but not drawn as bars of their own. */
  reads?: readonly string[];
  /** Each bar is a change against its pair, with its verdict: those the runs do not show are hollow. */
  changes?: boolean;
};

/** The bar-chart views, with the metrics each draws and its axes' words. */
export const barViews = {
  latency: {
    title: "Latency / RTT",
    metrics: ["tcp.rr.latency", "tcp.crr.latency", "http.latency", "pod.rtt", "dns.latency"],
    groups: "params",
  },
  throughput: {
    title: "Throughput",
    metrics: ["tcp.throughput", "udp.throughput", "udp.loss", "tcp.rr.rate"],
    groups: "params",
  },
  resources: {
    title: "Resources",
    metrics: ["cpu.usage", "memory.usage", "bpf.map.memory", "bpf.map.count"],
    // Read, not drawn as bars: what each test moved, for CPU per Gbit/s (chart-data/bars.ts).
    reads: ["tcp.throughput", "udp.throughput"],
    groups: "test",
  },
  // The feature pairs within a scenario are of http.rps; the pairs of setups one setting apart
  // (chart-data/bars.ts, settingCostsOf) read the primary figures both measured.
  overheads: {
    title: "Overheads",
    metrics: [
      "http.rps",
      "tcp.throughput",
      "udp.throughput",
      "udp.loss",
      "tcp.rr.rate",
      "tcp.rr.latency",
      "tcp.crr.latency",
      "http.latency",
      "pod.rtt",
      "dns.latency",
    ],
    groups: "feature or params",
    unit: "%",
    changes: true,
  },
} as const satisfies Record<string, BarViewWords>;

export type BarView = keyof typeof barViews;

/** Whether a view's bars are changes (BarViewWords.changes). */
export function drawsChanges(view: BarView): boolean {
  const words: BarViewWords = barViews[view];
  return words.changes === true;
}

/** A bar chart's export file name: its view and its key, which tells two charts of one metric apart. */
export const barChartFilename = (view: BarView, chart: { key?: string; metric: string }): string =>
  `cnibench-${view}-${(chart.key ?? chart.metric).replace(/[^\w.-]+/g, "-")}`;

/** The crossover view: lines of a metric along a numeric param, absolute or as each line's change. */
export const crossoverView = {
  title: "Crossover",
  /** The value axis of the degradation choice: each line's change against its own first step. */
  degradation: { words: "change vs first step", unit: "%" },
} as const;

/** The crossover chart's value axis: the metric and its unit, or each line's change for "degradation". */
export function crossoverValueLabel(y: "absolute" | "degradation", data: { title: string; unit: string }): string {
  const { degradation } = crossoverView;
  return y === "degradation" ? `${degradation.words} (${degradation.unit})` : `${data.title} (${data.unit})`;
}

/**
 * The history view: one series (metric and params) of each chosen scenario over its campaigns, a chart
 * per testbed (scenarios.history, as the scenario page's History section draws it).
 */
export const historyView = {
  title: "History",
  /** The chosen scenarios drawn at most; the page says how many more were chosen. */
  maxScenarios: 6,
} as const;

export const barViewNames = Object.keys(barViews) as [BarView, ...BarView[]];
/** Every view, in the order of the page's tabs. */
export const chartViews = ["crossover", ...barViewNames, "history"] as const;
export type ChartView = (typeof chartViews)[number];

/** A view's tab and title: "Latency / RTT". */
export const viewTitle = (view: ChartView): string =>
  view === "crossover" ? crossoverView.title : view === "history" ? historyView.title : barViews[view].title;
