/**
 * Alerts (issue 27): what a workspace's webhooks are told after new runs of a series came in, decided
 * from the series' history across its testbed before and after them. Two events:
 * - "campaign-worse": a campaign the new runs went into is worse than the previous campaign of its
 *   testbed, by the verdict rules (verdict.ts, docs/verdicts.md: each side's runs, the noise pooled
 *   from the campaigns before it when they hold enough runs, the metric's margin δ), and was not
 *   worse before they came. One run on a side gives the indicative verdict, as everywhere.
 * - "change-point": detectChangePoints (change-points.ts) on the history after finds a change point
 *   at a campaign where the history before had none.
 * Pure: the database reads the histories (packages/db webhooks.ts) and the ingest API sends the
 * payloads built here (generic JSON, or Slack-compatible text and blocks).
 */
import { median } from "simple-statistics";
import { type AnnotationChange, type AnnotationValue, detectChangePoints } from "./change-points.ts";
import { historyNoise } from "./effect.ts";
import { formatChange, formatNumber, formatParams, verdictWords, withUnit } from "./format.ts";
import type { Better, Measurement, Params } from "./types.ts";
import { compareFigures, type Verdict, type VerdictResult } from "./verdict.ts";

export const alertEvents = ["campaign-worse", "change-point"] as const;
export type AlertEvent = (typeof alertEvents)[number];

/** One campaign of a series' history, oldest first: which scenario of the testbed, its runs. */
export type AlertCampaign = {
  scenarioId: string;
  campaign: string;
  measuredAt: Date;
  runs: readonly number[];
  annotations?: Readonly<Record<string, AnnotationValue>>;
};

export type AlertSeries = {
  metric: string;
  params: Params;
  unit: string | null;
  better: Better | null;
  /** The history before the new runs came in, and after. */
  before: readonly AlertCampaign[];
  after: readonly AlertCampaign[];
  /** The campaigns the new runs went into. */
  touched: readonly { scenarioId: string; campaign: string }[];
};

/** A campaign as an alert names it: its median over its runs. */
export type AlertSide = {
  scenarioId: string;
  campaign: string;
  measuredAt: string;
  runs: number;
  median: number;
  /** A change point's side: the campaigns of its segment (1 for a campaign). */
  campaigns: number;
};

export type DetectedAlert = {
  event: AlertEvent;
  /** What the alert is about, the same every time it is found: one delivery per webhook and key. */
  key: string;
  previous: AlertSide;
  current: AlertSide;
  changePercent: number | null;
  verdict: Verdict;
  /** A change point's p and what changed at it (kernel, CNI version…); empty for a campaign. */
  p: number | null;
  changes: AnnotationChange[];
};

const idOf = (c: { scenarioId: string; campaign: string }) => `${c.scenarioId}/${c.campaign}`;

const sideOf = (c: AlertCampaign, campaigns = 1, value = median([...c.runs])): AlertSide => ({
  scenarioId: c.scenarioId,
  campaign: c.campaign,
  measuredAt: c.measuredAt.toISOString(),
  runs: c.runs.length,
  median: value,
  campaigns,
});

/** The events the new runs fire, change points first; none for a series without runs. */
export function detectAlerts(series: AlertSeries): DetectedAlert[] {
  const seriesKey = `${series.metric} ${JSON.stringify(series.params)}`;
  return [...changePointAlerts(series, seriesKey), ...worseAlerts(series, seriesKey)];
}

/** A campaign (candidate) against the one before it in the history (baseline), with pooled noise. */
function againstPrevious(history: readonly AlertCampaign[], index: number, series: AlertSeries): VerdictResult | null {
  const current = history[index];
  const previous = history[index - 1];
  if (!current || !previous || current.runs.length === 0 || previous.runs.length === 0) return null;
  const figure = (c: AlertCampaign, before: number): Measurement => ({
    metric: series.metric,
    unit: series.unit ?? "",
    value: median([...c.runs]),
    samples: c.runs,
    ...(series.better ? { better: series.better } : {}),
    history: historyNoise(history.slice(0, before).map((h) => h.runs)),
  });
  return compareFigures(figure(previous, index - 1), figure(current, index));
}

function worseAlerts(series: AlertSeries, seriesKey: string): DetectedAlert[] {
  const touched = new Set(series.touched.map(idOf));
  return series.after.flatMap((current, index): DetectedAlert[] => {
    if (!touched.has(idOf(current))) return [];
    const now = againstPrevious(series.after, index, series);
    if (now?.verdict !== "worse") return [];
    const earlier = series.before.findIndex((c) => idOf(c) === idOf(current));
    if (earlier >= 0 && againstPrevious(series.before, earlier, series)?.verdict === "worse") return [];
    const previous = series.after[index - 1]!;
    return [
      {
        event: "campaign-worse",
        key: `campaign-worse ${seriesKey} ${idOf(current)}`,
        previous: sideOf(previous),
        current: sideOf(current),
        changePercent: now.delta?.percent ?? null,
        verdict: now.verdict,
        p: null,
        changes: [],
      },
    ];
  });
}

function changePointAlerts(series: AlertSeries, seriesKey: string): DetectedAlert[] {
  const options = {
    metric: series.metric,
    ...(series.unit === null ? {} : { unit: series.unit }),
    ...(series.better === null ? {} : { better: series.better }),
  };
  const find = (history: readonly AlertCampaign[]) =>
    detectChangePoints(
      history.map((c) => ({ id: idOf(c), runs: c.runs, ...(c.annotations ? { annotations: c.annotations } : {}) })),
      options,
    ).changePoints;
  const known = new Set(find(series.before).map((p) => p.id));
  return find(series.after)
    .filter((point) => !known.has(point.id))
    .flatMap((point): DetectedAlert[] => {
      const first = series.after[point.index];
      const last = series.after[point.index - 1];
      if (!first || !last) return [];
      return [
        {
          event: "change-point",
          key: `change-point ${seriesKey} ${idOf(first)}`,
          previous: sideOf(last, point.before.campaigns, point.before.median),
          current: sideOf(first, point.after.campaigns, point.after.median),
          changePercent: point.changePercent,
          verdict: point.verdict.verdict,
          p: point.p,
          changes: point.annotations,
        },
      ];
    });
}

/** Where an alert happened, for its payload. */
export type AlertContext = {
  workspace: { slug: string; name: string };
  testbed: string;
  scenario: { id: string; label: string };
  metric: string;
  params: Params;
  unit: string | null;
  /** The page to open: the scenario's. */
  link: string;
};

/**
 * The generic JSON a webhook of format "json" receives: the alert (but its key) where it happened —
 * {event, workspace, testbed, scenario, metric, params, unit, previous, current, changePercent,
 * verdict, p, changes, link}, in that order.
 */
export type AlertPayload = Omit<DetectedAlert, "key"> & AlertContext;

export function alertPayload(alert: DetectedAlert, context: AlertContext): AlertPayload {
  return {
    event: alert.event,
    workspace: context.workspace,
    testbed: context.testbed,
    scenario: context.scenario,
    metric: context.metric,
    params: context.params,
    unit: context.unit,
    previous: alert.previous,
    current: alert.current,
    changePercent: alert.changePercent,
    verdict: alert.verdict,
    p: alert.p,
    changes: alert.changes,
    link: context.link,
  };
}

/** One line saying what happened: "Cilium native: tcp.throughput (path pod-pod) −7.9 % …". */
export function alertSummary(p: AlertPayload): string {
  const params = formatParams(p.params, { empty: "" });
  const series = `${p.metric}${params ? ` (${params})` : ""}`;
  const change = p.changePercent === null ? "" : ` ${formatChange(p.changePercent)}`;
  const value = (side: AlertSide) => withUnit(formatNumber(side.median), p.unit ?? "");
  const what =
    p.event === "campaign-worse"
      ? `campaign ${p.current.campaign} is worse than ${p.previous.campaign}`
      : `change point at campaign ${p.current.campaign} (${verdictWords[p.verdict]})`;
  const changed = p.changes.map((c) => `${c.key} ${c.before ?? "—"} → ${c.after ?? "—"}`).join(", ");
  return `${p.scenario.label}: ${series}${change}, ${what}: ${value(p.previous)} → ${value(p.current)}${changed ? `; ${changed}` : ""}`;
}

/** The Slack-compatible message (incoming webhooks: text, and blocks for clients that draw them). */
export function slackPayload(p: AlertPayload): { text: string; blocks: object[] } {
  const title = p.event === "campaign-worse" ? "Campaign worse than the previous one" : "Change point";
  const text = `${title} in ${p.workspace.name}: ${alertSummary(p)}`;
  return {
    text,
    blocks: [
      { type: "header", text: { type: "plain_text", text: `${title} — ${p.workspace.name}` } },
      { type: "section", text: { type: "mrkdwn", text: alertSummary(p) } },
      { type: "section", text: { type: "mrkdwn", text: `<${p.link}|Open the scenario>` } },
    ],
  };
}
