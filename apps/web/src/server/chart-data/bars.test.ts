// Bar charts with the TKE seed bundles as they ship in demo-data/ (parsed by the contract) and InfraBuilder's runs.
import { loadSeeds, seedsOf } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { barView, overheadsOf } from "./bars";
import { crossoverOf } from "./crossover";

const tke = loadSeeds({
  a: ["tke-a-iptables-service-scale.json", "tke-a-iptables-main.json"],
  b: [
    "tke-b-cilium-native-service-scale.json",
    "tke-b-cilium-native-main.json",
    "tke-b-cilium-native-hubble-policy.json",
  ],
  c: [
    "tke-c-cilium-overlay-service-scale.json",
    "tke-c-cilium-overlay-main.json",
    "tke-c-cilium-overlay-hubble-policy.json",
  ],
});

const shortRps = { metric: "http.rps", x: "services", where: { connection: "short" } } as const;

describe("overheadsOf", () => {
  it("computes policy and Hubble overheads from the raw RPS pairs", () => {
    const bars = overheadsOf(tke.scenarios, tke.figures);
    const l7 = bars?.data.find((d) => d.category.startsWith("L7 policy"));
    // Overlay: (101,514 − 11,483) / 101,514 = 88.69 %.
    expect(l7?.values.c?.y).toBeCloseTo(88.69, 2);
    expect(l7?.values.b?.y).toBeGreaterThan(80);
    expect(l7?.values.a).toBeUndefined();
    const hubble = bars?.data.find((d) => d.category.startsWith("Hubble on"));
    // Overlay: (101,675 − 101,434) / 101,675 = 0.24 %.
    expect(hubble?.values.c?.y).toBeCloseTo(0.237, 2);
  });
});

describe("barView", () => {
  it("groups latency by the chosen percentile, a bar per cluster", () => {
    const charts = barView("latency", tke.scenarios, tke.figures, { percentile: "p99" });
    const rr = charts.find((c) => c.metric === "tcp.rr.latency");
    expect(rr?.unit).toBe("µs");
    expect(rr?.series.map((s) => s.label)).toEqual(["kube-proxy iptables", "Cilium Native", "Cilium Overlay"]);
    expect(rr?.data).toHaveLength(1);
    expect(rr?.data[0]?.values.c?.y).toBe(118);
  });
});

describe("whiskers", () => {
  // Cilium Overlay's p99 TCP_RR latency measured by a campaign of three bundles: runs 110, 118, 131 µs.
  const campaign = tke.figures.map((f) =>
    f.scenarioId === "c" && f.metric === "tcp.rr.latency" && f.params.percentile === "p99"
      ? { ...f, value: 118, samples: [131, 118, 110], n: 3, campaignBundleIds: ["b3", "b2", "b1"] }
      : f,
  );

  it("gives a bar of several runs its min–max and summary, and a single run none", () => {
    const rr = barView("latency", tke.scenarios, campaign, { percentile: "p99" }).find(
      (c) => c.metric === "tcp.rr.latency",
    );
    const overlay = rr?.data[0]?.values.c;
    expect(overlay?.y).toBe(118);
    expect(overlay?.whisker).toEqual([110, 131]);
    expect(overlay?.summary).toMatchObject({ n: 3, campaignBundleIds: ["b3", "b2", "b1"] });
    expect(overlay?.summary?.distribution).toMatchObject({ n: 3, median: 118, min: 110, max: 131 });
    const iptables = rr?.data[0]?.values.a;
    expect(iptables?.whisker).toBeNull();
    expect(iptables?.summary).toEqual({ n: 1, campaignBundleIds: expect.any(Array), distribution: null });
  });

  it("draws whiskers on absolute crossover points, not on degradation, and says n either way", () => {
    const runs = tke.figures.map((f) =>
      f.scenarioId === "a" && f.metric === "http.rps" && f.params.services === 0 && f.params.connection === "short"
        ? { ...f, samples: [f.value - 100, f.value, f.value + 300], n: 3, campaignBundleIds: ["x", "y", "z"] }
        : f,
    );
    const absolute = crossoverOf(tke.scenarios, runs, { ...shortRps, y: "absolute" });
    const first = absolute.series.find((s) => s.scenarioId === "a")?.points[0];
    expect(first?.summary?.n).toBe(3);
    const y = first?.y ?? Number.NaN;
    expect(first?.whisker).toEqual([y - 100, y + 300]);
    const degradation = crossoverOf(tke.scenarios, runs, { ...shortRps, y: "degradation" });
    const point = degradation.series.find((s) => s.scenarioId === "a")?.points[0];
    expect(point?.whisker).toBeNull();
    expect(point?.summary?.n).toBe(3);
  });

  it("gives overheads, differences of two figures, no runs of their own", () => {
    const l7 = overheadsOf(tke.scenarios, tke.figures)?.data.find((d) => d.category.startsWith("L7 policy"));
    expect(l7?.values.c).toMatchObject({ summary: null, whisker: null });
  });
});

describe("a node-to-node reference (no CNI)", () => {
  // Run 1 of InfraBuilder's 2024 tree (packages/importers/fixtures/real/infrabuilder-2024/*/1/all.results):
  // DTM_BW and DTS_BW in bit/s, flannel pod to pod and baremetal node to node.
  const run = (cni: { name: string; mode: string; label: string }, path: string, dtm: number, dts: number) => ({
    schema: "cnibench/bundle@1",
    cluster: { name: "infrabuilder-2024", provider: "on-prem" },
    node: { sku: "bare-metal-40g", kernel: "5.15.0-94-generic", nicGbps: 40 },
    cni,
    results: [
      { metric: "tcp.throughput", value: dtm, unit: "bit/s", params: { path, streams: 8 } },
      { metric: "tcp.throughput", value: dts, unit: "bit/s", params: { path, streams: 1 } },
    ],
  });
  const lab = seedsOf({
    flannel: [
      {
        name: "flannel-1",
        bundle: run(
          { name: "flannel", mode: "overlay-vxlan", label: "flannel" },
          "pod-pod",
          38956107752.5739,
          19587401486.345478,
        ),
      },
    ],
    baremetal: [
      {
        name: "baremetal-1",
        bundle: run(
          { name: "none", mode: "host-network", label: "baremetal" },
          "node-node",
          39592019811.1303,
          31924635315.110092,
        ),
      },
    ],
  });

  // In Gbit/s as the contract stores them: bit/s ÷ 1e9, rounded to 12 significant digits.
  it("is a dashed line in each group of the same params, path aside, never a bar", () => {
    const [chart] = barView("throughput", lab.scenarios, lab.figures, { percentile: "p99" });
    expect(chart?.series.map((s) => s.id)).toEqual(["flannel"]);
    expect(chart?.data.map((d) => [d.category, d.values.flannel?.y, d.reference])).toEqual([
      ["path pod-pod · streams 1", 19.5874014863, { y: 31.9246353151, label: "node-to-node reference (baremetal)" }],
      ["path pod-pod · streams 8", 38.9561077526, { y: 39.5920198111, label: "node-to-node reference (baremetal)" }],
    ]);
  });

  it("is drawn as bars when it is all there is", () => {
    const alone = {
      scenarios: lab.scenarios.filter((s) => s.id === "baremetal"),
      figures: lab.figures.filter((f) => f.scenarioId === "baremetal"),
    };
    const [chart] = barView("throughput", alone.scenarios, alone.figures, { percentile: "p99" });
    expect(chart?.series.map((s) => s.id)).toEqual(["baremetal"]);
    expect(chart?.data.every((d) => !d.reference)).toBe(true);
  });
});
