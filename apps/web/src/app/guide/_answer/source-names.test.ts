import { describe, expect, it } from "vitest";
import { sourceNames } from "./source-names.ts";

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
