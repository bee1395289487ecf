// .ts, as the unit project runs: the pictures are made with createElement rather than JSX.
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { barGeometry, lineGeometry, pictureFrame } from "./geometry";
import { StaticBarChart, StaticHistoryChart, StaticLineChart } from "./static-chart";
import type { BarDatum, ChartSeries } from "./types";

/** `count` lines rising with x, the i-th ending at 10·(i+1): line "s9" is the highest at the largest x. */
const lines = (count: number): ChartSeries[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `s${i}`,
    label: `setup ${i}`,
    points: [
      { x: 0, y: 0 },
      { x: 10_000, y: 5 * (i + 1) },
      { x: 30_000, y: 10 * (i + 1) },
    ],
  }));

const drawnSeries = (html: string) => [...html.matchAll(/data-series="([^"]+)"/g)].map((m) => m[1]);

describe("StaticLineChart", () => {
  const html = renderToStaticMarkup(
    h(StaticLineChart, {
      title: "Latency by Services",
      geometry: lineGeometry({
        series: lines(3),
        markers: [{ x: 19_650, y: 12, label: "≈19,650" }],
        frame: pictureFrame,
      }),
      xLabel: "Services",
      yLabel: "p99 latency (ms)",
    }),
  );

  it("draws a path per series, the axes' titles with their unit, ticks and the crossover's label", () => {
    expect(drawnSeries(html)).toEqual(["setup 0", "setup 1", "setup 2"]);
    expect(html).toContain(">p99 latency (ms)</span>");
    expect(html).toContain(">Services</span>");
    // Ticks as nice steps over 0–30,000 and 0–30: counted by hand.
    for (const tick of [">0<", ">10K<", ">30K<", ">30<"]) expect(html).toContain(tick);
    expect(html).toMatch(/data-mark="[^"]*"[^>]*>≈19,650</);
  });

  it("says what it shows, and how to get the interactive chart, to a screen reader", () => {
    expect(html).toMatch(
      /role="img" aria-label="Latency by Services: p99 latency \(ms\) by Services, a line each for setup 0, setup 1, setup 2\. Marked: ≈19,650\. Move the pointer/,
    );
  });

  it("draws the top 8 of more, the best at the largest x first", () => {
    const many = renderToStaticMarkup(
      h(StaticLineChart, {
        title: "t",
        geometry: lineGeometry({ series: lines(10), frame: pictureFrame, better: "higher" }),
        xLabel: "x",
        yLabel: "y",
      }),
    );
    // Higher is better: setup 9 ends highest, then 8… so setups 0 and 1 are left out.
    expect(drawnSeries(many)).toEqual([
      "setup 9",
      "setup 8",
      "setup 7",
      "setup 6",
      "setup 5",
      "setup 4",
      "setup 3",
      "setup 2",
    ]);
    expect(many).toContain("(and 2 more, not drawn)");
  });

  it("draws the runs' min–max of a point that has them, and none for single runs", () => {
    expect(html).not.toContain("data-whiskers");
    const runs: ChartSeries[] = [{ id: "r", label: "runs", points: [{ x: 100, y: 50, whisker: [40, 60] }] }];
    const geometry = lineGeometry({ series: runs, frame: pictureFrame });
    const drawn = renderToStaticMarkup(h(StaticLineChart, { title: "t", geometry, xLabel: "x", yLabel: "y" }));
    // y over 0–60 (ticks of 10) on the 1000 units of the plot: 60 at the top, 40 a third down.
    expect(drawn).toMatch(/data-whiskers="" d="M[\d.]+,0V333.3"/);
  });
});

describe("StaticBarChart", () => {
  const series = Array.from({ length: 9 }, (_, i) => ({ id: `s${i}`, label: `setup ${i}` }));
  // Two groups where setup i has the bar i + 1: with lower better, setups 0–7 are the top 8.
  const data: BarDatum[] = ["p50", "p99 · streams 8"].map((category) => ({
    category,
    values: Object.fromEntries(series.map((s, i) => [s.id, { y: i + 1 }])),
    reference: category === "p50" ? { y: 4, label: "node-to-node reference" } : null,
  }));

  it("draws the top 8 series' bars, each group's label on its lines, and the reference", () => {
    const html = renderToStaticMarkup(
      h(StaticBarChart, {
        title: "RTT",
        geometry: barGeometry({ series, data, frame: pictureFrame, better: "lower" }),
        data,
        categoryLabel: "percentile",
        yLabel: "µs",
      }),
    );
    // A bar per drawn series in each group, in the given order.
    const top8 = series.slice(0, 8).map((s) => s.label);
    expect(drawnSeries(html)).toEqual([...top8, ...top8]);
    expect(html).toContain('<span class="block">streams 8</span>');
    // The reference at 4 on an axis of 0–8 (the drawn bars reach 8; steps of 2): halfway down the plot,
    // across the first of the two groups (from 6 % to 94 % of its half).
    expect(html).toContain('border-dashed border-current" style="top:50%;left:3%;width:44%"');
    expect(html).toContain(">µs</span>");
  });
});

describe("StaticHistoryChart", () => {
  it("draws the campaigns' line with the dates under it and a rule per change", () => {
    const day = 24 * 3600 * 1000;
    const points = [0, 1, 2].map((i) => ({ x: i * day, y: 9 + i, min: 8.5 + i, max: 9.5 + i }));
    const html = renderToStaticMarkup(
      h(StaticHistoryChart, {
        title: "TCP throughput",
        yLabel: "TCP throughput (Gbit/s)",
        points,
        geometry: {
          xDomain: [-day, 3 * day],
          xTicks: [{ value: day, label: "Jan 2" }],
          yDomain: [8, 12],
          yTicks: [8, 9, 10, 11, 12].map((value) => ({ value, label: String(value) })),
          groups: [
            {
              at: 2 * day,
              x: 1.5 * day,
              annotations: [],
              shift: { x: 2 * day, changePercent: 10, verdict: "better", p: 0.01 },
              row: 0,
              before: false,
            },
            { at: 3 * day, x: 2.5 * day, annotations: ["kernel 6.1.0 → 6.8.0"], shift: null, row: 0, before: true },
          ],
          rows: 1,
          steps: [],
        },
        color: "#0072b2",
        height: 360,
      }),
    );
    expect(drawnSeries(html)).toEqual(["TCP throughput"]);
    // Day 1 of the domain −1…3 days: (1 + 1) / 4, halfway along x.
    expect(html).toContain('style="left:50%;top:100%">Jan 2</span>');
    // The rule at 1.5 days: (1.5 + 1) / 4 of the plot's 1000 units.
    expect(html).toContain('x1="625"');
    expect(html).toContain("marked: +10.0 % · better");
    // Its label above the plot, in its verdict's colour; the plot lowered by the row of labels.
    expect(html).toContain('style="color:#009e73;font-weight:600">+10.0 % · better</span>');
    expect(html).toContain("top:30px");
    // Each label on the side the chart chose (stackLabels): after its rule, or ending at it.
    expect(html).toMatch(/class="[^"]*pl-1"[^>]*left:62.5%/);
    expect(html).toMatch(/class="[^"]*-translate-x-full[^"]*"[^>]*left:87.5%/);
  });
});
