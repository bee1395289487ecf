// The many-setups fixture imports as a real InfraBuilder tree does: 25 setups, 3 runs each, every
// setup its own CNI configuration, a synthetic setup's figures its factor times flannel's.
import { importFiles } from "@cnibench/importers";
import { median } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { fixtureText } from "./fixtures.ts";
import {
  infrabuilderEnvironment,
  infrabuilderSetups,
  isEncryptedSetup,
  realSetups,
  syntheticSetups,
} from "./infrabuilder-setups.ts";

describe("infrabuilderSetups: twenty-odd setups of one benchmark", () => {
  const { bundles, files } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const setups = [...Object.keys(syntheticSetups), ...realSetups];

  it("imports every setup's three runs, each setup its own CNI configuration", () => {
    expect(files.filter((f) => f.status === "failed")).toEqual([]);
    expect(setups).toHaveLength(25);
    expect(bundles).toHaveLength(75);
    const cnis = new Set(bundles.map((b) => JSON.stringify(b.bundle.cni)));
    expect(cnis.size).toBe(25);
  });

  it("scales flannel's real runs by the setup's factor", () => {
    const dtm = (setup: string) =>
      bundles
        .filter((b) => b.bundle.cni.label === setup)
        .flatMap((b) => b.bundle.results)
        .filter((r) => r.metric === "tcp.throughput" && r.params?.streams === 8 && r.params?.path === "pod-pod");
    const wg = dtm("cilium-wg");
    const flannel = dtm("flannel");
    expect(wg).toHaveLength(3);
    expect(flannel).toHaveLength(3);
    // Each run scaled by cilium-wg's 0.29: the medians keep that ratio exactly.
    expect(median(wg.map((r) => r.value)) / median(flannel.map((r) => r.value))).toBeCloseTo(0.29, 9);
    // And the real runs stay as published: flannel/1/all.results DTM_BW is iperf3's receiver rate.
    const published = Number(/^DTM_BW=(.*)$/m.exec(fixtureText("real/infrabuilder-2024/flannel/1/all.results"))?.[1]);
    expect(flannel.map((r) => r.value)).toContainEqual(published);
  });

  const gbps = (setup: string, streams: number, path = "pod-pod") =>
    median(
      bundles
        .filter((b) => b.bundle.cni.label === setup)
        .flatMap((b) => b.bundle.results)
        .filter((r) => r.metric === "tcp.throughput" && r.params?.streams === streams && r.params?.path === path)
        .map((r) => r.value / 1e9),
    );

  it("8 streams saturate the line for every unencrypted setup; 1 stream tells them apart", () => {
    const plain = setups.filter((s) => s !== "baremetal" && !isEncryptedSetup(s));
    // flannel's real dtm runs: 38.78, 38.90, 38.96 Gbit/s (all.results); median × 0.98 = 38.12, × 1 = 38.90.
    for (const setup of plain) {
      expect(gbps(setup, 8), setup).toBeGreaterThanOrEqual(38.1);
      expect(gbps(setup, 8), setup).toBeLessThanOrEqual(38.96);
    }
    // 1 stream, flannel's median dts 19.80 Gbit/s: cilium-custom × 1.283 = 25.40, calico-ebpf × 1.141 = 22.59,
    // 12 % apart, and every other setup below calico-ebpf.
    expect(gbps("cilium-custom", 1)).toBeCloseTo(25.4, 1);
    expect(gbps("calico-ebpf", 1)).toBeCloseTo(22.6, 1);
    expect(gbps("cilium-custom", 1) / gbps("calico-ebpf", 1)).toBeCloseTo(1.124, 3);
    const others = plain.filter((s) => s !== "cilium-custom" && s !== "calico-ebpf");
    for (const setup of others) expect(gbps(setup, 1), setup).toBeLessThan(22.6);
    // Encrypted setups: 5 to 11.3 Gbit/s with 1 stream or 8 (cilium-wg's 0.29 × 38.90 = 11.28).
    for (const setup of setups.filter(isEncryptedSetup)) {
      if (setup === "antrea-ipsec") continue; // real: its figures are InfraBuilder's
      for (const streams of [1, 8]) {
        expect(gbps(setup, streams), `${setup} ${streams}`).toBeGreaterThan(5);
        expect(gbps(setup, streams), `${setup} ${streams}`).toBeLessThan(11.3);
      }
    }
  });

  it("every synthetic test has statexec .prom files whose whole CPU is user + system + softirq", () => {
    const cpu = (setup: string, accounting: string) =>
      bundles
        .filter((b) => b.bundle.cni.label === setup && b.file.endsWith("/1"))
        .flatMap((b) => b.bundle.results)
        .filter((r) => r.metric === "cpu.usage" && r.params?.accounting === accounting);
    for (const [setup, share] of [
      ["cilium-wg", 2.3],
      ["cilium", 0.6],
    ] as const) {
      const whole = cpu(setup, "all-modes");
      const partial = cpu(setup, "user+system");
      // 9 tests × 2 roles, each with both figures.
      expect(whole, setup).toHaveLength(18);
      expect(partial, setup).toHaveLength(18);
      for (const w of whole) {
        const { accounting: _, ...where } = w.params!;
        const p = partial.find(
          (r) => JSON.stringify({ ...r.params, accounting: "all-modes" }) === JSON.stringify(w.params),
        );
        expect(p, JSON.stringify(where)).toBeDefined();
        // By construction: softirq = share × (user + system) over the same 80 s window.
        expect(w.value).toBeCloseTo((1 + share) * p!.value, 5);
      }
    }
  });

  // By hand from each setup/cni-configs script (and bench.sh: RKE2's kube-proxy runs in iptables mode
  // unless the script carries #Flag:NOKUBEPROXY), the CNI's documented defaults, and what the upload's
  // environment gives (hybridnet's mode); baremetal runs no Kubernetes. Encrypted variants keep their
  // sibling's mode.
  it.each([
    ["antrea", "antrea", "overlay-geneve", "iptables", undefined],
    ["antrea-ipsec", "antrea", "overlay-geneve", "iptables", "ipsec"],
    ["antrea-noencap", "antrea", "native", "iptables", undefined],
    ["antrea-wg", "antrea", "overlay-geneve", "iptables", "wireguard"],
    ["calico", "calico", "iptables", "iptables", undefined],
    ["calico-ebpf", "calico", "ebpf", "ebpf", undefined],
    ["calico-ebpf-wg", "calico", "ebpf", "ebpf", "wireguard"],
    ["calico-vpp", "calico", "vpp", "iptables", undefined],
    ["calico-vpp-ipsec", "calico", "vpp", "iptables", "ipsec"],
    ["calico-vpp-wg", "calico", "vpp", "iptables", "wireguard"],
    ["calico-wg", "calico", "iptables", "iptables", "wireguard"],
    ["canal", "canal", "overlay-vxlan", "iptables", undefined],
    ["cilium", "cilium", "overlay-vxlan", "iptables", undefined],
    ["cilium-custom", "cilium", "overlay-vxlan", "ebpf", undefined],
    ["cilium-hubble-full", "cilium", "overlay-vxlan", "iptables", undefined],
    ["cilium-ipsec", "cilium", "overlay-vxlan", "iptables", "ipsec"],
    ["cilium-nohubble", "cilium", "overlay-vxlan", "iptables", undefined],
    ["cilium-nokproxy", "cilium", "overlay-vxlan", "ebpf", undefined],
    ["cilium-wg", "cilium", "overlay-vxlan", "iptables", "wireguard"],
    ["flannel", "flannel", "overlay-vxlan", "iptables", undefined],
    ["hybridnet", "hybridnet", "overlay-vxlan", "iptables", undefined],
    ["kubeovn", "kube-ovn", "overlay-geneve", "iptables", undefined],
    ["kuberouter", "kube-router", "bgp", "iptables", undefined],
    ["kuberouter-all", "kube-router", "bgp", "cni-proxy", undefined],
    ["baremetal", "none", "host-network", "none", undefined],
  ])("%s is stored as %s, %s, kube-proxy %s, encryption %s", (setup, cni, mode, kubeProxy, encryption) => {
    const stored = bundles.filter((b) => b.bundle.cni.label === setup).map((b) => b.bundle.cni);
    expect(stored).toHaveLength(3);
    for (const c of stored) {
      expect({ name: c.name, mode: c.mode, kubeProxy: c.kubeProxy, encryption: c.settings?.encryption }).toEqual({
        name: cni,
        mode,
        kubeProxy,
        encryption,
      });
    }
  });
});
