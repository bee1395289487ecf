// The guide's ranking on the five seed benchmarks as they ship in demo-data/bundles, read through
// the contract. Expected numbers are recomputed here from the raw figures, not copied from the output.
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { describe, expect, it } from "vitest";
import { reason, trimEvidence } from "./figures.ts";
import type { GuideAnswers } from "./questions.ts";
import { guideMetrics, recommendDatapaths } from "./rank.ts";
import type { GuideFigure, GuideResult, RankedOption, Reason } from "./types.ts";

const demo = loadDemoData();

function ask(answers: Partial<GuideAnswers>, figures: readonly GuideFigure[] = demo.figures): GuideResult {
  return recommendDatapaths({
    answers: { cloud: null, sku: null, services: 1000, connections: "keepalive", needs: [], ...answers },
    scenarios: demo.scenarios,
    figures,
  });
}

/** The raw figure of a demo bundle, found by metric and params. */
function raw(bundle: string, metric: string, params: Record<string, unknown>): number {
  const found = demo.figures.filter(
    (f) =>
      f.bundleId === bundle &&
      f.metric === metric &&
      Object.keys(f.params).length === Object.keys(params).length &&
      Object.entries(params).every(([k, v]) => f.params[k] === v),
  );
  expect(found, `${bundle} ${metric} ${JSON.stringify(params)}`).toHaveLength(1);
  return found[0]!.value;
}

const shortRps = (cluster: string, services: number) =>
  raw(`tke-${cluster}-service-scale`, "http.rps", {
    connection: "short",
    concurrency: 64,
    target: "service",
    services,
  });

const option = (r: GuideResult, id: string): RankedOption => {
  const o = r.options.find((x) => x.id === id);
  if (!o) throw new Error(`no option ${id} in ${r.options.map((x) => x.id).join(", ")}`);
  return o;
};
/** The two EKS setups' keepalive sweeps as the guide lists them (demo data). */
const eksSweep = {
  a: "AWS VPC CNI (A) 4,197 req/s at 4 → 4,178 req/s at 1,000 Services (−0.5 %)",
  e: "Cilium ENI + tuning (E) 4,405 req/s at 4 → 4,221 req/s at 104 Services (−4.2 %)",
};
const find = (reasons: readonly Reason[], pattern: RegExp) => reasons.filter((x) => pattern.test(x.text));
const crossingAt = (text: string) => Number(/at ≈([\d,]+) Services/.exec(text)?.[1]?.replaceAll(",", ""));

const ids = {
  iptables: "tke-vpc-cni:vpc:iptables",
  native: "cilium:native:ebpf:chained-tke-vpc-cni",
  overlay: "cilium:overlay-vxlan:ebpf",
  awsVpcCni: "aws-vpc-cni:eni:iptables",
  ciliumKubeProxy: "cilium:overlay-vxlan:iptables",
  ciliumEni: "cilium:eni:ebpf",
};

/** Where two straight segments meet, from the raw figures at the two steps. */
function meet(x0: number, x1: number, a0: number, a1: number, b0: number, b1: number): number {
  const d0 = a0 - b0;
  const d1 = a1 - b1;
  return x0 + ((x1 - x0) * d0) / (d0 - d1);
}

describe("short-lived connections with 30,000 Services on TKE", () => {
  const r = ask({ cloud: "tke", services: 30_000, connections: "short" });

  it("ranks Cilium (overlay, then native) above kube-proxy iptables, by the measured RPS at 30,000", () => {
    expect(r.scope).toMatchObject({ clouds: ["tke"], skus: ["SA5.LARGE8"], fallback: null });
    expect(r.performanceMatters).toBe(true);
    expect(r.options.map((o) => o.id)).toEqual([ids.overlay, ids.native, ids.iptables]);
    // The order is the order of the raw figures at 30,000 Services.
    expect(shortRps("c-cilium-overlay", 30_000)).toBeGreaterThan(shortRps("b-cilium-native", 30_000));
    expect(shortRps("b-cilium-native", 30_000)).toBeGreaterThan(shortRps("a-iptables", 30_000));
    const top = find(option(r, ids.overlay).reasons, /^Short-lived connections at 30,000 Services/)[0]!;
    expect(top.kind).toBe("measured");
    expect(top.effect).toBe("for");
    expect(top.text).toContain("12,879 req/s");
    expect(top.evidence.map((e) => [e.bundleId, e.params.services, e.value])).toEqual([
      ["tke-c-cilium-overlay-service-scale", 0, shortRps("c-cilium-overlay", 0)],
      ["tke-c-cilium-overlay-service-scale", 30_000, shortRps("c-cilium-overlay", 30_000)],
    ]);
  });

  it("cites the crossovers computed from the figures: overlay ≈19,649 and native ≈24,725 Services", () => {
    const overlayAt = meet(
      10_000,
      20_000,
      shortRps("c-cilium-overlay", 10_000),
      shortRps("c-cilium-overlay", 20_000),
      shortRps("a-iptables", 10_000),
      shortRps("a-iptables", 20_000),
    );
    const nativeAt = meet(
      20_000,
      30_000,
      shortRps("b-cilium-native", 20_000),
      shortRps("b-cilium-native", 30_000),
      shortRps("a-iptables", 20_000),
      shortRps("a-iptables", 30_000),
    );
    expect(Math.round(overlayAt)).toBe(19_649);
    expect(Math.round(nativeAt)).toBe(24_725);

    const overlayCross = find(option(r, ids.overlay).reasons, /overtakes kube-proxy iptables/);
    expect(overlayCross).toHaveLength(1);
    expect(Math.abs(crossingAt(overlayCross[0]!.text) - overlayAt)).toBeLessThan(1);
    expect(overlayCross[0]!.effect).toBe("for");
    // The four figures it was interpolated from: both lines at 10,000 and 20,000 Services.
    expect(overlayCross[0]!.evidence.map((e) => `${e.bundleId}@${e.params.services}`).sort()).toEqual([
      "tke-a-iptables-service-scale@10000",
      "tke-a-iptables-service-scale@20000",
      "tke-c-cilium-overlay-service-scale@10000",
      "tke-c-cilium-overlay-service-scale@20000",
    ]);
    for (const e of overlayCross[0]!.evidence) {
      expect(e.scenarioId).toBe(demo.scenarioOf(e.bundleId));
    }

    const nativeCross = find(option(r, ids.native).reasons, /Cilium Native overtakes kube-proxy iptables/);
    expect(Math.abs(crossingAt(nativeCross[0]!.text) - nativeAt)).toBeLessThan(1);
    // kube-proxy iptables hears both, against it.
    const against = find(option(r, ids.iptables).reasons, /overtakes kube-proxy iptables/);
    expect(against.map((x) => [Math.round(crossingAt(x.text)), x.effect])).toEqual([
      [19_649, "against"],
      [24_725, "against"],
    ]);
    expect(r.summary.map((s) => s.text).join("\n")).toMatch(/Cilium Overlay overtakes kube-proxy iptables at ≈19,649/);
  });

  it("turns the order round below the crossover: at 1,000 Services kube-proxy iptables leads", () => {
    const small = ask({ cloud: "tke", services: 1000, connections: "short" });
    expect(small.options[0]!.id).toBe(ids.iptables);
    const expected =
      shortRps("a-iptables", 0) + ((shortRps("a-iptables", 5000) - shortRps("a-iptables", 0)) * 1000) / 5000;
    const reasonText = find(small.options[0]!.reasons, /^Short-lived connections at 1,000/)[0]!.text;
    expect(reasonText).toContain(`${new Intl.NumberFormat("en-US").format(Math.round(expected))} req/s`);
    expect(reasonText).toContain("interpolated between 0 and 5,000 Services");
  });

  it("reads a figure changed under the same scenarios, not the line drawn before it", () => {
    ask({ cloud: "tke", services: 1000, connections: "short" });
    const changed = (f: GuideFigure) =>
      f.bundleId === "tke-a-iptables-service-scale" && f.params.connection === "short" && f.params.services === 5000;
    const figures = demo.figures.map((f) => (changed(f) ? { ...f, value: f.value * 2 } : f));
    const again = ask({ cloud: "tke", services: 1000, connections: "short" }, figures);
    const expected =
      shortRps("a-iptables", 0) + ((2 * shortRps("a-iptables", 5000) - shortRps("a-iptables", 0)) * 1000) / 5000;
    const reasonText = find(option(again, ids.iptables).reasons, /^Short-lived connections at 1,000/)[0]!.text;
    expect(reasonText).toContain(`${new Intl.NumberFormat("en-US").format(Math.round(expected))} req/s`);
  });

  it("extrapolates past 30,000 Services only with the label, and says so in the caveats", () => {
    const far = ask({ cloud: "tke", services: 50_000, connections: "short" });
    const reading = find(option(far, ids.iptables).reasons, /^Short-lived connections at 50,000/)[0]!;
    expect(reading.kind).toBe("extrapolated");
    const slope = (shortRps("a-iptables", 30_000) - shortRps("a-iptables", 20_000)) / 10_000;
    const expected = shortRps("a-iptables", 30_000) + slope * 20_000;
    expect(reading.text).toContain(`≈${new Intl.NumberFormat("en-US").format(Math.round(expected))} req/s`);
    expect(reading.text).toMatch(/extrapolated linearly .* past the measured range/);
    expect(far.caveats.map((c) => c.text).join("\n")).toMatch(
      /stop at 30,000 Services: figures at 50,000 are extrapolated/,
    );
    expect(far.summary[0]!.kind).toBe("extrapolated");
  });

  it("computes a crossing past the measured range by extrapolation, labelled as such", () => {
    // Without the 30,000-Service step, native and iptables have not crossed by 20,000.
    const cut = demo.figures.filter((f) => !(f.metric === "http.rps" && f.params.services === 30_000));
    const r2 = ask({ cloud: "tke", services: 30_000, connections: "short" }, cut);
    const at20 = (c: string) => shortRps(c, 20_000);
    const at10 = (c: string) => shortRps(c, 10_000);
    const expected = meet(
      20_000,
      30_000,
      at20("b-cilium-native"),
      at20("b-cilium-native") + (at20("b-cilium-native") - at10("b-cilium-native")),
      at20("a-iptables"),
      at20("a-iptables") + (at20("a-iptables") - at10("a-iptables")),
    );
    const extrapolated = find(option(r2, ids.native).reasons, /^Extrapolated, not measured/);
    expect(extrapolated).toHaveLength(1);
    expect(extrapolated[0]!.kind).toBe("extrapolated");
    expect(Math.abs(crossingAt(extrapolated[0]!.text) - expected)).toBeLessThan(1);
    expect(extrapolated[0]!.text).toContain("the measurements stop at 20,000");
    // Without the 30,000 step overlay is within 5 % of iptables at 20,000: the crossing at ≈19,649 is
    // not decided on its far side, so it is not claimed (issue 40: no crossover inside the noise).
    expect(find(option(r2, ids.overlay).reasons, /^Cilium Overlay overtakes/)).toHaveLength(0);
  });

  it("does not compute a crossover from an approximate figure, and says why", () => {
    const approx = demo.figures.map((f) =>
      f.bundleId === "tke-c-cilium-overlay-service-scale" && f.params.services === 20_000
        ? { ...f, qualifier: "approx" as const }
        : f,
    );
    const r2 = ask({ cloud: "tke", services: 30_000, connections: "short" }, approx);
    expect(find(option(r2, ids.overlay).reasons, /^Cilium Overlay overtakes/)).toEqual([]);
    const undecided = find(r2.caveats, /Cilium Overlay may overtake kube-proxy iptables between 10,000 and 20,000/);
    expect(undecided).toHaveLength(1);
    expect(undecided[0]!.approximate).toBe(true);
  });
});

describe("approximate figures", () => {
  it("says so when the figure that puts an option first is approximate", () => {
    const approx = demo.figures.map((f) =>
      f.bundleId === "tke-c-cilium-overlay-service-scale" && f.params.services === 30_000
        ? { ...f, qualifier: "approx" as const }
        : f,
    );
    const r = ask({ cloud: "tke", services: 30_000, connections: "short" }, approx);
    expect(r.options[0]!.id).toBe(ids.overlay);
    const reading = find(r.options[0]!.reasons, /^Short-lived connections at 30,000/)[0]!;
    expect(reading.approximate).toBe(true);
    expect(reading.text).toMatch(/rests on an approximate or bounded figure/);
    expect(
      find(r.caveats, /puts Cilium overlay \(VXLAN\), kube-proxy replacement first rests on approximate/),
    ).toHaveLength(1);
    // With exact figures there is no such caveat.
    const exact = ask({ cloud: "tke", services: 30_000, connections: "short" });
    expect(find(exact.caveats, /approximate/)).toEqual([]);
  });
});

describe("keepalive-only with 1,000 Services", () => {
  it("says the choice barely matters for performance on TKE and decides on features", () => {
    const r = ask({ cloud: "tke", services: 1000, connections: "keepalive" });
    expect(r.performanceMatters).toBe(false);
    const p99 = [
      raw("tke-a-iptables-main", "http.latency", { percentile: "p99", qps: 1000 }),
      raw("tke-b-cilium-native-main", "http.latency", { percentile: "p99", qps: 1000 }),
      raw("tke-c-cilium-overlay-main", "http.latency", { percentile: "p99", qps: 1000 }),
    ];
    // Within the ±10% latency band of each other: that is what "barely matters" rests on.
    expect((Math.max(...p99) - Math.min(...p99)) / Math.min(...p99)).toBeLessThanOrEqual(0.1);
    const barely = find(r.summary, /barely matters for performance/);
    expect(barely).toHaveLength(1);
    expect(barely[0]!.evidence.map((e) => e.value).sort()).toEqual([...p99].sort());
    // One run each: equivalent by the ±10 % latency margin alone, and said to rest on a single value.
    expect(barely[0]!.text).toMatch(/across 3 datapaths, equivalent within ±10 % on a single value\.$/);
    expect(r.summary[0]!.text).toMatch(
      /do not separate the datapaths \(equivalent within ±10 % on a single value\), so it leads on the features it offers/,
    );
    // Ordered by features, not by the saturated RPS where kube-proxy iptables leads.
    expect(r.options.map((o) => o.id)).toEqual([ids.overlay, ids.native, ids.iptables]);
    expect(r.options.map((o) => o.features)).toEqual([...r.options.map((o) => o.features)].sort((a, b) => b - a));
    expect(new Set(r.options.map((o) => o.performance)).size).toBe(1);
    // The saturated gap is still said, as information.
    const gap =
      (raw("tke-a-iptables-main", "http.rps", { connection: "keepalive", concurrency: 64, target: "service" }) /
        raw("tke-b-cilium-native-main", "http.rps", { connection: "keepalive", concurrency: 64, target: "service" }) -
        1) *
      100;
    expect(find(r.summary, /At CPU saturation/)[0]!.text).toContain(`by ${gap.toFixed(1)} %`);
  });

  it("does not say so on EKS, where p99 at 1,000 QPS spreads past the noise band", () => {
    const r = ask({ cloud: "eks", services: 1000, connections: "keepalive" });
    expect(r.performanceMatters).toBe(true);
    expect(find(r.summary, /barely matters/)).toEqual([]);
    // Keepalive RPS against the Service count, measured on EKS by two setups: 4,178 / 4,197 − 1 = −0.45 %
    // and 4,221 / 4,405 − 1 = −4.18 % (by hand), both inside the ±5 % margin for request rates on one
    // value a side: one sentence for both.
    expect(find(r.summary, /^Keepalive RPS/).map((l) => l.text)).toEqual([
      `Keepalive RPS hardly moves with the Service count for 2 datapaths on EKS m6i.xlarge: ${eksSweep.a} and ${eksSweep.e}, equivalent within ±5 % on a single value.`,
    ]);
  });

  it("says how keepalive RPS moved with the Service count once per testbed and outcome, not per datapath", () => {
    // EKS's sweep to 1,000 Services (4,197 req/s at 4, 4,178 at 1,000), copied onto two more EKS setups:
    // one 1 % faster throughout (−0.45 % too: hardly moves, beside the two measured), one losing a fifth
    // at 1,000 (4,197 × 1.01 = 4,238.97 → 4,178 × 0.8 = 3,342.4: −21.15 %, by hand): two sentences.
    const sweep = (f: GuideFigure) =>
      f.metric === "http.rps" && f.params.connection === "keepalive" && typeof f.params.services === "number";
    const measured = demo.figures.filter(sweep);
    const source = demo.scenarios.find((s) => s.id === measured[0]!.scenarioId)!;
    expect(source.provider).toBe("eks");
    const own = measured.filter((f) => f.scenarioId === source.id);
    const others = demo.scenarios.filter(
      (s) => s.provider === "eks" && s.sku === source.sku && !measured.some((f) => f.scenarioId === s.id),
    );
    expect(others.length).toBeGreaterThanOrEqual(2);
    const [steady, falling] = others as [(typeof others)[number], (typeof others)[number]];
    const copies = [steady, falling].flatMap((s) =>
      own.map((f) => ({
        ...f,
        scenarioId: s.id,
        bundleId: `${f.bundleId}-${s.id}`,
        value: s === falling && f.params.services === 1000 ? f.value * 0.8 : f.value * 1.01,
      })),
    );
    const r = ask({ cloud: "eks", services: 1000, connections: "keepalive" }, [...demo.figures, ...copies]);
    expect(find(r.summary, /^Keepalive RPS/).map((l) => l.text)).toEqual([
      `Keepalive RPS hardly moves with the Service count for 3 datapaths on EKS m6i.xlarge: ${eksSweep.a}, ${steady.label} 4,239 req/s at 4 → 4,220 req/s at 1,000 Services (−0.5 %) and ${eksSweep.e}, equivalent within ±5 % on a single value.`,
      `Keepalive RPS moves with the Service count: 4,239 req/s at 4 and 3,342 req/s at 1,000 Services (−21.2 %), ${falling.label} on EKS m6i.xlarge.`,
    ]);
  });

  it("calls noisy runs inconclusive, not equivalent, and still decides on features", () => {
    // TKE's three p99 figures at 1,000 QPS (each 0.99 ms) given runs 20 % either side: on log values
    // sd 0.203 a side, se = √(2·0.0412/3) = 0.166, df 4, t0.95 = 2.132, so the 90 % interval of the
    // ratio is e^±0.354 = 0.70–1.42, far wider than ±10 %, and p = 1: inconclusive.
    const noisy = demo.figures.map((f) =>
      f.metric === "http.latency" && f.params.qps === 1000 && f.params.percentile === "p99"
        ? { ...f, samples: [f.value * 0.8, f.value, f.value * 1.2] }
        : f,
    );
    const r = ask({ cloud: "tke", services: 1000, connections: "keepalive" }, noisy);
    expect(find(r.summary, /barely matters/)).toEqual([]);
    expect(find(r.summary, /is 0\.99 ms across 3 datapaths, inconclusive at these runs\.$/)).toHaveLength(1);
    expect(r.summary[0]!.text).toMatch(/do not separate the datapaths \(inconclusive at these runs\)/);
    expect(
      find(option(r, ids.native).reasons, /^p99 HTTP latency at 1,000 QPS: .*inconclusive at these runs$/),
    ).toHaveLength(1);
    // Ordered by features, as with single runs.
    expect(r.performanceMatters).toBe(false);
    expect(r.options.map((o) => o.id)).toEqual([ids.overlay, ids.native, ids.iptables]);
  });
});

describe("needing L7 policy", () => {
  it("recommends Cilium and warns of the measured −86 … −89% RPS on the policed pods", () => {
    const r = ask({ cloud: "tke", services: 1000, connections: "keepalive", needs: ["l7Policy"] });
    expect(r.options[0]!.id).toBe(ids.overlay);
    expect(r.options[0]!.fit).toBe("good");
    expect(r.options[0]!.needs).toEqual([{ need: "l7Policy", status: "met", hard: true }]);
    // Chaining offers it only partly; TKE's VPC-CNI does not document it.
    expect(option(r, ids.native).needs[0]!.status).toBe("partial");
    expect(option(r, ids.iptables).needs[0]!.status).toBe("unknown");
    expect(r.options.at(-1)!.id).toBe(ids.iptables);

    const cost = (bundle: string) => {
      const none = raw(bundle, "http.rps", { connection: "keepalive", concurrency: 64, policy: "none" });
      const l7 = raw(bundle, "http.rps", { connection: "keepalive", concurrency: 64, policy: "l7" });
      return ((l7 - none) / none) * 100;
    };
    const native = cost("tke-b-cilium-native-hubble-policy");
    const overlay = cost("tke-c-cilium-overlay-hubble-policy");
    expect(native).toBeLessThan(-86);
    expect(overlay).toBeGreaterThan(-89);
    const warning = find(r.summary, /L7 policy is a performance cliff/)[0]!;
    expect(warning.text).toContain(`−${Math.abs(native).toFixed(1)} %`);
    expect(warning.text).toContain(`−${Math.abs(overlay).toFixed(1)} %`);
    expect(warning.evidence).toHaveLength(4);
    const own = find(option(r, ids.overlay).reasons, /^L7 policy: /)[0]!;
    expect(own.effect).toBe("against");
    expect(own.evidence.map((e) => e.params.policy)).toEqual(["none", "l7"]);
    // The capability reason cites the docs.
    const capability = find(option(r, ids.overlay).reasons, /^L7 \(HTTP\) policy: yes/)[0]!;
    expect(capability.kind).toBe("capability");
    expect(capability.sources[0]!.url).toMatch(/^https:\/\/docs\.cilium\.io\//);
  });

  it("on EKS puts AWS VPC CNI last and borrows Cilium's L7 cost from TKE, saying where it was measured", () => {
    const r = ask({ cloud: "eks", services: 1000, connections: "keepalive", needs: ["l7Policy"] });
    expect(r.options.at(-1)!.id).toBe(ids.awsVpcCni);
    expect(r.options.at(-1)!.fit).toBe("poor");
    const borrowed = find(option(r, ids.ciliumEni).reasons, /^L7 policy: /);
    expect(borrowed.length).toBeGreaterThan(0);
    expect(borrowed[0]!.text).toMatch(/TKE SA5\.LARGE8, measured outside your scope with the same CNI \(cilium\)/);
  });
});

describe("UDP-heavy traffic on EKS", () => {
  const r = ask({ cloud: "eks", services: 1000, connections: "keepalive", needs: ["udpHeavy"] });
  const loss = (bundle: string) => raw(bundle, "udp.loss", {});

  it("points at the bandwidth-manager scenario and its loss figures", () => {
    // EKS's tuned Cilium ENI (E: bandwidth manager, Hubble off) is a datapath of its own, and the best here.
    expect(r.options[0]!.id).toBe(`${ids.ciliumEni}|Hubble off`);
    const summary = find(r.summary, /^UDP loss on EKS m6i\.xlarge/)[0]!;
    expect(summary.text).toContain(
      `${loss("eks-e-cilium-eni-tuned-main")} % with a bandwidth manager (Cilium ENI + tuning (E))`,
    );
    expect(summary.text).toContain(
      `${Math.min(...["b-cilium-kube-proxy", "c-cilium-kube-proxy-less", "a-vpc-cni", "d-cilium-eni"].map((b) => loss(`eks-${b}-main`)))} to `,
    );
    expect(summary.evidence).toHaveLength(5);
    // Those without, from the lowest, each with its own loss (the seeds' figures, sorted here).
    const without = Object.entries({
      "a-vpc-cni": "AWS VPC CNI (A)",
      "b-cilium-kube-proxy": "Cilium + kube-proxy (B)",
      "c-cilium-kube-proxy-less": "Cilium kube-proxy-less (C)",
      "d-cilium-eni": "Cilium ENI (D)",
    })
      .map(([bundle, label]) => ({ label, value: loss(`eks-${bundle}-main`) }))
      .sort((a, b) => a.value - b.value);
    expect(summary.text).toContain(
      `without (${without
        .slice(0, 3)
        .map((x) => `${x.label} ${x.value} %`)
        .join(", ")} and 1 more)`,
    );
    const top = find(r.options[0]!.reasons, /^UDP loss /)[0]!;
    expect(top.evidence.map((e) => [e.bundleId, e.metric])).toEqual([
      ["eks-e-cilium-eni-tuned-main", "udp.loss"],
      ["eks-e-cilium-eni-tuned-main", "x.udp.throughput.sent"],
    ]);
    expect(top.text).toMatch(/^UDP loss 0\.03 % at 7\.96 Gbit\/s sent on /); // the seed's loss and sender rate
    const within = find(r.options[0]!.reasons, /bandwidth manager is the difference/)[0]!;
    expect(within.text).toContain(`${loss("eks-d-cilium-eni-main")} % without it (Cilium ENI (D))`);
    expect(within.effect).toBe("for");
    // AWS VPC CNI, with the highest loss among the options, comes last.
    expect(r.options.at(-1)!.id).toBe(ids.awsVpcCni);
  });
});

describe("scope and fallbacks", () => {
  it("says when the cloud has no data, falls back to the others and leaves out datapaths bound to them", () => {
    const r = ask({ cloud: "gke", services: 30_000, connections: "short" });
    expect(r.scope.fallback).toBe("cloud");
    expect(r.caveats[0]!.text).toMatch(/^No measurements on GKE yet: the figures below come from AKS, EKS and TKE/);
    expect(r.options.map((o) => o.id).sort()).toEqual([ids.overlay, ids.ciliumKubeProxy].sort());
    expect(r.unmeasured.map((u) => u.id)).toContain("gke-dataplane-v2");
  });

  it("says when the instance type has no data and uses the cloud's others", () => {
    const r = ask({ cloud: "eks", sku: "m7g.large", services: 1000, connections: "keepalive" });
    expect(r.scope).toMatchObject({ fallback: "sku", skus: ["m6i.xlarge"] });
    expect(r.caveats[0]!.text).toMatch(/No measurements on m7g\.large .*m6i\.xlarge instead/);
  });

  it("flags short-connection figures borrowed from another cloud by Service proxy", () => {
    const r = ask({ cloud: "eks", services: 30_000, connections: "short" });
    expect(find(r.caveats, /No short-connection Service-scale figures on your cloud/)).toHaveLength(1);
    const aws = option(r, ids.awsVpcCni);
    expect(find(aws.reasons, /standing in for this datapath \(same Service proxy: kube-proxy iptables\)/)).toHaveLength(
      1,
    );
    // EKS's own new-connection figures at 4 and 1,000 Services are shown beside it.
    expect(find(aws.reasons, /connection setup latency went from 164 µs at 4 to 190 µs at 1,000/)).toHaveLength(1);
  });

  it("makes the two Pod IP needs soft, and says why, when both are ticked", () => {
    const r = ask({ cloud: "tke", connections: "keepalive", needs: ["podIpRoutable", "podIpScarcity"] });
    expect(find(r.caveats, /pull in opposite directions/)).toHaveLength(1);
    expect(r.options.every((o) => o.needs.every((n) => !n.hard))).toBe(true);
    expect(option(r, ids.overlay).needs).toEqual([
      { need: "podIpRoutable", status: "unmet", hard: false },
      { need: "podIpScarcity", status: "met", hard: false },
    ]);
  });
});

describe("every reason carries what it rests on", () => {
  const cases: Partial<GuideAnswers>[] = [
    { cloud: "tke", services: 30_000, connections: "short", needs: ["l7Policy", "flowObservability"] },
    { cloud: "eks", services: 500, connections: "mixed", needs: ["udpHeavy", "latencySensitive", "fqdnPolicy"] },
    { cloud: "aks", services: 100, connections: "keepalive", needs: ["latencySensitive", "podIpScarcity"] },
    { cloud: null, services: 50_000, connections: "short", needs: ["podIpRoutable"] },
  ];
  const bundles = new Set(demo.figures.map((f) => f.bundleId));
  const scenarios = new Set(demo.scenarios.map((s) => s.id));

  it.each(cases)("%o", (answers) => {
    const r = ask(answers);
    const all = [...r.summary, ...r.caveats, ...r.options.flatMap((o) => o.reasons)];
    expect(all.length).toBeGreaterThan(0);
    for (const x of all) {
      if (x.kind === "measured" || x.kind === "extrapolated") expect(x.evidence.length, x.text).toBeGreaterThan(0);
      if (x.kind === "capability") {
        expect(x.sources.length, x.text).toBeGreaterThan(0);
        for (const s of x.sources) expect(s.url).toMatch(/^https:\/\//);
      }
      for (const e of x.evidence) {
        expect(bundles.has(e.bundleId)).toBe(true);
        expect(scenarios.has(e.scenarioId)).toBe(true);
      }
      if (x.approximate) expect(x.text).toMatch(/approximate/);
    }
    // Ranked once, or once per testbed when several are in scope.
    for (const places of r.byTestbed.length > 0 ? r.byTestbed.map((x) => x.places) : [r.options]) {
      expect(places.map((o) => o.rank)).toEqual(places.map((_, i) => i + 1));
    }
  });
});

describe("guideMetrics", () => {
  it("names every metric the guide reads: fetching only those gives the same answer", () => {
    const only = demo.figures.filter((f) => (guideMetrics as readonly string[]).includes(f.metric));
    expect(only.length).toBeLessThan(demo.figures.length);
    for (const answers of [
      { cloud: "eks", services: 30_000, connections: "mixed", needs: ["udpHeavy", "latencySensitive", "l7Policy"] },
      { cloud: "tke", services: 50_000, connections: "short", needs: ["flowObservability"] },
    ] as const) {
      expect(ask(answers, only)).toEqual(ask(answers));
    }
  });
});

describe("a large store", () => {
  // The demo data measured again by 30 teams: every scenario and figure copied under new ids.
  const copies = 30;
  const scenarios = Array.from({ length: copies }, (_, i) =>
    demo.scenarios.map((sc) => ({ ...sc, id: `${sc.id}~${i}`, label: `${sc.label} #${i}` })),
  ).flat();
  const figures = Array.from({ length: copies }, (_, i) =>
    demo.figures.map((f) => ({ ...f, scenarioId: `${f.scenarioId}~${i}`, bundleId: `${f.bundleId}~${i}` })),
  ).flat();
  const big = recommendDatapaths({
    answers: { cloud: "tke", sku: null, services: 30_000, connections: "short", needs: [] },
    scenarios,
    figures,
  });
  const small = ask({ cloud: "tke", services: 30_000, connections: "short" });
  const reasons = (r: GuideResult) => [...r.summary, ...r.caveats, ...r.options.flatMap((o) => o.reasons)];

  it("lists the first 12 figures of a reason and counts them all, each once", () => {
    const all = reasons(big);
    expect(all.some((r) => r.evidenceCount > 12)).toBe(true);
    for (const r of all) {
      expect(r.evidence.length).toBe(Math.min(12, r.evidenceCount));
      const keys = r.evidence.map((e) => `${e.bundleId} ${e.metric} ${JSON.stringify(e.params)}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
    // The lead rests on the test it names, the short-connection rate at 30,000 Services, whose figures
    // are each datapath's line there; the demo data alone lists every figure of every reason.
    expect(big.summary[0]!.text).toMatch(/where short-connection rate at 30,000 Services separates the datapaths\.$/);
    expect(big.summary[0]!.evidence.map((e) => [e.metric, e.params.services])).toEqual(
      small.summary[0]!.evidence.map(() => ["http.rps", 30_000]),
    );
    for (const r of reasons(small)) expect(r.evidence).toHaveLength(r.evidenceCount);
  });

  it("lists the first 12 scenarios of an option, in scope first, and counts them all", () => {
    for (const o of big.options) {
      const mine = small.options.find((x) => x.id === o.id)!;
      expect(o.scenarioCount).toEqual({
        all: copies * mine.scenarioCount.all,
        inScope: copies * mine.scenarioCount.inScope,
      });
      expect(o.scenarios).toHaveLength(Math.min(12, o.scenarioCount.all));
      const firstOut = o.scenarios.findIndex((sc) => !sc.inScope);
      if (firstOut >= 0) expect(o.scenarios.slice(firstOut).every((sc) => !sc.inScope)).toBe(true);
    }
  });

  it("ranks as the demo data alone does, and names the explorer's filters for each option", () => {
    expect(big.options.map((o) => o.id)).toEqual(small.options.map((o) => o.id));
    for (const o of big.options) {
      const mine = small.options.find((x) => x.id === o.id)!;
      expect([...o.clouds].sort()).toEqual([...new Set(mine.scenarios.map((sc) => sc.provider))].sort());
      expect(o.explore.cni.length).toBeGreaterThan(0);
    }
  });
});

describe("trimEvidence", () => {
  const figure = (bundleId: string, services: number, value: number) => ({
    scenarioId: "tke-c",
    scenarioLabel: "Cilium Overlay",
    bundleId,
    metric: "http.rps",
    params: { connection: "short", services },
    value,
    unit: "req/s",
    qualifier: null,
    low: null,
    high: null,
  });

  it("counts each figure once, keeps the first of a repeat and lists at most 12", () => {
    // The TKE overlay's short-connection steps, each cited twice (by two criteria), in 20 bundles.
    const steps = [14193, 13122, 12937, 13080, 12879];
    const cited = Array.from({ length: 20 }, (_, b) => steps.map((v, i) => figure(`b${b}`, i * 5000, v))).flat();
    const trimmed = trimEvidence(
      reason("measured", "for", "overtakes", [...cited, ...cited.map((f) => ({ ...f, value: -1 }))]),
    );
    expect(trimmed.evidenceCount).toBe(100);
    expect(trimmed.evidence).toEqual(cited.slice(0, 12));
  });
});
