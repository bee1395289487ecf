// A scenario's name when its uploads gave none, and the words that tell scenarios of one name apart.
// Twenty setups on one screen must read as what they are ("Calico VXLAN cross-subnet, eBPF dataplane,
// WireGuard"), not as "calico ebpf" five times or an id: words come from the vocabulary's display
// labels and from the settings people choose a datapath by; a setting we do not know reads "key value".
import { isReferenceCni, type SettingValue, vocabularyLabel } from "@cnibench/schema";

/** What names a datapath: the CNI's slugs and settings as stored (cni.label aside). */
export type CniIdentity = {
  name: string;
  mode?: string;
  kubeProxy?: string;
  settings?: Readonly<Record<string, SettingValue>>;
};

/** A name longer than this leaves its last settings out ("+2 more"). */
export const maxNameLength = 64;

const onOff = (v: SettingValue): string => (v === true ? "on" : v === false ? "off" : v === null ? "unset" : String(v));
const lower = (v: SettingValue): string => String(v).toLowerCase();
/** "Native routing" → "native routing", but "ENI", "IP-in-IP", "VPC-routed" and "eBPF …" keep their case. */
const asWords = (label: string): string =>
  /^[A-Z][a-z]/.test(label) ? label[0]?.toLowerCase() + label.slice(1) : label;

function encryptionWords(v: SettingValue): string {
  const slug = lower(v);
  if (slug === "wireguard") return "WireGuard";
  if (slug === "ipsec") return "IPsec";
  if (v === true) return "encryption";
  if (v === false || v === null || slug === "none" || slug === "disabled" || slug === "") return "no encryption";
  return `${String(v)} encryption`;
}

const encapsulations: Record<string, string> = {
  vxlan: "VXLAN",
  vxlancrosssubnet: "VXLAN cross-subnet",
  ipip: "IP-in-IP",
  ipipcrosssubnet: "IP-in-IP cross-subnet",
  geneve: "Geneve",
  none: "no encapsulation",
};

const whether =
  (on: string, off: string) =>
  (v: SettingValue): string =>
    v === true || v === "true" ? on : v === false || v === "false" ? off : `${on} ${onOff(v)}`;

/**
 * Settings we have words for. `quiet`: a value the default name leaves out, being a default or a detail
 * of something already named; it still tells two scenarios of one name apart (cniDifferences).
 * `rank` orders them in a name: encapsulation, encryption, observability, the rest.
 */
type Known = { words: (v: SettingValue) => string; quiet?: (v: SettingValue) => boolean; rank: number };

const falsy = (v: SettingValue) => v === false || v === "false" || v === null;
const known = new Map<string, Known>(
  Object.entries<Known>({
    encapsulation: { rank: 0, words: (v) => encapsulations[lower(v)] ?? `${String(v)} encapsulation` },
    tunnelProtocol: { rank: 0, words: (v) => encapsulations[lower(v)] ?? `${String(v)} tunnel` },
    routingMode: { rank: 0, words: (v) => (lower(v) === "native" ? "native routing" : `${String(v)} routing`) },
    encryption: { rank: 1, words: encryptionWords, quiet: (v) => encryptionWords(v) === "no encryption" },
    "encryption.type": { rank: 1, words: encryptionWords },
    "encryption.enabled": { rank: 1, words: whether("encryption", "no encryption"), quiet: falsy },
    trafficEncryptionMode: { rank: 1, words: encryptionWords, quiet: (v) => encryptionWords(v) === "no encryption" },
    "hubble.enabled": { rank: 2, words: whether("Hubble on", "Hubble off") },
    "hubble.relay.enabled": { rank: 2, words: whether("Hubble relay", "no Hubble relay"), quiet: falsy },
    "hubble.ui.enabled": { rank: 2, words: whether("Hubble UI", "no Hubble UI"), quiet: falsy },
    kubeProxyReplacement: {
      rank: 3,
      words: (v) =>
        v === true || ["true", "strict"].includes(lower(v)) ? "kube-proxy replacement" : "kube-proxy kept",
    },
    "bpf.masquerade": { rank: 3, words: whether("BPF masquerade", "iptables masquerade") },
    "bpf.hostLegacyRouting": { rank: 3, words: whether("legacy host routing", "eBPF host routing") },
    ebpfHostRouting: { rank: 3, words: whether("eBPF host routing", "legacy host routing") },
    "bandwidthManager.enabled": {
      rank: 3,
      words: whether("Bandwidth Manager", "no Bandwidth Manager"),
      quiet: falsy,
    },
    "bandwidthManager.bbr": { rank: 3, words: whether("BBR", "no BBR"), quiet: falsy },
    "socketLB.enabled": { rank: 3, words: whether("socket LB", "no socket LB") },
    ciliumEndpointSlice: { rank: 3, words: whether("CiliumEndpointSlice on", "CiliumEndpointSlice off") },
    cniChaining: { rank: 3, words: (v) => `chained to ${vocabularyLabel("cniName", String(v)) ?? String(v)}` },
    ipam: { rank: 3, words: (v) => `IPAM ${String(v)}` },
    "ipv4.enabled": { rank: 3, words: whether("IPv4", "no IPv4"), quiet: (v) => !falsy(v) },
    "ipv6.enabled": { rank: 3, words: whether("IPv6", "no IPv6"), quiet: falsy },
    tuned: { rank: 3, words: whether("tuned", "not tuned"), quiet: falsy },
  }),
);

/** Hubble's TLS set-up is a detail of Hubble: named when it tells two scenarios apart, not in a name. */
const detail = (key: string) => key.startsWith("hubble.tls.");

/** One setting in words: "WireGuard", "Hubble off", "BPF masquerade"; one we do not know, "key value". */
export function settingWords(key: string, value: SettingValue): string {
  return known.get(key)?.words(value) ?? `${key} ${onOff(value)}`;
}

const settingRank = (key: string): number => known.get(key)?.rank ?? 4;
const bySettingRank = (a: string, b: string): number => settingRank(a) - settingRank(b) || (a < b ? -1 : a > b ? 1 : 0);

/** The CNI's display name; "Canal (Calico + Flannel)" reads "Canal" in a name, a reference keeps its words. */
export function cniWords(name: string): string {
  const label = vocabularyLabel("cniName", name);
  if (label === undefined) return name;
  return isReferenceCni(name) ? label : label.replace(/\s*\([^)]*\)$/, "");
}

/** The mode in words: "VXLAN", "native routing", "eBPF dataplane"; "mode unknown" when not said. */
export function modeWords(mode: string | undefined): string {
  if (mode === undefined || mode === "" || mode === "unknown") return "mode unknown";
  const label = vocabularyLabel("cniMode", mode);
  if (label === undefined) return mode;
  const overlay = /^Overlay \((.+)\)$/.exec(label)?.[1];
  if (overlay) return overlay === "unspecified encapsulation" ? "overlay" : overlay;
  return asWords(label);
}

/** The Service proxy in words: "kube-proxy iptables", "kube-proxy replacement", "no service proxy". */
export function kubeProxyWords(kubeProxy: string | undefined): string {
  if (kubeProxy === undefined || kubeProxy === "" || kubeProxy === "unknown") return "kube-proxy unknown";
  if (kubeProxy === "ebpf" || kubeProxy === "cni-proxy") return "kube-proxy replacement";
  const label = vocabularyLabel("kubeProxy", kubeProxy);
  if (label === undefined) return `kube-proxy ${kubeProxy}`;
  return asWords(label.replace(/^kube-proxy \((.+)\)$/, "kube-proxy $1"));
}

/** A mode that names a dataplane ("iptables dataplane"), not how Pods' packets are routed. */
export const isDataplane = (mode: string | undefined): boolean =>
  mode !== undefined && (vocabularyLabel("cniMode", mode)?.endsWith(" dataplane") ?? false);

/** Hubble's settings as one phrase: "Hubble off", "Hubble relay and UI", "Hubble on". */
function hubblePhrase(settings: Readonly<Record<string, SettingValue>>): string | undefined {
  const enabled = settings["hubble.enabled"];
  if (enabled === false) return "Hubble off";
  const parts = [
    settings["hubble.relay.enabled"] === true ? "relay" : null,
    settings["hubble.ui.enabled"] === true ? "UI" : null,
  ].filter((p) => p !== null);
  if (parts.length > 0) return `Hubble ${parts.join(" and ")}`;
  return enabled === undefined ? undefined : settingWords("hubble.enabled", enabled);
}

/**
 * A scenario's readable default name from its CNI: the CNI and how it carries pod traffic, then its
 * dataplane, Service proxy, encryption, Hubble and other settings — "Cilium VXLAN, kube-proxy
 * replacement, Hubble off". Defaults go unsaid (kube-proxy in iptables mode, encryption off); the same
 * CNI always gives the same name, at most `maxNameLength` characters.
 */
export function scenarioName(cni: CniIdentity): string {
  const settings = cni.settings ?? {};
  const reference = isReferenceCni(cni.name);
  const head = [cniWords(cni.name)];
  const parts: string[] = [];
  const keys = Object.keys(settings).sort(bySettingRank);
  // How pod traffic travels reads with the CNI: its mode ("Cilium VXLAN"), else, when the mode names a
  // dataplane, its encapsulation ("Calico VXLAN cross-subnet, eBPF dataplane").
  const mode = modeWords(cni.mode);
  const transport = !reference && mode !== "mode unknown" && !isDataplane(cni.mode);
  if (transport) head.push(mode);
  for (const key of keys.filter((k) => settingRank(k) === 0)) {
    (transport ? parts : head).push(settingWords(key, settings[key] ?? null));
  }
  if (!reference && isDataplane(cni.mode)) parts.push(mode);
  const proxyIsDataplane = cni.kubeProxy === "ebpf" && cni.mode === "ebpf";
  if (!reference && !proxyIsDataplane && !["iptables", "unknown", "", undefined].includes(cni.kubeProxy)) {
    parts.push(kubeProxyWords(cni.kubeProxy));
  }
  let hubbleSaid = false;
  for (const key of keys) {
    const value = settings[key] ?? null;
    if (settingRank(key) === 0 || detail(key) || known.get(key)?.quiet?.(value)) continue;
    if (key.startsWith("hubble.") && known.has(key)) {
      const phrase = hubbleSaid ? undefined : hubblePhrase(settings);
      hubbleSaid = true;
      if (phrase) parts.push(phrase);
      continue;
    }
    parts.push(settingWords(key, value));
  }
  // Say each thing once: routingMode "native" on a native-routing mode, kubeProxyReplacement beside kube-proxy ebpf.
  const once = (words: string[]) => [...new Set(words)];
  const first = once(head);
  return fit([first.join(" "), ...once(parts).filter((p) => !first.includes(p))]);
}

/** Joins the words with commas, leaving out the last ones as "+N more" beyond maxNameLength. */
function fit(words: string[]): string {
  const full = words.join(", ");
  if (full.length <= maxNameLength) return full;
  for (let kept = words.length - 1; kept > 1; kept--) {
    const short = `${words.slice(0, kept).join(", ")}, +${words.length - kept} more`;
    if (short.length <= maxNameLength) return short;
  }
  return words.length > 1 ? `${words[0]}, +${words.length - 1} more` : full;
}

/**
 * What tells CNIs apart, in words, for each of them in order: the CNI, mode, Service proxy and each
 * setting whose value is not the same for all ("Hubble off" for one, nothing for one that leaves it
 * unset). Words every CNI shares are left out; a CNI like all the others gets [].
 */
export function cniDifferences(cnis: readonly CniIdentity[]): string[][] {
  const dimensions: ((c: CniIdentity) => string)[] = [
    (c) => cniWords(c.name),
    (c) => modeWords(c.mode),
    (c) => kubeProxyWords(c.kubeProxy),
  ];
  const keys = [...new Set(cnis.flatMap((c) => Object.keys(c.settings ?? {})))].sort(bySettingRank);
  for (const key of keys) {
    dimensions.push((c) => {
      const value = c.settings?.[key];
      return value === undefined ? "" : settingWords(key, value);
    });
  }
  const differing = dimensions.filter((d) => new Set(cnis.map(d)).size > 1);
  return cnis.map((c) => differing.map((d) => d(c)).filter((w) => w !== ""));
}
