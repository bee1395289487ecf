// Bar charts with the TKE seed bundles as they ship in demo-data/ (parsed by the contract) and InfraBuilder's runs.
import { barScores, inScope, rankByScore, topCount } from "@cnibench/charts/top";
import { importFiles } from "@cnibench/importers";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { seedsOf, tkeSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { barView, nicCeilings, overheadsOf } from "./bars";
import { crossoverOf } from "./crossover";

const tke = tkeSeeds();

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
    const reference = (y: number, streams: number) => ({
      y,
      label: "node-to-node reference (baremetal)",
      scenarioId: "baremetal",
      scenario: "baremetal",
      params: { path: "node-node", streams },
    });
    expect(chart?.data.map((d) => [d.category, d.values.flannel?.y, d.reference])).toEqual([
      ["path pod-pod · streams 1", 19.5874014863, reference(31.9246353151, 1)],
      ["path pod-pod · streams 8", 38.9561077526, reference(39.5920198111, 8)],
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

describe("twenty-five setups of one benchmark (InfraBuilder's tree: 3 real setups, 22 derived from flannel)", () => {
  // Each setup's three runs as the database serves a campaign: the runs' median as the figure, the
  // runs as its samples. Scenario ids are the setups' names.
  const lab = (() => {
    const bySetup: Record<string, { name: string; bundle: unknown }[]> = {};
    for (const [i, b] of importFiles(infrabuilderSetups(), infrabuilderEnvironment).bundles.entries()) {
      const setup = b.bundle.cni.label ?? b.bundle.cni.name;
      bySetup[setup] = [...(bySetup[setup] ?? []), { name: `${setup}-${i}`, bundle: b.bundle }];
    }
    const { scenarios, figures } = seedsOf(bySetup);
    const campaigns = new Map<string, typeof figures>();
    for (const f of figures) {
      const key = `${f.scenarioId} ${f.metric} ${JSON.stringify(Object.entries(f.params).sort())}`;
      campaigns.set(key, [...(campaigns.get(key) ?? []), f]);
    }
    const runs = [...campaigns.values()].map((fs) => {
      const samples = fs.map((f) => f.value).sort((a, b) => a - b);
      const value = samples[Math.floor(samples.length / 2)] ?? Number.NaN;
      return {
        ...(fs[0] as (typeof figures)[number]),
        value,
        samples,
        n: fs.length,
        campaignBundleIds: fs.map((f) => f.bundleId),
      };
    });
    return { scenarios, figures: runs };
  })();
  const [tcp] = barView("throughput", lab.scenarios, lab.figures, { percentile: "p99" });

  it("draws the 24 datapaths as bars with their runs' whiskers, bare metal as a line in every group", () => {
    expect(lab.scenarios).toHaveLength(25);
    expect(tcp?.metric).toBe("tcp.throughput");
    expect(tcp?.series).toHaveLength(24);
    expect(tcp?.series.map((s) => s.id)).not.toContain("baremetal");
    expect(tcp?.data.map((d) => d.category)).toEqual([
      "path pod-pod · streams 1",
      "path pod-pod · streams 8",
      "path service · streams 1",
      "path service · streams 8",
    ]);
    for (const d of tcp?.data ?? []) expect(d.reference?.scenarioId, d.category).toBe("baremetal");
    // baremetal/{1,2,3}/all.results DTM_BW: 39,592,019,811.1303, 39,600,058,719.981285 and
    // 39,430,459,343.887016 bit/s; the median is run 1's, in Gbit/s to 12 significant digits.
    expect(tcp?.data[1]?.reference).toEqual({
      y: 39.5920198111,
      label: "node-to-node reference (baremetal)",
      scenarioId: "baremetal",
      scenario: "baremetal",
      params: { path: "node-node", streams: 8 },
    });
    // flannel/{1,2,3}/all.results DTM_BW: 38.9561077526, 38.8989641385, 38.7835661812 Gbit/s.
    expect(tcp?.data[1]?.values.flannel).toMatchObject({ y: 38.8989641385, whisker: [38.7835661812, 38.9561077526] });
    expect(tcp?.data[1]?.values.flannel?.summary?.n).toBe(3);
  });

  it("finds the pairs one setting apart and draws what each setting costs (issue 40)", () => {
    const charts = barView("overheads", lab.scenarios, lab.figures, { percentile: "p99" });
    // No http.rps in these bundles: no policy/Hubble feature chart, only pairs of setups.
    expect(charts.map((c) => c.title)).toEqual([
      "Cost of observability (Hubble) on TCP throughput",
      "Cost of observability (Hubble) on UDP throughput",
      "Cost of encryption on TCP throughput",
      "Cost of encryption on UDP throughput",
      "Cost of kube-proxy replacement on TCP throughput",
      "Cost of kube-proxy replacement on UDP throughput",
      "Cost of encapsulation on TCP throughput",
      "Cost of encapsulation on UDP throughput",
    ]);
    const encryption = charts.find((c) => c.key === "encryption:tcp.throughput")!;
    expect(encryption.series.map((s) => s.label)).toEqual([
      "antrea-ipsec vs antrea",
      "antrea-wg vs antrea",
      "calico-ebpf-wg vs calico-ebpf",
      "calico-vpp-ipsec vs calico-vpp",
      "calico-vpp-wg vs calico-vpp",
      "calico-wg vs calico",
      "cilium-ipsec vs cilium",
      "cilium-wg vs cilium",
    ]);
    // The cost, worked out here from the runs: 1 − geometric mean(cilium-wg) / geometric mean(cilium).
    const runs = (id: string) =>
      lab.figures.find(
        (f) =>
          f.scenarioId === id && f.metric === "tcp.throughput" && f.params.streams === 1 && f.params.path === "pod-pod",
      )!.samples;
    const gm = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
    const expected = (1 - gm(runs("cilium-wg")) / gm(runs("cilium"))) * 100;
    const bar = encryption.data.find((d) => d.category === "path pod-pod · streams 1")?.values["cilium-wg\u0000cilium"];
    expect(bar?.y).toBeCloseTo(expected, 9);
    expect(expected).toBeGreaterThan(50); // WireGuard keeps a fraction of the unencrypted rate
    expect(bar?.versus).toMatchObject({ baseline: "cilium", verdict: "worse" });
  });

  it("resources: CPU per Gbit/s moved first, raw CPU and memory after, with short group names (issue 40)", () => {
    const charts = barView("resources", lab.scenarios, lab.figures, { percentile: "p99" });
    expect(charts.map((c) => c.title)).toEqual(["CPU per Gbit/s moved", "CPU usage", "Memory usage"]);
    const [perGbit, cpu] = charts;
    expect(perGbit?.unit).toBe("millicores per Gbit/s");
    // 8 traffic tests (tcp and udp, pod-pod and service, 1 and 8 streams; tcp service ×1 not run) × 2 roles.
    expect(perGbit?.data.map((d) => d.category)).toContain("tcp ×8 · pod-pod · client");
    expect(cpu?.data.map((d) => d.category)).toContain("idle · server");
    // Group names in at most three lines of at most 8 characters (a band is ≈55 px at 18 groups in
    // 1,000 px), and "component node", shared by all, said by none.
    for (const c of charts)
      for (const d of c.data) {
        expect(d.category.split(" · ").length, d.category).toBeLessThanOrEqual(3);
        for (const line of d.category.split(" · ")) expect(line.length, d.category).toBeLessThanOrEqual(8);
      }
    for (const c of charts) for (const d of c.data) expect(d.category).not.toMatch(/component/);
    // flannel's real runs count user + system only: beside setups counted on every CPU mode it is left
    // out rather than drawn cheap (wholeCpuOnly). cilium's client during tcp ×8 pod-pod, every mode: its
    // CPU median over its throughput median, here by hand.
    expect(perGbit?.series.map((s) => s.id)).not.toContain("flannel");
    const fig = (metric: string, extra: Record<string, unknown>) =>
      lab.figures.find(
        (f) =>
          f.scenarioId === "cilium" &&
          f.metric === metric &&
          f.params.path === "pod-pod" &&
          f.params.streams === 8 &&
          Object.entries(extra).every(([k, v]) => f.params[k] === v),
      )!;
    const expected =
      fig("cpu.usage", { protocol: "tcp", role: "client", accounting: "all-modes" }).value /
      fig("tcp.throughput", {}).value;
    const bar = perGbit?.data.find((d) => d.category === "tcp ×8 · pod-pod · client")?.values.cilium;
    expect(bar?.y).toBe(expected);
    // Bare metal is no datapath: not a bar of CPU per Gbit/s.
    expect(perGbit?.series.map((s) => s.id)).not.toContain("baremetal");
  });

  it("draws the NIC's line rate over throughput, never over loss", () => {
    const charts = barView("throughput", lab.scenarios, lab.figures, { percentile: "p99" });
    const nic = [{ y: 40, label: "NIC 40 Gbit/s (bare-metal-40g)" }];
    expect(charts.map((c) => [c.metric, c.references])).toEqual([
      ["tcp.throughput", nic],
      ["udp.throughput", nic],
      ["udp.loss", []],
    ]);
    const many = ["m5.large", "c5.xlarge", "m5.xlarge", "c6i.large"].map((sku) => ({
      ...(lab.scenarios[0] as (typeof lab.scenarios)[number]),
      sku,
      nicGbps: 25,
    }));
    expect(nicCeilings([...many, { ...(lab.scenarios[0] as (typeof lab.scenarios)[number]), nicGbps: null }])).toEqual([
      { y: 25, label: "NIC 25 Gbit/s (c5.xlarge, c6i.large, m5.large and 1 more)" },
    ]);
  });

  it("draws the best of TCP throughput and keeps the worst, the encrypted contrast, in view", () => {
    const ranked = rankByScore(tcp?.series.map((s) => s.id) ?? [], barScores(tcp?.data ?? [], "higher"), "lower");
    const shown = [...inScope(ranked, false)];
    expect(shown).toHaveLength(topCount);
    // The setups' factors (test-support/infrabuilder-setups.ts): the six best at 0.98 to 1.0 of
    // flannel's TCP rate, and the two worst, IPsec (0.12 to 0.16 of flannel's): the contrast stays.
    for (const id of shown.slice(0, 6)) expect(id).not.toMatch(/wg|ipsec|vpp|kubeovn|hubble-full/);
    for (const id of shown.slice(6)) expect(id).toMatch(/ipsec/);
    // Last, encrypted setups at 0.14 to 0.2 of flannel's TCP and UDP: calico-vpp-ipsec (0.14), calico-vpp-wg
    // (0.2) and cilium-ipsec (0.16). antrea-ipsec's real runs (0.12 at 8 streams, but ≈0.35 at 1 stream) place
    // it less low over all groups, each group weighing the same.
    expect(ranked.slice(-3).sort()).toEqual(["calico-vpp-ipsec", "calico-vpp-wg", "cilium-ipsec"]);
  });
});
