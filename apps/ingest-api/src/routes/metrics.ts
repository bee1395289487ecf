// A workspace's current figures as a feed: OpenMetrics text for Prometheus to scrape, and the same
// series as JSON rows for Grafana's JSON / Infinity data sources. Both are read through the views' read
// models (listScenarios and latestFigures, @cnibench/db): the numbers are the pages' numbers, never a
// second query for them. Public workspaces need no token; a private one needs a token of its own (read
// or upload scope) and is "not found" to anyone else, as every read of the API treats it.
import {
  type Db,
  type LatestFigure,
  latestFigures,
  listScenarios,
  type ScenarioSummary,
  scenariosRevision,
} from "@cnibench/db";
import { findMetric } from "@cnibench/schema";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { readableWorkspaces } from "../auth.ts";
import { sendError } from "../errors.ts";

/** At most this many series a response: a scrape's cost stays bounded whatever the workspace holds. */
export const defaultMaxSeries = 50_000;

export const openMetricsContentType = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/** The family that says how many series the feed holds, and whether it was cut short. */
export const feedFamily = "cnibench_feed_series";

/** One series as both formats give it: its family, labels (strings), value and when it was measured. */
export type Series = {
  /** The OpenMetrics family name, derived from the metric's key and unit. */
  family: string;
  metric: string;
  unit: string;
  help: string;
  labels: SeriesLabels;
  value: number;
  measuredAt: Date;
  /** Runs in the series' latest campaign. */
  n: number;
};

const unitNames: Record<string, string> = {
  "%": "percent",
  "Gbit/s": "gbit_per_second",
  "Mbit/s": "mbit_per_second",
  MiB: "mebibytes",
  count: "",
  millicores: "millicores",
  ms: "milliseconds",
  µs: "microseconds",
  s: "seconds",
  "req/s": "requests_per_second",
  "trans/s": "transactions_per_second",
};

const snake = (text: string) =>
  text
    .replace(/[^a-zA-Z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");

/** A unit as an OpenMetrics unit suffix ("Gbit/s" → gbit_per_second; a count has none). */
export function unitSuffix(unit: string): string {
  const known = unitNames[unit];
  if (known !== undefined) return known;
  return snake(unit.replace(/%/g, "percent").replace(/µ/g, "u").replace(/\//g, "_per_").toLowerCase());
}

/** The family name of a metric key in a unit: `cnibench_` + the key in snake case + the unit suffix. */
export function familyName(metric: string, unit: string): string {
  const suffix = unitSuffix(unit);
  const base = `cnibench_${snake(metric.toLowerCase())}`;
  return suffix && !base.endsWith(`_${suffix}`) ? `${base}_${suffix}` : base;
}

/** The labels every series has, in this order; params follow, a clashing name prefixed `param_`. */
export const fixedLabels = [
  "scenario",
  "scenario_id",
  "provider",
  "sku",
  "kernel",
  "cni",
  "mode",
  "kube_proxy",
  "metric",
] as const;

export type SeriesLabels = Record<(typeof fixedLabels)[number], string> & Record<string, string>;

/** A series' labels: its scenario's, its metric key, its qualifier if any, and each param. */
export function seriesLabels(scenario: ScenarioSummary, figure: LatestFigure): SeriesLabels {
  const labels: SeriesLabels = {
    scenario: scenario.label,
    scenario_id: scenario.id,
    provider: scenario.provider,
    sku: scenario.sku,
    kernel: scenario.kernel,
    cni: scenario.cni.name,
    mode: scenario.cni.mode,
    kube_proxy: scenario.cni.kubeProxy,
    metric: figure.metric,
  };
  if (figure.qualifier) labels.qualifier = figure.qualifier;
  for (const [key, value] of Object.entries(figure.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let name = snake(key) || "param";
    if (/^\d/.test(name)) name = `_${name}`;
    if (name in labels || name.startsWith("__")) name = `param_${name.replace(/^_+/, "")}`;
    for (let i = 2; name in labels; i++) name = `${name.replace(/_\d+$/, "")}_${i}`;
    labels[name] = String(value);
  }
  return labels;
}

/** Every current figure of the scenarios as a series, in the read models' order; at most `limit`. */
export function toSeries(
  scenarios: readonly ScenarioSummary[],
  figures: readonly LatestFigure[],
  measuredAt: ReadonlyMap<string, Date>,
  limit: number,
): Series[] {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const series: Series[] = [];
  for (const f of figures) {
    const scenario = byId.get(f.scenarioId);
    if (!scenario) continue;
    if (series.length >= limit) break;
    series.push({
      family: familyName(f.metric, f.unit),
      metric: f.metric,
      unit: f.unit,
      help: findMetric(f.metric)?.label ?? f.metric,
      labels: seriesLabels(scenario, f),
      value: f.value,
      measuredAt: measuredAt.get(f.bundleId) ?? new Date(0),
      n: f.n,
    });
  }
  return series;
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const formatLabels = (labels: Record<string, string>) =>
  `{${Object.entries(labels)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(",")}}`;

/**
 * The OpenMetrics 1.0 exposition: one gauge family per metric and unit (`# TYPE`, `# UNIT`, `# HELP`
 * from the catalogue's label), its series together, then the feed's own count of series, `# EOF`.
 */
export function openMetricsText(series: readonly Series[], total: number): string {
  const families = new Map<string, Series[]>();
  for (const s of series) {
    const list = families.get(s.family);
    if (list) list.push(s);
    else families.set(s.family, [s]);
  }
  const lines: string[] = [];
  for (const name of [...families.keys()].sort()) {
    const members = families.get(name)!;
    const first = members[0]!;
    const suffix = unitSuffix(first.unit);
    lines.push(`# TYPE ${name} gauge`);
    if (suffix && name.endsWith(`_${suffix}`)) lines.push(`# UNIT ${name} ${suffix}`);
    lines.push(
      `# HELP ${name} ${escapeHelp(`${first.help} (${first.unit}): each series' current figure, its latest campaign's median (a lone bundle's value)`)}`,
    );
    for (const s of members) lines.push(`${name}${formatLabels(s.labels)} ${String(s.value)}`);
  }
  const truncated = total > series.length;
  lines.push(`# TYPE ${feedFamily} gauge`);
  lines.push(
    `# HELP ${feedFamily} ${
      truncated
        ? `Truncated: ${series.length} of the workspace's ${total} series are shown (at most ${series.length} a scrape).`
        : "Series in this feed: every current figure of the workspace."
    }`,
  );
  lines.push(`${feedFamily}{state="shown"} ${series.length}`);
  lines.push(`${feedFamily}{state="total"} ${total}`);
  lines.push("# EOF");
  return `${lines.join("\n")}\n`;
}

/** A row of GET /v1/workspaces/{slug}/figures.json: flat, as Grafana's Infinity data source reads it. */
export const figureRowSchema = z
  .looseObject({
    time: z
      .string()
      .meta({ description: "When the figure was measured (its bundle's runAt, else when it was uploaded)." }),
    series: z.string().meta({ description: "The OpenMetrics family name of GET /v1/workspaces/{slug}/metrics." }),
    value: z.number().meta({
      description: "The current figure: the median of its series' latest campaign (a lone bundle's value).",
    }),
    unit: z.string(),
    n: z.number().int().min(1).meta({ description: "Runs in the latest campaign." }),
    scenario: z.string(),
    scenario_id: z.string(),
    provider: z.string(),
    sku: z.string(),
    kernel: z.string(),
    cni: z.string(),
    mode: z.string(),
    kube_proxy: z.string(),
    metric: z.string().meta({ description: "The catalogue key (x.… outside it)." }),
  })
  .meta({
    description:
      "A series' current figure with the OpenMetrics sample's labels as fields: scenario labels, `qualifier` when the figure is one (≈, ≤…), and each param (a name clashing with another label prefixed `param_`).",
  });

export const figureFeedSchema = z
  .object({
    workspace: z.string(),
    total: z.number().int().min(0).meta({ description: "Series of the workspace in all." }),
    truncated: z.boolean().meta({ description: "true when `rows` holds only the first `maxSeries` of them." }),
    maxSeries: z.number().int().min(1),
    rows: z.array(figureRowSchema),
  })
  .meta({ description: "A workspace's current figures, one row per scenario × metric × params." });

export type MetricsRouteOptions = { db: Db; maxSeries?: number };

export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, opts) => {
  const { db } = opts;
  const maxSeries = opts.maxSeries ?? defaultMaxSeries;

  /**
   * The feed of a readable workspace, or null once a 404 or 304 was sent. Headers: caching for 60 s
   * (private to the client for a private workspace), an ETag from the workspace's data revision, so an
   * unchanged workspace is answered 304 without reading a figure.
   */
  async function feed(req: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply, format: string) {
    const { slug } = req.params;
    // The readable workspaces are read whether or not the slug exists: answering an unknown slug before
    // reading them made a private workspace's 404 measurably slower than a made-up one's (issue 43).
    const [found, readable] = await Promise.all([
      db.workspace.findUnique({ where: { slug }, select: { id: true, visibility: true } }),
      readableWorkspaces(db, req),
    ]);
    if (!found || !readable.includes(found.id)) {
      sendError(req, reply, 404, "not_found", `No workspace ${slug}.`);
      return null;
    }
    // The revision is read first: the figures read after it are never older than the tag says.
    const etag = `"${format}-${found.visibility}-${await scenariosRevision(db, [found.id])}"`;
    reply
      .header("cache-control", `${found.visibility === "public" ? "public" : "private"}, max-age=60`)
      .header("vary", "authorization")
      .header("etag", etag);
    const given = req.headers["if-none-match"];
    if (given?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
      reply.status(304).send();
      return null;
    }
    const scenarios = await listScenarios(db, { workspaceIds: [found.id] });
    // Counted first, so no more figures are read than a response holds (one scenario's at most over).
    const counts = await db.currentFigure.groupBy({
      by: ["scenarioId"],
      where: { scenarioId: { in: scenarios.map((s) => s.id) } },
      _count: { _all: true },
    });
    const countOf = new Map(counts.map((c) => [c.scenarioId, c._count._all]));
    const total = counts.reduce((sum, c) => sum + c._count._all, 0);
    const chosen: string[] = [];
    let planned = 0;
    for (const s of scenarios) {
      if (planned >= maxSeries) break;
      const n = countOf.get(s.id) ?? 0;
      if (n === 0) continue;
      chosen.push(s.id);
      planned += n;
    }
    const figures = await latestFigures(db, { scenarios: chosen });
    // In the scenarios' order (the explorer's), then metric and params as the read model gives them.
    const rank = new Map(chosen.map((id, i) => [id, i]));
    figures.sort((a, b) => rank.get(a.scenarioId)! - rank.get(b.scenarioId)!);
    const measuredAt = await bundleTimes(db, [...new Set(figures.map((f) => f.bundleId))]);
    return { slug, total, series: toSeries(scenarios, figures, measuredAt, maxSeries) };
  }

  app.get<{ Params: { slug: string } }>("/v1/workspaces/:slug/metrics", async (req, reply) => {
    const found = await feed(req, reply, "openmetrics");
    if (!found) return reply;
    return reply.type(openMetricsContentType).send(openMetricsText(found.series, found.total));
  });

  app.get<{ Params: { slug: string } }>("/v1/workspaces/:slug/figures.json", async (req, reply) => {
    const found = await feed(req, reply, "json");
    if (!found) return reply;
    return reply.send({
      workspace: found.slug,
      total: found.total,
      truncated: found.total > found.series.length,
      maxSeries,
      rows: found.series.map((s) => ({
        time: s.measuredAt.toISOString(),
        series: s.family,
        value: s.value,
        unit: s.unit,
        n: s.n,
        ...s.labels,
      })),
    } satisfies z.input<typeof figureFeedSchema>);
  });
};

/** When each bundle's figures were measured: its runAt, else when it was received. */
async function bundleTimes(db: Db, bundleIds: readonly string[]): Promise<Map<string, Date>> {
  if (bundleIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; ms: number }[]>`
    SELECT id, (EXTRACT(EPOCH FROM COALESCE("runAt", "receivedAt")) * 1000)::float8 AS ms
    FROM "Bundle" WHERE id = ANY(${[...bundleIds]}::text[])`;
  return new Map(rows.map((r) => [r.id, new Date(r.ms)]));
}
