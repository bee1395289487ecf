// One datapath's evidence comes from one scenario, or from scenarios that are the same datapath pooled
// as runs — never stitched from two (issue 39); and CPU that leaves out softirq ranks nothing. Hand-built
// scenarios on one bare-metal testbed; expected medians worked out by hand in the comments.
import { describe, expect, it } from "vitest";
import type { GuideAnswers } from "./questions.ts";
import { recommendDatapaths } from "./rank.ts";
import type { GuideFigure, GuideScenario } from "./types.ts";

const scenario = (id: string, settings: GuideScenario["cni"]["settings"] = {}, kernel = "6.8"): GuideScenario => ({
  id,
  label: id,
  provider: "on-prem",
  sku: "bare-metal-40g",
  kernel,
  nicGbps: 40,
  cni: { name: "cilium", mode: "overlay-vxlan", kubeProxy: "iptables", settings },
});

const figure = (
  scenarioId: string,
  metric: string,
  unit: string,
  samples: number[],
  params: GuideFigure["params"],
): GuideFigure => ({
  scenarioId,
  bundleId: `${scenarioId}-1`,
  metric,
  unit,
  params,
  value: [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!,
  samples,
});

const answers: GuideAnswers = { cloud: "on-prem", sku: null, services: 1000, connections: "keepalive", needs: [] };
const udp8 = { streams: 8, path: "pod-pod" };

describe("one datapath, one body of evidence", () => {
  it("pools two setups of the same datapath as runs, the median of all of them its figure", () => {
    // The same Cilium configuration on two kernels: one datapath. Runs 30, 31, 32 and 34, 35, 36 Gbit/s
    // pooled: six runs, median (32 + 34) / 2 = 33 — neither setup's best (35), nor the first's.
    const a = scenario("cilium-k1", {}, "6.1");
    const b = scenario("cilium-k2", {}, "6.8");
    const other = {
      ...scenario("flannel"),
      cni: { name: "flannel", mode: "overlay-vxlan", kubeProxy: "iptables", settings: {} },
    };
    const r = recommendDatapaths({
      answers: { ...answers, needs: ["udpHeavy"] },
      scenarios: [a, b, other],
      figures: [
        figure("cilium-k1", "udp.throughput", "Gbit/s", [30, 31, 32], udp8),
        figure("cilium-k2", "udp.throughput", "Gbit/s", [34, 35, 36], udp8),
        figure("flannel", "udp.throughput", "Gbit/s", [20, 21, 22], udp8),
      ],
    });
    const cilium = r.options.find((o) => o.id === "cilium:overlay-vxlan:iptables")!;
    expect(cilium.scenarioCount.all).toBe(2);
    const reason = cilium.reasons.find((x) => x.text.startsWith("UDP throughput (pod to pod, 8 streams)"))!;
    // The sentence shows the pooled median; its evidence cites both setups' figures.
    expect(reason.text).toContain("33 Gbit/s received");
    expect(reason.evidence.map((e) => e.scenarioId).sort()).toEqual(["cilium-k1", "cilium-k2"]);
  });

  it("never answers for one datapath with another's figures: Hubble on and off are two options", () => {
    // UDP throughput is best with Hubble off (36 Gbit/s), UDP loss lowest with it on (1 %): stitched, one
    // "Cilium" would have both; as two datapaths each keeps its own (Hubble off: 36 and 5 %; on: 30 and 1 %).
    const off = scenario("cilium-nohubble", { "hubble.enabled": false });
    const on = scenario("cilium");
    const r = recommendDatapaths({
      answers: { ...answers, needs: ["udpHeavy"] },
      scenarios: [off, on],
      figures: [
        figure("cilium-nohubble", "udp.throughput", "Gbit/s", [35, 36, 37], udp8),
        figure("cilium-nohubble", "udp.loss", "%", [4, 5, 6], udp8),
        figure("cilium", "udp.throughput", "Gbit/s", [29, 30, 31], udp8),
        figure("cilium", "udp.loss", "%", [0.9, 1, 1.1], udp8),
      ],
    });
    expect(r.options.map((o) => o.id).sort()).toEqual([
      "cilium:overlay-vxlan:iptables",
      "cilium:overlay-vxlan:iptables|Hubble off",
    ]);
    for (const o of r.options) {
      const cited = o.reasons.flatMap((x) => x.evidence).filter((e) => e.metric.startsWith("udp."));
      expect(cited.length).toBeGreaterThan(0);
      expect(new Set(cited.map((e) => e.scenarioId)), o.id).toEqual(new Set([o.scenarios[0]!.id]));
    }
    // Each wins one figure: neither beats the other across the board, both are in the not-beaten set.
    expect(r.notBeaten.sort()).toEqual(["cilium:overlay-vxlan:iptables", "cilium:overlay-vxlan:iptables|Hubble off"]);
  });
});

describe("CPU per Gbit/s counts the whole CPU or ranks nothing", () => {
  const tcp8 = { streams: 8, path: "pod-pod" };
  const cpu = (id: string, role: string, accounting: string, samples: number[]) =>
    figure(id, "cpu.usage", "millicores", samples, { ...tcp8, component: "node", protocol: "tcp", role, accounting });
  const plain = scenario("cilium");
  const ipsec = scenario("cilium-ipsec", { encryption: "ipsec" });
  const throughput = [
    figure("cilium", "tcp.throughput", "Gbit/s", [38.8, 38.9, 39.0], tcp8),
    figure("cilium-ipsec", "tcp.throughput", "Gbit/s", [4.6, 4.7, 4.8], tcp8),
  ];
  // user + system as the collector summed it: IPsec looks cheap (0.4 + 0.2 cores at 4.7 Gbit/s = 0.128 CPU
  // s/Gbit against 1.2 + 1.7 at 38.9 = 0.0746) only because its softirq is left out.
  const partial = [
    cpu("cilium", "client", "user+system", [1200, 1210, 1190]),
    cpu("cilium", "server", "user+system", [1700, 1710, 1690]),
    cpu("cilium-ipsec", "client", "user+system", [400, 410, 390]),
    cpu("cilium-ipsec", "server", "user+system", [200, 210, 190]),
  ];

  it("says a user + system figure leaves out softirq, and does not rank on it", () => {
    const r = recommendDatapaths({ answers, scenarios: [plain, ipsec], figures: [...throughput, ...partial] });
    const s = r.summary.find((x) => x.text.startsWith("CPU per Gbit/s moved"))!;
    expect(s.text).toContain(
      "user + system only; softirq and irq, where encryption and packet processing run, not counted: not ranked on",
    );
    expect(r.figuresRead.map((f) => f.what)).not.toContain("CPU per Gbit/s (8-stream TCP)");
  });

  it("ranks on every CPU mode where statexec measured it, and then IPsec is the costly one", () => {
    // Every mode: IPsec's softirq adds 2.4 cores on the server → (450 + 2,650) / 4.7 = 660 millicores per
    // Gbit/s, against (1,250 + 1,800) / 38.9 = 78.4 for plain Cilium: 8.4× the CPU per Gbit/s.
    const whole = [
      cpu("cilium", "client", "all-modes", [1250, 1260, 1240]),
      cpu("cilium", "server", "all-modes", [1800, 1810, 1790]),
      cpu("cilium-ipsec", "client", "all-modes", [450, 460, 440]),
      cpu("cilium-ipsec", "server", "all-modes", [2650, 2660, 2640]),
      // One mode's share is never summed into the total.
      figure("cilium-ipsec", "cpu.usage", "millicores", [2400, 2410, 2390], {
        ...tcp8,
        component: "node",
        protocol: "tcp",
        role: "server",
        accounting: "mode",
        mode: "softirq",
      }),
    ];
    const r = recommendDatapaths({
      answers,
      scenarios: [plain, ipsec],
      figures: [...throughput, ...partial, ...whole],
    });
    expect(r.figuresRead.find((f) => f.what === "CPU per Gbit/s (8-stream TCP)")).toMatchObject({ ranks: true });
    const reason = r.options
      .find((o) => o.id === "cilium:overlay-vxlan:iptables|IPsec")!
      .reasons.find((x) => x.text.startsWith("CPU per Gbit/s moved"))!;
    expect(reason.text).toContain("every CPU mode: 660 millicores per Gbit/s");
    expect(r.options[0]!.id).toBe("cilium:overlay-vxlan:iptables");
    // Largest effect first: the CPU per Gbit/s (8.4× → +740 %), then the throughput (4.7 / 38.9 → −88 %).
    expect(r.options[1]!.why.text).toMatch(
      /^Behind Cilium overlay \(VXLAN\) \+ kube-proxy iptables: CPU per Gbit\/s \(8-stream TCP\) \+7\d0 % \(p < 0\.001\) and 8-stream TCP −88 %/,
    );
  });
});
