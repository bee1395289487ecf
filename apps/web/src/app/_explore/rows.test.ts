import { describe, expect, it } from "vitest";
import { pageOf, type ScenarioRow, sortScenarios } from "./rows";

// The TKE benchmark's three datapaths with their short-connection RPS at 0 Services (seed tke), and
// one scenario without that figure.
const row = (id: string, label: string, kernel: string, shortRps?: number): ScenarioRow => ({
  id,
  label,
  provider: "tke",
  sku: "SA5.2XLARGE32",
  kernel,
  kubernetesVersion: "1.30",
  cni: { name: "cilium", version: "1.16", mode: "native", kubeProxy: "none" },
  differingSettings: [],
  bundleCount: 1,
  keyFigures:
    shortRps === undefined
      ? {}
      : {
          shortRps: {
            value: shortRps,
            unit: "req/s",
            qualifier: null,
            low: null,
            high: null,
            params: {},
            summary: { n: 1, campaignBundleIds: [`b-${id}`], distribution: null },
          },
        },
});
const rows = [
  row("a", "iptables", "5.4.241", 31365),
  row("b", "Cilium Native", "6.6.10", 30162),
  row("c", "no figure", "5.15.0"),
  row("d", "Cilium Overlay", "6.10.2", 30533),
];

describe("sortScenarios", () => {
  it("sorts a figure column either way and puts rows without the figure last both times", () => {
    expect(sortScenarios(rows, "shortRps", "desc").map((r) => r.id)).toEqual(["a", "d", "b", "c"]);
    expect(sortScenarios(rows, "shortRps", "asc").map((r) => r.id)).toEqual(["b", "d", "a", "c"]);
  });

  it("compares kernels as versions, not as strings", () => {
    expect(sortScenarios(rows, "kernel", "asc").map((r) => r.kernel)).toEqual([
      "5.4.241",
      "5.15.0",
      "6.6.10",
      "6.10.2",
    ]);
  });

  it("keeps the given order without a sort or with an unknown column, and never reorders its input", () => {
    expect(sortScenarios(rows, "", "desc")).toEqual(rows);
    expect(sortScenarios(rows, "nope", "asc").map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
    expect(rows.map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
  });
});

describe("pageOf", () => {
  const many = Array.from({ length: 120 }, (_, i) => i);

  it("cuts pages of 50 and says which rows a page holds", () => {
    expect(pageOf(many, 1)).toMatchObject({ page: 1, pages: 3, from: 1, to: 50 });
    const last = pageOf(many, 3);
    expect(last).toMatchObject({ page: 3, pages: 3, from: 101, to: 120 });
    expect(last.rows).toEqual(many.slice(100));
  });

  it("lands on the last page past the end and on the first for nonsense", () => {
    expect(pageOf(many, 9).page).toBe(3);
    expect(pageOf(many, 0).page).toBe(1);
    expect(pageOf(many, -4).page).toBe(1);
    expect(pageOf([], 2)).toMatchObject({ page: 1, pages: 1, rows: [] });
  });
});
