// The static picture and the interactive Recharts plot of a chart are drawn from one geometry: the
// plot is given the geometry's domains, ticks, tick words, series order and colours, never left to
// choose its own. Recharts is replaced by components that record what they are given, so the test
// reads the plot's axes without a browser. .ts, as the unit project runs: createElement, not JSX.
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import BarPlot from "./bar-plot";
import { type ChartState, useChartState } from "./chart-frame";
import { barGeometry, historyGeometry, lineGeometry, pictureFrame } from "./geometry";
import HistoryPlot from "./history-plot";
import LinePlot from "./line-plot";
import { StaticBarChart, StaticHistoryChart, StaticLineChart } from "./static-chart";
import type { BarDatum, ChartSeries } from "./types";

type Axis = { domain: [number, number]; ticks: number[]; tickFormatter: (v: number) => string };
const drawn = vi.hoisted(() => ({ x: [] as unknown[], y: [] as unknown[], series: [] as unknown[] }));

vi.mock("recharts", () => {
  const children = (props: { children?: ReactNode }) => props.children ?? null;
  const record = (into: unknown[]) => (props: unknown) => {
    into.push(props);
    return null;
  };
  const nothing = () => null;
  const none = () => undefined;
  return {
    ComposedChart: children,
    BarChart: children,
    LineChart: children,
    ZIndexLayer: children,
    XAxis: record(drawn.x),
    YAxis: record(drawn.y),
    Line: record(drawn.series),
    Area: nothing,
    ErrorBar: nothing,
    DefaultZIndexes: {},
    useChartWidth: none,
    // The plot on the geometry's own 1000 × 1000 frame: the bars' pixels are its units.
    usePlotArea: () => ({ x: 0, y: 0, width: 1000, height: 1000 }),
    useXAxisScale: none,
    useYAxisScale: none,
    useXAxisTicks: none,
    useYAxisTicks: none,
    useIsTooltipActive: () => false,
    useActiveTooltipLabel: none,
    useActiveTooltipCoordinate: none,
  };
});

/** What the plot gave Recharts' last x and y axes: ends, tick values and the words under them. */
function axesGiven() {
  const [x, y] = [drawn.x.at(-1) as Axis | undefined, drawn.y.at(-1) as Axis];
  const read = (a: Axis) => ({ domain: a.domain, ticks: a.ticks.map((v) => [v, a.tickFormatter(v)]) });
  // A category axis (the bars') has no ticks of ours.
  return { x: x?.ticks && read(x), y: read(y) };
}

/** The same of a geometry's axis. */
const axisOf = (domain: [number, number], ticks: readonly { value: number; label: string }[]) => ({
  domain,
  ticks: ticks.map((t) => [t.value, t.label]),
});

/** The tick words the static picture prints, in order. */
const staticTicks = (html: string) => [...html.matchAll(/tabular-nums[^>]*>([^<]+)</g)].map((m) => m[1]);

/** Renders a plot with a chart state of its own, as the chart component gives it one: its markup. */
function renderPlot<P extends { state: ChartState }>(
  plot: (props: P) => ReactNode,
  props: Omit<P, "state">,
  ids: string[],
): string {
  drawn.x.length = drawn.y.length = drawn.series.length = 0;
  const Host = () => {
    const state = useChartState(
      ids,
      ids.map((id) => ({ id, label: id })),
    );
    return h(plot as (p: Record<string, unknown>) => ReactNode, { ...props, state });
  };
  return renderToStaticMarkup(h(Host));
}

// Two lines over Services where Recharts' own steps would differ from the picture's: 0–32,933 in 4
// ticks would read "0, 8.5K, 17K, 25.5K, 34K"; the geometry's round ones are 0, 10K, 20K, 30K, 40K.
const series: ChartSeries[] = [
  { id: "a", label: "cilium", colorIndex: 3, points: [{ x: 1_000, y: 12_000, band: [11_000, 32_933] }] },
  { id: "b", label: "calico", points: [{ x: 32_933, y: 20_500, whisker: [19_000, 21_000] }] },
];

describe("the line chart's two pictures", () => {
  for (const [what, xScale, unjoined] of [
    ["linear", "linear", false],
    ["logarithmic", "log", false],
    ["along a category", "linear", true],
  ] as const) {
    it(`give Recharts the static picture's axes and series (${what})`, () => {
      const g = lineGeometry({ series, frame: pictureFrame, xScale, unjoined, count: Number.POSITIVE_INFINITY });
      renderPlot(
        LinePlot,
        {
          series,
          geometry: g,
          joined: !unjoined,
          xLabel: "Services",
          yLabel: "ms",
          unit: "ms",
          height: 380,
          whiskers: true,
        },
        ["a", "b"],
      );
      expect(axesGiven()).toEqual({ x: axisOf(g.xDomain, g.xTicks), y: axisOf(g.yDomain, g.yTicks) });
      // Round steps from 0, never Recharts' 8.5K ones; on a log axis, its decades.
      expect(g.yTicks.map((t) => t.label)).toEqual(["0", "10K", "20K", "30K", "40K"]);
      if (xScale === "log") expect(g.xTicks.map((t) => t.value)).toEqual([1_000, 10_000, 100_000]);
      // Each line in the geometry's order with its colour and dash.
      const lines = drawn.series as { name: string; stroke: string; strokeDasharray: string }[];
      expect(lines.map((l) => [l.name, l.strokeDasharray])).toEqual(g.lines.map((l) => [l.label, l.dash]));
      if (!unjoined) expect(lines.map((l) => l.stroke)).toEqual(g.lines.map((l) => l.color));
      // The static picture prints the same y words (top of the list: its y ticks, then its x ticks).
      const html = renderToStaticMarkup(h(StaticLineChart, { title: "t", geometry: g, xLabel: "x", yLabel: "y" }));
      expect(staticTicks(html)).toEqual([...g.yTicks, ...g.xTicks].map((t) => t.label));
    });
  }
});

describe("the bar chart's two pictures", () => {
  const bars = [
    { id: "a", label: "cilium" },
    { id: "b", label: "calico", colorIndex: 5 },
  ];
  const data: BarDatum[] = [
    { category: "p50", values: { a: { y: 31 }, b: { y: 12, whisker: [10, 14] } } },
    { category: "p99", values: { a: { y: 47 } } },
  ];
  // A NIC's line rate above every bar: the axis reaches it in both pictures.
  const references = [{ y: 64, label: "NIC 64 (line rate)" }];

  it("give Recharts the static picture's value axis, series and line rates", () => {
    const g = barGeometry({ series: bars, data, references, frame: pictureFrame, count: Number.POSITIVE_INFINITY });
    const plot = renderPlot(
      BarPlot,
      {
        geometry: g,
        data,
        categoryLabel: "percentile",
        yLabel: "µs",
        unit: "µs",
        height: 340,
        whiskers: true,
        changes: false,
        scroller: { current: null },
      },
      ["a", "b"],
    );
    expect(axesGiven().y).toEqual(axisOf(g.yDomain, g.yTicks));
    // 0–64 (by hand: 64 / 5 = 12.8, rounded up to a step of 20): 80 at the top, so the NIC's line,
    // above every bar, is on the plot.
    expect(g.yTicks.map((t) => t.value)).toEqual([0, 20, 40, 60, 80]);
    // The bars are the plot's own SVG, each series in the geometry's order and colour.
    const series = [...plot.matchAll(/<g data-series="([^"]+)" fill="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(series).toEqual(g.series.map((s) => [s.label, s.color]));
    // cilium's 31 µs at p50 on 0–80 over 1000 px: its top 31 / 80 of the way up, 612.5 px down, and
    // 387.5 px tall; calico's whisker 10–14 µs: 875 to 825 px down.
    expect(plot).toMatch(/data-bar="0 0"[^>]*y="612.5"[^>]*height="387.5"/);
    expect(plot).toMatch(/data-whiskers="" d="M[\d.]+,825V875M/);
    const html = renderToStaticMarkup(
      h(StaticBarChart, { title: "t", geometry: g, data, categoryLabel: "percentile", yLabel: "µs" }),
    );
    expect(staticTicks(html)).toEqual(g.yTicks.map((t) => t.label));
    // The line rate at 64 of 0–80: a fifth down the plot.
    expect(html).toMatch(/style="top:20%"><span data-rule-label=""[^>]*>NIC 64</);
  });

  it("draw a change the runs do not show hollow in both pictures, and only on a chart of changes", () => {
    // A setting's cost: Hubble's 1 % on 8-stream TCP, inconclusive at 3 vs 3 runs; encryption's 71 %, worse.
    const versus = (verdict: "inconclusive" | "worse", percent: number) => ({
      baseline: "cilium",
      verdict,
      indicative: false,
      percent,
      words: "3 vs 3 runs",
    });
    const costs: BarDatum[] = [
      {
        category: "streams 8",
        values: { a: { y: 1, versus: versus("inconclusive", 1) }, b: { y: 71, versus: versus("worse", 71) } },
      },
    ];
    const g = barGeometry({ series: bars, data: costs, frame: pictureFrame, count: Number.POSITIVE_INFINITY });
    const drawn = (changes: boolean) => {
      const plot = renderPlot(
        BarPlot,
        {
          geometry: g,
          data: costs,
          categoryLabel: "params",
          yLabel: "%",
          unit: "%",
          height: 340,
          whiskers: false,
          changes,
          scroller: { current: null },
        },
        ["a", "b"],
      );
      const html = renderToStaticMarkup(
        h(StaticBarChart, { title: "t", geometry: g, data: costs, changes, categoryLabel: "params", yLabel: "%" }),
      );
      const hollowInSvg = g.series.map((_, i) => new RegExp(`data-bar="0 ${i}"[^>]*fill-opacity="0.12"`).test(plot));
      const hollowInHtml = g.series.map((s) => html.includes(`color-mix(in srgb, ${s.color} 12%, transparent)`));
      return { hollowInSvg, hollowInHtml };
    };
    const order = g.series.map((s) => s.id);
    const expected = order.map((id) => id === "a");
    expect(drawn(true)).toEqual({ hollowInSvg: expected, hollowInHtml: expected });
    expect(drawn(false)).toEqual({ hollowInSvg: [false, false], hollowInHtml: [false, false] });
  });
});

describe("the history chart's two pictures", () => {
  it("give Recharts the static picture's axes", () => {
    const day = 24 * 3600 * 1000;
    const points = [0, 1, 2].map((i) => ({
      campaign: `c${i}`,
      x: Date.UTC(2026, 10, 1) + i * day,
      y: 9 + i,
      min: 8.6 + i,
      max: 9.3 + i,
      n: 3,
    }));
    const g = historyGeometry({ points, annotations: [], shifts: [], width: 800 });
    renderPlot(
      HistoryPlot,
      { points, geometry: g, color: "#0072b2", height: 360, top: 16, label: "l", yLabel: "y", unit: "Gbit/s" },
      ["history"],
    );
    expect(axesGiven()).toEqual({ x: axisOf(g.xDomain, g.xTicks), y: axisOf(g.yDomain, g.yTicks) });
    // Round steps over 8.6–11.3 (by hand: 2.7 / 5 = 0.54, rounded up to a step of 1), where Recharts'
    // "auto" domain would pick its own.
    expect(g.yTicks.map((t) => t.value)).toEqual([8, 9, 10, 11, 12]);
    const html = renderToStaticMarkup(
      h(StaticHistoryChart, { title: "t", yLabel: "y", geometry: g, points, color: "#0072b2", height: 360 }),
    );
    expect(staticTicks(html)).toEqual(g.yTicks.map((t) => t.label));
  });
});
