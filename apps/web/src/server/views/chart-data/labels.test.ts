// Legend labels with the TKE seed bundles as they ship in demo-data/ (parsed by the contract), and with
// InfraBuilder 2024's 25 setups as the importer reads them, named as the database names them unlabelled.
import { scenarioName } from "@cnibench/analysis";
import { importFiles } from "@cnibench/importers";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { seedsOf, tkeSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { seriesLabels } from "./labels";

const tke = tkeSeeds();

/** The 25 setups as scenarios (ids like the database's), each named without the label the importer gives. */
function infrabuilder() {
  const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const firstRuns = bundles.filter((b) => b.file.endsWith("/1"));
  const { scenarios } = seedsOf(
    Object.fromEntries(
      firstRuns.map((b, i) => [
        `cm${String(i).padStart(2, "0")}x7k2scenario0000000`,
        [{ name: b.file, bundle: b.bundle }],
      ]),
    ),
  );
  const setupOf = new Map(scenarios.map((s) => [s.id, s.cni.label ?? ""]));
  const unlabelled = scenarios.map((s) => {
    // As scenarioLabel (packages/db) names a scenario no upload labelled.
    const cni = { ...s.cni, label: null };
    return { ...s, label: scenarioName(cni), cni };
  });
  return { scenarios: unlabelled, setupOf };
}

describe("seriesLabels", () => {
  it("tells apart scenarios that share a label by the settings that differ, in words", () => {
    const [, b] = tke.scenarios;
    if (!b) throw new Error("fixture");
    const labels = seriesLabels([
      { ...b, id: "b1", label: "Cilium", cni: { ...b.cni, settings: { "bpf.hostLegacyRouting": true } } },
      { ...b, id: "b2", label: "Cilium", cni: { ...b.cni, settings: { "bpf.hostLegacyRouting": false } } },
    ]);
    expect([...labels.values()]).toEqual(["Cilium (legacy host routing)", "Cilium (eBPF host routing)"]);
  });

  it("shows InfraBuilder's 25 setups by their default names, which are distinct already", () => {
    const { scenarios, setupOf } = infrabuilder();
    expect(scenarios).toHaveLength(25);
    const labels = seriesLabels(scenarios);
    expect(new Set(labels.values()).size).toBe(25);
    for (const s of scenarios) {
      expect(labels.get(s.id)).toBe(s.label);
      expect(labels.get(s.id)).not.toContain(s.id.slice(-6));
    }
    const byLabel = new Map(scenarios.map((s) => [setupOf.get(s.id), labels.get(s.id)]));
    expect(byLabel.get("calico-ebpf-wg")).toBe("Calico VXLAN cross-subnet, eBPF dataplane, WireGuard");
    expect(byLabel.get("cilium-custom")).toBe("Cilium VXLAN, kube-proxy replacement, Hubble off, BPF masquerade");
  });

  it("adds to one label only the words that differ: settings, then the environment", () => {
    const { scenarios, setupOf } = infrabuilder();
    const pick = (setup: string) => {
      const s = scenarios.find((x) => setupOf.get(x.id) === setup);
      if (!s) throw new Error(setup);
      return { ...s, label: "Cilium" };
    };
    const cilium = pick("cilium");
    // The same setups uploaded again, from a cluster on a newer kernel.
    const upgraded = { ...pick("cilium-wg"), id: "upgraded", kernel: "6.8.0-31-generic" };
    const labels = seriesLabels([
      cilium,
      pick("cilium-nohubble"),
      pick("cilium-nokproxy"),
      pick("cilium-wg"),
      upgraded,
    ]);
    expect([...labels.values()]).toEqual([
      `Cilium (kube-proxy iptables, kernel ${cilium.kernel})`,
      `Cilium (kube-proxy iptables, Hubble off, kernel ${cilium.kernel})`,
      `Cilium (kube-proxy replacement, kernel ${cilium.kernel})`,
      `Cilium (kube-proxy iptables, WireGuard, kernel ${cilium.kernel})`,
      "Cilium (kube-proxy iptables, WireGuard, kernel 6.8.0-31-generic)",
    ]);
  });

  it("numbers scenarios nothing shown tells apart, and never prints an id", () => {
    const [, , c] = tke.scenarios;
    if (!c) throw new Error("fixture");
    // Two scenarios alike in all a label may say; then alike but for the region.
    const twins = [c, { ...c, id: "cm9twin0000000000000000002" }];
    expect([...seriesLabels(twins).values()]).toEqual([`${c.label} #1`, `${c.label} #2`]);
    const apart = [c, { ...c, id: "cm9twin0000000000000000002", region: "ap-shanghai" }];
    expect([...seriesLabels(apart).values()]).toEqual([
      `${c.label} (region unknown)`,
      `${c.label} (region ap-shanghai)`,
    ]);
  });
});
