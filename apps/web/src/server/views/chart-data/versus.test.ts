// Verdicts on chart points against a baseline, with the TKE seed bundles (demo-data/) and InfraBuilder's runs.

import type { LatestFigure } from "@cnibench/db";
import { canonicalJson } from "@cnibench/schema";
import { seedsOf, tkeSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { candidateDiffs, compareRows, withHistory } from "../compare-data";
import { barView } from "./bars";
import { crossoverOf } from "./crossover";

const tke = tkeSeeds();

const shortRps = { metric: "http.rps", x: "services", where: { connection: "short" } } as const;

describe("points against a baseline", () => {
  // Runs 1–3 of InfraBuilder's 2024 tree (packages/importers/fixtures/real/infrabuilder-2024/<setup>/<run>/
  // all.results), pod to pod: DTS/DTM_BW and DUS/DUM_BW in bit/s (1 and 8 streams), DUS/DUM_LOST in %.
  const runs = {
    flannel: {
      tcp: {
        1: [19587401486.345478, 20601319199.044209, 19796781710.408119],
        8: [38956107752.5739, 38898964138.4612, 38783566181.179832],
      },
      udp: {
        1: [7730439568.4480534, 7243659735.69248, 7733769024.8162785],
        8: [36549842506.799812, 36307589585.2932, 37422764658.306061],
      },
      loss: {
        1: [0.49458539932345935, 0.2218361990920649, 0.32943714961180359],
        8: [10.13986278675519, 10.498170969230996, 8.88931479902105],
      },
    },
    antrea: {
      tcp: {
        1: [6781012163.7962885, 6934934749.20773, 7069904726.0856085],
        8: [4717855796.6332083, 4697404345.2685852, 4703934867.7370853],
      },
      udp: {
        1: [4051593138.0766859, 2041721324.7330887, 4011392081.3733621],
        8: [3854046369.870832, 3777013599.3076091, 3693305933.8280449],
      },
      loss: {
        1: [31.66735729824925, 65.783569809674376, 28.662399098148821],
        8: [87.232372647227862, 87.852540080634824, 87.740208386167424],
      },
    },
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  // One bundle a setup whose results carry the three runs as rounds: a figure of 3 runs, its median.
  const bundleOf = (cni: string, r: (typeof runs)["flannel"]) => ({
    schema: "cnibench/bundle@1",
    cluster: { name: "infrabuilder-2024", provider: "on-prem" },
    node: { sku: "bare-metal-40g", kernel: "5.15.0-94-generic", nicGbps: 40 },
    cni: { name: cni, mode: "native", label: cni },
    results: (["tcp", "udp", "loss"] as const).flatMap((kind) =>
      ([1, 8] as const).map((streams) => ({
        metric: kind === "loss" ? "udp.loss" : `${kind}.throughput`,
        value: median(r[kind][streams]),
        unit: kind === "loss" ? "%" : "bit/s",
        params: { path: "pod-pod", streams },
        aggregate: "median",
        samples: r[kind][streams],
      })),
    ),
  });
  const lab = seedsOf({
    flannel: [{ name: "flannel", bundle: bundleOf("flannel", runs.flannel) }],
    antrea: [{ name: "antrea-ipsec", bundle: bundleOf("antrea-ipsec", runs.antrea) }],
  });
  // Streams are a category (the schema's params vocabulary): bars, or points never joined by a line.
  const tcpByStreams = { metric: "tcp.throughput", x: "streams", where: { path: "pod-pod" }, y: "absolute" } as const;
  const podToPod = (streams: number) => `path pod-pod · streams ${streams}`;

  it("gives each bar its verdict against the baseline's bar at the same params", () => {
    const charts = barView("throughput", lab.scenarios, lab.figures, { percentile: "p99", baseline: "flannel" });
    const tcp = charts.find((c) => c.metric === "tcp.throughput");
    const at = (streams: number) => tcp?.data.find((d) => d.category === podToPod(streams))?.values;
    expect([at(1)?.flannel?.versus, at(8)?.flannel?.versus]).toEqual([undefined, undefined]);
    // In Gbit/s as stored (12 significant digits), b = flannel, c = antrea-ipsec, scipy 1.17:
    // r = stats.ttest_ind(np.log(c), np.log(b), equal_var=False); np.exp(r.confidence_interval(0.95)).
    // 1 stream: p = 1.2906336369143338e-06, ratio 0.34654635694641306, 95 % 0.3278557366138649–0.36630250473327236;
    // The tooltip's % is the change the verdict judged, (ratio − 1) × 100 = −65.34536430535869 %, not
    // the change of the medians (6.93493474921 / 19.7967817104 − 1) × 100 = −64.97 % (issue 40).
    // 8 streams: p = 3.407953133487611e-12, 95 % 0.12043748304171437–0.12166716182371493; the log
    // interval is symmetric about the ratio, so ratio = √(low × high) = 0.1210506…, −87.8949 %.
    // Both far beyond the 5 % margin with p < 0.05 (adjusted too): worse.
    const [one, eight] = [at(1)?.antrea?.versus, at(8)?.antrea?.versus];
    expect(one).toMatchObject({
      baseline: "flannel",
      verdict: "worse",
      indicative: false,
      words: "3 vs 3 runs, 95 % 0.328–0.366",
    });
    expect(one?.percent).toBeCloseTo(-65.34536430535869, 8);
    expect(eight).toMatchObject({ verdict: "worse", words: "3 vs 3 runs, 95 % 0.120–0.122" });
    expect(eight?.percent).toBeCloseTo(-87.8949, 3);
    expect(tcp?.series).toEqual([
      { id: "flannel", label: "flannel" },
      { id: "antrea", label: "antrea-ipsec" },
    ]);
    // Along streams in the crossover view: the same verdicts on points no line joins, and no crossing.
    const along = crossoverOf(lab.scenarios, lab.figures, { ...tcpByStreams, baseline: "flannel" });
    expect(along.joined).toBe(false);
    expect(along.markers).toEqual([]);
    expect(along.series.find((s) => s.scenarioId === "antrea")?.points.map((p) => p.versus)).toEqual([one, eight]);
  });

  it("gives each UDP bar its verdict against the baseline's bar of the same group", () => {
    const charts = barView("throughput", lab.scenarios, lab.figures, { percentile: "p99", baseline: "flannel" });
    const udp = charts.find((c) => c.metric === "udp.throughput");
    const oneStream = udp?.data.find((d) => d.category === podToPod(1));
    expect(oneStream?.values.flannel?.versus).toBeUndefined();
    // scipy 1.17, as above: p = 0.062276521757327535 (adjusted with the other five: the same), ratio
    // 0.42473820310253335, 95 % 0.16205711988428403–1.1132034266904427, 90 % 0.2201520593772265–0.8194451675132974:
    // not significant and not within ±5 %: inconclusive; the judged change (ratio − 1) × 100 = −57.52617968974667 %
    // (the medians' change, (4.01139208137 / 7.73043956845 − 1) × 100 = −48.1 %, is not what was judged).
    expect(oneStream?.values.antrea?.versus).toMatchObject({
      verdict: "inconclusive",
      words: "3 vs 3 runs, 95 % 0.162–1.113",
    });
    expect(oneStream?.values.antrea?.versus?.percent).toBeCloseTo(-57.52617968974667, 8);
    // Loss with 8 streams: p = 0.0005241824417206529, ratio 8.923575201644363: more loss, worse.
    const loss = charts.find((c) => c.metric === "udp.loss")?.data.find((d) => d.category.endsWith("streams 8"));
    expect(loss?.values.antrea?.versus).toMatchObject({ verdict: "worse", words: "3 vs 3 runs, 95 % 7.180–11.091" });
  });

  it("says nothing without a baseline, or with one outside the scenarios", () => {
    for (const baseline of [undefined, null, "gone"]) {
      const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute", baseline });
      expect(data.series.length).toBe(3);
      expect(data.series.flatMap((s) => s.points).some((p) => "versus" in p)).toBe(false);
      const bars = barView("throughput", lab.scenarios, lab.figures, { percentile: "p99", baseline });
      expect(bars.flatMap((c) => c.data.flatMap((d) => Object.values(d.values))).some((v) => v && "versus" in v)).toBe(
        false,
      );
    }
  });

  it("marks single runs as indicative, judged by the change against the margin", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute", baseline: "a" });
    const overlay = data.series.find((s) => s.scenarioId === "c");
    const at = (x: number) => overlay?.points.find((p) => p.x === x)?.versus;
    // (14,193 − 31,365) / 31,365 = −54.748923959827835 %; 13,080 vs 12,916: +1.2697429544750698 %, within
    // the 5 % margin of http.rps; 12,879 vs 9,057: +42.1994037760848 %.
    expect(at(0)).toMatchObject({ verdict: "worse", indicative: true, words: "one value a side, indicative" });
    expect(at(0)?.percent).toBeCloseTo(-54.748923959827835, 10);
    expect(at(20_000)).toMatchObject({ baseline: "kube-proxy iptables", verdict: "equivalent", indicative: true });
    expect(at(20_000)?.percent).toBeCloseTo(1.2697429544750698, 10);
    expect(at(30_000)?.verdict).toBe("better");
    // The compare's margins: at ±1 %, +1.27 % is better.
    const tight = crossoverOf(tke.scenarios, tke.figures, {
      ...shortRps,
      y: "absolute",
      baseline: "a",
      margins: { "http.rps": 1 },
    });
    expect(tight.series.find((s) => s.scenarioId === "c")?.points.find((p) => p.x === 20_000)?.versus?.verdict).toBe(
      "better",
    );
    // Degradation draws another scale; the verdict is still the figures'.
    const degradation = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "degradation", baseline: "a" });
    expect(degradation.series.find((s) => s.scenarioId === "c")?.points.map((p) => p.versus?.verdict)).toEqual(
      overlay?.points.map((p) => p.versus?.verdict),
    );
  });

  it("agrees with the compare table on every point of the compare page's charts", () => {
    // As comparison() (routers/compare.ts) draws them: the first scenario is the baseline, with the margins.
    const comparePage = { line: { ...shortRps, y: "absolute" }, bars: "latency" } as const;
    const check = (
      scenarios: typeof tke.scenarios,
      figures: readonly LatestFigure[],
      margins: Record<string, number>,
      charts: { line: Parameters<typeof crossoverOf>[2]; bars: "latency" | "throughput" } = comparePage,
    ) => {
      const diffs = candidateDiffs(scenarios, figures, margins);
      const table = compareRows(scenarios, figures, margins, diffs);
      const verdictIn = (scenarioId: string, metric: string, params: LatestFigure["params"]) => {
        const row = table.find((r) => r.metric === metric && JSON.stringify(r.params) === JSON.stringify(params));
        return row?.cells[scenarios.findIndex((s) => s.id === scenarioId)]?.verdict;
      };
      // With the table's diffs, as comparison() gives them, and without, as the charts page's "Compare with".
      const baseline = scenarios[0]?.id;
      return [
        { baseline, margins, diffs },
        { baseline, margins },
      ].flatMap((against) => {
        const lines = crossoverOf(scenarios, figures, { ...charts.line, ...against });
        const bars = barView(charts.bars, scenarios, figures, { percentile: "p99", ...against });
        const seen = [
          ...lines.series.flatMap((s) => s.points.map((p) => ({ ...p, metric: lines.metric }))),
          ...bars.flatMap((c) =>
            c.data.flatMap((d) => Object.values(d.values).flatMap((v) => (v ? [{ ...v, metric: c.metric }] : []))),
          ),
        ];
        const judged = seen.filter((p) => p.versus);
        expect(judged.length).toBeGreaterThan(0);
        for (const p of seen) {
          const scenarioId = figures.find((f) => f.bundleId === p.bundleId)?.scenarioId ?? "";
          expect(p.versus?.verdict ?? null, `${scenarioId} ${p.metric} ${JSON.stringify(p.params)}`).toBe(
            scenarioId === scenarios[0]?.id ? null : (verdictIn(scenarioId, p.metric, p.params) ?? null),
          );
        }
        return judged;
      });
    };
    // TKE: single runs; p99 TCP_RR latency of Cilium Overlay, 118 vs 107 µs, +10.28 %: beyond the 10 % margin.
    const tkeJudged = check(tke.scenarios, tke.figures, {});
    expect(tkeJudged.map((p) => p.versus?.verdict)).toContain("worse");
    check(tke.scenarios, tke.figures, { "http.rps": 1, "tcp.rr.latency": 15 });
    // InfraBuilder: three runs a side; antrea's two points along streams (unjoined: a category), the
    // throughput, UDP throughput and loss bars (2 each).
    expect(check(lab.scenarios, lab.figures, {}, { line: tcpByStreams, bars: "throughput" })).toHaveLength(2 * 8);
    // With the series' earlier campaigns pooled into the noise (made-up steady runs, in Gbit/s), as comparison()
    // gives both the table and the charts: Antrea's one-stream UDP is no longer inconclusive, in either.
    const earlier = [0, 1, 2, 3].flatMap((i) =>
      (["flannel", "antrea"] as const).map((scenarioId) => ({
        scenarioId,
        metric: "udp.throughput",
        paramsKey: canonicalJson({ path: "pod-pod", streams: 1 }),
        runs: scenarioId === "flannel" ? [7.6 + i / 100, 7.7, 7.65] : [3.9 + i / 100, 4, 3.95],
      })),
    );
    const pooled = check(
      lab.scenarios,
      withHistory(lab.figures, earlier),
      {},
      { line: tcpByStreams, bars: "throughput" },
    );
    const udpOneStream = pooled.find((p) => p.metric === "udp.throughput" && p.params.streams === 1);
    expect(udpOneStream?.versus?.verdict).toBe("worse");
  });

  it("judges by the diffs it is given, not again", () => {
    // Every verdict of the table's diffs turned "worse": the tooltips say so only if they read them.
    const diffs = candidateDiffs(tke.scenarios, tke.figures);
    const worse = new Map(
      [...diffs].map(([id, rows]) => [
        id,
        rows.map((r) => ({ ...r, result: { ...r.result, verdict: "worse" as const } })),
      ]),
    );
    const baseline = tke.scenarios[0]?.id;
    const lines = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute", baseline, diffs: worse });
    const judged = lines.series.flatMap((s) => s.points).filter((p) => p.versus);
    expect(judged.length).toBeGreaterThan(0);
    expect(new Set(judged.map((p) => p.versus?.verdict))).toEqual(new Set(["worse"]));
  });

  it("judges with the p-values adjusted for the figures compared at once, as the table does", () => {
    // Two request rates of three runs a side (made up for the adjustment; scipy 1.17):
    // services 0: b [100, 104, 98], c [108, 113, 106]: stats.ttest_ind(np.log(c), np.log(b), equal_var=False)
    // p = 0.03718618209165696, ratio 1.0827201427902984: alone, better (p < 0.05, beyond +5 %);
    // services 5000: b [100, 110, 90], c [104, 94, 99]: p = 0.9148137994541979.
    // stats.false_discovery_control([0.03718618209165696, 0.9148137994541979]) = [0.07437236, 0.9148138]: no
    // longer significant, and the 90 % interval 1.0247–1.1440 is not within ±5 %: inconclusive.
    const bundle = (cni: string, at0: number[], at5000: number[]) => ({
      schema: "cnibench/bundle@1",
      cluster: { name: "adjusted", provider: "on-prem" },
      node: { sku: "lab", kernel: "6.8.0" },
      cni: { name: cni, mode: "native", label: cni },
      results: [
        [0, at0],
        [5000, at5000],
      ].map(([services, samples]) => ({
        metric: "http.rps",
        value: median(samples as number[]),
        unit: "req/s",
        params: { connection: "short", services },
        aggregate: "median",
        samples,
      })),
    });
    const two = seedsOf({
      base: [{ name: "base", bundle: bundle("base", [100, 104, 98], [100, 110, 90]) }],
      cand: [{ name: "cand", bundle: bundle("cand", [108, 113, 106], [104, 94, 99]) }],
    });
    const data = crossoverOf(two.scenarios, two.figures, { ...shortRps, y: "absolute", baseline: "base" });
    const cand = data.series.find((s) => s.scenarioId === "cand");
    expect(cand?.points.map((p) => p.versus?.verdict)).toEqual(["inconclusive", "inconclusive"]);
    expect(cand?.points[0]?.versus?.words).toBe("3 vs 3 runs, 95 % 1.008–1.163");
  });
});
