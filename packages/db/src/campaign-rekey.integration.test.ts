// Migration 20261128230000_bundle_hash_without_campaign and its data step (rekey.ts), on a database as
// it stood before: one run of the TKE Cilium Overlay results (examples/bundle.json) stored twice, in
// campaign "import-aaaa" and again, as part of a smaller import, in "import-bbbb" — while the campaign
// was part of the content hash these were two bundles. Also: storing it again now is "already there".
import { bundleContentHash, contentHash } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { integrityProblems } from "@cnibench/test-support/ingest";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import { rekeyScenarios } from "./rekey.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

const { overlay } = tkeServiceScale();
const first = { ...overlay, campaign: "import-aaaa" };
const second = { ...overlay, campaign: "import-bbbb" };

describe("a run stored in two campaigns while the campaign was part of its content hash", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;
  let client: pg.Client;
  let workspaceId: string;
  const ids = { first: "", second: "", scenario: "" };
  const q = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    (await client.query<T>(sql, values)).rows;
  const put = async (bundle: object) => {
    const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(bundle) });
    if (!outcome.ok) throw new Error("bundle did not ingest");
    return outcome.stored;
  };

  beforeAll(async () => {
    database = await freshDatabase();
    db = createDb(database.url);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    const a = await put(first);
    // Stored today the copy would be "already there": it is made by hand, as the old code stored it —
    // its own row and measurements (a distinct collector command to get past the hash), then its raw
    // text and both hashes set to what the old code computed (the campaign inside).
    const b = await put({ ...second, collector: { ...(overlay.collector as object), command: "copy" } });
    await q(`UPDATE "Bundle" SET raw = $1, "contentHash" = $2 WHERE id = $3`, [
      JSON.stringify(second),
      contentHash(second),
      b.id,
    ]);
    await q(`UPDATE "Bundle" SET "contentHash" = $1 WHERE id = $2`, [contentHash(first), a.id]);
    Object.assign(ids, { first: a.id, second: b.id, scenario: a.scenarioId });
    // What the migration does.
    await q(`UPDATE "Scenario" SET "key" = 'rekey:' || "key"`);
  });
  afterAll(async () => {
    await client.end();
    await db.$disconnect();
    await database.drop();
  });

  it("keeps the first-stored copy, in its campaign, and deletes the later one with its measurements", async () => {
    const before = await q<{ n: number }>(`SELECT count(*)::int AS n FROM "Measurement" WHERE "bundleId" = $1`, [
      ids.first,
    ]);
    expect(await rekeyScenarios(client)).toMatchObject({ mergedBundles: 1 });
    expect(await q(`SELECT id, campaign, "contentHash" FROM "Bundle"`)).toEqual([
      { id: ids.first, campaign: "import-aaaa", contentHash: bundleContentHash(first) },
    ]);
    expect(await q(`SELECT count(*)::int AS n FROM "Measurement"`)).toEqual(before);
    expect(await q(`SELECT "bundleCount" FROM "Scenario"`)).toEqual([{ bundleCount: 1 }]);
    expect(await integrityProblems(db)).toEqual([]);
    // A second run finds nothing marked.
    expect(await rekeyScenarios(client)).toBeNull();
  });

  it("the same run again, under a third campaign, is the stored bundle: nothing written, its campaign named", async () => {
    const again = await ingestBundle(db, {
      workspaceId,
      tokenId: null,
      text: JSON.stringify({ ...overlay, campaign: "renamed" }),
    });
    expect(again.ok && again.stored).toEqual({
      id: ids.first,
      scenarioId: ids.scenario,
      measurementCount: 5,
      created: false,
      campaign: "import-aaaa",
    });
    expect(await q(`SELECT count(*)::int AS n FROM "Bundle"`)).toEqual([{ n: 1 }]);
  });
});
