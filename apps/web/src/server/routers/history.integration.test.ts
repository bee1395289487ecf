// A datapath regression caught in a series' history (issue 27): twelve nightly campaigns of one testbed,
// uploaded through the real ingest path, whose ninth came with a kernel upgrade (6.1 → 6.8, so another
// scenario of the same testbed) and an 8 % lower TCP throughput. scenarios.history follows the series
// across both scenarios, finds the change point at the ninth campaign, calls it worse, and names the
// kernel upgrade at it; a private workspace's campaigns stay its readers'.
import { distributionOf } from "@cnibench/analysis";
import {
  accessFor,
  createDb,
  createWorkspace,
  type Db,
  ingestBundle,
  recordSignIn,
  seriesHistory,
  testbedOf,
} from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { nightlyCampaigns } from "@cnibench/test-support/nightly";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../trpc/root";

// nightlyCampaigns (test-support): 12 nights of pod-to-pod TCP throughput, 8 % less from night 9 on kernel 6.8.
const nights = nightlyCampaigns();
const median = (runs: readonly number[]) => distributionOf(runs)?.median ?? Number.NaN;
const metric = "tcp.throughput";
const params = { path: "pod-pod", streams: 1 };

/** One bundle of a night: the CI cluster, its node image's kernel, the same CNI configuration. */
const bundle = (
  n: (typeof nights)[number],
  result: object,
  at: string,
  environment: { region?: string; kernel?: string } = {},
) => ({
  schema: "cnibench/bundle@1",
  collector: { name: "iperf3", command: "iperf3 -c pod-b -t 30" },
  cluster: {
    name: "ci-nightly",
    provider: "aws",
    region: environment.region ?? "eu-west-1",
    kubernetesVersion: "1.30",
    nodeCount: 3,
  },
  node: { sku: "m5.2xlarge", os: "Ubuntu 22.04", kernel: environment.kernel ?? n.kernel },
  cni: { name: "cilium", version: "1.16.3", mode: "native-routing", kubeProxy: "ebpf", label: "Cilium native" },
  runAt: `2026-11-${String(n.night).padStart(2, "0")}T${at}Z`,
  campaign: n.campaign,
  results: [{ metric, unit: "Gbit/s", params, ...result }],
});

/**
 * A night's upload: odd nights as three bundles of one run each (a CI job per run), even nights as one
 * bundle with the three rounds as samples, so both ways of reporting runs are read as three runs.
 */
const uploadsOf = (n: (typeof nights)[number], environment: { region?: string; kernel?: string } = {}) =>
  n.night % 2
    ? n.runs.map((value, k) => bundle(n, { value }, `02:0${k}:00`, environment))
    : [bundle(n, { value: median(n.runs), aggregate: "median", samples: n.runs }, "02:00:00", environment)];

describe("a series followed across its testbed", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let ownerId: string;
  let strangerId: string;
  let workspaceId: string;
  const scenarioOf: Record<number, string> = {};

  const store = async (document: object, into = workspaceId) => {
    const outcome = await ingestBundle(db, { workspaceId: into, tokenId: null, text: JSON.stringify(document) });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    return outcome.stored;
  };
  const historyAs = async (userId: string | null, scenarioId: string) =>
    createCaller({ db, access: await accessFor(db, userId) }).scenarios.history({ scenarioId, metric, params });

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    const signIn = async (subject: string) =>
      (await recordSignIn(db, { issuer: "t", subject, email: `${subject}@example.test`, name: subject })).id;
    await signIn("admin");
    ownerId = await signIn("owner");
    strangerId = await signIn("stranger");
    workspaceId = (await createWorkspace(db, ownerId, { slug: "ci-team", name: "CI team", visibility: "private" })).id;
    for (const n of nights) {
      for (const document of uploadsOf(n)) scenarioOf[n.night] = (await store(document)).scenarioId;
    }
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("reads one testbed of two scenarios: the kernel upgrade forked the scenario, not the series", async () => {
    expect(scenarioOf[1]).toBe(scenarioOf[8]);
    expect(scenarioOf[9]).toBe(scenarioOf[12]);
    expect(scenarioOf[9]).not.toBe(scenarioOf[8]);
    const view = await historyAs(ownerId, scenarioOf[12]!);
    expect(view.testbed.scenarios.map((s) => [s.id, s.kernel])).toEqual([
      [scenarioOf[1], "6.1"],
      [scenarioOf[9], "6.8"],
    ]);
    expect(view.testbed.workspaceId).toBe(workspaceId);
    // Its workspace is private: the badge of it is never cached (app/badge/series.svg).
    expect(view.testbed.visibility).toBe("private");
    expect(await historyAs(ownerId, scenarioOf[1]!)).toEqual(view);
  });

  it("lists the 12 campaigns in time order, each its three runs with median, min and max", async () => {
    const view = await historyAs(ownerId, scenarioOf[12]!);
    expect(view.totalCampaigns).toBe(12);
    expect(view).toMatchObject({ metric, params, unit: "Gbit/s", better: "higher" });
    expect(view.campaigns.map((c) => c.campaign)).toEqual(nights.map((n) => n.campaign));
    expect(view.campaigns.map((c) => c.index)).toEqual(nights.map((_, i) => i));
    const times = view.campaigns.map((c) => c.x);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const [i, c] of view.campaigns.entries()) {
      const n = nights[i]!;
      expect([...c.runs].sort()).toEqual([...n.runs].sort());
      expect(c).toMatchObject({
        n: 3,
        median: median(n.runs),
        y: median(n.runs),
        min: Math.min(...n.runs),
        max: Math.max(...n.runs),
        scenarioId: scenarioOf[n.night],
        annotations: { cniVersion: "1.16.3", kernel: n.kernel, os: "Ubuntu 22.04", kubernetesVersion: "1.30" },
      });
      expect(c.bundleIds).toHaveLength(n.night % 2 ? 3 : 1);
      expect(c.measuredAt.getTime()).toBe(c.x);
    }
    // The one change of what the campaigns ran on: the kernel, at campaign 9.
    expect(view.annotations).toEqual([
      expect.objectContaining({ index: 8, campaign: "nightly-09", key: "kernel", before: "6.1", after: "6.8" }),
    ]);
  });

  it("finds the change point at campaign 9: about −8 %, worse, with the kernel upgrade at it", async () => {
    const view = await historyAs(ownerId, scenarioOf[12]!);
    expect(view.changePointsReason).toBeNull();
    expect(view.changePoints).toHaveLength(1);
    const [point] = view.changePoints;
    expect(point).toMatchObject({
      index: 8,
      campaign: "nightly-09",
      scenarioId: scenarioOf[9],
      verdict: "worse",
      direction: "regression",
      marginPercent: 5,
      before: { from: 0, to: 8, campaigns: 8, runs: 24 },
      after: { from: 8, to: 12, campaigns: 4, runs: 12 },
      annotations: [{ key: "kernel", before: "6.1", after: "6.8" }],
    });
    expect(point?.changePercent).toBeGreaterThan(-10.5);
    expect(point?.changePercent).toBeLessThan(-5.5);
    expect(point?.p).toBeLessThan(0.001);
    expect(point?.x).toBe(view.campaigns[8]?.x);
  });

  it("keeps another testbed apart: the same setup in another region is a series of its own", async () => {
    const elsewhere = await store(uploadsOf(nights[1]!, { region: "us-east-1", kernel: "6.1" })[0]!);
    const other = await testbedOf(db, [workspaceId], elsewhere.scenarioId);
    const ours = await testbedOf(db, [workspaceId], scenarioOf[1]!);
    expect(other?.scenarioIds).toEqual([elsewhere.scenarioId]);
    expect(other?.key).not.toBe(ours?.key);
    expect((await historyAs(ownerId, elsewhere.scenarioId)).campaigns).toHaveLength(1);
    expect((await historyAs(ownerId, scenarioOf[1]!)).totalCampaigns).toBe(12);
  });

  it("shows a private workspace's campaigns to no stranger", async () => {
    for (const userId of [strangerId, null]) {
      for (const night of [1, 12]) {
        await expect(historyAs(userId, scenarioOf[night]!)).rejects.toMatchObject({ code: "NOT_FOUND" });
        expect(
          await seriesHistory(db, await accessFor(db, userId), { scenarioId: scenarioOf[night]!, metric, params }),
        ).toBeNull();
      }
    }
    // A stranger's own public scenario of the same setup is another workspace's testbed: none of ours.
    const open = await createWorkspace(db, strangerId, { slug: "open-team", name: "Open", visibility: "public" });
    const theirs = await store(uploadsOf(nights[0]!)[0]!, open.id);
    const view = await historyAs(strangerId, theirs.scenarioId);
    expect(view.testbed).toMatchObject({
      workspaceId: open.id,
      visibility: "public",
      scenarios: [{ id: theirs.scenarioId }],
    });
    expect(view.campaigns.map((c) => c.bundleIds)).toEqual([[theirs.id]]);
  });
});
