// A series' current figure is its latest campaign's distribution (docs/design.md, series and campaigns):
// three bundles of one campaign read back as three runs, the same numbers as one bundle's rounds give
// the same summary, a newer campaign supersedes them, and a permalink keeps the three it pinned.
import { distributionOf } from "@cnibench/analysis";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessFor } from "./access.ts";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import { earlierCampaigns, latestFigures } from "./measurements.ts";
import { createPermalink } from "./permalinks.ts";
import { chartView, compareView, exploreView, scenarioView } from "./views.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

/** One iperf3-like TCP figure in its own scenario (the region names it). */
const run = (region: string, value: number, extra: Record<string, unknown> = {}) => ({
  ...exampleBundle(),
  cluster: { ...(exampleBundle().cluster as object), region },
  results: [{ metric: "tcp.throughput", unit: "Gbit/s", value, params: { path: "pod-pod", streams: 1 } }],
  ...extra,
});

describe("campaigns", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  const put = async (bundle: object) => {
    const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(bundle) });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    return outcome.stored;
  };
  const current = async (scenarioId: string, bundleIds?: string[]) => {
    const [figure] = await latestFigures(db, { scenarios: [scenarioId], metrics: ["tcp.throughput"], bundleIds });
    return figure;
  };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("orders a campaign's runs by when they ran, then when they arrived, not by upload order", async () => {
    // Uploaded out of order: day 3, day 1, then two that ran on day 2 (the later upload first).
    const third = await put(run("zz-late", 7.3, { campaign: "c", runAt: "2026-11-03T00:00:00Z" }));
    const first = await put(run("zz-late", 7.1, { campaign: "c", runAt: "2026-11-01T00:00:00Z" }));
    const second = await put(run("zz-late", 7.2, { campaign: "c", runAt: "2026-11-02T00:00:00Z" }));
    const secondAgain = await put(run("zz-late", 7.25, { campaign: "c", runAt: "2026-11-02T00:00:00Z" }));
    const newestFirst = [third.id, secondAgain.id, second.id, first.id];
    expect(await current(third.scenarioId)).toMatchObject({
      bundleId: third.id,
      campaignBundleIds: newestFirst,
      samples: [7.3, 7.25, 7.2, 7.1],
    });
    expect(await current(third.scenarioId, [first.id, second.id, secondAgain.id, third.id])).toMatchObject({
      campaignBundleIds: newestFirst,
    });
  });

  it("reads three bundles of one campaign as three runs, with their median, superseded by a newer campaign", async () => {
    const runs = [9.41, 9.37, 9.52];
    const stored = [];
    for (const [i, value] of runs.entries()) {
      stored.push(await put(run("zz-c", value, { campaign: "upgrade-1", runAt: `2026-11-0${i + 1}T00:00:00Z` })));
    }
    const scenarioId = stored[0]!.scenarioId;
    expect(new Set(stored.map((s) => s.scenarioId)).size).toBe(1);
    const three = await current(scenarioId);
    expect(three).toMatchObject({ n: 3, value: 9.41, bundleId: stored[2]!.id });
    expect([...(three?.samples ?? [])].sort()).toEqual([...runs].sort());
    expect(three?.campaignBundleIds).toEqual([stored[2]!.id, stored[1]!.id, stored[0]!.id]);

    // Every view reads the same three runs.
    const explored = await exploreView(db, [workspaceId], {});
    expect(explored.scenarios.find((s) => s.id === scenarioId)?.keyFigures.tcpPod1).toMatchObject({
      n: 3,
      value: 9.41,
    });
    const page = await scenarioView(db, [workspaceId], scenarioId, 3);
    const row = page?.groups.flatMap((g) => g.rows).find((r) => r.runs[0].metric === "tcp.throughput");
    expect(row?.latest).toMatchObject({ n: 3, value: 9.41 });
    expect(row?.runs.map((r) => r.value).sort()).toEqual([...runs].sort());
    const charted = await chartView(db, [workspaceId], {
      filters: {},
      scenarioIds: [scenarioId],
      metrics: ["tcp.throughput"],
    });
    expect(charted.figures).toMatchObject([{ n: 3, value: 9.41 }]);
    // A chart that draws some of its figures reads only those with their campaign's runs, alike; the
    // others stay as their latest run alone, which only chose what to draw.
    const chart = { filters: {}, scenarioIds: [scenarioId], metrics: ["tcp.throughput"] };
    const drawnOnly = await chartView(db, [workspaceId], { ...chart, drawn: (_, figures) => figures });
    expect(drawnOnly.figures).toEqual(charted.figures);
    const noneDrawn = await chartView(db, [workspaceId], { ...chart, drawn: () => [] });
    expect(noneDrawn.figures).toMatchObject([{ n: 1, value: 9.52, samples: [], campaignBundleIds: [stored[2]!.id] }]);
    const compared = await compareView(db, [workspaceId], { scenarioIds: [scenarioId] });
    expect(compared.figures[0]?.samples).toHaveLength(3);

    // Shared now, before the next campaign: the permalink pins these three bundles.
    const link = await createPermalink(db, await accessFor(db, null), { scenarioIds: [scenarioId], view: {} });

    const next = await put(run("zz-c", 8.5, { campaign: "upgrade-2", runAt: "2026-11-20T00:00:00Z" }));
    expect(await current(scenarioId)).toMatchObject({ n: 1, value: 8.5, samples: [], campaignBundleIds: [next.id] });

    const pinned = await compareView(db, [workspaceId], {
      scenarioIds: [scenarioId],
      bundleIds: link?.pins.map((p) => p.bundleId),
    });
    expect(pinned.figures[0]).toMatchObject({ n: 3, value: 9.41 });
  });

  it("summarises the same numbers alike as one bundle's rounds or as separate bundles of one campaign", async () => {
    const runs = [31365, 30000, 29000, 32000];
    for (const value of runs) await put(run("zz-bundles", value, { campaign: "rounds-as-bundles" }));
    const rounds = await put(
      run("zz-rounds", 30682.5, {
        results: [
          {
            metric: "tcp.throughput",
            unit: "Gbit/s",
            value: 30682.5,
            aggregate: "median",
            samples: runs,
            params: { path: "pod-pod", streams: 1 },
          },
        ],
      }),
    );
    const asBundles = await current(
      (await db.scenario.findFirstOrThrow({ where: { cluster: { region: "zz-bundles" } } })).id,
    );
    const asRounds = await current(rounds.scenarioId);
    expect(asBundles?.n).toBe(4);
    expect(asRounds?.n).toBe(4);
    expect(distributionOf(asBundles?.samples ?? [])).toEqual(distributionOf(asRounds?.samples ?? []));
    expect(asBundles?.value).toBe(asRounds?.value);
  });

  it("keeps a bundle without a campaign its own: two lone uploads are two campaigns", async () => {
    await put(run("zz-lone", 5, { runAt: "2026-10-01T00:00:00Z" }));
    const newer = await put(run("zz-lone", 6, { runAt: "2026-10-02T00:00:00Z" }));
    expect(await current(newer.scenarioId)).toMatchObject({ n: 1, value: 6, campaignBundleIds: [newer.id] });
  });

  it("pages a figure's newest runs by its own latest campaign's size, not the scenario's largest", async () => {
    const day = (d: number) => `2026-08-${String(d).padStart(2, "0")}T00:00:00Z`;
    // Campaign "now" ran on the 1st and again on the 10th; "before", of three runs, in between.
    const first = await put(run("zz-paged", 7.1, { campaign: "now", runAt: day(1) }));
    const before = [];
    for (const d of [2, 3, 4])
      before.push(await put(run("zz-paged", 7 + d / 10, { campaign: "before", runAt: day(d) })));
    const last = await put(run("zz-paged", 7.9, { campaign: "now", runAt: day(10) }));
    const row = async (olderRuns?: number) =>
      (await scenarioView(db, [workspaceId], first.scenarioId, olderRuns))?.groups.flatMap((g) => g.rows)[0];
    // Two older runs and a latest campaign of two bundles: the four newest runs are read, so the
    // first run of "now" is not among them; with every run, it is.
    const paged = await row(2);
    expect(paged?.latest).toMatchObject({ n: 2, campaignBundleIds: [last.id, first.id] });
    expect(paged?.runs.map((r) => r.bundleId)).toEqual([last.id]);
    expect(paged?.history.map((r) => r.bundleId)).toEqual([before[2]!.id, before[1]!.id]);
    expect(paged?.olderRuns).toBe(4);
    expect((await row())?.runs.map((r) => r.bundleId)).toEqual([last.id, first.id]);
  });

  it("reads a series' earlier campaigns for its noise: those before the current one, as pinned", async () => {
    const day = (d: number) => `2026-09-${String(d).padStart(2, "0")}T00:00:00Z`;
    // Four nightly campaigns of three runs (one as a bundle's rounds), then tonight's three runs.
    const nights = [
      [9.4, 9.5, 9.45],
      [9.42, 9.38, 9.5],
      [9.47, 9.41, 9.44],
    ];
    for (const [n, night] of nights.entries()) {
      for (const value of night) await put(run("zz-nightly", value, { campaign: `night-${n}`, runAt: day(n + 1) }));
    }
    await put(
      run("zz-nightly", 9.43, {
        campaign: "night-3",
        runAt: day(4),
        results: [
          {
            metric: "tcp.throughput",
            unit: "Gbit/s",
            value: 9.43,
            samples: [9.43, 9.39, 9.46],
            params: { path: "pod-pod", streams: 1 },
          },
        ],
      }),
    );
    const tonight = [];
    for (const value of [9.1, 9.9, 9.3])
      tonight.push(await put(run("zz-nightly", value, { campaign: "night-4", runAt: day(5) })));
    const scenarioId = tonight[0]!.scenarioId;
    const link = await createPermalink(db, await accessFor(db, null), { scenarioIds: [scenarioId], view: {} });

    const campaigns = (view: Awaited<ReturnType<typeof compareView>>) =>
      view.earlier.map((e) => [...e.runs].sort()).sort((a, b) => a[0]! - b[0]!);
    const live = await compareView(db, [workspaceId], { scenarioIds: [scenarioId] });
    // Charts read the same history when asked (a baseline is chosen), and none otherwise.
    const charted = { filters: {}, scenarioIds: [scenarioId], metrics: ["tcp.throughput"] };
    expect((await chartView(db, [workspaceId], charted)).earlier).toEqual([]);
    expect((await chartView(db, [workspaceId], { ...charted, history: true })).earlier).toEqual(live.earlier);
    expect(live.earlier.every((e) => e.scenarioId === scenarioId && e.metric === "tcp.throughput")).toBe(true);
    expect(campaigns(live)).toEqual([
      [9.38, 9.42, 9.5],
      [9.39, 9.43, 9.46],
      [9.4, 9.45, 9.5],
      [9.41, 9.44, 9.47],
    ]);

    // A sixth campaign uploaded after the link: the live view's history takes tonight's runs in, the
    // pinned view's stays as it was shared.
    await put(run("zz-nightly", 9.6, { campaign: "night-5", runAt: day(6) }));
    const later = await compareView(db, [workspaceId], { scenarioIds: [scenarioId] });
    expect(later.earlier).toHaveLength(0); // the current figure is now a single run: no noise asked
    const pinned = await compareView(db, [workspaceId], {
      scenarioIds: [scenarioId],
      bundleIds: link?.pins.map((p) => p.bundleId),
    });
    expect(campaigns(pinned)).toEqual(campaigns(live));
  });

  it("lists an earlier campaign's runs newest first, each bundle's rounds in their order", async () => {
    const day = (d: number) => `2026-09-${String(d).padStart(2, "0")}T00:00:00Z`;
    const rounds = (samples: number[]) => [
      { metric: "tcp.throughput", unit: "Gbit/s", value: samples[0], samples, params: { path: "pod-pod", streams: 1 } },
    ];
    // Two earlier campaigns of three bundles of three rounds, the newer one named first.
    const older = [
      [9.1, 9.3, 9.2],
      [9.0, 9.4, 9.1],
      [9.2, 9.2, 9.5],
    ];
    const newer = [
      [8.8, 9.6, 9.0],
      [9.3, 8.9, 9.1],
      [9.4, 9.0, 8.7],
    ];
    for (const [d, samples] of older.entries())
      await put(run("zz-order", 9, { campaign: "b", runAt: day(d + 1), results: rounds(samples) }));
    for (const [d, samples] of newer.entries())
      await put(run("zz-order", 9, { campaign: "a", runAt: day(d + 4), results: rounds(samples) }));
    const now = await put(run("zz-order", 9, { campaign: "now", runAt: day(9), results: rounds([9.4, 9.6]) }));
    const earlier = await earlierCampaigns(db, { scenarios: [now.scenarioId] });
    expect(earlier.map((e) => e.runs)).toEqual([newer.toReversed().flat(), older.toReversed().flat()]);
  });

  it("reads earlier campaigns for the current figures of at least 2 runs, counted as the figures count them", async () => {
    const day = (d: number) => `2026-07-${String(d).padStart(2, "0")}T00:00:00Z`;
    const figure = (streams: number, result: object) => ({
      metric: "tcp.throughput",
      unit: "Gbit/s",
      params: { path: "pod-pod", streams },
      ...result,
    });
    // Two earlier runs of four series, then the current campaign: series 1 is one bundle of three
    // rounds (3 runs), series 2 one value (1 run), series 3 a value beside an approximate one (1 run:
    // qualified figures are no runs), series 4 only approximate ones, the newest with two rounds (its own 2).
    for (const d of [1, 2]) {
      await put(
        run("zz-asked", 9, {
          campaign: "before",
          runAt: day(d),
          results: [1, 2, 3, 4].map((streams) => figure(streams, { value: 9 + d / 10 })),
        }),
      );
    }
    const first = await put(
      run("zz-asked", 9, {
        campaign: "now",
        runAt: day(3),
        results: [
          figure(1, { value: 9.5, samples: [9.4, 9.5, 9.6] }),
          figure(2, { value: 9.5 }),
          figure(3, { value: 9.5, qualifier: "approx" }),
          figure(4, { value: 9.5, qualifier: "approx" }),
        ],
      }),
    );
    await put(
      run("zz-asked", 9, {
        campaign: "now",
        runAt: day(4),
        results: [figure(3, { value: 9.6 }), figure(4, { value: 9.6, qualifier: "approx", samples: [9.5, 9.7] })],
      }),
    );
    const scenarioIds = [first.scenarioId];
    const figures = await latestFigures(db, { scenarios: scenarioIds });
    expect(figures.map((f) => [f.params.streams, f.samples.length])).toEqual([
      [1, 3],
      [2, 0],
      [3, 1],
      [4, 2],
    ]);
    const earlier = [{ scenarioId: first.scenarioId, metric: "tcp.throughput", runs: [9.1, 9.2] }];
    const history = (rows: Awaited<ReturnType<typeof earlierCampaigns>>) =>
      rows.map((e) => ({ ...e, runs: [...e.runs].sort() })).sort((a, b) => a.paramsKey.localeCompare(b.paramsKey));
    const expected = [1, 4].map((streams) => ({
      ...earlier[0],
      paramsKey: JSON.stringify({ path: "pod-pod", streams }),
    }));
    expect(history(await earlierCampaigns(db, { scenarios: scenarioIds }))).toEqual(expected);
    expect(history(await earlierCampaigns(db, figures))).toEqual(expected);
    expect(history((await compareView(db, [workspaceId], { scenarioIds })).earlier)).toEqual(expected);
  });

  it("reads a comparison's history only for series some of its scenarios measure with a better direction", async () => {
    // Two scenarios, each with an earlier and a current campaign of two runs: x.quiet has no better
    // direction in either, x.lean none in the first only (a candidate's direction decides its verdict).
    const results = (region: string, value: number) => [
      { metric: "x.quiet", unit: "count", better: "none", value, params: {} },
      { metric: "x.lean", unit: "count", better: region === "zz-lean-a" ? "none" : "higher", value, params: {} },
      { metric: "tcp.throughput", unit: "Gbit/s", value, params: { path: "pod-pod", streams: 1 } },
    ];
    const stored = [];
    for (const region of ["zz-lean-a", "zz-lean-b"]) {
      for (const [d, campaign] of ["before", "before", "now", "now"].entries()) {
        const runAt = `2026-08-0${d + 1}T00:00:00Z`;
        stored.push(await put(run(region, 9, { campaign, runAt, results: results(region, 9 + d / 10) })));
      }
    }
    const scenarioIds = [stored[0]!.scenarioId, stored[4]!.scenarioId];
    const every = await earlierCampaigns(db, await latestFigures(db, { scenarios: scenarioIds }));
    expect(every).toHaveLength(6);
    const judged = every.filter((e) => e.metric !== "x.quiet");
    expect(judged.map((e) => e.metric).sort()).toEqual(["tcp.throughput", "tcp.throughput", "x.lean", "x.lean"]);
    expect(await earlierCampaigns(db, { scenarios: scenarioIds })).toEqual(judged);
    expect((await compareView(db, [workspaceId], { scenarioIds })).earlier).toEqual(judged);
  });
});
