// Crossover lines with the TKE seed bundles as they ship in demo-data/ (parsed by the contract).
import { importFiles } from "@cnibench/importers";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { loadSeeds, seedsOf, tkeSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { crossoverDrawn, crossoverOf, maxLines, maxSentences } from "./crossover";

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

  it("names the figures it draws, which alone need their campaigns' runs (crossoverDrawn)", () => {
    const copies = Array.from({ length: 20 }, (_, i) => i);
    const scenarios = copies.flatMap((i) => tke.scenarios.map((s) => ({ ...s, id: `${s.id}${i}` })));
    const figures = copies.flatMap((i) => tke.figures.map((f) => ({ ...f, scenarioId: `${f.scenarioId}${i}` })));
    const query = { ...shortRps, y: "absolute" } as const;
    const points = (data: ReturnType<typeof crossoverOf>) =>
      data.series.flatMap((s) => s.points.map((p) => `${p.scenarioId} ${p.x}`)).sort();
    // No baseline: the 16 lines' 80 points, nothing of the 44 lines left out nor of other connections.
    const drawn = crossoverDrawn(scenarios, figures, query);
    expect(drawn.map((f) => `${f.scenarioId} ${f.params.services}`).sort()).toEqual(
      points(crossoverOf(scenarios, figures, query)),
    );
    expect(drawn).toHaveLength(maxLines * 5);
    // With a baseline, every figure of the drawn scenarios and the baseline's (a verdict is the compare
    // table's, adjusted over a scenario's figures), though the baseline b19 draws no line itself.
    const judged = crossoverDrawn(scenarios, figures, { ...query, baseline: "b19" });
    const ids = new Set([...drawn.map((f) => f.scenarioId), "b19"]);
    expect(new Set(judged.map((f) => f.scenarioId))).toEqual(ids);
    expect(judged).toHaveLength(figures.filter((f) => ids.has(f.scenarioId)).length);
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

  it("shades the metric's margin around single runs and the runs' min–max around several (issue 40)", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute" });
    const iptables = data.series.find((s) => s.label === "kube-proxy iptables")!;
    // A single run of 31,365 req/s at 0 Services, ±5 % (http.rps's margin in the catalogue):
    // 31,365 × 0.95 = 29,796.75 and × 1.05 = 32,933.25.
    expect(iptables.points[0]!.band![0]).toBeCloseTo(29_796.75, 6);
    expect(iptables.points[0]!.band![1]).toBeCloseTo(32_933.25, 6);
    expect(data.band).toEqual({
      kind: "margin",
      marginPercent: 5,
      words: "Shaded: ±5 % around a single value (the metric's margin)",
    });
    // At 20,000 Overlay's 13,080 lies inside iptables' band (12,916 × 1.05 = 13,561.8): the sentence's
    // "within 5 % at 20,000".
    const overlay = data.series.find((s) => s.label === "Cilium Overlay")!.points.find((p) => p.x === 20_000)!;
    const band20k = iptables.points.find((p) => p.x === 20_000)!.band!;
    expect(overlay.y > band20k[0] && overlay.y < band20k[1]).toBe(true);

    // Three runs at 30,000 (5,000 · 9,057 · 13,000): the band there is their min–max, and the words say both.
    const noisy = tke.figures.map((f) =>
      f.scenarioId === iptables.scenarioId && f.metric === "http.rps" && f.params.services === 30_000
        ? { ...f, n: 3, samples: [5_000, 9_057, 13_000] }
        : f,
    );
    const mixed = crossoverOf(tke.scenarios, noisy, { ...shortRps, y: "absolute" });
    const at30k = mixed.series.find((s) => s.scenarioId === iptables.scenarioId)!.points.at(-1)!;
    expect(at30k.band).toEqual([5_000, 13_000]);
    expect(mixed.band?.words).toBe(
      "Shaded: each line's runs, min–max, or ±5 % around a single value (the metric's margin)",
    );

    // Degradation is a percentage of each line's first step: no band on that scale.
    const degradation = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "degradation" });
    expect(degradation.band).toBeNull();
    expect(degradation.series.every((s) => s.points.every((p) => p.band === null))).toBe(true);
  });

  it("offers the axes the metric's figures have: TKE's Services and concurrency, not a fixed list", () => {
    // Short connections were swept along the Service count only; all RPS figures also at 64 and 256 clients.
    const short = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute" });
    expect(short.axes.map((a) => [a.param, a.kind, a.setups])).toEqual([["services", "scale", 3]]);
    const all = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, where: {}, y: "absolute" });
    expect(all.axes.map((a) => [a.param, a.kind, a.setups])).toEqual([
      ["services", "scale", 3],
      ["concurrency", "scale", 3],
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
  // Each setup's first run only: seedsOf makes every bundle a figure of its own, not a run of one.
  for (const [i, { bundle }] of bundles.entries()) {
    const setup = bundle.cni.label ?? bundle.cni.name;
    bySetup[setup] ??= [{ name: `${setup}-${i}`, bundle }];
  }
  const ib = seedsOf(bySetup);
  const streams = { metric: "tcp.throughput", x: "streams", where: { path: "pod-pod" }, y: "absolute" } as const;

  it("draws each setup's points along streams, unjoined, with no marker and no sentence, and says why", () => {
    expect(ib.scenarios.length).toBeGreaterThanOrEqual(20);
    for (const baseline of [undefined, ib.scenarios[0]!.id]) {
      const data = crossoverOf(ib.scenarios, ib.figures, { ...streams, baseline });
      expect(data.series).toHaveLength(maxLines);
      expect(data.series.every((s) => s.points.map((p) => p.x).join() === "1,8")).toBe(true);
      expect(data.joined).toBe(false);
      expect(data.markers).toEqual([]);
      expect(data.sentences).toEqual([]);
      expect(data.undecided).toEqual([]);
      expect(data.withinNoise).toEqual([]);
      expect(data.allSentences).toEqual([]);
      expect(data.notice).toBe(
        "“streams” is a category, not a scale: each value is its own test, so a setup's points are not joined " +
          "and no line overtakes another between them. Choose Compare with to read each point's verdict at its " +
          "value, or compare TCP throughput by streams as bars in the Throughput view.",
      );
      // The axis the page offers: 24 setups measured pod to pod at 1 and 8 streams (the 25th, the
      // bare-metal reference, node to node).
      expect(data.axes).toEqual([
        {
          metric: "tcp.throughput",
          title: "TCP throughput",
          param: "streams",
          words: "streams",
          kind: "category",
          setups: 24,
          // Pod to pod, each setup has one line already: nothing more to pin.
          where: {},
        },
      ]);
      expect(data.oneLine).toBeNull();
    }
  });

  it("offers one line per setup where a setup has many: CPU by streams, the whole CPU", () => {
    // Each synthetic setup has 16 CPU lines by streams (every mode, user + system and three single
    // modes; client and server; pod to pod and through a Service; TCP and UDP): the first setup alone
    // filled the chart. The conditions, worked out by hand from those params: every mode (the widest
    // accounting two setups have), then the first value of each splitting param by name.
    const all = crossoverOf(ib.scenarios, ib.figures, { metric: "cpu.usage", x: "streams", where: {}, y: "absolute" });
    expect(new Set(all.series.map((s) => s.scenarioId)).size).toBeLessThan(3);
    const pinned = { accounting: "all-modes", path: "pod-pod", protocol: "tcp", role: "client" };
    expect(all.oneLine).toEqual(pinned);
    expect(all.axes.map((a) => [a.param, a.where])).toEqual([["streams", pinned]]);
    const one = crossoverOf(ib.scenarios, ib.figures, {
      metric: "cpu.usage",
      x: "streams",
      where: pinned,
      y: "absolute",
    });
    expect(one.oneLine).toBeNull();
    expect(new Set(one.series.map((s) => s.scenarioId)).size).toBe(one.series.length);
    expect(one.series).toHaveLength(maxLines);
    // 22 lines in all, one a setup: the real setups (flannel, antrea-ipsec, bare metal) publish
    // bench.sh's user + system alone, not drawn beside the whole CPU.
    expect(one.series.length + one.hiddenLines).toBe(22);
  });

  it("says why nothing is drawn along percentiles of a metric no bar view draws", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, {
      metric: "lb.entries",
      x: "percentile",
      where: {},
      y: "absolute",
    });
    expect(data.series).toEqual([]);
    expect(data.notice).toMatch(/^“percentile” is a category, not a scale: .* verdict at its value\.$/);
    // lb.entries was measured at 5,000 and 30,000 Services by two clusters: that axis is offered instead.
    expect(data.axes.map((a) => `${a.param} ${a.setups}`)).toEqual(["services 2"]);
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
