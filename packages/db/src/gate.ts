// What a CI gate compares (POST /v1/gate): the candidate campaign an upload just stored, and its
// baseline — the previous campaign of the same testbed, a scenario's latest campaign, a permalink's
// pinned bundles, or bundles named by id — each as the figures a compare shows (latestFigures over
// those bundles), with the earlier campaigns their noise may be pooled from. Only what the caller
// may read (`readable`) is found: anything else is "not found", as if it did not exist.
import type { Db } from "./client.ts";
import { readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { type EarlierCampaign, earlierCampaigns, type LatestFigure, latestFigures } from "./measurements.ts";
import { getPermalink } from "./permalinks.ts";
import { listScenarios } from "./scenarios.ts";

export type GateBaseline =
  | { previous: true }
  | { scenarioId: string }
  | { permalink: string }
  | { bundleIds: readonly string[] };

/** One side of a gate: the bundles compared, one scenario's, and their figures. */
export type GateSide = {
  scenarioId: string;
  bundleIds: string[];
  /** "campaign nightly-08 of Cilium native (3 bundles, measured 2026-11-08)". */
  description: string;
  figures: LatestFigure[];
};

export type GateRefusal = {
  ok: false;
  reason: "candidate_not_found" | "baseline_not_found" | "no_previous_campaign" | "several_scenarios";
  message: string;
};

/**
 * Each side with the earlier campaigns of its figures' series, read apart: both sides are often the
 * same scenario's, whose series would otherwise pool the candidate's history into the baseline's.
 */
export type GateSides =
  | {
      ok: true;
      candidate: GateSide & { earlier: EarlierCampaign[] };
      baseline: GateSide & { earlier: EarlierCampaign[] };
    }
  | GateRefusal;

type BundleRow = { id: string; scenarioId: string; workspaceId: string; campaign: string; measuredAt: number };

/** A campaign of one scenario: its bundles, newest first, and when its first and last runs were measured. */
type CampaignRow = {
  campaign: string;
  named: boolean;
  scenarioId: string;
  bundleIds: string[];
  started: number;
  ended: number;
};

const measured = Prisma.sql`COALESCE(b."runAt", b."receivedAt")`;
const epochMs = (at: Prisma.Sql) => Prisma.sql`(EXTRACT(EPOCH FROM ${at}) * 1000)::float8`;

async function readableBundles(db: Db, readable: readonly string[], ids: readonly string[]): Promise<BundleRow[]> {
  return readRows<BundleRow>(
    db,
    Prisma.sql`SELECT b.id, b."scenarioId", b."workspaceId", COALESCE(b.campaign, b.id) AS campaign,
        ${epochMs(measured)} AS "measuredAt"
      FROM "Bundle" b WHERE b.id = ANY(${[...ids]}::text[]) AND b."workspaceId" = ANY(${[...readable]}::text[])`,
  );
}

/**
 * The latest campaign among a scenario's bundles — or, with `testbed`, among the bundles of every
 * scenario of that scenario's testbed in its workspace (Scenario.testbedKey: the same but for upgrades)
 * — other than the candidate's, optionally only those begun before `before`. A campaign spread over
 * scenarios counts per scenario.
 */
async function latestCampaign(
  db: Db,
  where: { scenarioId: string; testbed?: boolean; before?: number },
  candidate: { bundleIds: readonly string[]; campaigns: readonly string[] },
): Promise<CampaignRow | undefined> {
  const scenarios = where.testbed
    ? Prisma.sql`ARRAY(SELECT t.id FROM "Scenario" s JOIN "Scenario" t
        ON t."workspaceId" = s."workspaceId" AND t."testbedKey" = s."testbedKey" WHERE s.id = ${where.scenarioId})`
    : Prisma.sql`ARRAY[${where.scenarioId}]::text[]`;
  const [row] = await readRows<CampaignRow>(
    db,
    Prisma.sql`SELECT * FROM (
        SELECT COALESCE(b.campaign, b.id) AS campaign, bool_or(b.campaign IS NOT NULL) AS named, b."scenarioId",
          array_agg(b.id ORDER BY ${measured} DESC, b."receivedAt" DESC, b.id) AS "bundleIds",
          ${epochMs(Prisma.sql`min(${measured})`)} AS started, ${epochMs(Prisma.sql`max(${measured})`)} AS ended
        FROM "Bundle" b
        WHERE b."scenarioId" = ANY(${scenarios})
          AND NOT (b.id = ANY(${[...candidate.bundleIds]}::text[]))
          AND NOT (COALESCE(b.campaign, b.id) = ANY(${[...candidate.campaigns]}::text[]))
        GROUP BY COALESCE(b.campaign, b.id), b."scenarioId"
        ${where.before === undefined ? Prisma.empty : Prisma.sql`HAVING min(${measured}) < to_timestamp(${where.before / 1000})`}
      ) c
      ORDER BY started DESC, ended DESC, campaign COLLATE "C" DESC
      LIMIT 1`,
  );
  return row;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function campaignWords(c: CampaignRow, label: string): string {
  const name = c.named ? `campaign ${JSON.stringify(c.campaign)}` : plural(c.bundleIds.length, "bundle");
  const when = day(c.started) === day(c.ended) ? day(c.started) : `${day(c.started)}–${day(c.ended)}`;
  const count = c.named ? `${plural(c.bundleIds.length, "bundle")}, ` : "";
  return `${name} of ${label} (${count}measured ${when})`;
}

/**
 * The two sides of a gate, or why there are none: the candidate's bundles must all be readable and of
 * one scenario; so must the baseline's. "previous" is the latest campaign of the candidate's testbed (in
 * its workspace: its scenario, or another differing only by upgrades) begun before the candidate's first run, its own campaign aside; a scenario's
 * baseline is its latest campaign but the candidate's; a permalink's is the pinned bundles of the
 * comparison's first scenario (its baseline) that still exist.
 */
export async function gateSides(
  db: Db,
  readable: readonly string[],
  input: { candidate: readonly string[]; baseline: GateBaseline },
): Promise<GateSides> {
  const ids = [...new Set(input.candidate)];
  const candidateRows = await readableBundles(db, readable, ids);
  if (candidateRows.length !== ids.length) {
    const found = new Set(candidateRows.map((b) => b.id));
    const missing = ids.filter((id) => !found.has(id));
    return {
      ok: false,
      reason: "candidate_not_found",
      message: `No bundle with id ${missing.join(", ")} that this token may read.`,
    };
  }
  const candidateScenarios = [...new Set(candidateRows.map((b) => b.scenarioId))];
  if (candidateScenarios.length !== 1) {
    return {
      ok: false,
      reason: "several_scenarios",
      message: `The candidate's bundles belong to ${candidateScenarios.length} scenarios; gate one testbed's campaign at a time.`,
    };
  }
  const candidateScenario = candidateScenarios[0]!;
  const campaigns = [...new Set(candidateRows.map((b) => b.campaign))];
  const start = Math.min(...candidateRows.map((b) => b.measuredAt));
  const end = Math.max(...candidateRows.map((b) => b.measuredAt));
  const exclude = { bundleIds: ids, campaigns };

  let baseline: { scenarioId: string; bundleIds: string[]; campaign?: CampaignRow; words: (label: string) => string };
  const b = input.baseline;
  if ("previous" in b) {
    const previous = await latestCampaign(db, { scenarioId: candidateScenario, testbed: true, before: start }, exclude);
    if (!previous) {
      return {
        ok: false,
        reason: "no_previous_campaign",
        message: "No earlier campaign of this testbed to compare with: nothing measured it before the candidate.",
      };
    }
    baseline = {
      scenarioId: previous.scenarioId,
      bundleIds: previous.bundleIds,
      words: (label) => `previous ${campaignWords(previous, label)}`,
    };
  } else if ("scenarioId" in b) {
    const readableScenario = await db.scenario.findFirst({
      where: { id: b.scenarioId, workspaceId: { in: [...readable] } },
      select: { id: true },
    });
    const latest = readableScenario ? await latestCampaign(db, { scenarioId: b.scenarioId }, exclude) : undefined;
    if (!latest) {
      return {
        ok: false,
        reason: "baseline_not_found",
        message: readableScenario
          ? `Scenario ${b.scenarioId} has no campaign but the candidate's.`
          : `No scenario with id ${b.scenarioId}.`,
      };
    }
    baseline = {
      scenarioId: latest.scenarioId,
      bundleIds: latest.bundleIds,
      words: (label) => `latest ${campaignWords(latest, label)}`,
    };
  } else if ("permalink" in b) {
    const link = await getPermalink(db, { userId: null, readable: [...readable], roles: {} }, b.permalink);
    const first = link?.scenarioIds[0];
    const gone = new Set(link?.missing.map((p) => p.bundleId));
    const pinned = (link?.pins ?? []).filter((p) => p.scenarioId === first && !gone.has(p.bundleId));
    if (!link || !first || pinned.length === 0) {
      return {
        ok: false,
        reason: "baseline_not_found",
        message: link
          ? `Permalink ${b.permalink} pins no bundle of its baseline scenario any more.`
          : `No permalink ${b.permalink}.`,
      };
    }
    baseline = {
      scenarioId: first,
      bundleIds: pinned.map((p) => p.bundleId),
      words: (label) => `permalink /d/${b.permalink}: ${label}, ${plural(pinned.length, "pinned bundle")}`,
    };
  } else {
    const named = [...new Set(b.bundleIds)];
    const rows = await readableBundles(db, readable, named);
    if (rows.length !== named.length) {
      const found = new Set(rows.map((r) => r.id));
      return {
        ok: false,
        reason: "baseline_not_found",
        message: `No bundle with id ${named.filter((id) => !found.has(id)).join(", ")}.`,
      };
    }
    const scenarios = [...new Set(rows.map((r) => r.scenarioId))];
    if (scenarios.length !== 1) {
      return {
        ok: false,
        reason: "several_scenarios",
        message: `The baseline's bundles belong to ${scenarios.length} scenarios; name the bundles of one.`,
      };
    }
    baseline = {
      scenarioId: scenarios[0]!,
      bundleIds: named,
      words: (label) => `${plural(named.length, "named bundle")} of ${label}`,
    };
  }

  const [candidateFigures, baselineFigures, summaries] = await Promise.all([
    latestFigures(db, { scenarios: [candidateScenario], bundleIds: ids }),
    latestFigures(db, { scenarios: [baseline.scenarioId], bundleIds: baseline.bundleIds }),
    listScenarios(db, { workspaceIds: readable, ids: [candidateScenario, baseline.scenarioId] }),
  ]);
  const label = (id: string) => summaries.find((s) => s.id === id)?.label ?? id;
  // A previous campaign on another scenario of the testbed: what was upgraded in between.
  const [was, now] = [baseline.scenarioId, candidateScenario].map((id) => summaries.find((s) => s.id === id));
  const upgrades =
    was && now && was.id !== now.id
      ? (
          [
            ["CNI version", was.cni.version, now.cni.version],
            ["kernel", was.kernel, now.kernel],
            ["OS", was.os, now.os],
            ["Kubernetes", was.kubernetesVersion, now.kubernetesVersion],
          ] as const
        ).flatMap(([what, from, to]) => (from === to ? [] : [`${what} ${from} → ${to}`]))
      : [];
  const candidateCampaign: CampaignRow = {
    campaign: campaigns[0]!,
    named: campaigns.length === 1 && !ids.includes(campaigns[0]!),
    scenarioId: candidateScenario,
    bundleIds: ids,
    started: start,
    ended: end,
  };
  const candidateWords =
    campaigns.length === 1
      ? campaignWords(candidateCampaign, label(candidateScenario))
      : `${plural(ids.length, "bundle")} of ${label(candidateScenario)} in ${campaigns.length} campaigns`;
  const [candidateEarlier, baselineEarlier] = await Promise.all([
    earlierCampaigns(db, candidateFigures),
    earlierCampaigns(db, baselineFigures),
  ]);
  return {
    ok: true,
    candidate: {
      scenarioId: candidateScenario,
      bundleIds: ids,
      description: candidateWords,
      figures: candidateFigures,
      earlier: candidateEarlier,
    },
    baseline: {
      scenarioId: baseline.scenarioId,
      bundleIds: baseline.bundleIds,
      description: `${baseline.words(label(baseline.scenarioId))}${upgrades.length > 0 ? `; since then ${upgrades.join(", ")}` : ""}`,
      figures: baselineFigures,
      earlier: baselineEarlier,
    },
  };
}
