import { importFiles } from "@cnibench/importers";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { shortConnRpsByServices } from "@cnibench/test-support/tke-figures";
import { describe, expect, it } from "vitest";
import {
  crossoversBetween,
  findCrossovers,
  formatCrossover,
  formatNoiseCrossing,
  formatUndecidedCrossing,
  summariseCrossovers,
} from "./crossover.ts";
import type { Point, Series } from "./types.ts";

const line = (id: string, points: [number, number][], label = id): Series => ({
  id,
  label,
  points: points.map(([x, value]) => ({ x, value })),
});

const [iptables, native, overlay] = shortConnRpsByServices as [Series, Series, Series];

describe("crossovers in the TKE short-connection Service-scale table (http.rps, short, c64)", () => {
  const result = findCrossovers(shortConnRpsByServices, "higher");

  it("finds Cilium Overlay overtaking kube-proxy iptables at ≈19,650 Services", () => {
    // overlay − iptables: at 10,000 12,746 − 17,261 = −4,515; at 20,000 13,080 − 12,916 = +164.
    // x = 10,000 + 10,000 × 4,515 / (4,515 + 164) = 10,000 + 45,150,000 / 4,679 = 19,649.498
    // value = 17,261 − 0.9649498 × (17,261 − 12,916) = 17,261 − 4,192.707 = 13,068.29 req/s
    const c = result.crossovers.find((x) => x.overtaker.id === "overlay" && x.overtaken.id === "iptables");
    expect(c).toBeDefined();
    expect(Math.abs(c!.x - 19_649.498)).toBeLessThanOrEqual(1);
    expect(c!.value).toBeCloseTo(13_068.29, 1);
    expect(c!.from).toEqual({ x: 10_000, values: { iptables: 17_261, overlay: 12_746 }, interpolated: [] });
    expect(c!.to).toEqual({ x: 20_000, values: { iptables: 12_916, overlay: 13_080 }, interpolated: [] });
    expect(formatCrossover(c!, { along: "services" })).toBe(
      "Cilium Overlay overtakes kube-proxy iptables at ≈19,650 Services",
    );
  });

  it("finds Cilium Native overtaking kube-proxy iptables at ≈24,725 Services", () => {
    // native − iptables: at 20,000 11,815 − 12,916 = −1,101; at 30,000 10,286 − 9,057 = +1,229.
    // x = 20,000 + 10,000 × 1,101 / (1,101 + 1,229) = 20,000 + 11,010,000 / 2,330 = 24,725.32
    // value = 12,916 − 0.4725322 × (12,916 − 9,057) = 12,916 − 1,823.50 = 11,092.50 req/s
    const c = result.crossovers.find((x) => x.overtaker.id === "native" && x.overtaken.id === "iptables");
    expect(c).toBeDefined();
    expect(Math.abs(c!.x - 24_725.32)).toBeLessThanOrEqual(1);
    expect(c!.value).toBeCloseTo(11_092.5, 1);
    expect([c!.from.x, c!.to.x]).toEqual([20_000, 30_000]);
    expect(formatCrossover(c!, { along: "services" })).toBe(
      "Cilium Native overtakes kube-proxy iptables at ≈24,730 Services",
    );
  });

  it("finds exactly those two, in order of x, and none between the two Cilium modes", () => {
    // Native stays below Overlay at every step (13,826 < 14,193 … 10,286 < 12,879).
    expect(result.crossovers.map((c) => [c.overtaker.id, c.overtaken.id])).toEqual([
      ["overlay", "iptables"],
      ["native", "iptables"],
    ]);
    expect(result.undecided).toEqual([]);
    const cilium = crossoversBetween(native, overlay, "higher");
    expect(cilium.crossovers).toEqual([]);
    expect(cilium.range).toEqual({ from: 0, to: 30_000 });
  });

  it("does not report the Overlay crossing when a bracketing figure is approximate", () => {
    const approx: Series = {
      ...overlay,
      points: overlay.points.map((p): Point => (p.x === 20_000 ? { ...p, qualifier: "approx" } : p)),
    };
    const r = findCrossovers([iptables, native, approx], "higher");
    expect(r.crossovers.map((c) => c.overtaker.id)).toEqual(["native"]);
    expect(r.undecided).toHaveLength(1);
    const u = r.undecided[0]!;
    expect([u.overtaker.id, u.overtaken.id, u.from.x, u.to.x]).toEqual(["overlay", "iptables", 10_000, 20_000]);
    expect(u.qualified).toEqual([{ seriesId: "overlay", x: 20_000, qualifier: "approx" }]);
    expect(formatUndecidedCrossing(u, { along: "services" })).toBe(
      "Cilium Overlay may overtake kube-proxy iptables between 10,000 and 20,000 Services (approximate or bounded figures)",
    );
  });

  it("keeps a crossing decidable when the qualified figure lies outside its bracket", () => {
    const bounded: Series = {
      ...iptables,
      points: iptables.points.map((p): Point => (p.x === 5_000 ? { ...p, qualifier: "at-most" } : p)),
    };
    const r = crossoversBetween(bounded, overlay, "higher");
    expect(r.crossovers).toHaveLength(1);
    expect(r.undecided).toEqual([]);
  });
});

describe("crossoversBetween", () => {
  it("reads unequal step grids on their union within the common range", () => {
    // a: 0→10 over x 0..10; b: 8 at x 5, 12 at x 15. Common range 5..10, grid {5, 10}.
    // At 5: a = 5 (interpolated), b = 8. At 10: a = 10, b = 10 (interpolated) → a tie at the end.
    const tieAtEnd = crossoversBetween(
      line("a", [
        [0, 0],
        [10, 10],
      ]),
      line("b", [
        [5, 8],
        [15, 12],
      ]),
      "higher",
    );
    expect(tieAtEnd.range).toEqual({ from: 5, to: 10 });
    expect(tieAtEnd.crossovers).toEqual([]);

    // b: 8 at 5, 8 at 15 → at 10 b = 8 < a = 10. d: −3 at 5, +2 at 10 → x = 5 + 5 × 3/5 = 8, value 8.
    const r = crossoversBetween(
      line("a", [
        [0, 0],
        [10, 10],
      ]),
      line("b", [
        [5, 8],
        [15, 8],
      ]),
      "higher",
    );
    expect(r.crossovers).toHaveLength(1);
    const c = r.crossovers[0]!;
    expect(c.x).toBeCloseTo(8, 10);
    expect(c.value).toBeCloseTo(8, 10);
    expect(c.overtaker.id).toBe("a");
    expect(c.from).toEqual({ x: 5, values: { a: 5, b: 8 }, interpolated: ["a"] });
    expect(c.to).toEqual({ x: 10, values: { a: 10, b: 8 }, interpolated: ["b"] });
  });

  it("never extrapolates beyond the common range", () => {
    // a would meet b = 8 at x = 8, but b is only sampled up to 5.
    const r = crossoversBetween(
      line("a", [
        [0, 0],
        [10, 10],
      ]),
      line("b", [
        [0, 8],
        [5, 8],
      ]),
      "higher",
    );
    expect(r.range).toEqual({ from: 0, to: 5 });
    expect(r.crossovers).toEqual([]);

    const apart = crossoversBetween(line("a", [[0, 1]]), line("b", [[5, 2]]), "higher");
    expect(apart.range).toBeNull();
    expect(apart.crossovers).toEqual([]);
  });

  it("finds several crossings, alternating who leads", () => {
    const r = crossoversBetween(
      line("a", [
        [0, 0],
        [1, 10],
        [2, 0],
        [3, 10],
      ]),
      line("b", [
        [0, 5],
        [3, 5],
      ]),
      "higher",
    );
    expect(r.crossovers.map((c) => [c.x, c.overtaker.id])).toEqual([
      [0.5, "a"],
      [1.5, "b"],
      [2.5, "a"],
    ]);
  });

  it("does not count touching without crossing", () => {
    const r = crossoversBetween(
      line("a", [
        [0, 0],
        [1, 5],
        [2, 0],
      ]),
      line("b", [
        [0, 5],
        [2, 5],
      ]),
      "higher",
    );
    expect(r.crossovers).toEqual([]);
    expect(r.undecided).toEqual([]);
  });

  it("places a crossing through a tie where the lines first meet, with the tied stretch", () => {
    const through = crossoversBetween(
      line("a", [
        [0, 0],
        [1, 5],
        [2, 10],
      ]),
      line("b", [
        [0, 5],
        [2, 5],
      ]),
      "higher",
    );
    expect(through.crossovers).toHaveLength(1);
    expect(through.crossovers[0]).toMatchObject({ x: 1, value: 5, tie: { from: 1, to: 1 } });

    const stretch = crossoversBetween(
      line("a", [
        [0, 0],
        [1, 5],
        [2, 5],
        [3, 10],
      ]),
      line("b", [
        [0, 5],
        [3, 5],
      ]),
      "higher",
    );
    expect(stretch.crossovers).toHaveLength(1);
    expect(stretch.crossovers[0]).toMatchObject({ x: 1, tie: { from: 1, to: 2 } });
    expect(stretch.crossovers[0]!.from.x).toBe(0);
    expect(stretch.crossovers[0]!.to.x).toBe(3);
  });

  it("does not count lines that start level and part", () => {
    const r = crossoversBetween(
      line("a", [
        [0, 5],
        [1, 10],
      ]),
      line("b", [
        [0, 5],
        [1, 5],
      ]),
      "higher",
    );
    expect(r.crossovers).toEqual([]);
  });

  it("follows the better-direction: with lower-is-better the line that ends below overtakes", () => {
    // Latency: a rises 100 → 200 µs, b flat at 150 µs; they meet at x = 5 and b is better after.
    const a = line("a", [
      [0, 100],
      [10, 200],
    ]);
    const b = line("b", [
      [0, 150],
      [10, 150],
    ]);
    const lower = crossoversBetween(a, b, "lower").crossovers[0]!;
    expect([lower.x, lower.overtaker.id, lower.overtaken.id]).toEqual([5, "b", "a"]);
    const higher = crossoversBetween(a, b, "higher").crossovers[0]!;
    expect([higher.overtaker.id, higher.overtaken.id]).toEqual(["a", "b"]);
    const none = crossoversBetween(a, b, "none").crossovers[0]!;
    expect(none.overtaker.id).toBe("a");
    expect(formatCrossover(none, { along: "pods" })).toBe("a rises above b at ≈5 pods");
  });

  it("says a crossing along a count in whole ones", () => {
    // a: 9,000 → 8,400 req/s over 0–30,000 Services; b: 10,000 → 4,000. They meet where
    // 9,000 − 0.02x = 10,000 − 0.2x: x = 1,000 / 0.18 = 5,555.56, said "≈5,556".
    const a = line("a", [
      [0, 9000],
      [30_000, 8400],
    ]);
    const b = line("b", [
      [0, 10_000],
      [30_000, 4000],
    ]);
    const c = crossoversBetween(a, b, "higher").crossovers[0]!;
    expect(c.x).toBeCloseTo(5555.56, 2);
    expect(formatCrossover(c, { along: "services", significantDigits: 5 })).toBe("a overtakes b at ≈5,556 Services");
  });

  it("marks a crossing undecidable when an interpolated value rests on a qualified sample", () => {
    // a is sampled at 0 and 10 (≈10); b at 0, 4, 6. The crossing between steps 4 and 6 reads a
    // from the segment 0..10, which rests on the approximate sample at 10.
    const a: Series = {
      id: "a",
      label: "a",
      points: [
        { x: 0, value: 0 },
        { x: 10, value: 10, qualifier: "approx" },
      ],
    };
    const b = line("b", [
      [0, 5],
      [4, 5],
      [6, 5],
    ]);
    const r = crossoversBetween(a, b, "higher");
    expect(r.crossovers).toEqual([]);
    expect(r.undecided).toHaveLength(1);
    expect(r.undecided[0]!.qualified).toEqual([{ seriesId: "a", x: 10, qualifier: "approx" }]);
  });

  it("rejects repeated x values and shared ids", () => {
    expect(() =>
      crossoversBetween(
        line("a", [
          [1, 1],
          [1, 2],
        ]),
        line("b", [[1, 1]]),
        "higher",
      ),
    ).toThrow(/two points at x = 1/);
    expect(() => findCrossovers([line("a", [[1, 1]]), line("a", [[1, 2]])], "higher")).toThrow(/share the id/);
  });
});

describe("along a category (issue 26): InfraBuilder's TCP throughput at 1 and 8 streams", () => {
  // 25 setups × 3 runs; the pod-to-pod TCP throughput of each setup, its runs' mean, at streams 1 and 8.
  const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const runs = new Map<string, Map<number, number[]>>();
  for (const { bundle } of bundles) {
    const setup = bundle.cni.label ?? bundle.cni.name;
    for (const r of bundle.results) {
      if (r.metric !== "tcp.throughput" || r.params?.path !== "pod-pod") continue;
      const perStreams = runs.get(setup) ?? new Map<number, number[]>();
      perStreams.set(Number(r.params.streams), [...(perStreams.get(Number(r.params.streams)) ?? []), r.value]);
      runs.set(setup, perStreams);
    }
  }
  const lines: Series[] = [...runs].map(([setup, byStreams]) => ({
    id: setup,
    label: setup,
    points: [...byStreams].map(([x, values]) => ({ x, value: values.reduce((a, b) => a + b, 0) / values.length })),
  }));

  it("would find crossings were streams read as a scale: the real antrea-ipsec falls from 1 to 8 streams", () => {
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines.every((l) => l.points.map((p) => p.x).join() === "1,8")).toBe(true);
    // antrea-ipsec's real runs: ≈6.9 Gbit/s with 1 stream, ≈4.7 with 8; the encrypted setups rise past it.
    const raw = findCrossovers(lines, "higher");
    expect(raw.crossovers.length).toBeGreaterThan(0);
    // Unencrypted setups cross each other too: their single-stream rates differ, their 8-stream ones all
    // sit at the line rate.
    expect(raw.crossovers.every((c) => c.x > 1 && c.x < 8)).toBe(true);
    expect(raw.crossovers.some((c) => c.overtaken.id === "antrea-ipsec")).toBe(true);
  });

  it("finds none along streams, and refuses to say one", () => {
    const r = findCrossovers(lines, "higher", { along: "streams" });
    expect(r).toEqual({ crossovers: [], undecided: [], withinNoise: [], pairs: [], category: "streams" });
    // cilium-ipsec (synthetic): ≈6.0 Gbit/s with 1 stream, ≈6.2 with 8 — below antrea-ipsec, then above.
    const [a, b] = [lines.find((l) => l.id === "antrea-ipsec")!, lines.find((l) => l.id === "cilium-ipsec")!];
    expect(crossoversBetween(a, b, "higher").crossovers).toHaveLength(1);
    expect(crossoversBetween(a, b, "higher", { along: "streams" }).crossovers).toEqual([]);
    const c = findCrossovers(lines, "higher").crossovers[0]!;
    expect(() => formatCrossover(c, { along: "streams" })).toThrow(/category, not a scale/);
    expect(() => formatCrossover(c, { along: "percentile", xLabel: "percentiles" })).toThrow(/category/);
    expect(summariseCrossovers(r, { along: "streams" })).toEqual({
      sentences: [],
      undecided: [],
      withinNoise: [],
      all: [],
    });
  });

  it("still finds the Services crossings when told x is Services", () => {
    const r = findCrossovers(shortConnRpsByServices, "higher", { along: "services" });
    expect(r.crossovers.map((c) => formatCrossover(c, { along: "services", significantDigits: 5 }))).toEqual([
      "Cilium Overlay overtakes kube-proxy iptables at ≈19,649 Services",
      "Cilium Native overtakes kube-proxy iptables at ≈24,725 Services",
    ]);
  });
});

describe("summariseCrossovers: many lines, a few sentences", () => {
  // Seven copies of the TKE table's three lines: each Overlay copy overtakes each iptables copy at
  // ≈19,650 Services and each Native copy at ≈24,730 (7 × 7 × 2 = 98); identical copies never cross.
  const copies = Array.from({ length: 7 }, (_, i) =>
    shortConnRpsByServices.map((s) => ({
      ...s,
      id: `${s.id}${i}`,
      label: i === 0 ? s.label : `${s.label} #${i + 1}`,
    })),
  ).flat();
  const result = findCrossovers(copies, "higher", { along: "services" });

  it("says the three crossings of the baseline's line first and counts the rest", () => {
    expect(result.crossovers).toHaveLength(98);
    const summary = summariseCrossovers(result, { along: "services" }, { first: new Set(["iptables0"]) });
    expect(summary.sentences).toEqual([
      "Cilium Overlay overtakes kube-proxy iptables at ≈19,650 Services",
      "Cilium Overlay #2 overtakes kube-proxy iptables at ≈19,650 Services",
      "Cilium Overlay #3 overtakes kube-proxy iptables at ≈19,650 Services",
      "…and 95 more crossovers between these lines",
    ]);
    expect(summary.all).toHaveLength(98);
    expect(summary.undecided).toEqual([]);
  });

  it("prefers the baseline's crossings over earlier ones of other lines", () => {
    // Baseline iptables #7: its crossings come before the 91 others, though all share two x values.
    const summary = summariseCrossovers(result, { along: "services" }, { first: new Set(["iptables6"]), limit: 2 });
    expect(summary.sentences.slice(0, 2).every((s) => s.endsWith("kube-proxy iptables #7 at ≈19,650 Services"))).toBe(
      true,
    );
    expect(summary.sentences.at(-1)).toBe("…and 96 more crossovers between these lines");
  });

  it("says one crossing over the limit rather than counting it, and all of a few", () => {
    const few = findCrossovers(shortConnRpsByServices, "higher", { along: "services" });
    expect(summariseCrossovers(few, { along: "services" }, { limit: 1 }).sentences).toHaveLength(2);
    expect(summariseCrossovers(few, { along: "services" }).sentences).toHaveLength(2);
  });
});

describe("crossovers claimed only where the order is decided on both sides (issue 40)", () => {
  const runs = (id: string, points: [number, number[]][], label = id): Series => ({
    id,
    label,
    // The value of two runs is their median, i.e. their mean.
    points: points.map(([x, samples]) => ({ x, value: samples.reduce((s, v) => s + v, 0) / samples.length, samples })),
  });

  it("the lab's two-point sweep: no crossover where 0 Services is inconclusive, said as what is known", () => {
    // Short-connection http.rps, 2 runs per step. At 0: nftables 7,427–10,729 against iptables
    // 9,731–9,922, ×0.908 of geometric means, Welch t on the logs p = 0.694 (scipy.stats.ttest_ind,
    // equal_var=False): inconclusive. At 10,000: 6,000–6,200 against 3,400–3,600, ×1.74, p = 0.0087:
    // better, beyond the 5 % margin. The medians cross at 10,000 × 748.5 / (748.5 + 2,600) ≈ 2,235.
    const iptables = runs("iptables", [
      [0, [9_731, 9_922]],
      [10_000, [3_400, 3_600]],
    ]);
    const nftables = runs("nftables", [
      [0, [7_427, 10_729]],
      [10_000, [6_000, 6_200]],
    ]);
    const medians = findCrossovers([iptables, nftables], "higher");
    expect(medians.crossovers).toHaveLength(1); // what the issue saw: "overtakes at ≈2,241"
    const r = findCrossovers([iptables, nftables], "higher", { metric: "http.rps" });
    expect(r.crossovers).toEqual([]);
    expect(r.withinNoise).toHaveLength(1);
    const n = r.withinNoise[0]!;
    expect([n.overtaker.id, n.overtaken.id, n.decidedBefore, n.decidedAfter]).toEqual([
      "nftables",
      "iptables",
      null,
      10_000,
    ]);
    expect(Math.abs(n.x - 2_235.33)).toBeLessThan(0.01);
    expect(n.noiseBefore).toEqual([{ x: 0, within: "noise", marginPercent: 5 }]);
    expect(formatNoiseCrossing(n, { along: "services" })).toBe(
      "nftables and iptables: within noise at 0 Services, nftables ahead from 10,000 on",
    );
    const summary = summariseCrossovers(r, { along: "services" });
    expect(summary.sentences).toEqual([]);
    expect(summary.withinNoise).toEqual([formatNoiseCrossing(n, { along: "services" })]);
  });

  it("the lab's rule load time: both about 10 ms at 0 is noise, not iptables overtaking at ≈0 Services", () => {
    // Lower is better. At 0: nftables 9.6–10.2 ms against iptables 9.8–10.4, ×0.980, p = 0.684:
    // inconclusive. At 10,000: 12,000–12,500 against 360–372, ×33.5, p = 8.1e−5 (scipy as above).
    const iptables = runs("iptables", [
      [0, [9.8, 10.4]],
      [10_000, [360, 372]],
    ]);
    const nftables = runs("nftables", [
      [0, [9.6, 10.2]],
      [10_000, [12_000, 12_500]],
    ]);
    const r = findCrossovers([iptables, nftables], "lower", { metric: "x.rules.load" });
    expect(r.crossovers).toEqual([]);
    expect(r.withinNoise.map((n) => formatNoiseCrossing(n, { along: "services" }))).toEqual([
      // x.rules.load is outside the catalogue: the fallback margin of 10 % applies.
      "iptables and nftables: within noise at 0 Services, iptables ahead from 10,000 on",
    ]);
  });

  it("the TKE seeds: Overlay's crossing is claimed with its qualification, Native's between two decided steps", () => {
    // Single runs against the 5 % margin of http.rps. Overlay − iptables: 10,000 12,746 vs 17,261
    // (−26 %, decided), 20,000 13,080 vs 12,916 (+1.3 %, within 5 %), 30,000 12,879 vs 9,057 (+42 %).
    // Native − iptables: 20,000 11,815 vs 12,916 (iptables +9.3 % over native), 30,000 10,286 vs 9,057.
    const r = findCrossovers(shortConnRpsByServices, "higher", { metric: "http.rps" });
    expect(r.withinNoise).toEqual([]);
    expect(r.crossovers.map((c) => formatCrossover(c, { along: "services" }))).toEqual([
      "Cilium Overlay overtakes kube-proxy iptables at ≈19,650 Services, interpolated; within 5 % at 20,000, clearly ahead from 30,000",
      "Cilium Native overtakes kube-proxy iptables at ≈24,730 Services, interpolated between 20,000 and 30,000",
    ]);
    expect(r.crossovers[0]!.claim).toEqual({
      decidedBefore: 10_000,
      decidedAfter: 30_000,
      noiseBefore: [],
      noiseAfter: [{ x: 20_000, within: "margin", marginPercent: 5 }],
    });
  });

  it("single runs within the margin on one side: no crossover", () => {
    // a − b: at 0 100 vs 103 (−2.9 %, within 5 %), at 10 120 vs 100 (+20 %). Medians meet at 10 × 3/23.
    const a = line("a", [
      [0, 100],
      [10, 120],
    ]);
    const b = line("b", [
      [0, 103],
      [10, 100],
    ]);
    const r = crossoversBetween(a, b, "higher", { metric: "http.rps" });
    expect(r.crossovers).toEqual([]);
    expect(r.withinNoise[0]!.x).toBeCloseTo(30 / 23, 10);
    expect(formatNoiseCrossing(r.withinNoise[0]!, { along: "pods" })).toBe(
      "a and b: within 5 % at 0 pods, a ahead from 10 on",
    );
    // A margin of 2 % (a compare page's margin=) decides 0 as well: then it is a crossover.
    const tight = crossoversBetween(a, b, "higher", { metric: "http.rps", margins: { "http.rps": 2 } });
    expect(tight.withinNoise).toEqual([]);
    expect(formatCrossover(tight.crossovers[0]!, { along: "pods" })).toBe(
      "a overtakes b at ≈1 pods, interpolated between 0 and 10",
    );
  });

  it("runs decided on both sides: a crossover, and the undecided step before it is said", () => {
    // b's runs stay at 100–104 (median 102). a: 80–82 at 0 (decidedly below), 99–101 at 10 and
    // 103–105 at 20 (medians 100 and 104, both within b's spread: not decided), 130–134 at 30 (above).
    const b = runs("b", [
      [0, [100, 104]],
      [10, [100, 104]],
      [20, [100, 104]],
      [30, [100, 104]],
    ]);
    const a = runs("a", [
      [0, [80, 82]],
      [10, [99, 101]],
      [20, [103, 105]],
      [30, [130, 134]],
    ]);
    const r = crossoversBetween(a, b, "higher", { metric: "http.rps" });
    expect(r.withinNoise).toEqual([]);
    expect(r.crossovers).toHaveLength(1);
    const c = r.crossovers[0]!;
    // a − b: 100 − 102 = −2 at 10, 104 − 102 = +2 at 20: the medians meet at 15.
    expect(c.x).toBeCloseTo(15, 10);
    expect(c.claim).toMatchObject({ decidedBefore: 0, decidedAfter: 30 });
    expect(formatCrossover(c, { along: "pods" })).toBe(
      "a overtakes b at ≈15 pods, interpolated; clearly behind up to 0, within noise at 10; within noise at 20, clearly ahead from 30",
    );
  });

  it("counts nothing where one line is only interpolated: no order is judged there", () => {
    // b is measured at 0 and 20 only; at 10 its value is interpolated, so 10 is neither noise nor decided.
    const a = line("a", [
      [0, 50],
      [10, 90],
      [20, 150],
    ]);
    const b = line("b", [
      [0, 100],
      [20, 100],
    ]);
    const r = crossoversBetween(a, b, "higher", { metric: "http.rps" });
    expect(r.crossovers[0]!.claim).toEqual({ decidedBefore: 0, decidedAfter: 20, noiseBefore: [], noiseAfter: [] });
  });
});
