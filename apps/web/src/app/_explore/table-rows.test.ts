import { describe, expect, it } from "vitest";
import type { ScenarioRow } from "./rows";
import { tableRows } from "./table-rows";

// A Cilium scenario of the TKE benchmark: a campaign of three runs of TCP pod-to-pod throughput, one
// figure published as approximate, and a column it has no figure for.
const row: ScenarioRow = {
  id: "sc1",
  label: "Cilium Native",
  provider: "tke",
  sku: "SA5.2XLARGE32",
  kernel: "6.6.10",
  kubernetesVersion: "1.30",
  cni: { name: "cilium", version: "1.16.3", mode: "native", kubeProxy: "ebpf" },
  differingSettings: ["bpf-masquerade true", "tunnel disabled"],
  bundleCount: 3,
  keyFigures: {
    tcpPod1: {
      value: 9.3,
      unit: "Gbit/s",
      qualifier: null,
      low: null,
      high: null,
      params: { path: "pod-pod", streams: 1 },
      summary: {
        n: 3,
        campaignBundleIds: ["b1", "b2", "b3"],
        distribution: { n: 3, median: 9.41, mean: 9.41, min: 9.3, max: 9.52, sd: 0.11, cv: 0.0117 },
      },
    },
    // One run: its summary counts it and has no distribution.
    shortRps: {
      value: 31365,
      unit: "req/s",
      qualifier: "approx",
      low: null,
      high: null,
      params: {},
      summary: { n: 1, campaignBundleIds: ["b4"], distribution: null },
    },
  },
};

describe("tableRows", () => {
  it("puts a scenario in the words its cells show, with the figures of the columns shown only", () => {
    expect(tableRows([row], ["tcpPod1", "shortRps", "tcpRrP99"])).toEqual([
      {
        id: "sc1",
        label: "Cilium Native",
        cni: "cilium 1.16.3 · native · kube-proxy ebpf",
        settings: "bpf-masquerade true · tunnel disabled",
        provider: "tke",
        sku: "SA5.2XLARGE32",
        kernel: "6.6.10",
        kubernetesVersion: "1.30",
        bundleCount: 3,
        figures: {
          // The campaign's median, not the latest run's value; hovering tells the spread and params.
          tcpPod1: {
            value: "9.41",
            n: 3,
            title: "median 9.41 of n=3 runs, min–max 9.3–9.52 Gbit/s, sd 0.11, CV 1.2 %; path pod-pod · streams 1",
          },
          // Without params, formatParams says "—", as the cell always did.
          shortRps: { value: "≈31,365", n: 1, title: "—; published as approximate" },
        },
      },
    ]);
    expect(tableRows([row], ["tcpPod1"])[0]?.figures).not.toHaveProperty("shortRps");
  });

  it("leaves out an unknown CNI version and says no settings when none differ", () => {
    const [words] = tableRows([{ ...row, cni: { ...row.cni, version: "unknown" }, differingSettings: [] }], []);
    expect(words?.cni).toBe("cilium · native · kube-proxy ebpf");
    expect(words?.settings).toBe("");
  });
});
