/**
 * Controlled vocabularies for the facets people filter by. Sources spell the same thing many ways
 * ("Azure", "AKS", "Azure Kubernetes Service"); mapping them to one slug keeps facets from
 * fragmenting. Values we do not know are kept (slugified) and reported, never merged into a guess.
 */

export type VocabularyKind = "provider" | "cniName" | "cniMode" | "kubeProxy";

export type VocabularyEntry = { slug: string; label: string; aliases: readonly string[] };

export type ResolvedSlug = {
  slug: string;
  known: boolean;
  /** Set when the raw value could not be resolved for a reason worth telling the uploader. */
  hint?: string;
};

export const vocabulary: Record<VocabularyKind, readonly VocabularyEntry[]> = {
  provider: [
    {
      slug: "aks",
      label: "Azure Kubernetes Service",
      aliases: ["azure", "azure kubernetes service", "microsoft azure"],
    },
    {
      slug: "eks",
      label: "Amazon EKS",
      aliases: ["aws", "amazon", "amazon eks", "amazon elastic kubernetes service", "aws eks"],
    },
    { slug: "gke", label: "Google Kubernetes Engine", aliases: ["gcp", "google", "google kubernetes engine"] },
    {
      slug: "tke",
      label: "Tencent Kubernetes Engine",
      aliases: ["tencent", "tencent cloud", "tencentcloud", "tencent kubernetes engine"],
    },
    {
      slug: "ack",
      label: "Alibaba Cloud ACK",
      aliases: ["alibaba", "alibaba cloud", "aliyun", "alibaba cloud container service for kubernetes"],
    },
    { slug: "cce", label: "Huawei Cloud CCE", aliases: ["huawei", "huawei cloud", "huawei cloud cce"] },
    { slug: "oke", label: "Oracle OKE", aliases: ["oracle", "oci", "oracle kubernetes engine"] },
    { slug: "doks", label: "DigitalOcean Kubernetes", aliases: ["digitalocean", "digital ocean"] },
    { slug: "openshift", label: "Red Hat OpenShift", aliases: ["ocp", "red hat openshift"] },
    {
      slug: "on-prem",
      label: "On-premises",
      aliases: ["on-premises", "on premise", "onprem", "bare metal", "baremetal", "self-managed", "self-hosted"],
    },
    { slug: "kind", label: "kind (Kubernetes in Docker)", aliases: ["kubernetes in docker"] },
    { slug: "minikube", label: "minikube", aliases: [] },
    { slug: "k3s", label: "k3s", aliases: ["k3d"] },
    // `cnibench lab` on one host's kernel, no cluster: evidence about a mechanism, never about a cloud.
    { slug: "lab", label: "Lab", aliases: ["datapath lab", "cnibench lab"] },
    { slug: "unknown", label: "Unknown", aliases: [] },
  ],
  cniName: [
    { slug: "cilium", label: "Cilium", aliases: ["cilium cni", "isovalent cilium"] },
    {
      slug: "azure-cni-cilium",
      label: "Azure CNI powered by Cilium",
      aliases: ["azure cni powered by cilium", "azure cni cilium", "azcni cilium", "azure cilium"],
    },
    { slug: "azure-cni", label: "Azure CNI", aliases: ["azcni", "azure cni overlay", "azure vnet cni"] },
    {
      slug: "aws-vpc-cni",
      label: "Amazon VPC CNI",
      aliases: ["aws vpc cni", "amazon vpc cni", "amazon-vpc-cni-k8s", "aws-node", "eks vpc cni"],
    },
    { slug: "tke-vpc-cni", label: "TKE VPC-CNI", aliases: ["tke vpc cni", "tencent vpc cni"] },
    { slug: "tke-global-router", label: "TKE GlobalRouter", aliases: ["globalrouter", "global router"] },
    { slug: "terway", label: "Terway (Alibaba Cloud)", aliases: ["alibaba terway"] },
    { slug: "calico", label: "Calico", aliases: ["project calico", "tigera calico", "calico cni"] },
    { slug: "canal", label: "Canal (Calico + Flannel)", aliases: [] },
    { slug: "flannel", label: "Flannel", aliases: ["flanneld"] },
    {
      slug: "gke-dataplane-v2",
      label: "GKE Dataplane V2",
      aliases: ["dataplane v2", "gke dataplane v2", "dpv2", "advanced datapath"],
    },
    { slug: "kindnet", label: "kindnet", aliases: ["kindnetd"] },
    { slug: "antrea", label: "Antrea", aliases: [] },
    { slug: "kube-router", label: "kube-router", aliases: ["kuberouter"] },
    { slug: "weave", label: "Weave Net", aliases: ["weave net", "weavenet"] },
    { slug: "ovn-kubernetes", label: "OVN-Kubernetes", aliases: ["ovn-k8s", "ovn k8s", "ovn"] },
    // Kube-OVN (kubeovn/kube-ovn) is a project of its own, not OVN-Kubernetes.
    { slug: "kube-ovn", label: "Kube-OVN", aliases: ["kubeovn"] },
    // kube-proxy's rules rebuilt by `cnibench lab` in network namespaces (its mode names the proxy mode).
    { slug: "kube-proxy-lab", label: "kube-proxy (lab)", aliases: ["kube-proxy lab", "cnibench lab"] },
    // A node-to-node measurement without Kubernetes: a yardstick for the datapaths (isReferenceCni).
    {
      slug: "none",
      label: "No CNI (node-to-node reference)",
      aliases: ["baremetal", "bare metal", "host network", "hostnetwork"],
    },
    { slug: "unknown", label: "Unknown", aliases: [] },
  ],
  cniMode: [
    {
      slug: "native",
      label: "Native routing",
      aliases: ["native routing", "native-routing", "direct routing", "routing mode native", "routingmode native"],
    },
    {
      slug: "overlay-vxlan",
      label: "Overlay (VXLAN)",
      aliases: ["vxlan", "vxlan overlay", "tunnel", "tunnel vxlan", "overlay vxlan"],
    },
    { slug: "overlay-geneve", label: "Overlay (Geneve)", aliases: ["geneve", "geneve overlay", "tunnel geneve"] },
    { slug: "overlay", label: "Overlay (unspecified encapsulation)", aliases: ["overlay mode"] },
    { slug: "chaining", label: "CNI chaining", aliases: ["cni chaining", "cni-chaining", "chained", "chain"] },
    { slug: "eni", label: "ENI", aliases: ["eni mode", "aws eni", "eni secondary ip", "elastic network interface"] },
    { slug: "vpc", label: "VPC-routed", aliases: ["vpc native", "vpc-native", "vnet", "pod subnet"] },
    { slug: "ipip", label: "IP-in-IP", aliases: ["ip-in-ip", "ipinip", "ip in ip"] },
    { slug: "bgp", label: "BGP", aliases: ["bgp routing"] },
    { slug: "host-gw", label: "host-gw", aliases: ["host gateway", "hostgw"] },
    { slug: "iptables", label: "iptables dataplane", aliases: ["iptables dataplane"] },
    // Calico's nftables dataplane, and the lab's kube-proxy nftables mode.
    { slug: "nftables", label: "nftables dataplane", aliases: ["nftables dataplane", "nft dataplane"] },
    { slug: "ebpf", label: "eBPF dataplane", aliases: ["ebpf dataplane", "bpf"] },
    { slug: "vpp", label: "VPP dataplane", aliases: ["vpp dataplane"] },
    { slug: "host-network", label: "Host network (reference)", aliases: [] },
    { slug: "unknown", label: "Unknown", aliases: [] },
  ],
  kubeProxy: [
    { slug: "iptables", label: "kube-proxy (iptables)", aliases: ["kube-proxy iptables", "kube-proxy", "kubeproxy"] },
    { slug: "ipvs", label: "kube-proxy (IPVS)", aliases: ["kube-proxy ipvs"] },
    { slug: "nftables", label: "kube-proxy (nftables)", aliases: ["kube-proxy nftables", "nft"] },
    {
      slug: "ebpf",
      label: "eBPF kube-proxy replacement",
      aliases: [
        "kpr",
        "kube-proxy-less",
        "kube proxy less",
        "kube-proxy replacement",
        "kubeproxyreplacement",
        "kube-proxy-replacement",
        "bpf",
        "cilium kpr",
      ],
    },
    // A CNI that is the Service proxy itself, without eBPF and with no kube-proxy running
    // (kube-router's --run-service-proxy on IPVS): distinct from "ipvs", which is kube-proxy's mode.
    {
      slug: "cni-proxy",
      label: "CNI's own kube-proxy replacement",
      aliases: ["cni proxy", "cni service proxy", "kube-router service proxy", "kube-router proxy"],
    },
    // Distinct from ebpf: nothing implements Services at all (e.g. a bare test cluster).
    { slug: "none", label: "No service proxy", aliases: ["no service proxy"] },
    { slug: "unknown", label: "Unknown", aliases: [] },
  ],
};

/**
 * Aliases that name different things depending on the cloud: "VPC-CNI" is AWS's plugin on EKS and
 * Tencent's on TKE. Resolved by provider; without a matching provider they stay unresolved.
 */
const providerDependentAliases: Partial<Record<VocabularyKind, Record<string, Record<string, string>>>> = {
  cniName: {
    "vpc-cni": { eks: "aws-vpc-cni", tke: "tke-vpc-cni" },
  },
};

/** Lower-case slug: case, whitespace, underscores and punctuation runs collapse to single dashes. */
export function slugify(raw: string): string {
  return raw
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^a-z0-9.+]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const lookup = new Map<VocabularyKind, Map<string, string>>();
for (const kind of Object.keys(vocabulary) as VocabularyKind[]) {
  const map = new Map<string, string>();
  for (const entry of vocabulary[kind]) {
    for (const name of [entry.slug, entry.label, ...entry.aliases]) map.set(slugify(name), entry.slug);
  }
  lookup.set(kind, map);
}

export function resolveSlug(kind: VocabularyKind, raw: string, context?: { provider?: string }): ResolvedSlug {
  const candidate = slugify(raw);
  if (candidate === "") return { slug: "unknown", known: false, hint: "empty value" };

  const byProvider = providerDependentAliases[kind]?.[candidate];
  if (byProvider) {
    const provider = context?.provider === undefined ? undefined : resolveSlug("provider", context.provider).slug;
    const resolved = provider === undefined ? undefined : byProvider[provider];
    if (resolved) return { slug: resolved, known: true };
    const choices = Object.entries(byProvider)
      .map(([p, slug]) => `${slug} on ${p}`)
      .join(", ");
    return { slug: candidate, known: false, hint: `"${raw}" means a different CNI per provider (${choices})` };
  }

  const slug = lookup.get(kind)?.get(candidate);
  return slug === undefined ? { slug: candidate, known: false } : { slug, known: true };
}

/**
 * Is this CNI name a reference rather than a datapath? "none" is a measurement without Kubernetes
 * (node to node on the host network): views draw it as a line to compare against and never rank it.
 */
export function isReferenceCni(name: string): boolean {
  return resolveSlug("cniName", name).slug === "none";
}

export function vocabularyLabel(kind: VocabularyKind, slug: string): string | undefined {
  return vocabulary[kind].find((entry) => entry.slug === slug)?.label;
}
