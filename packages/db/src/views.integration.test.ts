import { applyFilters, type ExploreFilters } from "@cnibench/analysis";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteBundle } from "./bundles.ts";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import { listScenarios } from "./scenarios.ts";
import { chartView, compareView, exploreView, scenarioView } from "./views.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

// The example bundle is TKE's Cilium Overlay column of the Service-scale table; the variants below
// are the iptables column and a later re-run of the overlay at 20,000 Services.
const { overlay, iptables } = tkeServiceScale();
const cluster = overlay.cluster as Record<string, unknown>;
const rerun = {
  ...overlay,
  runAt: "2026-03-01T10:00:00Z",
  results: [
    {
      metric: "http.rps",
      unit: "req/s",
      value: 13300,
      params: { connection: "short", concurrency: 64, target: "service", services: 20000 },
    },
  ],
};

describe("explore and scenario views over PostgreSQL", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    for (const [name, bundle] of Object.entries({ overlay, iptables, rerun })) {
      const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(bundle) });
      if (!outcome.ok) throw new Error(`${name} did not ingest`);
      ids[name] = outcome.stored.scenarioId;
    }
    // A scenario in another workspace must never show.
    const other = await db.workspace.create({ data: { slug: "team-x", name: "Team X" } });
    await ingestBundle(db, {
      workspaceId: other.id,
      tokenId: null,
      text: JSON.stringify({
        ...overlay,
        cluster: { ...cluster, provider: "eks" },
      }),
    });
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("lists the workspace's scenarios with facets and headline figures", async () => {
    const view = await exploreView(db, [workspaceId], {});
    expect(view.total).toBe(2);
    expect(ids.rerun).toBe(ids.overlay);
    const byLabel = Object.fromEntries(view.scenarios.map((s) => [s.label, s]));
    expect(byLabel["Cilium Overlay"]?.bundleCount).toBe(2);
    expect(byLabel["Cilium Overlay"]?.keyFigures.shortRps?.value).toBe(14193);
    expect(byLabel["kube-proxy iptables"]?.keyFigures.shortRps?.value).toBe(31365);
    expect(view.columns.map((c) => c.key)).toEqual(["tcpPod1", "tcpPod8", "udpLossPod1", "shortRps", "tcpRrP99"]);
    // Other columns on request: only short connections at 0 Services were measured, so a keepalive column is empty.
    const chosen = await exploreView(db, [workspaceId], {}, ["keepaliveRps", "shortRps", "nope"]);
    expect(chosen.columns.map((c) => c.key)).toEqual(["shortRps", "keepaliveRps"]);
    expect(chosen.scenarios.map((s) => Object.keys(s.keyFigures))).toEqual([["shortRps"], ["shortRps"]]);
    expect(view.facets.find((f) => f.key === "provider")?.values).toEqual([
      { value: "tke", label: "Tencent Kubernetes Engine", count: 2, selected: false },
    ]);
  });

  it("filters, and says what to drop when nothing matches", async () => {
    const one = await exploreView(db, [workspaceId], { mode: ["iptables"] });
    expect(one.scenarios.map((s) => s.label)).toEqual(["kube-proxy iptables"]);
    const none = await exploreView(db, [workspaceId], { provider: ["eks"] });
    expect(none.scenarios).toEqual([]);
    expect(none.dropHints).toEqual([{ key: "provider", title: "Cloud", values: ["eks"], matchesWithout: 2 }]);
  });

  it("shows the newest run of a figure and keeps the older one as history", async () => {
    const view = await scenarioView(db, [workspaceId], ids.overlay ?? "");
    const rps = view?.groups.find((g) => g.metric === "http.rps");
    expect(rps?.rows.map((r) => r.params.services)).toEqual([0, 5000, 10000, 20000, 30000]);
    const at20k = rps?.rows.find((r) => r.params.services === 20000);
    expect(at20k?.runs[0].value).toBe(13300);
    expect(at20k?.history.map((h) => h.value)).toEqual([13080]);
    expect(view?.bundles.map((b) => b.measurementCount)).toEqual([1, 5]);
    expect(view?.bundles[1]?.sourceTitle).toBe("Cilium Network Performance Benchmark");
    expect(view?.measurementCount).toBe(6);
    expect(at20k?.olderRuns).toBe(1);
  });

  it("keeps each scenario's bundle count, latest run and sources as bundles arrive, also at once", async () => {
    const [scenario] = await listScenarios(db, { workspaceIds: [workspaceId], ids: [ids.overlay ?? ""] });
    expect(scenario?.bundleCount).toBe(2);
    expect(scenario?.lastRunAt?.toISOString()).toBe("2026-03-01T10:00:00.000Z");
    expect(scenario?.sources).toEqual(["Cilium Network Performance Benchmark"]);
    // Five re-runs uploaded concurrently: every one counted, the new source listed once, in order.
    await Promise.all(
      [1, 2, 3, 4, 5].map((day) =>
        ingestBundle(db, {
          workspaceId,
          tokenId: null,
          text: JSON.stringify({
            ...rerun,
            runAt: `2026-04-0${day}T00:00:00Z`,
            source: { title: "A re-run", url: "https://example.org/rerun" },
          }),
        }),
      ),
    );
    const [after] = await listScenarios(db, { workspaceIds: [workspaceId], ids: [ids.overlay ?? ""] });
    expect(after?.bundleCount).toBe(7);
    expect(after?.lastRunAt?.toISOString()).toBe("2026-04-05T00:00:00.000Z");
    expect(after?.sources).toEqual(["A re-run", "Cilium Network Performance Benchmark"]);
    const counted = await db.bundle.count({ where: { scenarioId: ids.overlay ?? "" } });
    expect(counted).toBe(7);
  });

  it("shows the most recent run whatever order runs arrive in, and the one before once it is deleted", async () => {
    const at20k = async (bundleIds?: string[]) => {
      const view = await compareView(db, [workspaceId], { scenarioIds: [ids.iptables ?? ""], bundleIds });
      return view.figures.find((f) => f.params.services === 20000)?.value;
    };
    const upload = async (runAt: string, value: number) => {
      const outcome = await ingestBundle(db, {
        workspaceId,
        tokenId: null,
        text: JSON.stringify({
          ...iptables,
          runAt,
          results: [{ ...iptables.results[3], value }],
        }),
      });
      if (!outcome.ok) throw new Error("the run did not ingest");
      return outcome.stored.id;
    };
    expect(await at20k()).toBe(12916);
    // Uploaded later but measured earlier: history, not the current figure.
    const older = await upload("2025-06-01T00:00:00Z", 11000);
    expect(await at20k()).toBe(12916);
    const newer = await upload("2026-06-01T00:00:00Z", 14000);
    expect(await at20k()).toBe(14000);
    // A permalink pinned to the older run still shows it.
    expect(await at20k([older])).toBe(11000);
    await deleteBundle(db, newer);
    expect(await at20k()).toBe(12916);
  });

  it("applies the explorer's filters in SQL exactly as in the explorer", async () => {
    const all = await listScenarios(db, { workspaceIds: [workspaceId] });
    const cases: ExploreFilters[] = [
      {},
      { mode: ["iptables"] },
      { provider: ["tke"], cni: ["cilium", "kube-proxy"] },
      { source: ["Cilium Network Performance Benchmark"] },
      { source: ["A re-run"], kubeProxy: ["ebpf", "iptables"] },
      { provider: ["eks"] },
    ];
    for (const filters of cases) {
      const inSql = await chartView(db, [workspaceId], { filters, metrics: ["http.rps"] });
      const inJs = applyFilters(all, filters).matching;
      expect(
        inSql.scenarios.map((s) => s.id),
        JSON.stringify(filters),
      ).toEqual(inJs.map((s) => s.id));
      expect(new Set(inSql.figures.map((f) => f.scenarioId))).toEqual(new Set(inJs.map((s) => s.id)));
    }
  });

  it("finds no scenario of another workspace, nor an unknown id", async () => {
    const foreign = await db.scenario.findFirstOrThrow({ where: { workspace: { slug: "team-x" } } });
    expect(await scenarioView(db, [workspaceId], foreign.id)).toBeNull();
    expect(await scenarioView(db, [workspaceId], "no-such-id")).toBeNull();
  });

  it("fetches only as many older runs as asked, and says how many there are", async () => {
    // Three runs of a 40,000-Service step (no other test measures it), oldest first.
    for (const [runAt, value] of [
      ["2026-04-01T10:00:00Z", 9000],
      ["2026-05-01T10:00:00Z", 9100],
      ["2026-06-01T10:00:00Z", 9200],
    ] as const) {
      const outcome = await ingestBundle(db, {
        workspaceId,
        tokenId: null,
        text: JSON.stringify({
          ...rerun,
          runAt,
          results: [{ ...rerun.results[0], params: { ...rerun.results[0]?.params, services: 40000 }, value }],
        }),
      });
      if (!outcome.ok) throw new Error("re-run did not ingest");
    }
    const step = async (services: number, olderRuns?: number) =>
      (await scenarioView(db, [workspaceId], ids.overlay ?? "", olderRuns))?.groups
        .find((g) => g.metric === "http.rps")
        ?.rows.find((r) => r.params.services === services);
    const one = await step(40000, 1);
    expect(one?.runs[0].value).toBe(9200);
    expect(one?.history.map((h) => h.value)).toEqual([9100]);
    expect(one?.olderRuns).toBe(2);
    const all = await step(40000);
    expect(all?.history.map((h) => h.value)).toEqual([9100, 9000]);
    expect(all?.olderRuns).toBe(2);
    // A step measured once has no history either way.
    expect((await step(5000, 1))?.olderRuns).toBe(0);
  });

  it("reads the same newest runs as the whole history, whichever runs measured which figure", async () => {
    // Its own workspace: twelve runs of the overlay, each measuring some of its steps (one step
    // twice in a run), arriving out of order, two of them at the same time; then some deleted.
    const history = await db.workspace.create({ data: { slug: "history", name: "History" } });
    const stored: string[] = [];
    let scenarioId = "";
    for (let i = 0; i < 12; i++) {
      const results = overlay.results.filter((_, k) => (i * 7 + k * 3) % 5 !== 0 || k === 0);
      if (i % 4 === 1) results.push({ ...results[0], value: 1000 + i } as (typeof results)[number]);
      const outcome = await ingestBundle(db, {
        workspaceId: history.id,
        tokenId: null,
        text: JSON.stringify({
          ...overlay,
          runAt: `2026-0${1 + ((i * 5) % 9)}-01T00:00:00Z`,
          results: results.map((r, k) => ({ ...r, value: Number(r.value) + i * 10 + k })),
        }),
      });
      if (!outcome.ok) throw new Error(`run ${i} did not ingest`);
      stored.push(outcome.stored.id);
      scenarioId = outcome.stored.scenarioId;
    }
    const rows = async (olderRuns?: number) =>
      (await scenarioView(db, [history.id], scenarioId, olderRuns))?.groups.flatMap((g) =>
        g.rows.map((r) => ({
          params: r.runs[0].paramsKey,
          ids: [r.runs[0], ...r.history.slice(0, olderRuns)].map((f) => f.id),
          olderRuns: r.olderRuns,
        })),
      );
    const agree = async () => {
      const all = await rows();
      expect(all?.some((r) => r.olderRuns >= 4)).toBe(true);
      for (const olderRuns of [0, 1, 3, 5]) {
        expect(await rows(olderRuns)).toEqual(all?.map((r) => ({ ...r, ids: r.ids.slice(0, olderRuns + 1) })));
      }
    };
    await agree();
    for (const id of [stored[3], stored[8], stored[10]]) await deleteBundle(db, id ?? "");
    await agree();
  });
});
