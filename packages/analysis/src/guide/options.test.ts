import { loadDemoData } from "@cnibench/test-support/demo-data";
import { describe, expect, it } from "vitest";
import { capabilityMatrix } from "./capabilities.ts";
import { describeDatapath, groupDatapaths, standaloneRows } from "./options.ts";

const demo = loadDemoData();
const scenario = (bundle: string) => demo.scenarios.find((s) => s.id === demo.scenarioOf(bundle))!;

describe("datapath options from the seed scenarios", () => {
  // EKS's tuned Cilium ENI (E) turns Hubble off among its tunings: observability is part of what a
  // datapath is (issue 39), so it is an option of its own, never pooled with (D).
  it("groups the 13 scenarios by CNI, mode, Service proxy and observability into 9 options", () => {
    const groups = groupDatapaths(demo.scenarios);
    expect(demo.scenarios).toHaveLength(13);
    expect(
      groups
        .map((g) => [g.id, g.scenarios.map((s) => s.label).sort()])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ).toEqual([
      ["aws-vpc-cni:eni:iptables", ["AWS VPC CNI (A)"]],
      ["azure-cni-cilium:overlay:ebpf", ["Azure CNI powered by Cilium (overlay)"]],
      [
        "azure-cni-cilium:unknown:unknown",
        [
          "Azure CNI powered by Cilium, CiliumEndpointSlice off",
          "Azure CNI powered by Cilium, CiliumEndpointSlice on",
          "Azure CNI powered by Cilium, eBPF host routing off",
          "Azure CNI powered by Cilium, eBPF host routing on",
        ],
      ],
      ["cilium:eni:ebpf", ["Cilium ENI (D)"]],
      ["cilium:eni:ebpf|Hubble off", ["Cilium ENI + tuning (E)"]],
      ["cilium:native:ebpf:chained-tke-vpc-cni", ["Cilium Native"]],
      ["cilium:overlay-vxlan:ebpf", ["Cilium Overlay", "Cilium kube-proxy-less (C)"]],
      ["cilium:overlay-vxlan:iptables", ["Cilium + kube-proxy (B)"]],
      ["tke-vpc-cni:vpc:iptables", ["kube-proxy iptables"]],
    ]);
  });

  it("matches each to capability rows, the Service proxy first when kube-proxy runs", () => {
    const rows = (bundle: string) => describeDatapath(scenario(bundle)).layers;
    expect(rows("tke-a-iptables-main")).toEqual([["kube-proxy-iptables"], ["tke-vpc-cni"]]);
    // TKE's "Cilium Native" is Cilium chained on VPC-CNI (cniChaining in its settings).
    expect(rows("tke-b-cilium-native-main")).toEqual([["cilium-chaining"]]);
    expect(rows("tke-c-cilium-overlay-main")).toEqual([["cilium-overlay"]]);
    expect(rows("eks-a-vpc-cni-main")).toEqual([["kube-proxy-iptables"], ["aws-vpc-cni"]]);
    expect(rows("eks-b-cilium-kube-proxy-main")).toEqual([["kube-proxy-iptables"], ["cilium-overlay"]]);
    expect(rows("eks-d-cilium-eni-main")).toEqual([["cilium-native-kpr"]]);
    expect(rows("aks-ebpf-host-routing-on")).toEqual([["azure-cni-cilium-overlay", "azure-cni-cilium-vnet"]]);
    const ids = new Set(capabilityMatrix.options.map((o) => o.id));
    for (const s of demo.scenarios) {
      for (const id of describeDatapath(s).layers.flat()) expect(ids.has(id), id).toBe(true);
    }
    for (const id of Object.keys(standaloneRows)) expect(ids.has(id), id).toBe(true);
  });

  it("tells encrypted and observed variants apart, each named by what sets it apart", () => {
    const base = scenario("eks-d-cilium-eni-main");
    const variant = (settings: Record<string, string | number | boolean | null>) =>
      describeDatapath({ ...base, cni: { ...base.cni, settings } });
    expect(variant({ encryption: "wireguard" })).toMatchObject({
      id: "cilium:eni:ebpf|WireGuard",
      baseId: "cilium:eni:ebpf",
      variant: "WireGuard",
      label: "Cilium ENI (native routing), kube-proxy replacement, WireGuard",
    });
    expect(variant({ "encryption.enabled": true, "encryption.type": "ipsec", "hubble.enabled": false })).toMatchObject({
      variant: "IPsec, Hubble off",
    });
    expect(variant({ "hubble.relay.enabled": true, "hubble.ui.enabled": true }).variant).toBe("Hubble relay + UI");
    // Settings that do not change the datapath's cost leave it as it is.
    expect(variant({ "bpf.masquerade": true, encryption: "disabled" })).toMatchObject({
      variant: null,
      id: "cilium:eni:ebpf",
    });
  });

  it("knows which datapaths exist on one cloud only", () => {
    const cloud = (bundle: string) => describeDatapath(scenario(bundle)).cloud;
    expect(cloud("tke-a-iptables-main")).toBe("tke");
    expect(cloud("tke-b-cilium-native-main")).toBe("tke");
    expect(cloud("tke-c-cilium-overlay-main")).toBeNull();
    expect(cloud("eks-d-cilium-eni-main")).toBe("eks");
    expect(cloud("aks-cilium-ga-scale-1-100k-pods-no-policy")).toBe("aks");
  });
});

describe("datapaths that differ only in routing or dataplane", () => {
  const base = scenario("eks-a-vpc-cni-main");
  const as = (name: string, mode: string, kubeProxy = "iptables") =>
    describeDatapath({ ...base, cni: { ...base.cni, name, mode, kubeProxy, settings: {} } });

  it("name Calico's routing and dataplane, so BGP and VXLAN setups of one testbed read apart", () => {
    expect(as("calico", "bgp").label).toBe("Calico (BGP), iptables dataplane + kube-proxy iptables");
    expect(as("calico", "overlay-vxlan").label).toBe(
      "Calico overlay (VXLAN), iptables dataplane + kube-proxy iptables",
    );
    expect(as("calico", "ipip").label).toBe("Calico (IP-in-IP), iptables dataplane + kube-proxy iptables");
    // A mode that is a dataplane says nothing of routing; an unpublished one neither.
    expect(as("calico", "iptables").label).toBe("Calico iptables dataplane + kube-proxy iptables");
    expect(as("calico", "unknown").label).toBe("Calico iptables dataplane + kube-proxy iptables");
    expect(as("calico", "ebpf", "ebpf").label).toBe("Calico eBPF dataplane");
    expect(as("calico", "bgp", "ebpf")).toMatchObject({
      label: "Calico (BGP), eBPF dataplane",
      layers: [["calico-ebpf"]],
    });
  });

  it("does not describe Calico's nftables dataplane by the iptables row", () => {
    expect(as("calico", "nftables", "nftables")).toMatchObject({
      label: "Calico nftables dataplane + kube-proxy nftables",
      layers: [["kube-proxy-nftables"]],
    });
  });

  it("names Flannel's backend", () => {
    expect(as("flannel", "overlay-vxlan").label).toBe("Flannel overlay (VXLAN) + kube-proxy iptables");
    expect(as("flannel", "host-gw").label).toBe("Flannel (host-gw) + kube-proxy iptables");
    expect(as("flannel", "unknown").label).toBe("Flannel + kube-proxy iptables");
  });
});
