// Datapath options: scenarios grouped by what a user would choose (CNI, mode, Service proxy) and
// matched to rows of the capability matrix.
import { vocabularyLabel } from "@cnibench/schema";
import { isDataplane, modeWords } from "../names.ts";
import type { GuideScenario } from "./types.ts";

export type ServiceProxy = "iptables" | "ipvs" | "nftables" | "ebpf" | "cni-proxy" | "unknown";
export type Routing = "overlay" | "native" | "unknown";

export type Datapath = {
  /**
   * `cni:mode:kubeProxy`, plus `:chained-<cni>` for CNI chaining, plus `|<variant>` for encryption or
   * observability settings (variantOf).
   */
  id: string;
  /** The id without the variant: the datapath an encrypted or observed setup is a variant of. */
  baseId: string;
  /** "IPsec", "Hubble off": what sets the setup apart from its base datapath; null for none. */
  variant: string | null;
  label: string;
  /** Capability rows, most specific layer first (see resolveCapability). */
  layers: string[][];
  proxy: ServiceProxy;
  routing: Routing;
  cni: string;
  /** The only cloud this datapath exists on (a managed or cloud-specific CNI), else null. */
  cloud: string | null;
};

export type DatapathOption = Datapath & { scenarios: GuideScenario[] };

const proxyRows: Partial<Record<string, string>> = {
  iptables: "kube-proxy-iptables",
  ipvs: "kube-proxy-ipvs",
  nftables: "kube-proxy-nftables",
};

const proxyWords: Partial<Record<string, string>> = {
  iptables: " + kube-proxy iptables",
  ipvs: " + kube-proxy IPVS",
  nftables: " + kube-proxy nftables",
  ebpf: ", kube-proxy replacement",
  "cni-proxy": ", kube-proxy replacement",
};

const cloudOfCni: Partial<Record<string, string>> = { "aws-vpc-cni": "eks", "tke-vpc-cni": "tke" };

const proxies: readonly string[] = ["iptables", "ipvs", "nftables", "ebpf", "cni-proxy"] satisfies ServiceProxy[];
const asProxy = (v: string): ServiceProxy => (proxies.includes(v) ? (v as ServiceProxy) : "unknown");

const isOverlay = (mode: string) => mode.startsWith("overlay") || mode === "ipip";

const encryptionNames: Record<string, string> = { wireguard: "WireGuard", ipsec: "IPsec" };
const noEncryption = new Set(["", "none", "disabled", "off", "false", "no"]);

/**
 * The encryption a scenario's CNI ran with ("WireGuard", "IPsec", "encryption" when the kind is not
 * named), from its settings (`encryption`, `encryption.enabled`, `encryption.type`); null without.
 */
export function encryptionOf(s: GuideScenario): string | null {
  const settings = s.cni.settings;
  const kind = settings["encryption.type"] ?? settings.encryption;
  const enabled = settings["encryption.enabled"];
  if (enabled === false) return null;
  if (typeof kind === "string") {
    const word = kind.trim().toLowerCase();
    return noEncryption.has(word) ? null : (encryptionNames[word] ?? kind.trim());
  }
  return kind === true || enabled === true ? "encryption" : null;
}

/**
 * Flow observability as configured (Cilium's Hubble, the only one the settings name so far): "Hubble
 * off" when disabled, "Hubble relay + UI" when its extras run, null at the CNI's default.
 */
export function observabilityOf(s: GuideScenario): string | null {
  const settings = s.cni.settings;
  if (settings["hubble.enabled"] === false) return "Hubble off";
  const extras = [
    settings["hubble.relay.enabled"] === true ? "relay" : null,
    settings["hubble.ui.enabled"] === true ? "UI" : null,
  ].filter((x) => x !== null);
  return extras.length > 0 ? `Hubble ${extras.join(" + ")}` : null;
}

/**
 * What sets a setup apart from its base datapath where it costs throughput or CPU: its encryption and
 * its flow observability. Setups that differ in these are different datapaths to choose from, so the
 * guide never takes one's throughput and another's CPU for one option (issue 39).
 */
export function variantOf(s: GuideScenario): string | null {
  const parts = [encryptionOf(s), observabilityOf(s)].filter((x) => x !== null);
  return parts.length > 0 ? parts.join(", ") : null;
}

/** What a scenario's datapath is, in the user's words and the matrix's rows. */
export function describeDatapath(s: GuideScenario): Datapath {
  const base = describeBase(s);
  const variant = variantOf(s);
  return variant
    ? { ...base, id: `${base.id}|${variant}`, baseId: base.id, variant, label: `${base.label}, ${variant}` }
    : { ...base, baseId: base.id, variant: null };
}

/**
 * A mode after a CNI's name: " overlay (Geneve)", as Cilium's read ("Antrea (Overlay (Geneve))"
 * nested its brackets), else in brackets, " (BGP)"; "" where it was not published.
 */
function modeLabel(mode: string): string {
  const modeName = mode === "unknown" ? null : (vocabularyLabel("cniMode", mode) ?? mode);
  const overlay = modeName ? /^Overlay \((.+)\)$/.exec(modeName)?.[1] : undefined;
  return overlay ? ` overlay (${overlay})` : modeName ? ` (${modeWords(mode)})` : "";
}

/**
 * CNIs the matrix describes with rows of their own, paired with the Service proxy's row: which rows a
 * mode reads, and the routing it names. Antrea's encap and noEncap rows differ (encryption, routable
 * Pod IPs, DSR): noEncap is "native" (the importers' antreaMode), encap modes name their tunnel, and
 * a mode that names neither reads both.
 */
const ownRows = new Map<string, { rows: (mode: string) => string[]; routing: (mode: string) => Datapath["routing"] }>([
  [
    "antrea",
    {
      rows: (mode) =>
        mode === "native"
          ? ["antrea-noencap"]
          : isOverlay(mode)
            ? ["antrea-encap"]
            : ["antrea-encap", "antrea-noencap"],
      routing: (mode) => (mode === "native" ? "native" : isOverlay(mode) ? "overlay" : "unknown"),
    },
  ],
  ["canal", { rows: () => ["canal"], routing: (mode) => (isOverlay(mode) ? "overlay" : "unknown") }],
  ["flannel", { rows: () => ["flannel"], routing: (mode) => (mode === "host-gw" ? "native" : "overlay") }],
  [
    "hybridnet",
    {
      rows: () => ["hybridnet"],
      routing: (mode) => (isOverlay(mode) ? "overlay" : mode === "bgp" ? "native" : "unknown"),
    },
  ],
  ["kube-ovn", { rows: () => ["kube-ovn"], routing: (mode) => (isOverlay(mode) ? "overlay" : "unknown") }],
  [
    "kube-router",
    {
      rows: () => ["kube-router"],
      routing: (mode) => (isOverlay(mode) ? "overlay" : mode === "bgp" ? "native" : "unknown"),
    },
  ],
]);

function describeBase(s: GuideScenario): Omit<Datapath, "baseId" | "variant"> {
  const { name, mode, kubeProxy } = s.cni;
  const proxy = asProxy(kubeProxy);
  const proxyLayer = proxyRows[kubeProxy] ? [[proxyRows[kubeProxy]!]] : [];
  const suffix = proxyWords[kubeProxy] ?? "";
  const chain =
    typeof s.cni.settings.cniChaining === "string" ? s.cni.settings.cniChaining : mode === "chaining" ? "" : null;
  const id = `${name}:${mode}:${kubeProxy}${chain ? `:chained-${chain}` : ""}`;
  const base = { id, proxy, cni: name };

  switch (name) {
    case "cilium": {
      if (chain !== null) {
        const on = chain ? (vocabularyLabel("cniName", chain) ?? chain) : "another CNI";
        return {
          ...base,
          label: `Cilium native routing, chained on ${on}${suffix}`,
          layers: [...proxyLayer, ["cilium-chaining"]],
          routing: "native",
          cloud: chain ? (cloudOfCni[chain] ?? null) : null,
        };
      }
      if (mode === "native" || mode === "eni") {
        return {
          ...base,
          label: `${mode === "eni" ? "Cilium ENI (native routing)" : "Cilium native routing"}${suffix}`,
          layers: [...proxyLayer, ["cilium-native-kpr"]],
          routing: "native",
          // ENI IPAM is AWS's; plain native routing runs anywhere the network routes Pod IPs.
          cloud: mode === "eni" ? "eks" : null,
        };
      }
      if (isOverlay(mode)) {
        const encap = mode === "overlay-geneve" ? "Geneve" : "VXLAN";
        return {
          ...base,
          label: `Cilium overlay (${encap})${suffix}`,
          layers: [...proxyLayer, ["cilium-overlay"]],
          routing: "overlay",
          cloud: null,
        };
      }
      return {
        ...base,
        label: `Cilium (${mode === "unknown" ? "mode not published" : mode})${suffix}`,
        layers: [...proxyLayer, ["cilium-native-kpr", "cilium-overlay"]],
        routing: "unknown",
        cloud: null,
      };
    }
    case "azure-cni-cilium": {
      const overlay = isOverlay(mode);
      const vnet = mode === "vpc" || mode === "native";
      return {
        ...base,
        label: `Azure CNI powered by Cilium (${overlay ? "overlay" : vnet ? "VNet / pod subnet" : "mode not published"})`,
        layers: [
          ...proxyLayer,
          overlay
            ? ["azure-cni-cilium-overlay"]
            : vnet
              ? ["azure-cni-cilium-vnet"]
              : ["azure-cni-cilium-overlay", "azure-cni-cilium-vnet"],
        ],
        routing: overlay ? "overlay" : vnet ? "native" : "unknown",
        cloud: "aks",
      };
    }
    case "aws-vpc-cni":
    case "tke-vpc-cni":
      return {
        ...base,
        label: `${name === "aws-vpc-cni" ? "AWS VPC CNI" : "TKE VPC-CNI"}${suffix}`,
        layers: [...proxyLayer, [name]],
        routing: "native",
        cloud: cloudOfCni[name] ?? null,
      };
    case "calico": {
      // VPP is a dataplane of its own (a user-space vSwitch), not the iptables one.
      if (mode === "vpp") {
        return {
          ...base,
          label: `Calico VPP dataplane${suffix}`,
          layers: [...proxyLayer, ["calico-vpp"]],
          routing: "unknown",
          cloud: null,
        };
      }
      const ebpf = mode === "ebpf" || kubeProxy === "ebpf";
      // nftables is a dataplane of its own (Calico 3.29+): the iptables row does not describe it.
      const nftables = !ebpf && mode === "nftables";
      // The routing where the mode names it: BGP and VXLAN setups of one testbed read alike.
      const routed = isDataplane(mode) ? "" : modeLabel(mode);
      const routing = routed && `${routed},`;
      return {
        ...base,
        label: `Calico${routing} ${ebpf ? "eBPF" : nftables ? "nftables" : "iptables"} dataplane${ebpf ? "" : suffix}`,
        layers: [...(ebpf ? [] : proxyLayer), ...(nftables ? [] : [[ebpf ? "calico-ebpf" : "calico-iptables"]])],
        routing: isOverlay(mode) || mode === "overlay" ? "overlay" : mode === "bgp" ? "native" : "unknown",
        cloud: null,
      };
    }
    case "gke-dataplane-v2":
      return {
        ...base,
        label: "GKE Dataplane V2",
        layers: [["gke-dataplane-v2"]],
        routing: "native",
        cloud: "gke",
      };
    default: {
      // A CNI with rows of its own comes after the Service proxy's; one without reads the proxy's alone.
      const own = ownRows.get(name);
      const cniLabel = vocabularyLabel("cniName", name) ?? name;
      return {
        ...base,
        label: `${cniLabel}${modeLabel(mode)}${suffix}`,
        layers: own ? [...proxyLayer, own.rows(mode)] : proxyLayer,
        routing: own?.routing(mode) ?? "unknown",
        cloud: null,
      };
    }
  }
}

/**
 * Scenarios grouped into datapath options, in the order their first scenario comes. `describe` lets
 * a caller that has described the scenarios already pass its results.
 */
export function groupDatapaths(
  scenarios: readonly GuideScenario[],
  describe: (s: GuideScenario) => Datapath = describeDatapath,
): DatapathOption[] {
  const byId = new Map<string, DatapathOption>();
  for (const s of scenarios) {
    const d = describe(s);
    const found = byId.get(d.id);
    if (found) found.scenarios.push(s);
    else byId.set(d.id, { ...d, scenarios: [s] });
  }
  return [...byId.values()];
}

/**
 * Matrix rows that are whole datapaths (kube-proxy rows only pair with a CNI), with the clouds they
 * exist on (null: any).
 */
export const standaloneRows: Record<string, { label: string; clouds: readonly string[] | null }> = {
  "cilium-native-kpr": { label: "Cilium native routing, kube-proxy replacement", clouds: null },
  "cilium-overlay": { label: "Cilium overlay (VXLAN/Geneve), kube-proxy replacement", clouds: null },
  "cilium-chaining": { label: "Cilium chained on the cloud's VPC CNI", clouds: ["eks", "tke"] },
  "azure-cni-cilium-overlay": { label: "Azure CNI powered by Cilium (overlay)", clouds: ["aks"] },
  "azure-cni-cilium-vnet": { label: "Azure CNI powered by Cilium (VNet / pod subnet)", clouds: ["aks"] },
  "aws-vpc-cni": { label: "AWS VPC CNI + kube-proxy", clouds: ["eks"] },
  "aws-vpc-cni-network-policy": { label: "AWS VPC CNI + EKS network policy agent", clouds: ["eks"] },
  "tke-vpc-cni": { label: "TKE VPC-CNI + kube-proxy", clouds: ["tke"] },
  "calico-iptables": { label: "Calico iptables dataplane (OSS)", clouds: null },
  "calico-ebpf": { label: "Calico eBPF dataplane (OSS)", clouds: null },
  flannel: { label: "Flannel", clouds: null },
  "gke-dataplane-v2": { label: "GKE Dataplane V2", clouds: ["gke"] },
};
