// The demo data as `npm start` loads it: every published seed figure through the upload path into a
// fresh database, once, and nothing more when it is loaded again.
import { createDb, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { demoBundleDir as bundlesDir } from "@cnibench/test-support/demo-data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeDemoData } from "./demo-data.ts";

// Counted in demo-data/README.md: 11 TKE + 7 EKS + 7 AKS bundles; 3 + 5 + 5 scenarios; 99 + 104 + 10 figures.
const expected = { bundles: 25, scenarios: 13, measurements: 213 };

async function rowCounts(db: Db) {
  const [bundles, scenarios, measurements] = await Promise.all([
    db.bundle.count(),
    db.scenario.count(),
    db.measurement.count(),
  ]);
  return { bundles, scenarios, measurements };
}

describe("demo data loaded into a fresh database", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
  });

  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  it("stores every bundle, scenario and figure once", async () => {
    expect(await rowCounts(db)).toEqual({ bundles: 0, scenarios: 0, measurements: 0 });
    const first = await storeDemoData(db, workspaceId, bundlesDir);
    expect(first).toEqual({ files: expected.bundles, created: expected.bundles, measurements: expected.measurements });
    expect(await rowCounts(db)).toEqual(expected);
  });

  it("stores the scenarios under their labels, with no vocabulary warnings", async () => {
    const scenarios = await db.scenario.findMany({ select: { label: true } });
    expect(scenarios.map((s) => s.label).sort()).toEqual(
      [
        "AWS VPC CNI (A)",
        "Azure CNI powered by Cilium (overlay)",
        "Azure CNI powered by Cilium, CiliumEndpointSlice off",
        "Azure CNI powered by Cilium, CiliumEndpointSlice on",
        "Azure CNI powered by Cilium, eBPF host routing off",
        "Azure CNI powered by Cilium, eBPF host routing on",
        "Cilium + kube-proxy (B)",
        "Cilium ENI (D)",
        "Cilium ENI + tuning (E)",
        "Cilium kube-proxy-less (C)",
        "Cilium Native",
        "Cilium Overlay",
        "kube-proxy iptables",
      ].sort(),
    );
    const bundles = await db.bundle.findMany({ select: { warnings: true } });
    expect(bundles.map((b) => b.warnings)).toEqual(Array(expected.bundles).fill([]));
  });

  it("creates nothing when loaded again", async () => {
    const again = await storeDemoData(db, workspaceId, bundlesDir);
    expect(again).toEqual({ files: expected.bundles, created: 0, measurements: expected.measurements });
    expect(await rowCounts(db)).toEqual(expected);
  });
});
