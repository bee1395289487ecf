/**
 * The CNI of an InfraBuilder setup, read from the script bench.sh installed it with
 * (setup/cni-configs/<setup>.sh of InfraBuilder/benchmark-k8s-cni-2024-01): the name from the setup id,
 * the version from `helm install --version` or the manifest URL, the mode from what the script sets or
 * else the CNI's documented default (an encrypted variant keeps its plain sibling's encapsulation),
 * kube-proxy from `#Flag:NOKUBEPROXY` and the CNI's own kube-proxy replacement, and the settings that tell setups of one CNI apart (helm `--set` values as written, encryption
 * in one word for all CNIs). Only defaults: what users pass wins (environment layers).
 */
import { resolveSlug } from "@cnibench/schema";
import type { EnvironmentFields } from "../types.ts";

type Settings = NonNullable<EnvironmentFields["settings"]>;
type HelmValue = string | number | boolean;

/**
 * What one CNI's script says beyond version and helm values. kubeProxy: only where the CNI replaces
 * kube-proxy (Cilium's kubeProxyReplacement, Calico eBPF, kube-router's service proxy).
 */
type Reading = { mode?: string; kubeProxy?: string; settings?: Settings; consumed?: string[] };

/** `--set` values that say where the cluster's addresses are, not how its datapath works. */
const whereNotHow = ["k8sServiceHost", "k8sServicePort", "podCidr", "MASTER_NODES"];

/**
 * The CNI a setup id names: the longest leading part the vocabulary knows ("calico-ebpf-wg" → calico,
 * "kuberouter-all" → kube-router), else its first part as written. Tuned setups (`st_<setup>`) name
 * the same CNI.
 */
export function cniOfSetup(setup: string): string {
  const parts = setup.replace(/^st_/, "").split("-");
  for (let n = parts.length; n > 0; n--) {
    const resolved = resolveSlug("cniName", parts.slice(0, n).join("-"));
    if (resolved.known) return resolved.slug;
  }
  return parts[0] ?? setup;
}

export function cniFromConfig(setup: string, script: string): EnvironmentFields {
  const lines = commandLines(script);
  const helmCommands = lines.filter((line) => /\bhelm\s+(install|upgrade)\b/.test(line));
  const helm = helmValues(helmCommands);
  const cni = cniOfSetup(setup);
  const reading = readers.get(cni)?.(lines.join("\n"), helm) ?? {};
  const consumed = new Set([...whereNotHow, ...(reading.consumed ?? [])]);
  const settings: Settings = {
    ...Object.fromEntries(Object.entries(helm).filter(([key]) => !consumed.has(key))),
    ...reading.settings,
  };
  // bench.sh greps the script for this comment and installs RKE2 without kube-proxy; otherwise RKE2
  // runs kube-proxy in its default mode, iptables. A CNI that balances pod-to-Service traffic itself
  // beside it (AntreaProxy, Calico VPP, Kube-OVN's OVN load balancers) leaves kube-proxy running and
  // serving the rest (NodePorts, host traffic): kubeProxy says what kube-proxy runs as, which the
  // script states by not carrying the flag (docs/design.md: "unknown" only where the source does not say).
  const withoutKubeProxy = script.includes("#Flag:NOKUBEPROXY");
  const kubeProxy = reading.kubeProxy ?? (withoutKubeProxy ? undefined : "iptables");
  const version = helmVersion(helmCommands) ?? manifestVersion(lines);
  return {
    cni,
    ...(version ? { cniVersion: version } : {}),
    ...(reading.mode ? { mode: reading.mode } : {}),
    ...(kubeProxy ? { kubeProxy } : {}),
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
  };
}

// A Map: a setup id is text from the upload ("__proto__" must find nothing).
const readers = new Map(
  Object.entries<(text: string, helm: Record<string, HelmValue>) => Reading>({
    // Helm chart defaults (docs.cilium.io, helm reference): routingMode "tunnel" with tunnelProtocol
    // "vxlan"; encryption.type "ipsec" once encryption.enabled.
    cilium: (_text, helm) => ({
      mode:
        helm.routingMode === "native"
          ? "native"
          : helm.tunnelProtocol === "geneve"
            ? "overlay-geneve"
            : "overlay-vxlan",
      ...(helm["encryption.enabled"] === true
        ? { settings: { encryption: String(helm["encryption.type"] ?? "ipsec").toLowerCase() } }
        : {}),
      ...(helm.kubeProxyReplacement === true || helm.kubeProxyReplacement === "strict" ? { kubeProxy: "ebpf" } : {}),
      consumed: ["routingMode", "tunnelProtocol", "encryption.enabled", "encryption.type", "kubeProxyReplacement"],
    }),
    // Helm chart defaults (build/charts/antrea/values.yaml): trafficEncapMode "encap", tunnelType "geneve";
    // AntreaProxy (on by default) load-balances Service traffic from pods in OVS.
    antrea: (_text, helm) => {
      const encryption = String(helm.trafficEncryptionMode ?? "none").toLowerCase();
      const mode = antreaMode(String(helm.trafficEncapMode ?? "encap"), String(helm.tunnelType ?? "geneve"));
      return {
        ...(mode ? { mode } : {}),
        ...(encryption !== "none" ? { settings: { encryption } } : {}),
        consumed: ["trafficEncapMode", "tunnelType", "trafficEncryptionMode"],
      };
    },
    // Helm chart default (flannel-io/flannel chart/kube-flannel/values.yaml): flannel.backend "vxlan".
    flannel: (_text, helm) => {
      const backend = resolveSlug("cniMode", String(helm["flannel.backend"] ?? "vxlan"));
      return { ...(backend.known ? { mode: backend.slug } : {}), consumed: ["flannel.backend"] };
    },
    // canal.yaml of Calico's manifests: flannel's net-conf.json with "Backend": { "Type": "vxlan" }.
    canal: () => ({ mode: "overlay-vxlan" }),
    // The operator's Installation: linuxDataplane defaults to Iptables; BPF replaces kube-proxy; VPP
    // load-balances Services itself ("native support for Kubernetes services without needing kube-proxy").
    // The IP pool's encapsulation is a setting (VXLANCrossSubnet: the three nodes share one subnet, so pod
    // traffic between them is routed without encapsulation).
    calico: (text) => {
      const dataplane = /^[^\S\n]*linuxDataplane:[^\S\n]*"?(\w+)"?/m.exec(text)?.[1]?.toLowerCase() ?? "iptables";
      const mode = dataplane === "bpf" ? "ebpf" : dataplane;
      const encapsulation = /^[^\S\n]*encapsulation:[^\S\n]*"?(\w+)"?/m.exec(text)?.[1];
      const encryption = /wireguardEnabled\\?"?\s*:\s*true/.test(text)
        ? "wireguard"
        : /ipsecEnabled\\?"?\s*:\s*true/.test(text)
          ? "ipsec"
          : undefined;
      return {
        mode,
        ...(mode === "ebpf" ? { kubeProxy: "ebpf" } : {}),
        settings: { ...(encapsulation ? { encapsulation } : {}), ...(encryption ? { encryption } : {}) },
      };
    },
    // kube-router routes pod subnets with BGP (a tunnel only across subnets, --overlay-type=subnet);
    // --run-service-proxy=true makes it the Service proxy, built on IPVS, in kube-proxy's place (the
    // script carries #Flag:NOKUBEPROXY): "ipvs" would say kube-proxy runs in IPVS mode.
    "kube-router": (text) => ({
      mode: "bgp",
      ...(/--run-service-proxy=true/.test(text) ? { kubeProxy: "cni-proxy" } : {}),
    }),
    // Kube-OVN's default network type (networking.NETWORK_TYPE) is geneve; its OVN load balancers
    // (ENABLE_LB, on by default) serve Services.
    "kube-ovn": () => ({ mode: "overlay-geneve" }),
  }),
);

function antreaMode(encap: string, tunnelType: string): string | undefined {
  if (encap === "noEncap") return "native";
  // hybrid and networkPolicyOnly depend on the nodes' subnets or on another CNI: the user says.
  if (encap !== "encap") return undefined;
  // With WireGuard, Antrea's docs say the tunnelType "will be ignored" (docs/traffic-encryption.md): the
  // pod traffic crosses nodes inside WireGuard instead. Named as its unencrypted sibling's mode, with
  // encryption in the settings, so the variant stands beside its sibling as every other CNI's
  // encrypted variants do, rather than becoming an "overlay (unspecified encapsulation)" of its own.
  const tunnel = resolveSlug("cniMode", tunnelType);
  return tunnel.known ? tunnel.slug : undefined;
}

/** The lines a shell runs: comments dropped, backslash continuations joined. */
function commandLines(script: string): string[] {
  return script
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .filter((line) => !line.trimStart().startsWith("#"));
}

/** `--set key=value` of helm commands, read as helm reads them: true, 1095, text. */
function helmValues(commands: string[]): Record<string, HelmValue> {
  const values: Record<string, HelmValue> = {};
  for (const line of commands) {
    for (const [, key, raw] of line.matchAll(/--set\s+([^\s=]+)=("[^"]*"|'[^']*'|\S+)/g)) {
      const value = raw!.replace(/^(["'])(.*)\1$/, "$2");
      values[key!] =
        value === "true" ? true : value === "false" ? false : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    }
  }
  return values;
}

function helmVersion(commands: string[]): string | undefined {
  for (const line of commands) {
    const version = /--version[\s=]+v?(\S+)/.exec(line)?.[1];
    if (version) return version;
  }
  return undefined;
}

/** The release of the first manifest applied from a repository: raw.githubusercontent.com/<org>/<repo>/v3.27.2/…. */
function manifestVersion(lines: string[]): string | undefined {
  for (const line of lines) {
    const version = /raw\.githubusercontent\.com\/[^/\s]+\/[^/\s]+\/v(\d+(?:\.\d+)+)\//.exec(line)?.[1];
    if (version) return version;
  }
  return undefined;
}
