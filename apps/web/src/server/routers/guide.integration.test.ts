// The guide keeps the figures it ranks between answers, per scenario (guide-figures.ts): an answer must
// still follow every upload and deletion at once, and equal the one ranked from freshly read figures.
import { guideMetrics, recommendDatapaths } from "@cnibench/analysis";
import { chartView, createDb, type Db, deleteBundle, ensureDefaultWorkspace, ingestBundle } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guideFigures } from "../views/guide-figures";
import { recommend } from "./guide";

const { overlay, iptables } = tkeServiceScale();
const answers = { cloud: null, sku: null, services: 30_000, connections: "short" as const, needs: [] };

/** Every figure value an answer cites. */
const cited = (answer: Awaited<ReturnType<typeof recommend>>) =>
  [...answer.summary, ...answer.options.flatMap((o) => o.reasons)].flatMap((r) => r.evidence.map((e) => e.value));

describe("the guide's kept figures", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    for (const bundle of [overlay, iptables]) {
      const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(bundle) });
      if (!outcome.ok) throw new Error("a seed bundle did not ingest");
    }
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("answers as from freshly read figures, before and after an upload and a deletion", async () => {
    const fresh = async () => {
      const { scenarios, figures } = await chartView(db, [workspaceId], { filters: {}, metrics: guideMetrics });
      return recommendDatapaths({ answers, scenarios, figures });
    };
    const first = await recommend(db, [workspaceId], answers);
    expect(await recommend(db, [workspaceId], answers)).toEqual(first);
    expect(first.options).toEqual((await fresh()).options);
    expect(cited(first)).toContain(9057);

    // A later iptables run at 30,000 Services: the answer cites it at once.
    const rerun = await ingestBundle(db, {
      workspaceId,
      tokenId: null,
      text: JSON.stringify({
        ...iptables,
        runAt: "2026-06-01T00:00:00Z",
        results: [{ ...iptables.results[4], value: 9999 }],
      }),
    });
    if (!rerun.ok) throw new Error("the re-run did not ingest");
    const after = await recommend(db, [workspaceId], answers);
    expect(cited(after)).toContain(9999);
    expect(cited(after)).not.toContain(9057);
    expect(after.options).toEqual((await fresh()).options);
    // Only the re-run's scenario was read again; the kept figures are the store's current ones.
    const kept = await guideFigures(db, [workspaceId]);
    const read = await chartView(db, [workspaceId], { filters: {}, metrics: guideMetrics });
    expect(kept.scenarios).toEqual(read.scenarios);
    const byKey = (f: { scenarioId: string; metric: string; params: object }) =>
      `${f.scenarioId} ${f.metric} ${JSON.stringify(f.params)}`;
    const sorted = (figures: typeof read.figures) => [...figures].sort((a, b) => byKey(a).localeCompare(byKey(b)));
    expect(sorted(kept.figures)).toEqual(sorted(read.figures));

    await deleteBundle(db, rerun.stored.id);
    expect(await recommend(db, [workspaceId], answers)).toEqual(first);
  });
});
