// Crossover lines with the TKE seed bundles as they ship in demo-data/ (parsed by the contract).
import { importFiles } from "@cnibench/importers";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { loadSeeds, seedsOf, tkeSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { crossoverOf, maxLines, maxSentences } from "./crossover";

const tke = tkeSeeds();

const shortRps = { metric: "http.rps", x: "services", where: { connection: "short" } } as const;

describe("crossoverOf", () => {
  it("draws a line per cluster and finds where Cilium overtakes iptables, by linear interpolation", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute" });
    expect(data.series.map((s) => [s.label, s.points.length])).toEqual([
      ["kube-proxy iptables", 5],
      ["Cilium Native", 5],
      ["Cilium Overlay", 5],
    ]);
    // Overlay vs iptables between 10k (12,746 vs 17,261) and 20k (13,080 vs 12,916):
    // 10,000 + 10,000 × 4,515 / (4,515 + 164) = 19,649.5. Native: 20,000 + 10,000 × 1,101 / 2,330 = 24,725.3.
    expect(data.markers.map((m) => Math.round(m.x))).toEqual([19649, 24725]);
    expect(data.sentences).toEqual([
      "Cilium Overlay overtakes kube-proxy iptables at ≈19,649 Services, interpolated; within 5 % at 20,000, clearly ahead from 30,000",
      "Cilium Native overtakes kube-proxy iptables at ≈24,725 Services, interpolated between 20,000 and 30,000",
    ]);
    expect(data.unit).toBe("req/s");
  });

  it("draws degradation against each line's baseline and keeps the crossovers computed on the values", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "degradation" });
    const iptables = data.series.find((s) => s.label === "kube-proxy iptables");
    // The seed's own column: −29.1 %, −45.0 %, −58.8 %, −71.1 %.
    expect(iptables?.points.map((p) => Math.round(p.y * 10) / 10)).toEqual([0, -29.1, -45, -58.8, -71.1]);
    expect(data.unit).toBe("%");
    expect(data.markers.map((m) => Math.round(m.x))).toEqual([19649, 24725]);
  });

  it("draws the first lines in explorer order up to the limit and says how many it left out", () => {
    // 20 copies of the three TKE clusters' lines: 60 lines, crossovers only among the first 16.
    const copies = Array.from({ length: 20 }, (_, i) => i);
    const scenarios = copies.flatMap((i) => tke.scenarios.map((s) => ({ ...s, id: `${s.id}${i}` })));
    const figures = copies.flatMap((i) => tke.figures.map((f) => ({ ...f, scenarioId: `${f.scenarioId}${i}` })));
    const data = crossoverOf(scenarios, figures, { ...shortRps, y: "absolute" });
    expect(data.series).toHaveLength(maxLines);
    expect(data.series.map((s) => s.scenarioId).slice(0, 4)).toEqual(["a0", "b0", "c0", "a1"]);
    expect(data.hiddenLines).toBe(60 - maxLines);
    // Among 16 lines (6 iptables, 5 native, 5 overlay) each Cilium line overtakes each iptables line.
    expect(data.markers).toHaveLength(10 * 6);
  });

  it("says a few of sixty crossings, the first line's, and lists them all in the details", () => {
    const copies = Array.from({ length: 20 }, (_, i) => i);
    const scenarios = copies.flatMap((i) => tke.scenarios.map((s) => ({ ...s, id: `${s.id}${i}` })));
    const figures = copies.flatMap((i) => tke.figures.map((f) => ({ ...f, scenarioId: `${f.scenarioId}${i}` })));
    const data = crossoverOf(scenarios, figures, { ...shortRps, y: "absolute" });
    // No baseline: the first line's (iptables a0) crossings come first, the earliest (Overlay's) of them.
    expect(data.sentences).toHaveLength(maxSentences + 1);
    const a0 = data.scenarios.find((s) => s.id === "a0")!.label;
    for (const s of data.sentences.slice(0, maxSentences))
      expect(s).toMatch(new RegExp(`${a0} at ≈19,649 Services, interpolated;`));
    expect(data.sentences.at(-1)).toBe("…and 57 more crossovers between these lines");
    expect(data.allSentences).toHaveLength(60);
    // With Cilium Native b1 as the baseline, its own crossings (over the six iptables lines at ≈24,725).
    const b1 = crossoverOf(scenarios, figures, { ...shortRps, y: "absolute", baseline: "b1" });
    const native = b1.scenarios.find((s) => s.id === "b1")!.label;
    for (const s of b1.sentences.slice(0, maxSentences)) {
      expect(s.startsWith(`${native} overtakes `)).toBe(true);
      expect(s).toMatch(/at ≈24,725 Services, interpolated between 20,000 and 30,000$/);
    }
  });

  it("draws a line per scenario and other params, whatever the order of the params' keys", () => {
    const reversed = (params: object) => Object.fromEntries(Object.entries(params).reverse());
    const iptables = tke.figures.filter(
      (f) =>
        f.scenarioId === "a" && f.metric === "http.rps" && f.params.connection === "short" && "services" in f.params,
    );
    const figures = [
      // Every other figure with its params' keys in reverse order: Cilium Native is still one line.
      ...tke.figures.map((f, i) => (f.scenarioId === "b" && i % 2 ? { ...f, params: reversed(f.params) } : f)),
      // iptables at 256 connections, twice as fast: a line of its own, crossed by none of the 64 lines.
      ...iptables.map((f) => ({ ...f, params: { ...f.params, concurrency: 256 }, value: 2 * f.value })),
    ];
    const data = crossoverOf(tke.scenarios, figures, { ...shortRps, y: "absolute" });
    const rates = [31365, 22237, 17261, 12916, 9057];
    expect(data.series.map((s) => [s.label, s.points.map((p) => p.y)])).toEqual([
      ["kube-proxy iptables · concurrency 64 · target service", rates],
      ["kube-proxy iptables · concurrency 256 · target service", rates.map((r) => 2 * r)],
      ["Cilium Native", [13826, 12774, 11895, 11815, 10286]],
      ["Cilium Overlay", [14193, 13122, 12746, 13080, 12879]],
    ]);
    expect(data.allSentences).toEqual([
      "Cilium Overlay overtakes kube-proxy iptables · concurrency 64 · target service at ≈19,649 Services, interpolated; within 5 % at 20,000, clearly ahead from 30,000",
      "Cilium Native overtakes kube-proxy iptables · concurrency 64 · target service at ≈24,725 Services, interpolated between 20,000 and 30,000",
    ]);
  });

  it("crosses only lines alike in their other params: no p99 line overtaking an average", () => {
    // EKS A measured keep-alive p99 (5.86, 5.99, 2.96 ms at 4, 104, 1,000 Services) and short-connection
    // averages (4.399, 4.621 ms at 4 and 1,000): drawn together, the p99 line dips below the average at
    // ≈539 Services, which compares two different statistics of two different tests.
    const eks = loadSeeds({
      a: ["eks-a-vpc-cni-kube-proxy-service-scale.json", "eks-a-vpc-cni-main.json"],
      e: ["eks-e-cilium-eni-tuned-main.json", "eks-e-cilium-eni-tuned-service-scale.json"],
    });
    const data = crossoverOf(eks.scenarios, eks.figures, {
      metric: "http.latency",
      x: "services",
      where: {},
      y: "absolute",
    });
    expect(data.series.length).toBe(5);
    expect(data.sentences).toEqual([]);
    expect(data.markers).toEqual([]);
  });

  it("claims no crossover where the runs on one side leave the order undecided (issue 40)", () => {
    // Overlay and iptables at 30,000 given three wide runs each (8,000–17,000 against 5,000–13,000):
    // their order there is not decided, and at 20,000 the single runs are 1.3 % apart (within 5 %),
    // so the medians' crossing at ≈19,649 is no crossover. Native's single run at 30,000 (10,286)
    // against iptables' median 9,057 is still 13.6 % ahead: its crossing stays, with its marker.
    const noisy = tke.figures.map((f) => {
      if (f.metric !== "http.rps" || f.params.connection !== "short" || f.params.services !== 30_000) return f;
      const label = tke.scenarios.find((s) => s.id === f.scenarioId)?.label ?? "";
      if (label.includes("Overlay")) return { ...f, samples: [8_000, 12_879, 17_000] };
      if (label.includes("iptables")) return { ...f, samples: [5_000, 9_057, 13_000] };
      return f;
    });
    const data = crossoverOf(tke.scenarios, noisy, { ...shortRps, y: "absolute" });
    expect(data.sentences).toEqual([
      "Cilium Native overtakes kube-proxy iptables at ≈24,725 Services, interpolated between 20,000 and 30,000",
    ]);
    expect(data.markers.map((m) => Math.round(m.x))).toEqual([24_725]);
    expect(data.withinNoise).toEqual([
      "Cilium Overlay and kube-proxy iptables: kube-proxy iptables ahead up to 10,000 Services, within 5 % at 20,000, within noise at 30,000",
    ]);
  });

  it("draws nothing for a metric nobody measured along that param", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, {
      metric: "tcp.throughput",
      x: "services",
      where: {},
      y: "absolute",
    });
    expect(data.series).toEqual([]);
    expect(data.sentences).toEqual([]);
  });
});

describe("crossoverOf along a category (issue 26)", () => {
  // InfraBuilder's tree: 25 setups × 3 runs, TCP throughput at 1 and 8 streams. Drawn as lines, the
  // real antrea-ipsec (≈6.9 → 4.7 Gbit/s) is "overtaken at ≈2 streams" by every encrypted setup.
  const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const bySetup: Record<string, { name: string; bundle: unknown }[]> = {};
  for (const [i, { bundle }] of bundles.entries()) {
    const setup = bundle.cni.label ?? bundle.cni.name;
    bySetup[setup] = [...(bySetup[setup] ?? []), { name: `${setup}-${i}`, bundle }];
  }
  const ib = seedsOf(bySetup);
  const streams = { metric: "tcp.throughput", x: "streams", where: { path: "pod-pod" }, y: "absolute" } as const;

  it("draws no line, no marker and no sentence along streams, and says why and where to look", () => {
    expect(ib.scenarios.length).toBeGreaterThanOrEqual(20);
    expect(ib.figures.filter((f) => f.metric === "tcp.throughput" && f.params.streams === 8).length).toBeGreaterThan(
      40,
    );
    for (const baseline of [undefined, ib.scenarios[0]!.id]) {
      const data = crossoverOf(ib.scenarios, ib.figures, { ...streams, baseline });
      expect(data.series).toEqual([]);
      expect(data.markers).toEqual([]);
      expect(data.sentences).toEqual([]);
      expect(data.undecided).toEqual([]);
      expect(data.allSentences).toEqual([]);
      expect(data.notice).toBe(
        "“streams” is a category, not a scale: each value is its own test, so no line joins them and none " +
          "overtakes another between them. TCP throughput by streams is compared as bars in the Throughput view.",
      );
    }
  });

  it("refuses percentiles too, pointing at the scales when no bar view draws the metric", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, {
      metric: "lb.entries",
      x: "percentile",
      where: {},
      y: "absolute",
    });
    expect(data.series).toEqual([]);
    expect(data.notice).toMatch(
      /^“percentile” is a category, not a scale: .* Draw Load-balancer map entries against a scale: Services, target QPS/,
    );
  });

  it("keeps the Services crossovers of the seeds, with no notice", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute" });
    expect(data.notice).toBeNull();
    expect(data.allSentences).toEqual([
      "Cilium Overlay overtakes kube-proxy iptables at ≈19,649 Services, interpolated; within 5 % at 20,000, clearly ahead from 30,000",
      "Cilium Native overtakes kube-proxy iptables at ≈24,725 Services, interpolated between 20,000 and 30,000",
    ]);
  });
});
