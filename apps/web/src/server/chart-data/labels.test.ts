// Legend labels with the TKE seed bundles as they ship in demo-data/ (parsed by the contract).
import { loadSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { seriesLabels } from "./labels";

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

describe("seriesLabels", () => {
  it("tells apart scenarios that share a label by what differs", () => {
    const [a, b] = tke.scenarios;
    if (!a || !b) throw new Error("fixture");
    const labels = seriesLabels([
      { ...a, label: "Cilium", cni: { ...a.cni, settings: { "bpf.hostLegacyRouting": true } } },
      { ...b, label: "Cilium", kernel: a.kernel, cni: { ...b.cni, settings: { "bpf.hostLegacyRouting": false } } },
    ]);
    expect([...labels.values()]).toEqual([
      "Cilium (bpf.hostLegacyRouting=true)",
      "Cilium (bpf.hostLegacyRouting=false)",
    ]);
  });
});
