import { describe, expect, it } from "vitest";
import {
  isReferenceCni,
  resolveSlug,
  slugify,
  type VocabularyKind,
  vocabulary,
  vocabularyLabel,
} from "./vocabulary.ts";

describe("resolveSlug", () => {
  it.each([
    ["provider", "Azure", "aks"],
    ["provider", "AKS", "aks"],
    ["provider", "azure kubernetes service", "aks"],
    ["provider", "aws", "eks"],
    ["provider", "Amazon EKS", "eks"],
    ["provider", "EKS", "eks"],
    ["provider", "Tencent", "tke"],
    ["provider", "TKE", "tke"],
    ["provider", "  Tencent_Cloud ", "tke"],
    ["provider", "bare metal", "on-prem"],
    ["provider", "unknown", "unknown"],
    ["cniName", "Azure CNI powered by Cilium", "azure-cni-cilium"],
    ["cniName", "Cilium", "cilium"],
    ["cniName", "amazon-vpc-cni-k8s", "aws-vpc-cni"],
    ["cniName", "GKE Dataplane V2", "gke-dataplane-v2"],
    ["cniMode", "vxlan", "overlay-vxlan"],
    ["cniMode", "VXLAN", "overlay-vxlan"],
    ["cniMode", "tunnel", "overlay-vxlan"],
    ["cniMode", "Overlay (VXLAN)", "overlay-vxlan"],
    ["cniMode", "native routing", "native"],
    ["cniMode", "cni-chaining", "chaining"],
    ["cniMode", "ENI Secondary IP", "eni"],
    ["kubeProxy", "kpr", "ebpf"],
    ["kubeProxy", "kube-proxy-less", "ebpf"],
    ["kubeProxy", "kube-proxy replacement", "ebpf"],
    ["kubeProxy", "eBPF", "ebpf"],
    ["kubeProxy", "IPVS", "ipvs"],
    ["kubeProxy", "none", "none"],
    ["kubeProxy", "kube-router service proxy", "cni-proxy"],
    ["cniName", "kubeovn", "kube-ovn"],
    ["cniName", "baremetal", "none"],
    ["cniMode", "host-network", "host-network"],
    ["cniMode", "VPP", "vpp"],
    ["provider", "lab", "lab"],
    ["provider", "cnibench lab", "lab"],
    ["cniName", "kube-proxy-lab", "kube-proxy-lab"],
    ["cniName", "kube-proxy (lab)", "kube-proxy-lab"],
    ["cniMode", "nftables", "nftables"],
  ] as const)("%s %j → %s", (kind, raw, slug) => {
    expect(resolveSlug(kind, raw)).toEqual({ slug, known: true });
  });

  it("resolves VPC-CNI by provider, accepting the provider's aliases too", () => {
    expect(resolveSlug("cniName", "VPC-CNI", { provider: "eks" })).toEqual({ slug: "aws-vpc-cni", known: true });
    expect(resolveSlug("cniName", "vpc cni", { provider: "Amazon EKS" })).toEqual({ slug: "aws-vpc-cni", known: true });
    expect(resolveSlug("cniName", "VPC-CNI", { provider: "tke" })).toEqual({ slug: "tke-vpc-cni", known: true });
    expect(resolveSlug("cniName", "VPC_CNI", { provider: "Tencent" })).toEqual({ slug: "tke-vpc-cni", known: true });
  });

  it("leaves VPC-CNI unresolved, with a hint, when the provider does not decide it", () => {
    for (const context of [undefined, { provider: "aks" }, { provider: "unknown" }]) {
      const resolved = resolveSlug("cniName", "VPC-CNI", context);
      expect(resolved.slug).toBe("vpc-cni");
      expect(resolved.known).toBe(false);
      expect(resolved.hint).toContain("aws-vpc-cni on eks");
    }
  });

  it("keeps unknown values slugified and marked unknown, never merged", () => {
    expect(resolveSlug("cniName", "My Fancy_CNI  v2")).toEqual({ slug: "my-fancy-cni-v2", known: false });
    expect(resolveSlug("provider", "Hetzner")).toEqual({ slug: "hetzner", known: false });
    expect(resolveSlug("cniMode", "!!!").known).toBe(false);
  });

  it("does not confuse kinds: a kube-proxy alias is not a CNI mode", () => {
    expect(resolveSlug("cniMode", "kpr").known).toBe(false);
    expect(resolveSlug("provider", "cilium").known).toBe(false);
  });

  it("bare metal means one thing per kind: on-prem as a provider, the node-to-node reference as a CNI", () => {
    // InfraBuilder's "baremetal" setup runs on the same on-prem machines as the CNIs it is a yardstick for.
    expect(resolveSlug("provider", "baremetal").slug).toBe("on-prem");
    expect(resolveSlug("cniName", "baremetal").slug).toBe("none");
    expect(resolveSlug("cniName", "host network").slug).toBe("none");
    expect(resolveSlug("cniMode", "baremetal").known).toBe(false);
    expect(resolveSlug("kubeProxy", "baremetal").known).toBe(false);
    // "ovn" stays OVN-Kubernetes; Kube-OVN is another project.
    expect(resolveSlug("cniName", "ovn").slug).toBe("ovn-kubernetes");
  });
});

describe("vocabulary", () => {
  const kinds = Object.keys(vocabulary) as VocabularyKind[];

  it.each(kinds)("%s has lower-case slugs, labels, an unknown entry and no alias naming two slugs", (kind) => {
    const owner = new Map<string, string>();
    for (const entry of vocabulary[kind]) {
      expect(entry.slug).toBe(slugify(entry.slug));
      expect(entry.label.length).toBeGreaterThan(0);
      for (const name of [entry.slug, entry.label, ...entry.aliases]) {
        const key = slugify(name);
        const previous = owner.get(key);
        if (previous !== undefined) expect(`${key} → ${previous}`).toBe(`${key} → ${entry.slug}`);
        owner.set(key, entry.slug);
      }
    }
    expect(resolveSlug(kind, "unknown")).toEqual({ slug: "unknown", known: true });
  });

  it("knows the reference CNI, whatever its spelling", () => {
    expect(isReferenceCni("none")).toBe(true);
    expect(isReferenceCni("Bare metal")).toBe(true);
    expect(isReferenceCni("cilium")).toBe(false);
    expect(isReferenceCni("unknown")).toBe(false);
  });

  it("gives display labels", () => {
    expect(vocabularyLabel("cniName", "azure-cni-cilium")).toBe("Azure CNI powered by Cilium");
    expect(vocabularyLabel("cniName", "nope")).toBeUndefined();
    // What `cnibench lab` bundles show in facets and names.
    expect(vocabularyLabel("provider", "lab")).toBe("Lab");
    expect(vocabularyLabel("cniName", "kube-proxy-lab")).toBe("kube-proxy (lab)");
  });
});
