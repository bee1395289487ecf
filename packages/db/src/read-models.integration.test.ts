// The query functions' rows against their read models' schemas: a column added to a query but not to
// its schema (which the web server's output contracts would strip), or one typed otherwise, fails here.

import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import { latestFigures, scenarioBundles, scenarioFigures } from "./measurements.ts";
import { latestFigureSchema, provenanceSchema, scenarioSummarySchema, seriesRunSchema } from "./read-models.ts";
import { listScenarios } from "./scenarios.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

/** The row is exactly what the schema declares: it parses, and parsing strips nothing. */
function exactly(schema: z.ZodObject, row: object): void {
  const parsed = schema.safeParse(row);
  expect(parsed.error).toBeUndefined();
  expect(Object.keys(row).filter((key) => !(key in schema.shape))).toEqual([]);
}

describe("read models of the query functions", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  let scenarioId: string;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    const { overlay } = tkeServiceScale();
    const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(overlay) });
    if (!outcome.ok) throw new Error("the example bundle did not ingest");
    scenarioId = outcome.stored.scenarioId;
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("shape scenarios, current figures and provenance as their schemas declare", async () => {
    const scenarios = await listScenarios(db, { workspaceIds: [workspaceId] });
    expect(scenarios).toHaveLength(1);
    for (const s of scenarios) exactly(scenarioSummarySchema, s);

    const figures = await latestFigures(db, { scenarios: [scenarioId] });
    expect(figures.length).toBeGreaterThan(0);
    for (const f of figures) exactly(latestFigureSchema, f);

    const bundles = await scenarioBundles(db, scenarioId);
    expect(bundles).toHaveLength(1);
    for (const b of bundles) exactly(provenanceSchema, b);
  });

  it("shape a scenario's runs as their schema declares (the query's bookkeeping besides)", async () => {
    for (const olderRuns of [undefined, 2]) {
      const runs = await scenarioFigures(db, scenarioId, olderRuns);
      expect(runs.length).toBeGreaterThan(0);
      // scenarioFigures leaves its row number (`n`) and, reading the latest runs, how many it found
      // (`found`) on the rows, uncopied; the output contract strips them.
      for (const run of runs) {
        const { n: _n, found: _found, ...rest } = run as typeof run & { n?: number; found?: number };
        exactly(seriesRunSchema, rest);
      }
    }
  });
});
