// A series followed over time (issue 27): its campaigns across every scenario of its testbed, the
// scenarios of one workspace that differ only in what upgrades change (CNI version, kernel and OS,
// Kubernetes version; Scenario.testbedKey, migration testbeds). Change points are the web server's
// to find (history-data.ts), from these campaigns: this only reads.
import { distributionOf } from "@cnibench/analysis";
import { canonicalJson } from "@cnibench/schema";
import type { Access, Visibility } from "./access.ts";
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import {
  type AnnotationChange,
  annotationKeys,
  type CampaignAnnotations,
  type HistoryCampaign,
  type SeriesHistory,
} from "./read-models.ts";
import { listScenarios } from "./scenarios.ts";

export type { AnnotationChange, CampaignAnnotations, HistoryCampaign, SeriesHistory };

/** Campaigns a history holds, the latest ones: years of nightly runs, and a bounded answer. */
export const historyLimit = 200;

/** A campaign as the query sends it; its runs as [bundleId, values] in time order. */
type CampaignRow = {
  scenarioId: string;
  campaign: string;
  measuredAt: number;
  total: number;
  unit: string;
  better: "higher" | "lower" | "none";
  runs: [bundleId: string, values: number[]][];
};

/**
 * The campaigns of one series (metric and exact params) in every scenario of `scenarioId`'s testbed
 * that the visitor may read, oldest first, the latest `historyLimit` of them. A campaign is the runs
 * sharing Measurement.campaign in one scenario, read as the verdicts read history (earlierCampaigns):
 * each unqualified figure's samples (concurrent clients' are one run), else its value; figures with a
 * qualifier (≈, ≤, ≥, a range) are no runs, and a campaign of nothing else is left out. Its time is its
 * latest bundle's (runAt, else upload time), as the current figure's is. Null when the scenario does not exist or is not readable.
 */
export async function seriesHistory(
  db: Db,
  access: Access,
  input: { scenarioId: string; metric: string; params: Record<string, string | number | boolean> },
): Promise<SeriesHistory | null> {
  const testbed = await testbedOf(db, access.readable, input.scenarioId);
  if (!testbed) return null;
  const ids = testbed.scenarioIds;
  const paramsKey = canonicalJson(input.params);
  const [scenarios, rows] = await Promise.all([
    listScenarios(db, { workspaceIds: access.readable, ids }),
    readRows<CampaignRow>(
      db,
      Prisma.sql`
      WITH runs AS (
        SELECT m."scenarioId", m.campaign, m."bundleId", m.position, m.unit, m.better::text AS better,
          COALESCE(b."runAt", b."receivedAt") AS "measuredAt", b."receivedAt",
          -- Concurrent clients' samples are one run: the figure's value.
          CASE WHEN cardinality(m.samples) > 0 AND m."samplesAre" IS DISTINCT FROM 'clients' THEN m.samples
            ELSE ARRAY[m.value] END AS "values"
        FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
        WHERE m."scenarioId" = ANY(${ids}::text[]) AND m.metric = ${input.metric} AND m."paramsKey" = ${paramsKey}
          AND m.qualifier IS NULL),
      -- Each campaign's runs gathered in the same pass that finds the latest campaigns: joined back to
      -- the runs, the planner (expecting one run) rescanned them all for every campaign, which grew
      -- with the square of the history (578 row visits at 1M measurements, 3,468 at 3M).
      latest AS (
        SELECT "scenarioId", campaign, max("measuredAt") AS at, max("receivedAt") AS received,
          (count(*) OVER ())::int AS total, min(unit) AS unit, min(better) AS better,
          json_agg(json_build_array("bundleId", array_to_json("values"))
            ORDER BY "measuredAt", "receivedAt", "bundleId" COLLATE "C", position) AS runs
        FROM runs GROUP BY "scenarioId", campaign
        ORDER BY at DESC, received DESC, campaign COLLATE "C" DESC
        LIMIT ${historyLimit})
      SELECT "scenarioId", campaign, (EXTRACT(EPOCH FROM at) * 1000)::float8 AS "measuredAt", total, unit, better, runs
      FROM latest
      ORDER BY at, received, campaign COLLATE "C"`,
    ),
  ]);
  const facts = new Map(
    scenarios.map((s): [string, CampaignAnnotations] => [
      s.id,
      { cniVersion: s.cni.version, kernel: s.kernel, os: s.os, kubernetesVersion: s.kubernetesVersion },
    ]),
  );
  const campaigns: HistoryCampaign[] = [];
  for (const row of rows) {
    const annotations = facts.get(row.scenarioId);
    const summary = distributionOf(row.runs.flatMap(([, values]) => values));
    if (!annotations || !summary) continue;
    const previous = campaigns.at(-1)?.annotations;
    campaigns.push({
      campaign: row.campaign,
      scenarioId: row.scenarioId,
      measuredAt: new Date(row.measuredAt),
      bundleIds: [...new Set(row.runs.map(([bundleId]) => bundleId))],
      runs: row.runs.flatMap(([, values]) => values),
      n: summary.n,
      median: summary.median,
      min: summary.min,
      max: summary.max,
      annotations,
      changes: previous ? annotationChanges(previous, annotations) : [],
    });
  }
  return {
    testbed: { key: testbed.key, workspaceId: testbed.workspaceId, visibility: testbed.visibility, scenarios },
    metric: input.metric,
    params: input.params,
    unit: rows[0]?.unit ?? null,
    better: rows[0]?.better ?? null,
    campaigns,
    totalCampaigns: rows[0]?.total ?? 0,
  };
}

/** A testbed: its key, workspace (and whether that is public) and scenarios (by id). */
export type Testbed = { key: string; workspaceId: string; visibility: Visibility; scenarioIds: string[] };

/**
 * The testbed of a scenario the visitor may read (its workspace among `readable`), with every scenario
 * of it; null when there is no such scenario. What "the previous campaign of the same testbed" is
 * looked for in: a scenario's campaigns continue in the others' after an upgrade.
 */
export async function testbedOf(db: Db, readable: readonly string[], scenarioId: string): Promise<Testbed | null> {
  const rows = await readRows<{ id: string; workspaceId: string; visibility: Visibility; testbedKey: string }>(
    db,
    Prisma.sql`
    SELECT t.id, t."workspaceId", w.visibility::text AS visibility, t."testbedKey"
    FROM "Scenario" a JOIN "Scenario" t ON t."workspaceId" = a."workspaceId" AND t."testbedKey" = a."testbedKey"
      JOIN "Workspace" w ON w.id = a."workspaceId"
    WHERE a.id = ${scenarioId} AND a."workspaceId" = ANY(${[...readable]}::text[])
    ORDER BY t."createdAt", t.id COLLATE "C"`,
  );
  const first = rows[0];
  if (!first) return null;
  return {
    key: first.testbedKey,
    workspaceId: first.workspaceId,
    visibility: first.visibility,
    scenarioIds: rows.map((r) => r.id),
  };
}

/** The annotations whose value differs between two campaigns, in a fixed order. */
function annotationChanges(before: CampaignAnnotations, after: CampaignAnnotations): AnnotationChange[] {
  return annotationKeys
    .filter((key) => before[key] !== after[key])
    .map((key) => ({ key, before: before[key], after: after[key] }));
}
