// Default names of the 25 setups of InfraBuilder's 2024 benchmark, as the importer reads their CNI
// scripts (packages/importers' infrabuilder-cni.ts), and of the demo data's CNIs, their labels taken off.
import { importFiles } from "@cnibench/importers";
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { describe, expect, it } from "vitest";
import { type CniIdentity, cniDifferences, maxNameLength, scenarioName, settingWords } from "./names.ts";

/** Each setup's CNI as imported: the setup id (which the importer gives as cni.label) beside the CNI without it. */
function infrabuilderCnis(): Map<string, CniIdentity> {
  const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const cnis = new Map<string, CniIdentity>();
  for (const { bundle } of bundles) {
    const { label, ...cni } = bundle.cni;
    cnis.set(label ?? "", cni);
  }
  return cnis;
}

describe("scenarioName: InfraBuilder 2024's 25 setups", () => {
  const cnis = infrabuilderCnis();
  const names = new Map([...cnis].map(([setup, cni]) => [setup, scenarioName(cni)]));

  it("names each setup by what it is", () => {
    // By hand from each setup's CNI (infrabuilder.test.ts lists them) and the vocabulary's labels:
    // kube-proxy in iptables mode goes unsaid, as does the kube-proxy replacement Calico's eBPF
    // dataplane is; Hubble's TLS settings are details of "Hubble relay and UI".
    expect(Object.fromEntries(names)).toEqual({
      antrea: "Antrea Geneve",
      "antrea-ipsec": "Antrea Geneve, IPsec",
      "antrea-noencap": "Antrea native routing",
      "antrea-wg": "Antrea Geneve, WireGuard",
      baremetal: "No CNI (node-to-node reference)",
      calico: "Calico VXLAN cross-subnet, iptables dataplane",
      "calico-ebpf": "Calico VXLAN cross-subnet, eBPF dataplane",
      "calico-ebpf-wg": "Calico VXLAN cross-subnet, eBPF dataplane, WireGuard",
      "calico-vpp": "Calico VXLAN cross-subnet, VPP dataplane",
      "calico-vpp-ipsec": "Calico VXLAN cross-subnet, VPP dataplane, IPsec",
      "calico-vpp-wg": "Calico VXLAN cross-subnet, VPP dataplane, WireGuard",
      "calico-wg": "Calico VXLAN cross-subnet, iptables dataplane, WireGuard",
      canal: "Canal VXLAN",
      cilium: "Cilium VXLAN",
      "cilium-custom": "Cilium VXLAN, kube-proxy replacement, Hubble off, BPF masquerade",
      "cilium-hubble-full": "Cilium VXLAN, Hubble relay and UI",
      "cilium-ipsec": "Cilium VXLAN, IPsec",
      "cilium-nohubble": "Cilium VXLAN, Hubble off",
      "cilium-nokproxy": "Cilium VXLAN, kube-proxy replacement",
      "cilium-wg": "Cilium VXLAN, WireGuard",
      flannel: "Flannel VXLAN",
      // Not in the vocabulary: its slug.
      hybridnet: "hybridnet VXLAN",
      kubeovn: "Kube-OVN Geneve",
      kuberouter: "kube-router BGP",
      "kuberouter-all": "kube-router BGP, kube-proxy replacement",
    });
  });

  it("gives 25 distinct, short names without an id", () => {
    expect(names.size).toBe(25);
    expect(new Set(names.values()).size).toBe(25);
    for (const [setup, name] of names) {
      expect(name.length, name).toBeLessThanOrEqual(maxNameLength);
      // The setup id is not the name ("cilium-nokproxy"), unless it is only the CNI's own slug (hybridnet).
      if (setup !== cnis.get(setup)?.name) expect(name).not.toContain(setup);
      // Nor a database id (cuid, 25 characters) or a hex digest.
      expect(name).not.toMatch(/[a-z0-9]{20,}|[0-9a-f]{8,}/);
    }
  });

  it("reads the same whatever order the settings come in", () => {
    const custom = cnis.get("cilium-custom");
    if (!custom?.settings) throw new Error("fixture");
    const reversed = Object.fromEntries(Object.entries(custom.settings).reverse());
    expect(scenarioName({ ...custom, settings: reversed })).toBe(scenarioName(custom));
  });
});

describe("scenarioName: the demo data's CNIs without their labels", () => {
  const byLabel = new Map(
    loadDemoData().bundles.map(({ bundle }) => {
      const { label, ...cni } = bundle.cni;
      return [label, cni] as const;
    }),
  );
  const nameOf = (label: string) => {
    const cni = byLabel.get(label);
    if (!cni) throw new Error(`no demo CNI labelled ${label}`);
    return scenarioName(cni);
  };

  it("says the mode, then routing, Service proxy and settings", () => {
    expect(nameOf("Cilium + kube-proxy (B)")).toBe("Cilium VXLAN");
    expect(nameOf("Cilium kube-proxy-less (C)")).toBe("Cilium VXLAN, kube-proxy replacement");
    expect(nameOf("Cilium ENI (D)")).toBe("Cilium ENI, native routing, kube-proxy replacement");
    expect(nameOf("AWS VPC CNI (A)")).toBe("Amazon VPC CNI ENI");
    expect(nameOf("Azure CNI powered by Cilium, eBPF host routing off")).toBe(
      "Azure CNI powered by Cilium, legacy host routing",
    );
  });

  it("leaves the last of many settings out, counted, within the length", () => {
    // Cilium ENI + tuning: nine things to say; with Hubble off the name would be 71 characters.
    const name = nameOf("Cilium ENI + tuning (E)");
    expect(name).toBe("Cilium ENI, native routing, kube-proxy replacement, +7 more");
    expect(name.length).toBeLessThanOrEqual(maxNameLength);
  });
});

describe("settingWords and cniDifferences", () => {
  it("words the settings people choose by, and any other as key and value", () => {
    expect(settingWords("encryption", "wireguard")).toBe("WireGuard");
    expect(settingWords("encryption", "ipsec")).toBe("IPsec");
    expect(settingWords("hubble.enabled", false)).toBe("Hubble off");
    expect(settingWords("bpf.masquerade", true)).toBe("BPF masquerade");
    expect(settingWords("bpf-lb-map-max", 1020000)).toBe("bpf-lb-map-max 1020000");
    expect(settingWords("hubble.tls.auto.method", "helm")).toBe("hubble.tls.auto.method helm");
    expect(scenarioName({ name: "flannel", mode: "overlay-vxlan", settings: { "bpf-lb-map-max": 1020000 } })).toBe(
      "Flannel VXLAN, bpf-lb-map-max 1020000",
    );
  });

  it("gives each CNI of a group only the words that differ", () => {
    const cnis = infrabuilderCnis();
    const pick = (...setups: string[]) => setups.map((s) => cnis.get(s) ?? { name: s });
    expect(cniDifferences(pick("cilium", "cilium-nohubble", "cilium-nokproxy", "cilium-wg"))).toEqual([
      ["kube-proxy iptables"],
      ["kube-proxy iptables", "Hubble off"],
      ["kube-proxy replacement"],
      ["kube-proxy iptables", "WireGuard"],
    ]);
    expect(cniDifferences(pick("calico-vpp", "calico-vpp-ipsec", "calico-vpp-wg"))).toEqual([
      [],
      ["IPsec"],
      ["WireGuard"],
    ]);
    expect(cniDifferences(pick("calico", "calico"))).toEqual([[], []]);
  });
});
