// Summary statistics and concurrent clients stored, read back in the catalogue's unit, and judged from
// the stored figures as a compare judges them. Expected statistics from scipy 1.17 (named per figure).

import { compareMeasurementSets } from "@cnibench/analysis";
import type { BundleInput } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeCiliumOverlay, tkeIptables } from "@cnibench/test-support/seed-bundles";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getBundle } from "./bundle-queries.ts";
import { createDb, type Db } from "./client.ts";
import { seriesHistory } from "./history.ts";
import { ingestBundle } from "./ingest.ts";
import { earlierCampaigns, latestFigures } from "./measurements.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

// real/k8s-netperf/docs_example_result.csv, TCP_STREAM 1024 B: a mean of 3 samples and its 95 % interval, in Mb/s.
const published = { mean: 873.606667, ci95: [861.9391413991156, 885.2741919342178] as [number, number], n: 3 };
// 50 concurrent vegeta clients of one run, each's p99 in ms: the same 50 figures on both sides but 4 % apart.
const clients = Array.from({ length: 50 }, (_, i) => 20 + (i % 10) * 0.1);

function bundle(of: BundleInput, results: BundleInput["results"]): string {
  return JSON.stringify({ ...of, results });
}

describe("summary statistics and clients, stored", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  const ids: { baseline: string; candidate: string; bundle: string } = { baseline: "", candidate: "", bundle: "" };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    const store = async (text: string) => {
      const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text });
      if (!outcome.ok) throw new Error(JSON.stringify(outcome));
      return outcome.stored;
    };
    const base = await store(
      bundle(tkeIptables(), [
        {
          metric: "tcp.throughput",
          value: published.mean,
          unit: "Mb/s",
          aggregate: "mean",
          params: { path: "pod-pod", streams: 1 },
          summary: { ...published, of: "runs" },
        },
        {
          metric: "http.latency",
          value: 20.45,
          unit: "ms",
          params: { percentile: "p99", qps: 1000 },
          samples: clients,
          samplesAre: "clients",
        },
      ]),
    );
    const candidate = await store(
      bundle(tkeCiliumOverlay(), [
        {
          metric: "tcp.throughput",
          value: 960,
          unit: "Mb/s",
          aggregate: "mean",
          params: { path: "pod-pod", streams: 1 },
          summary: { mean: 960, sd: 4.696810974835271, n: 3, of: "runs" },
        },
        {
          metric: "http.latency",
          value: 20.45 * 1.04,
          unit: "ms",
          params: { percentile: "p99", qps: 1000 },
          samples: clients.map((v) => v * 1.04),
          samplesAre: "clients",
        },
      ]),
    );
    ids.baseline = base.scenarioId;
    ids.candidate = candidate.scenarioId;
    ids.bundle = base.id;
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("reads the summary back in the catalogue's unit, and clients' samples as one run", async () => {
    const figures = await latestFigures(db, { scenarios: [ids.baseline] });
    const tput = figures.find((f) => f.metric === "tcp.throughput");
    // Mb/s → Gbit/s: every part divided by 1000.
    expect(tput?.summaryStatistics?.mean).toBeCloseTo(0.873606667, 12);
    expect(tput?.summaryStatistics?.ci95?.[0]).toBeCloseTo(0.8619391413991156, 12);
    expect(tput?.summaryStatistics?.ci95?.[1]).toBeCloseTo(0.8852741919342177, 12);
    expect(tput?.summaryStatistics).toMatchObject({ n: 3, of: "runs" });
    expect(tput?.summaryStatistics).not.toHaveProperty("sd");
    expect(tput?.samplesAre).toBeNull();
    const latency = figures.find((f) => f.metric === "http.latency");
    expect(latency).toMatchObject({ samplesAre: "clients", n: 1, summaryStatistics: null });
    expect(latency?.samples).toHaveLength(50);

    const stored = await getBundle(db, [workspaceId], ids.bundle);
    expect(stored?.measurements.map((m) => [m.metric, m.summaryStatistics?.n ?? null, m.samplesAre])).toEqual([
      ["tcp.throughput", 3, null],
      ["http.latency", null, "clients"],
    ]);
  });

  it("judges stored summaries by Welch's t from summary statistics, clients as one run", async () => {
    const figures = await latestFigures(db, { scenarios: [ids.baseline, ids.candidate] });
    const rows = compareMeasurementSets(
      figures.filter((f) => f.scenarioId === ids.baseline),
      figures.filter((f) => f.scenarioId === ids.candidate),
    );
    const tput = rows.find((r) => r.metric === "tcp.throughput")?.result;
    expect(tput?.verdict).toBe("better");
    if (tput?.evidence.method !== "interval") throw new Error("interval expected");
    expect(tput.evidence.from).toBe("summary");
    // scipy.stats.ttest_ind_from_stats(873.606667, 4.696810974835271, 3, 960, 4.696810974835271, 3,
    // equal_var=False): p 2.2991996577099524e-05 (the sd recovered from the interval, verdict-summary.test.ts).
    expect(tput.evidence.p).toBeCloseTo(2.2991996577099524e-5, 9);
    expect(tput.evidence.baselineRuns).toBe(3);

    // 50 clients a side, 4 % apart with no spread between the sides' runs: as 50 runs Welch's t would
    // call it decided; as one run a side it stays an indicative single-run verdict.
    const latency = rows.find((r) => r.metric === "http.latency")?.result;
    expect(latency?.evidence).toMatchObject({ method: "noise-band", oneRun: expect.stringContaining("clients") });
    const asRuns = compareMeasurementSets(
      ...([ids.baseline, ids.candidate].map((id) =>
        figures.filter((f) => f.scenarioId === id).map((f) => ({ ...f, samplesAre: null })),
      ) as [typeof figures, typeof figures]),
    ).find((r) => r.metric === "http.latency")?.result;
    expect(asRuns?.evidence.method).toBe("interval");
    expect(asRuns?.verdict).not.toBe("inconclusive");
  });
  it("counts an earlier campaign of clients as one run in a series' history and its view", async () => {
    const later = tkeIptables();
    const text = bundle({ ...later, campaign: "later", runAt: "2030-01-01T00:00:00Z" }, [
      {
        metric: "http.latency",
        value: 20.5,
        unit: "ms",
        params: { percentile: "p99", qps: 1000 },
        samples: [20.4, 20.5, 20.6],
      },
    ]);
    const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const history = await earlierCampaigns(db, { scenarios: [ids.baseline] });
    // The 50 clients' bundle before it is one run, its value (20.45 ms, the catalogue's unit), not 50.
    expect(history.filter((h) => h.metric === "http.latency").map((h) => h.runs)).toEqual([[20.45]]);
    // The history view and the alerts read campaigns alike: the clients' campaign is one run.
    const series = await seriesHistory(
      db,
      { userId: null, readable: [workspaceId], roles: {} },
      { scenarioId: ids.baseline, metric: "http.latency", params: { percentile: "p99", qps: 1000 } },
    );
    expect(series?.campaigns.map((c) => c.runs)).toEqual([[20.45], [20.4, 20.5, 20.6]]);
  });
});
