/**
 * Alerts (issues 27 and 41): what a workspace's webhooks are told once a campaign of a scenario is
 * complete (its collector closed it, or no bundle came for the quiet period). Two events, each one
 * summary per campaign and webhook, never one per series:
 * - "campaign-worse": the whole campaign against the previous campaign of its testbed, judged by the
 *   gate (POST /v1/gate with baseline "previous": the same figures, noise and verdicts as the compare
 *   page), has figures worse beyond their margin. The ingest API runs the gate; the figures come here.
 * - "change-point": detectChangePoints (change-points.ts) on each series' history up to and including
 *   the campaign finds a change point that the history up to the campaign before did not. A history
 *   is cut at the campaign judged, never read as it is when the worker gets there, so runs uploaded
 *   since cannot hide a change point as already known. A change point needs `minSegment` (3) campaigns
 *   on each side: a shift at campaign k is told when campaign k + 2 is judged at the earliest, later
 *   when the shift is small against the noise (its p must fall below the detector's threshold).
 * Pure: the database reads the histories (packages/db webhooks.ts), the ingest API sends the payloads
 * built here (generic JSON, or Slack-compatible text and blocks, escaped per Slack's rules).
 */
import { formatChange, formatNumber, formatParams, verdictWords, withUnit } from "@cnibench/format";
import { type AlertEvent, alertEvents, type SlackPayload, type WebhookPayload } from "@cnibench/schema";
import { type AnnotationValue, detectChangePoints } from "./change-points.ts";
import type { Better } from "./types.ts";

// The events' names are the API's (packages/schema api.ts).
export { type AlertEvent, alertEvents };

/** Most figures one alert lists; `total` says how many there were. */
export const maxAlertFigures = 20;

/** One campaign of a series' history, oldest first: which scenario of the testbed, its runs. */
export type AlertCampaign = {
  scenarioId: string;
  campaign: string;
  measuredAt: Date;
  runs: readonly number[];
  annotations?: Readonly<Record<string, AnnotationValue>>;
};

/** One figure (metric and params) an alert is about, as the API's contract gives it (WebhookPayload). */
export type AlertFigure = WebhookPayload["figures"][number];

/** A side of a figure's change: a campaign (or a change point's segment) and its median. */
type AlertSide = AlertFigure["current"];

/** A series' history up to and including the campaign judged (its last entry), oldest first. */
export type AlertSeries = {
  metric: string;
  /** A stored figure's params: the contract's, without nulls (paramsSchema). */
  params: AlertFigure["params"];
  unit: string | null;
  better: Better | null;
  history: readonly AlertCampaign[];
};

const idOf = (c: { scenarioId: string; campaign: string }) => `${c.scenarioId}/${c.campaign}`;

/**
 * The change points the series' last campaign brings: found in its history up to that campaign and
 * not in its history up to the one before (the same point, at the same campaign, is known).
 */
export function newChangePoints(series: AlertSeries): AlertFigure[] {
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
  const after = series.history;
  const known = new Set(find(after.slice(0, -1)).map((p) => p.id));
  return find(after)
    .filter((point) => !known.has(point.id))
    .flatMap((point): AlertFigure[] => {
      const first = after[point.index];
      const last = after[point.index - 1];
      if (!first || !last) return [];
      const side = (c: AlertCampaign, campaigns: number, median: number): AlertSide => ({
        scenarioId: c.scenarioId,
        campaign: c.campaign,
        runs: c.runs.length,
        median,
        campaigns,
      });
      return [
        {
          metric: series.metric,
          params: series.params,
          unit: series.unit,
          previous: side(last, point.before.campaigns, point.before.median),
          current: side(first, point.after.campaigns, point.after.median),
          changePercent: point.changePercent,
          verdict: point.verdict.verdict,
          caveat: null,
          p: point.p,
          changes: point.annotations,
        },
      ];
    });
}

/**
 * What a webhook of format "json" receives (packages/schema's WebhookPayload, one definition): one
 * campaign's alert of one event, with the figures it is about (at most maxAlertFigures; `total`
 * counts them all).
 */
export type AlertPayload = WebhookPayload;

export function alertPayload(
  input: Omit<AlertPayload, "figures" | "total"> & { figures: readonly AlertFigure[] },
): AlertPayload {
  const { figures, link, ...rest } = input;
  return { ...rest, figures: figures.slice(0, maxAlertFigures), total: figures.length, link };
}

/**
 * One figure in words: "tcp.throughput (path pod-pod) −7.9 %: 9.41 Gbit/s → 8.67 Gbit/s", and its
 * caveat: "cpu.usage (…) +30 %: 1.2 cores → 1.56 cores, while moving 100.0 % more traffic".
 */
export function figureSummary(f: AlertFigure): string {
  const params = formatParams(f.params, { empty: "" });
  const change = f.changePercent === null ? "" : ` ${formatChange(f.changePercent)}`;
  const value = (side: AlertSide) => withUnit(formatNumber(side.median), f.unit ?? "");
  const at =
    f.p === null
      ? ""
      : ` (change point at ${f.current.campaign} after ${f.previous.campaigns} campaigns, ${verdictWords[f.verdict]})`;
  const changed = f.changes.map((c) => `${c.key} ${c.before ?? "—"} → ${c.after ?? "—"}`).join(", ");
  return `${f.metric}${params ? ` (${params})` : ""}${change}${at}: ${value(f.previous)} → ${value(f.current)}${f.caveat ? `, ${f.caveat}` : ""}${changed ? `; ${changed}` : ""}`;
}

/** One line saying what happened to the campaign. */
export function alertSummary(p: AlertPayload): string {
  const figures = `${p.total} figure${p.total === 1 ? "" : "s"}`;
  return p.event === "campaign-worse"
    ? `${p.scenario.label}: campaign ${p.campaign.campaign} is worse than ${p.baseline?.campaign ?? "the previous one"} in ${figures}`
    : `${p.scenario.label}: ${figures} with a change point, found with campaign ${p.campaign.campaign}`;
}

/**
 * Text as Slack reads it in `text` and mrkdwn: &, < and > escaped (and only those, as Slack's
 * "Escaping text" asks), so a label holding <!here> or <url|text> is shown, never a mention or a link.
 */
export function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Slack caps a section's text at 3,000 characters and a header's at 150. */
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The Slack-compatible message (incoming webhooks: text, and blocks for clients that draw them). */
export function slackPayload(p: AlertPayload): SlackPayload {
  const title = p.event === "campaign-worse" ? "Campaign worse than the previous one" : "Change point";
  const lines = p.figures.map((f) => `• ${slackEscape(figureSummary(f))}`);
  const more = p.total > p.figures.length ? [`…and ${p.total - p.figures.length} more`] : [];
  // The link is ours (the public web URL and an encoded id); escaped all the same, as Slack asks of a URL.
  const link = slackEscape(p.link).replace(/\|/g, "%7C");
  return {
    text: slackEscape(`${title} in ${p.workspace.name}: ${alertSummary(p)}`),
    blocks: [
      { type: "header", text: { type: "plain_text", text: clip(`${title} — ${p.workspace.name}`, 150) } },
      { type: "section", text: { type: "mrkdwn", text: clip(slackEscape(alertSummary(p)), 3000) } },
      ...(lines.length > 0
        ? [
            {
              type: "section" as const,
              text: { type: "mrkdwn" as const, text: clip([...lines, ...more].join("\n"), 3000) },
            },
          ]
        : []),
      { type: "section", text: { type: "mrkdwn", text: `<${link}|Open the scenario>` } },
    ],
  };
}
