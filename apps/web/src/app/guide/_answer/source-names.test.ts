import { describe, expect, it } from "vitest";
import { sourceNames, sourcesByLabel } from "./source-names.ts";

describe("sourceNames", () => {
  it("tells the capability matrix's three kubernetes.io pages apart", () => {
    expect(
      sourceNames([
        "https://kubernetes.io/docs/reference/networking/virtual-ips/",
        "https://kubernetes.io/docs/concepts/services-networking/network-policies/",
        "https://www.cilium.io/blog/2021/05/11/cni-benchmark",
      ]),
    ).toEqual(["kubernetes.io/…/virtual-ips", "kubernetes.io/…/network-policies", "cilium.io"]);
  });

  it("names a page on a code host by its repository, as that is the site", () => {
    expect(
      sourceNames([
        "https://github.com/antrea-io/antrea/blob/main/docs/traffic-encryption.md",
        "https://github.com/cloudnativelabs/kube-router/blob/master/README.md",
        "https://github.com/kubeovn/docs/blob/master/docs/guide/qos.en.md",
        "https://github.com/kubeovn/docs/blob/master/docs/advance/ovn-ipsec.en.md",
      ]),
    ).toEqual([
      "github.com/antrea-io/antrea",
      "github.com/cloudnativelabs/kube-router",
      "github.com/kubeovn/docs/…/qos.en.md",
      "github.com/kubeovn/docs/…/ovn-ipsec.en.md",
    ]);
  });

  it("names a site once present by its site alone, and keeps what is no URL", () => {
    expect(sourceNames(["https://docs.cilium.io/en/stable/", "not a url"])).toEqual(["docs.cilium.io", "not a url"]);
  });

  it("names a site's root page by the site when the site repeats", () => {
    expect(sourceNames(["https://kubernetes.io/", "https://kubernetes.io/docs/"])).toEqual([
      "kubernetes.io",
      "kubernetes.io/…/docs",
    ]);
  });
});

describe("sourcesByLabel", () => {
  it("lists the Cilium overlay's feature pages once under its row, in order, beside another row's page", () => {
    // The sources of the first option's Features line on the InfraBuilder testbed (capabilities.json).
    const cilium = (path: string) => ({
      label: "Cilium VXLAN/Geneve overlay",
      url: `https://docs.cilium.io/en/stable/${path}`,
    });
    const proxy = {
      label: "kube-proxy (iptables)",
      url: "https://kubernetes.io/docs/reference/networking/virtual-ips/",
    };
    const sources = [
      cilium("network/kubernetes/policy/"),
      cilium("security/network/proxy/envoy/"),
      proxy,
      cilium("observability/hubble/"),
    ];
    expect(sourcesByLabel(sources)).toEqual([
      ["Cilium VXLAN/Geneve overlay", [sources[0], sources[1], sources[3]]],
      ["kube-proxy (iptables)", [proxy]],
    ]);
  });
});
