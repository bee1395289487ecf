// Migration scenario_labels and the data step that follows it (rekey.ts), on a database as it stood
// before: the TKE Cilium Overlay results (examples/bundle.json) uploaded without a label, then the same
// results with the label "Cilium Overlay", then a rerun with it. While labels were part of the identity
// these were two scenarios, and two copies of one bundle.
import { bundleContentHash, cniKey, contentHash, parseBundle, scenarioIdentity, scenarioKey } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessFor } from "./access.ts";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import { migrateDatabase } from "./migrate.ts";
import { createPermalink, getPermalink } from "./permalinks.ts";
import { getScenarioSummary } from "./scenarios.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

const { overlay } = tkeServiceScale();
const { label: _label, ...unlabelledCni } = overlay.cni as Record<string, unknown>;
const unlabelled = { ...overlay, cni: unlabelledCni };
const labelled = overlay;
const rerun = { ...overlay, runAt: "2026-03-01T00:00:00Z" };

describe("re-keying scenarios and bundles stored while labels were part of the identity", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;
  let client: pg.Client;
  let workspaceId: string;
  const ids = { first: "", copy: "", rerun: "", scenario: "", labelledScenario: "", link: "" };
  const q = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    (await client.query<T>(sql, values)).rows;
  const put = async (bundle: object, into: string) => {
    const outcome = await ingestBundle(db, { workspaceId: into, tokenId: null, text: JSON.stringify(bundle) });
    if (!outcome.ok) throw new Error("bundle did not ingest");
    return outcome.stored;
  };
  /** Every row the step may change, to compare before and after a second run. */
  const snapshot = async () => {
    const tables = ['"Scenario"', '"Bundle"', '"CniConfig"', '"CurrentFigure"', '"Measurement"', '"Permalink"'];
    const rows: unknown[] = [];
    for (const table of tables)
      rows.push(await q(`SELECT to_jsonb(t) AS row FROM ${table} t ORDER BY to_jsonb(t)::text`));
    return rows;
  };

  beforeAll(async () => {
    database = await freshDatabase();
    db = createDb(database.url);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    workspaceId = (await ensureDefaultWorkspace(db)).id;

    // Stored today, the three uploads are one scenario with two bundles: the old split is made by hand,
    // with the keys and hashes the old code computed (the label inside), then the migration undone.
    const first = await put(unlabelled, workspaceId);
    const aside = await db.workspace.create({ data: { slug: "aside", name: "Aside", visibility: "public" } });
    const copy = await put(labelled, aside.id);
    const again = await put(rerun, aside.id);
    Object.assign(ids, { first: first.id, copy: copy.id, rerun: again.id });
    Object.assign(ids, { scenario: first.scenarioId, labelledScenario: copy.scenarioId });
    const oldKeys = (bundle: object) => {
      const parsed = parseBundle(bundle);
      if (!parsed.ok) throw new Error("fixture");
      const identity = scenarioIdentity(parsed.bundle);
      const cni = { ...identity.cni, label: parsed.bundle.cni.label };
      return { scenario: contentHash({ ...identity, cni }), cni: contentHash(cni), label: cni.label };
    };
    for (const [id, bundle] of [
      [copy.id, labelled],
      [again.id, rerun],
    ] as const) {
      await q(`UPDATE "Bundle" SET "contentHash" = $1, "workspaceId" = $2 WHERE id = $3`, [
        contentHash(bundle),
        workspaceId,
        id,
      ]);
    }
    const [without, withLabel] = [oldKeys(unlabelled), oldKeys(labelled)];
    await q(`UPDATE "CniConfig" SET key = $1`, [without.cni]);
    await q(
      `INSERT INTO "CniConfig" (id, key, name, version, mode, "kubeProxy", label, settings)
      SELECT 'old-labelled-cni', $1, name, version, mode, "kubeProxy", $2, settings FROM "CniConfig"`,
      [withLabel.cni, withLabel.label],
    );
    await q(`UPDATE "Scenario" SET key = $1 WHERE id = $2`, [without.scenario, first.scenarioId]);
    await q(`UPDATE "Scenario" SET "workspaceId" = $1, "cniConfigId" = 'old-labelled-cni', key = $2 WHERE id = $3`, [
      workspaceId,
      withLabel.scenario,
      copy.scenarioId,
    ]);
    await q(`DELETE FROM "Workspace" WHERE id = $1`, [aside.id]);
    // The permalink is made before the label column goes: it reads the labels it pins (issue 43).
    const link = await createPermalink(db, await accessFor(db, null), {
      scenarioIds: [first.scenarioId, copy.scenarioId],
      view: {},
    });
    ids.link = link?.slug ?? "";
    await q(`DROP INDEX "Bundle_workspaceId_campaign_idx"`);
    await q(`ALTER TABLE "Scenario" DROP COLUMN label`);
    await q(`DELETE FROM "_prisma_migrations" WHERE migration_name = '20261126120000_scenario_labels'`);
  });
  afterAll(async () => {
    await client.end();
    await db.$disconnect();
    await database.drop();
  });

  it("starts from two scenarios and three bundles, as the old keys had it", async () => {
    const scenarios = await q<{ id: string; label: string | null }>(
      `SELECT s.id, n.label FROM "Scenario" s JOIN "CniConfig" n ON n.id = s."cniConfigId" ORDER BY s."createdAt"`,
    );
    expect(scenarios).toEqual([
      { id: ids.scenario, label: null },
      { id: ids.labelledScenario, label: "Cilium Overlay" },
    ]);
    expect(await q(`SELECT count(*)::int AS n FROM "Bundle"`)).toEqual([{ n: 3 }]);
  });

  it("merges them into the older scenario, named by the latest label, keeping one copy of the bundle", async () => {
    const lines: string[] = [];
    await migrateDatabase(database.url, (l) => lines.push(l));
    expect(lines.join("\n")).toMatch(/applied/i);
    expect(lines.join("\n")).toContain(
      "scenario keys and bundle hashes recomputed (a label or a campaign is not what was measured): scenarios re-keyed 1, merged into another 1, copies of a bundle removed 1",
    );
    expect(await q(`SELECT label FROM "CniConfig"`)).toEqual([{ label: null }]);

    const normalised = parseBundle(labelled);
    if (!normalised.ok) throw new Error("fixture");
    const [scenario] = await q<{ id: string; key: string; label: string; bundleCount: number; sources: string[] }>(
      `SELECT id, key, label, "bundleCount", sources FROM "Scenario"`,
    );
    expect(scenario).toEqual({
      id: ids.scenario,
      key: scenarioKey(normalised.bundle),
      label: "Cilium Overlay",
      bundleCount: 2,
      sources: ["Cilium Network Performance Benchmark"],
    });
    expect((await getScenarioSummary(db, [workspaceId], ids.scenario))?.label).toBe("Cilium Overlay");
    // The copy uploaded with the label goes: the first upload of those results stays, the rerun too.
    const bundles = await q<{ id: string; contentHash: string; scenarioId: string }>(
      `SELECT id, "contentHash", "scenarioId" FROM "Bundle" ORDER BY "receivedAt"`,
    );
    expect(bundles).toEqual([
      { id: ids.first, contentHash: bundleContentHash(unlabelled), scenarioId: ids.scenario },
      { id: ids.rerun, contentHash: bundleContentHash(rerun), scenarioId: ids.scenario },
    ]);
    expect(bundleContentHash(unlabelled)).toBe(bundleContentHash(labelled));
    expect(await q(`SELECT id, key FROM "CniConfig"`)).toEqual([
      { id: expect.not.stringMatching(/^old-/), key: cniKey(normalised.bundle) },
    ]);
    // Current figures: the rerun's (1 March) holds each of the five Service counts, over 2 runs.
    const figures = await q<{ value: number; runs: number; bundleId: string }>(
      `SELECT m.value, c.runs, m."bundleId" FROM "CurrentFigure" c JOIN "Measurement" m ON m.id = c."measurementId"
      WHERE c."scenarioId" = $1 ORDER BY (m.params->>'services')::int`,
      [ids.scenario],
    );
    expect(figures).toEqual(
      [14193, 13122, 12746, 13080, 12879].map((value) => ({ value, runs: 2, bundleId: ids.rerun })),
    );
    expect(await db.measurement.count({ where: { scenarioId: ids.scenario } })).toBe(10);
  });

  it("keeps permalinks pinning what they pinned, by the ids those became", async () => {
    const link = await getPermalink(db, await accessFor(db, null), ids.link);
    expect(link?.scenarioIds).toEqual([ids.scenario]);
    expect(link?.pins.map((p) => [p.bundleId, p.scenarioId]).sort()).toEqual(
      [
        [ids.first, ids.scenario],
        [ids.rerun, ids.scenario],
      ].sort(),
    );
    expect(link?.missing).toEqual([]);
    expect(link?.newer).toEqual([]);
  });

  it("finds the merged bundle when the same results are uploaded again, under any label", async () => {
    const again = await put(labelled, workspaceId);
    expect(again).toMatchObject({ id: ids.first, scenarioId: ids.scenario, created: false });
    await put({ ...labelled, cni: { ...(labelled.cni as object), label: "Cilium VXLAN" } }, workspaceId);
    expect((await getScenarioSummary(db, [workspaceId], ids.scenario))?.label).toBe("Cilium VXLAN");
  });

  it("does nothing on a second run", async () => {
    const before = await snapshot();
    const lines: string[] = [];
    await migrateDatabase(database.url, (l) => lines.push(l));
    expect(lines.join("\n")).not.toContain("re-keyed");
    expect(await snapshot()).toEqual(before);
  });
});
