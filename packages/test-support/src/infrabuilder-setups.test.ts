// The many-setups fixture imports as a real InfraBuilder tree does: 25 setups, 3 runs each, every
// setup its own CNI configuration, a synthetic setup's figures its factor times flannel's.
import { importFiles } from "@cnibench/importers";
import { median } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { fixtureText } from "./fixtures.ts";
import { infrabuilderEnvironment, infrabuilderSetups, realSetups, syntheticSetups } from "./infrabuilder-setups.ts";

describe("infrabuilderSetups: twenty-odd setups of one benchmark", () => {
  const { bundles, files } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const setups = [...Object.keys(syntheticSetups), ...realSetups];

  it("imports every setup's three runs, each setup its own CNI configuration", () => {
    expect(files.filter((f) => f.status === "failed")).toEqual([]);
    expect(setups).toHaveLength(25);
    expect(bundles).toHaveLength(75);
    const cnis = new Set(bundles.map((b) => JSON.stringify(b.bundle.cni)));
    expect(cnis.size).toBe(25);
  });

  it("scales flannel's real runs by the setup's factor", () => {
    const dtm = (setup: string) =>
      bundles
        .filter((b) => b.bundle.cni.label === setup)
        .flatMap((b) => b.bundle.results)
        .filter((r) => r.metric === "tcp.throughput" && r.params?.streams === 8 && r.params?.path === "pod-pod");
    const wg = dtm("cilium-wg");
    const flannel = dtm("flannel");
    expect(wg).toHaveLength(3);
    expect(flannel).toHaveLength(3);
    // Each run scaled by cilium-wg's 0.29: the medians keep that ratio exactly.
    expect(median(wg.map((r) => r.value)) / median(flannel.map((r) => r.value))).toBeCloseTo(0.29, 9);
    // And the real runs stay as published: flannel/1/all.results DTM_BW is iperf3's receiver rate.
    const published = Number(/^DTM_BW=(.*)$/m.exec(fixtureText("real/infrabuilder-2024/flannel/1/all.results"))?.[1]);
    expect(flannel.map((r) => r.value)).toContainEqual(published);
  });
});
