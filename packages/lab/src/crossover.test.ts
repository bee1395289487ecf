// The crossover view draws a real lab sweep like any other scenario: one line per mode along the
// Service count, each point with the min–max whisker of its runs (test-support's lab fixture, three
// runs per step). crossoverOf is the chart's own shaping, as its tRPC procedure calls it.
import { labSeeds } from "@cnibench/test-support/lab-figures";
import { describe, expect, it } from "vitest";
import { crossoverOf } from "../../../apps/web/src/server/views/chart-data/crossover.ts";

describe("the lab's sweep in the crossover view", () => {
  const lab = labSeeds();
  const query = { metric: "http.rps", x: "services", where: { connection: "short" }, y: "absolute" } as const;

  it("draws iptables and nftables with whiskers from the three runs", () => {
    const chart = crossoverOf(lab.scenarios, lab.figures, query);
    const lines = chart.series.map((s) => ({
      scenario: s.scenarioId,
      points: s.points.map((p) => ({ x: p.x, y: p.y, n: p.summary?.n, whisker: p.whisker })),
    }));
    // The fixture's runs (req/s), their median the point and min–max the whisker, read off by hand:
    // iptables 0: 10,189.7 · 9,750.07 · 12,280.5; 5,000: 4,288.93 · 8,848.67 · 7,468.38;
    // nftables 0: 8,290.31 · 8,848.5 · 6,453.72; 5,000: 5,437.92 · 6,398.22 · 5,908.45.
    expect(lines).toEqual([
      {
        scenario: "lab-iptables",
        points: [
          { x: 0, y: 10189.7, n: 3, whisker: [9750.07, 12280.5] },
          { x: 5000, y: 7468.38, n: 3, whisker: [4288.93, 8848.67] },
        ],
      },
      {
        scenario: "lab-nftables",
        points: [
          { x: 0, y: 8290.31, n: 3, whisker: [6453.72, 8848.5] },
          { x: 5000, y: 5908.45, n: 3, whisker: [5437.92, 6398.22] },
        ],
      },
    ]);
    expect(chart.series.map((s) => s.label)).toEqual([
      "Lab: kube-proxy iptables on 6.18.44-fc-v657",
      "Lab: kube-proxy nftables on 6.18.44-fc-v657",
    ]);
  });

  it("draws no whisker where a step has one run", () => {
    const oneRun = lab.figures.map((f) => ({ ...f, samples: f.samples.slice(0, 1), n: 1 }));
    const chart = crossoverOf(lab.scenarios, oneRun, query);
    expect(chart.series.flatMap((s) => s.points.map((p) => p.whisker))).toEqual([null, null, null, null]);
  });
});
