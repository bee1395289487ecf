import { describe, expect, it } from "vitest";
import { barGeometry, lineGeometry, logTicks, niceTicks, ruleSides } from "./geometry";
import { palette } from "./palette";

// Every expected pixel below is worked out by hand from the frame: a plot 500 (lines) or 400 (bars)
// px wide from x = 64 and 200 px tall from y = 16, so a value v of a 0–D axis sits at 216 − 200·v/D.

describe("niceTicks", () => {
  it("steps by 1, 2 or 5 × 10ⁿ, covering the range", () => {
    expect(niceTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0, 30_000)).toEqual([0, 10_000, 20_000, 30_000]);
    expect(niceTicks(-12, 37)).toEqual([-20, -10, 0, 10, 20, 30, 40]);
    expect(niceTicks(0.1, 0.37)).toEqual([0.1, 0.2, 0.3, 0.4]);
  });
  it("puts a lone value between two ticks", () => {
    expect(niceTicks(5, 5)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });
});

describe("logTicks", () => {
  it("gives the decades, with 2 and 5 between them over fewer than three", () => {
    expect(logTicks(100, 30_000)).toEqual([100, 1_000, 10_000, 100_000]);
    expect(logTicks(3, 40)).toEqual([1, 10, 100]);
    expect(logTicks(15, 80)).toEqual([10, 20, 50, 100]);
  });
});

const lines = [
  {
    id: "a",
    label: "Cilium Overlay",
    points: [
      { x: 0, y: 100 },
      { x: 10_000, y: 80 },
      { x: 30_000, y: 40 },
    ],
  },
  {
    id: "b",
    label: "kube-proxy iptables",
    // Given out of order: drawn left to right.
    points: [
      { x: 30_000, y: 70 },
      { x: 0, y: 90 },
      { x: 10_000, y: 85 },
    ],
  },
];
const lineFrame = { width: 564, height: 256, margin: { top: 16, right: 0, bottom: 40, left: 64 } };

describe("lineGeometry", () => {
  it("ranks lines by their value at the largest x and maps them into the plot", () => {
    const g = lineGeometry({
      series: lines,
      markers: [{ x: 20_000, y: 60, label: "≈20,000" }],
      frame: lineFrame,
      better: "higher",
    });
    expect(g.plot).toEqual({ left: 64, top: 16, width: 500, height: 200 });
    expect(g.xTicks.map((t) => [t.label, t.at])).toEqual([
      ["0", 64],
      ["10K", 230.7],
      ["20K", 397.3],
      ["30K", 564],
    ]);
    expect(g.yTicks.map((t) => t.at)).toEqual([216, 176, 136, 96, 56, 16]);
    // b ends higher (70 against 40): first, in the palette's first colour.
    expect(g.lines.map((l) => [l.id, l.color, l.dash])).toEqual([
      ["b", palette[0], ""],
      ["a", palette[1], ""],
    ]);
    expect(g.lines[0]?.path).toBe("M64,36L230.7,46L564,76");
    expect(g.markers).toEqual([{ x: 397.3, y: 96, label: "≈20,000", value: { x: 20_000, y: 60, label: "≈20,000" } }]);
    expect(g.hidden).toBe(0);
  });

  it("draws the top `count` only, and a log axis from the smallest positive x", () => {
    const g = lineGeometry({ series: lines, frame: lineFrame, better: "lower", xScale: "log", count: 1 });
    // Lower is better: a ends at 40, below b's 70.
    expect(g.lines.map((l) => l.id)).toEqual(["a"]);
    expect(g.hidden).toBe(1);
    // x = 0 cannot sit on a log axis: two points from 10,000 to 30,000 on decades 10,000–100,000.
    expect(g.xTicks.map((t) => t.value)).toEqual([10_000, 20_000, 50_000, 100_000]);
    // log10(3) / 1 decade of 500 px = 238.6 px from the left; y on a with ticks 0–80: 80 at the top, 40 halfway.
    expect(g.lines[0]?.points).toEqual([
      { x: 64, y: 16 },
      { x: 302.6, y: 116 },
    ]);
  });

  it("places each point's runs' min–max as a whisker, and widens the axis to hold it", () => {
    const runs = [{ id: "r", label: "Cilium native", points: [{ x: 10_000, y: 80, whisker: [70, 130] as const }] }];
    const g = lineGeometry({ series: runs, frame: lineFrame });
    // The whisker's 130 takes the axis to 0–150 (ticks of 50): 130 sits at 216 − 200·130/150 = 42.7,
    // 70 at 216 − 200·70/150 = 122.7.
    expect(g.yTicks.at(-1)?.value).toBe(150);
    expect(g.lines[0]?.points[0]?.whisker).toEqual([42.7, 122.7]);
  });

  it("outlines each line's noise band, upper edge out and lower edge back, inside the axis", () => {
    // ±5 % around 100 and 80: 95–105 and 76–84. The band's 105 takes the axis to 0–150 (ticks of 50).
    const banded = [
      {
        id: "m",
        label: "single runs",
        points: [
          { x: 0, y: 100, band: [95, 105] as const },
          { x: 30_000, y: 80, band: [76, 84] as const },
        ],
      },
    ];
    const g = lineGeometry({ series: banded, frame: lineFrame });
    expect(g.yTicks.at(-1)?.value).toBe(150);
    // y = 216 − 200·v/150: 105 → 76, 84 → 104, 76 → 114.7, 95 → 89.3.
    expect(g.lines[0]?.band).toBe("M64,76L564,104L564,114.7L64,89.3Z");
    // A line with a point without a band (a bound) has none.
    const bounded = [{ ...banded[0]!, points: [banded[0]!.points[0]!, { x: 30_000, y: 80 }] }];
    expect(lineGeometry({ series: bounded, frame: lineFrame }).lines[0]?.band).toBe("");
  });

  it("puts unjoined points (a category) at their own values, off the axes", () => {
    const streams = [
      {
        id: "s",
        label: "cilium",
        points: [
          { x: 8, y: 38 },
          { x: 1, y: 25 },
        ],
      },
    ];
    const g = lineGeometry({ series: streams, frame: lineFrame, xScale: "log", unjoined: true });
    // Ticks at 1 and 8 only; 25 px (a twentieth of 500) in from each side: 89 and 539.
    expect(g.xTicks.map((t) => [t.label, t.at])).toEqual([
      ["1", 89],
      ["8", 539],
    ]);
  });
});

describe("barGeometry", () => {
  const data = [
    { category: "1 stream", values: { s1: { y: 10 }, s2: { y: 20 }, s3: { y: 5 } } },
    { category: "8 streams", values: { s1: { y: 30 }, s2: { y: 25 } }, reference: { y: 15, label: "node to node" } },
  ];
  const series = [
    { id: "s1", label: "Cilium" },
    { id: "s2", label: "Calico" },
    { id: "s3", label: "Flannel" },
  ];
  const frame = { width: 464, height: 256, margin: { top: 16, right: 0, bottom: 40, left: 64 } };

  it("keeps the top series by mean rank and places each bar in its group", () => {
    // Mean ranks, higher better: s1 (2 + 1) / 2 = 1.5, s2 (1 + 2) / 2 = 1.5, s3 3; the tie keeps s1 first.
    const g = barGeometry({ data, series, frame, better: "higher", count: 2 });
    expect(g.series.map((s) => [s.id, s.color])).toEqual([
      ["s1", palette[0]],
      ["s2", palette[1]],
    ]);
    expect(g.hidden).toBe(1);
    expect(g.yTicks.map((t) => t.value)).toEqual([0, 10, 20, 30]);
    // Bands of 200 px, bars 200 · 0.8 / 2 = 80 px wide from 20 px into the band.
    expect(g.groups.map((gr) => gr.at)).toEqual([164, 364]);
    expect(g.groups[0]?.bars.map((b) => [b.id, b.x, b.y, b.width, b.height])).toEqual([
      ["s1", 84, 149.3, 80, 66.7],
      ["s2", 164, 82.7, 80, 133.3],
    ]);
    expect(g.groups[1]?.bars.map((b) => [b.x, b.y, b.height])).toEqual([
      [284, 16, 200],
      [364, 49.3, 166.7],
    ]);
    expect(g.groups[1]?.reference).toEqual({ y: 116, label: "node to node" });
  });

  it("centres a group's bars when a drawn series has no figure in it", () => {
    // All three drawn; "8 streams" has no Flannel (s3). Bars 200 · 0.8 / 3 = 53.3 px wide: the first
    // group's three from 164 − 80 = 84, the second's two from its centre 364 − 53.3 = 310.7, with no
    // empty slot left for Flannel at its end.
    const g = barGeometry({ data, series, frame, count: 3 });
    expect(g.groups[0]?.bars.map((b) => [b.id, b.x])).toEqual([
      ["s1", 84],
      ["s2", 137.3],
      ["s3", 190.7],
    ]);
    expect(g.groups[1]?.bars.map((b) => [b.id, b.x])).toEqual([
      ["s1", 310.7],
      ["s2", 364],
    ]);
  });

  it("gives a bar its runs' min–max as a whisker, inside the axis", () => {
    const g = barGeometry({
      data: [{ category: "1 stream", values: { s1: { y: 10, whisker: [8, 36] as const } } }],
      series: series.slice(0, 1),
      frame,
    });
    // 36 takes the axis to 0–40: 36 at 216 − 200·36/40 = 36, 8 at 216 − 40 = 176.
    expect(g.yTicks.at(-1)?.value).toBe(40);
    expect(g.groups[0]?.bars[0]?.whisker).toEqual([36, 176]);
  });

  it("keeps the first `groups` groups that hold a drawn bar", () => {
    const more = [{ category: "only Flannel", values: { s3: { y: 7 } } }, ...data];
    const g = barGeometry({ data: more, series, frame, better: "higher", count: 2, groups: 1 });
    // Flannel (s3) is not drawn, so its group is skipped: the one group is "1 stream", 400 px wide.
    expect(g.groups.map((gr) => [gr.category, gr.at])).toEqual([["1 stream", 264]]);
    // Its bars alone set the axis: 0–20.
    expect(g.yTicks.map((t) => t.value)).toEqual([0, 5, 10, 15, 20]);
  });

  it("leaves room above a NIC line at the top of the bars for its label", () => {
    // Bars to 38.9 under a 40 Gbit/s NIC line, a plot 200 px high: the label needs 18 px above the
    // line, so the axis must reach 40 · 200 / (200 − 18) = 43.96 at least; ticks of 10 take it to 50
    // (without the room it stopped at 40, the line on the plot's top edge). 40 of 50 sits at
    // 216 − 200 · 40 / 50 = 56 px, 40 px below the plot's top (16).
    const g = barGeometry({
      data: [{ category: "8 streams", values: { s1: { y: 38.9 } } }],
      series: series.slice(0, 1),
      references: [{ y: 40, label: "NIC 40 Gbit/s" }],
      frame,
    });
    expect(g.yDomain).toEqual([0, 50]);
    expect(g.rules[0]?.y).toBe(56);
  });

  it("hangs a negative bar below zero", () => {
    const g = barGeometry({
      data: [{ category: "policy", values: { s1: { y: -10 }, s2: { y: 30 } } }],
      series: series.slice(0, 2),
      frame,
      better: "lower",
    });
    // Ticks −10 to 30 (step 10) over 200 px: zero at 216 − 200 · 10 / 40 = 166.
    const [neg] = g.groups[0]?.bars ?? [];
    expect([neg?.id, neg?.y, neg?.height]).toEqual(["s1", 166, 50]);
  });
});

describe("ruleSides: NIC lines' labels never print over each other", () => {
  it("alternates sides in order of value, the highest on the right", () => {
    const rules = [
      { y: 10, label: "NIC 10 Gbit/s" },
      { y: 40, label: "NIC 40 Gbit/s" },
      { y: 12.5, label: "NIC 12.5 Gbit/s" },
    ];
    expect(ruleSides(rules).map((r) => [r.rule.y, r.side])).toEqual([
      [40, "right"],
      [12.5, "left"],
      [10, "right"],
    ]);
  });
});
