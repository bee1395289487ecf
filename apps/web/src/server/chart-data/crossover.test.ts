// Crossover lines with the TKE seed bundles as they ship in demo-data/ (parsed by the contract).
import { loadSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { crossoverOf, maxLines } from "./crossover";

const tke = loadSeeds({
  a: ["tke-a-iptables-service-scale.json", "tke-a-iptables-main.json"],
  b: [
    "tke-b-cilium-native-service-scale.json",
    "tke-b-cilium-native-main.json",
    "tke-b-cilium-native-hubble-policy.json",
  ],
  c: [
    "tke-c-cilium-overlay-service-scale.json",
    "tke-c-cilium-overlay-main.json",
    "tke-c-cilium-overlay-hubble-policy.json",
  ],
});

const shortRps = { metric: "http.rps", x: "services", where: { connection: "short" } } as const;

describe("crossoverOf", () => {
  it("draws a line per cluster and finds where Cilium overtakes iptables, by linear interpolation", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "absolute" });
    expect(data.series.map((s) => [s.label, s.points.length])).toEqual([
      ["kube-proxy iptables", 5],
      ["Cilium Native", 5],
      ["Cilium Overlay", 5],
    ]);
    // Overlay vs iptables between 10k (12,746 vs 17,261) and 20k (13,080 vs 12,916):
    // 10,000 + 10,000 × 4,515 / (4,515 + 164) = 19,649.5. Native: 20,000 + 10,000 × 1,101 / 2,330 = 24,725.3.
    expect(data.markers.map((m) => Math.round(m.x))).toEqual([19649, 24725]);
    expect(data.sentences).toEqual([
      "Cilium Overlay overtakes kube-proxy iptables at ≈19,649 Services",
      "Cilium Native overtakes kube-proxy iptables at ≈24,725 Services",
    ]);
    expect(data.unit).toBe("req/s");
  });

  it("draws degradation against each line's baseline and keeps the crossovers computed on the values", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, { ...shortRps, y: "degradation" });
    const iptables = data.series.find((s) => s.label === "kube-proxy iptables");
    // The seed's own column: −29.1 %, −45.0 %, −58.8 %, −71.1 %.
    expect(iptables?.points.map((p) => Math.round(p.y * 10) / 10)).toEqual([0, -29.1, -45, -58.8, -71.1]);
    expect(data.unit).toBe("%");
    expect(data.markers.map((m) => Math.round(m.x))).toEqual([19649, 24725]);
  });

  it("draws the first lines in explorer order up to the limit and says how many it left out", () => {
    // 20 copies of the three TKE clusters' lines: 60 lines, crossovers only among the first 16.
    const copies = Array.from({ length: 20 }, (_, i) => i);
    const scenarios = copies.flatMap((i) => tke.scenarios.map((s) => ({ ...s, id: `${s.id}${i}` })));
    const figures = copies.flatMap((i) => tke.figures.map((f) => ({ ...f, scenarioId: `${f.scenarioId}${i}` })));
    const data = crossoverOf(scenarios, figures, { ...shortRps, y: "absolute" });
    expect(data.series).toHaveLength(maxLines);
    expect(data.series.map((s) => s.scenarioId).slice(0, 4)).toEqual(["a0", "b0", "c0", "a1"]);
    expect(data.hiddenLines).toBe(60 - maxLines);
    // Among 16 lines (6 iptables, 5 native, 5 overlay) each Cilium line overtakes each iptables line.
    expect(data.markers).toHaveLength(10 * 6);
  });

  it("draws nothing for a metric nobody measured along that param", () => {
    const data = crossoverOf(tke.scenarios, tke.figures, {
      metric: "tcp.throughput",
      x: "services",
      where: {},
      y: "absolute",
    });
    expect(data.series).toEqual([]);
    expect(data.sentences).toEqual([]);
  });
});
