import { importFiles } from "@cnibench/importers";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { hubbleRps, policyRps } from "@cnibench/test-support/tke-figures";
import { describe, expect, it } from "vitest";
import { featureOverheads, overheadPercent, settingCosts, settingPairs } from "./overhead.ts";
import type { Figure, Params } from "./types.ts";

describe("overheadPercent from the TKE Hubble and NetworkPolicy tables (http.rps)", () => {
  it("L7 policy costs 86–89 %", () => {
    // Native: (99,985 − 13,883) / 99,985 = 86,102 / 99,985 = 86.115 %
    // Overlay: (101,514 − 11,483) / 101,514 = 90,031 / 101,514 = 88.688 %
    expect(overheadPercent(policyRps.native.none, policyRps.native.l7)).toBeCloseTo(86.115, 2);
    expect(overheadPercent(policyRps.overlay.none, policyRps.overlay.l7)).toBeCloseTo(88.688, 2);
  });

  it("L3/L4 policy and Hubble are close to zero", () => {
    // L3/L4: (99,985 − 99,965) / 99,985 = 0.020 %; (101,514 − 99,249) / 101,514 = 2.231 %.
    expect(overheadPercent(policyRps.native.none, policyRps.native.l3l4)).toBeCloseTo(0.02, 3);
    expect(overheadPercent(policyRps.overlay.none, policyRps.overlay.l3l4)).toBeCloseTo(2.231, 2);
    // Hubble: (100,271 − 100,007) / 100,271 = 0.263 %; (101,675 − 101,434) / 101,675 = 0.237 %.
    expect(overheadPercent(hubbleRps.native.off, hubbleRps.native.on)).toBeCloseTo(0.263, 3);
    expect(overheadPercent(hubbleRps.overlay.off, hubbleRps.overlay.on)).toBeCloseTo(0.237, 3);
  });

  it("counts a rise as the cost for lower-is-better metrics, and has none without a direction", () => {
    // Latency 2.0 → 2.5 ms with the feature on: (2.5 − 2.0) / 2.0 = 25 % overhead.
    expect(overheadPercent(2, 2.5, "lower")).toBeCloseTo(25, 10);
    expect(overheadPercent(2, 2.5, "none")).toBeNull();
    expect(overheadPercent(0, 5)).toBeNull();
  });
});

describe("featureOverheads pairs raw figures by their other params", () => {
  const rps = (policy: string, value: number, extra: Record<string, string | number> = {}): Figure => ({
    metric: "http.rps",
    unit: "req/s",
    value,
    params: { connection: "keepalive", concurrency: 64, policy, ...extra },
  });

  it("computes l3l4 and l7 against none for the Overlay cluster", () => {
    const rows = [rps("l7", 11_483), rps("none", 101_514), rps("l3l4", 99_249)];
    const out = featureOverheads(rows, { param: "policy", base: "none" });
    expect(out.map((o) => [o.variant, o.overheadPercent])).toEqual([
      ["l7", expect.closeTo(88.688, 2)],
      ["l3l4", expect.closeTo(2.231, 2)],
    ]);
    expect(out[0]!.params).toEqual({ connection: "keepalive", concurrency: 64 });
    expect(out[0]!.better).toBe("higher");
    expect(out[0]!.approximate).toBe(false);
  });

  it("does not pair figures whose other params differ, and skips variants without a base", () => {
    const rows = [
      rps("none", 100_000, { concurrency: 256 }),
      rps("l7", 10_000),
      rps("l7", 12_000, { concurrency: 256 }),
    ];
    const out = featureOverheads(rows, { param: "policy", base: "none" });
    expect(out).toHaveLength(1);
    expect(out[0]!.overheadPercent).toBeCloseTo(88, 10); // (100,000 − 12,000) / 100,000
  });

  it("works for Hubble on vs off and rejects two bases for one pair", () => {
    const hubble = (state: string, value: number): Figure => ({
      metric: "http.rps",
      unit: "req/s",
      value,
      params: { hubble: state },
    });
    const out = featureOverheads([hubble("on", 100_007), hubble("off", 100_271)], { param: "hubble", base: "off" });
    expect(out[0]!.overheadPercent).toBeCloseTo(0.263, 3);
    expect(() => featureOverheads([hubble("off", 1), hubble("off", 2)], { param: "hubble", base: "off" })).toThrow(
      /two base figures/,
    );
  });
});

describe("settingPairs: setups one setting apart, within one testbed (issue 40)", () => {
  const setups = importFiles(infrabuilderSetups(), infrabuilderEnvironment).bundles.map(({ bundle }) => bundle);
  const scenarios = [...new Map(setups.map((b) => [b.cni.label!, b])).values()].map((b) => ({
    id: b.cni.label!,
    label: b.cni.label!,
    provider: b.cluster.provider,
    sku: b.node.sku ?? "",
    nicGbps: b.node.nicGbps ?? null,
    cni: { ...b.cni, settings: b.cni.settings ?? {} },
  }));

  it("finds InfraBuilder's Hubble, encryption, kube-proxy and encapsulation pairs", () => {
    // By hand from the setups' cni objects: the pairs whose every difference is of one family.
    // antrea-wg is Geneve with WireGuard (the importer reads Antrea's default encapsulation for it), one
    // setting from antrea; cilium-custom differs in kube-proxy, bpf.masquerade and ipv4.enabled; calico
    // vs calico-ebpf in mode and kube-proxy.
    const pairs = settingPairs(scenarios).map((p) => [p.family, p.base.id, p.with.id, p.words]);
    expect(pairs).toEqual([
      ["observability", "cilium-nohubble", "cilium", "Hubble at its default (on)"],
      [
        "observability",
        "cilium",
        "cilium-hubble-full",
        "hubble.relay.enabled, hubble.ui.enabled, hubble.tls.auto.enabled",
      ],
      [
        "observability",
        "cilium-nohubble",
        "cilium-hubble-full",
        "hubble.relay.enabled, hubble.ui.enabled, hubble.tls.auto.enabled",
      ],
      ["encryption", "antrea", "antrea-ipsec", "ipsec"],
      ["encryption", "antrea", "antrea-wg", "wireguard"],
      ["encryption", "calico-ebpf", "calico-ebpf-wg", "wireguard"],
      ["encryption", "calico-vpp", "calico-vpp-ipsec", "ipsec"],
      ["encryption", "calico-vpp", "calico-vpp-wg", "wireguard"],
      ["encryption", "calico", "calico-wg", "wireguard"],
      ["encryption", "cilium", "cilium-ipsec", "ipsec"],
      ["encryption", "cilium", "cilium-wg", "wireguard"],
      ["kube-proxy", "cilium", "cilium-nokproxy", "ebpf instead of iptables"],
      ["kube-proxy", "kuberouter", "kuberouter-all", "cni-proxy instead of iptables"],
      ["encapsulation", "antrea-noencap", "antrea", "overlay-geneve instead of native"],
    ]);
  });

  it("pairs nothing across testbeds or CNI versions", () => {
    const cilium = scenarios.find((s) => s.id === "cilium")!;
    const wg = scenarios.find((s) => s.id === "cilium-wg")!;
    const cloud = { ...wg, id: "cloud-wg", provider: "aws", sku: "m5.xlarge", nicGbps: 10 };
    const nic = { ...wg, id: "nic-wg", nicGbps: 10 };
    const newer = { ...wg, id: "newer-wg", cni: { ...wg.cni, version: "1.16.0" } };
    expect(settingPairs([cilium, cloud, nic, newer])).toEqual([]);
    expect(settingPairs([cilium, wg]).map((p) => p.with.id)).toEqual(["cilium-wg"]);
  });
});

describe("settingCosts: what the setting costs on each figure of a pair", () => {
  const m = (metric: string, unit: string, params: Params, samples: number[]): Figure => ({
    metric,
    unit,
    params,
    value: [...samples].sort((a, b) => a - b)[1]!,
    samples,
  });
  it("turns the judged change into a cost by the metric's direction, and leaves counts out", () => {
    const base = [
      m("tcp.throughput", "Gbit/s", { streams: 1 }, [10, 10.2, 9.8]),
      m("tcp.rr.latency", "µs", { percentile: 50 }, [100, 101, 99]),
      m("iptables.rules", "rules", {}, [120, 120, 120]),
    ];
    const withIt = [
      m("tcp.throughput", "Gbit/s", { streams: 1 }, [7, 7.1, 6.9]),
      m("tcp.rr.latency", "µs", { percentile: 50 }, [120, 121, 119]),
      m("iptables.rules", "rules", {}, [140, 140, 140]),
    ];
    const costs = settingCosts(base, withIt);
    // python3, ratios of geometric means (math.prod(runs) ** (1/3)): throughput 29.9954 % of it lost,
    // latency +20.0012 %. Both decided worse.
    expect(costs.map((c) => [c.metric, c.verdict])).toEqual([
      ["tcp.rr.latency", "worse"],
      ["tcp.throughput", "worse"],
    ]);
    expect(costs.find((c) => c.metric === "tcp.throughput")!.costPercent).toBeCloseTo(29.9954, 3);
    expect(costs.find((c) => c.metric === "tcp.rr.latency")!.costPercent).toBeCloseTo(20.0012, 3);
  });
});
