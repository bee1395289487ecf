// A workspace's current figures as a feed: OpenMetrics text for Prometheus to scrape, and the same
// series as JSON rows for Grafana's JSON / Infinity data sources. Both are read through the views' read
// models (listScenarios and latestFigures, @cnibench/db): the numbers are the pages' numbers, never a
// second query for them. Public workspaces need no token; a private one needs a token of its own (read
// or upload scope) and is "not found" to anyone else, as every read of the API treats it.
import {
  bundleTimes,
  currentFigureCounts,
  type Db,
  type LatestFigure,
  latestFigures,
  listScenarios,
  type ScenarioSummary,
  scenariosRevision,
  testbedKeys,
  workspaceBySlug,
} from "@cnibench/db";
import { type figureFeedSchema, findMetric } from "@cnibench/schema";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
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
  /** The family of its measurement time (timestampFamily). */
  timeFamily: string;
  metric: string;
  /** The unit the figure was stored in; `value` is in the base unit `baseUnit` (a count's is ""). */
  unit: string;
  baseUnit: string;
  help: string;
  labels: SeriesLabels;
  value: number;
  measuredAt: Date;
  /** Runs in the series' latest campaign. */
  n: number;
};

/**
 * Prometheus wants base units (seconds, bytes, ratios): each unit the catalogue uses, with the suffix
 * its family ends in and the factor its values are multiplied by, as `mul / div` so that the division
 * is the last, correctly rounded step (412 ms / 1000, not 412 × 0.001 = 0.41200000000000003).
 * Bits become bytes (Prometheus' convention; a Grafana panel shows them as bits again with "bytes(SI)"
 * × 8). Units outside this list keep their value and get their name as suffix.
 */
const baseUnits: Record<string, { suffix: string; mul: number; div: number }> = {
  "%": { suffix: "ratio", mul: 1, div: 100 },
  "Gbit/s": { suffix: "bytes_per_second", mul: 1e9, div: 8 },
  "Mbit/s": { suffix: "bytes_per_second", mul: 1e6, div: 8 },
  Mbps: { suffix: "bytes_per_second", mul: 1e6, div: 8 },
  MiB: { suffix: "bytes", mul: 1024 * 1024, div: 1 },
  count: { suffix: "", mul: 1, div: 1 },
  millicores: { suffix: "cores", mul: 1, div: 1000 },
  ms: { suffix: "seconds", mul: 1, div: 1000 },
  µs: { suffix: "seconds", mul: 1, div: 1_000_000 },
  s: { suffix: "seconds", mul: 1, div: 1 },
  "req/s": { suffix: "requests_per_second", mul: 1, div: 1 },
  "trans/s": { suffix: "transactions_per_second", mul: 1, div: 1 },
};

/** Snake case, as Prometheus wants label and family names: `sameNode` → `same_node`, `msg-size` → `msg_size`. */
const snake = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");

/** A unit as an OpenMetrics unit suffix, in base units ("Gbit/s" → bytes_per_second; a count has none). */
export function unitSuffix(unit: string): string {
  const known = baseUnits[unit];
  if (known !== undefined) return known.suffix;
  return snake(unit.replace(/%/g, "percent").replace(/µ/g, "u").replace(/\//g, "_per_"));
}

/** A value in its base unit (see baseUnits): 412 ms → 0.412 (seconds). */
export function inBaseUnit(value: number, unit: string): number {
  const known = baseUnits[unit];
  return known ? (value * known.mul) / known.div : value;
}

/**
 * Suffixes Prometheus keeps for counters, histograms and summaries (promtool rejects a gauge ending in
 * `_count`): a count's `_count` is dropped, as its unit is; another such ending gets `_value`.
 */
const reservedSuffixes = ["_count", "_sum", "_bucket", "_total", "_created", "_info"];

/** The family name of a metric key in a unit: `cnibench_` + the key in snake case + the base unit's suffix. */
export function familyName(metric: string, unit: string): string {
  const suffix = unitSuffix(unit);
  let base = `cnibench_${snake(metric)}`;
  if (!suffix && base.endsWith("_count") && base !== "cnibench_count") base = base.slice(0, -"_count".length);
  if (!suffix && reservedSuffixes.some((r) => base.endsWith(r))) base = `${base}_value`;
  return suffix && !base.endsWith(`_${suffix}`) ? `${base}_${suffix}` : base;
}

/**
 * The family holding when each series of `family` was measured, in Unix seconds: the family without its
 * unit, `_timestamp_seconds`. A gauge rather than the sample's own timestamp: Prometheus drops samples
 * older than its head block (about an hour: "out of bounds") and stops marking timestamped series
 * stale, while the feed's figures are mostly days or months old (README.md, "Scrape with Prometheus").
 */
export function timestampFamily(family: string, unit: string): string {
  const suffix = unitSuffix(unit);
  const base = suffix && family.endsWith(`_${suffix}`) ? family.slice(0, -suffix.length - 1) : family;
  return `${base}_timestamp_seconds`;
}

/** The labels every series has, in this order; params follow, a clashing name prefixed `param_`. */
const fixedLabels = [
  "scenario",
  "scenario_id",
  "testbed",
  "provider",
  "sku",
  "kernel",
  "cni",
  "cni_version",
  "mode",
  "kube_proxy",
  "metric",
] as const;

export type SeriesLabels = Record<(typeof fixedLabels)[number], string> & Record<string, string>;

/**
 * A series' labels: its scenario's, its metric key, its qualifier if any, and each param. `testbed` is
 * the same for the scenarios of one testbed (they differ only in CNI version, kernel or node image), so
 * `cni_version` tells an upgrade's series apart where `scenario_id` alone was opaque.
 */
export function seriesLabels(scenario: ScenarioSummary, figure: LatestFigure, testbed: string): SeriesLabels {
  const labels: SeriesLabels = {
    scenario: scenario.label,
    scenario_id: scenario.id,
    testbed,
    provider: scenario.provider,
    sku: scenario.sku,
    kernel: scenario.kernel,
    cni: scenario.cni.name,
    cni_version: scenario.cni.version,
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
  testbeds: ReadonlyMap<string, string> = new Map(),
): Series[] {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const series: Series[] = [];
  for (const f of figures) {
    const scenario = byId.get(f.scenarioId);
    if (!scenario) continue;
    if (series.length >= limit) break;
    const family = familyName(f.metric, f.unit);
    series.push({
      family,
      timeFamily: timestampFamily(family, f.unit),
      metric: f.metric,
      unit: f.unit,
      baseUnit: unitSuffix(f.unit),
      help: findMetric(f.metric)?.label ?? f.metric,
      labels: seriesLabels(scenario, f, testbeds.get(f.scenarioId) ?? scenario.id),
      value: inBaseUnit(f.value, f.unit),
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

/** How many series the workspace holds, how many of them were left out as too old, and the bound. */
export type FeedCounts = { total: number; expired: number; maxSeries: number; maxAgeDays: number };

/**
 * The OpenMetrics 1.0 exposition: per metric and unit a gauge family of the figures in base units
 * (`# TYPE`, `# UNIT`, `# HELP` from the catalogue's label) and its `_timestamp_seconds` family (when
 * each was measured), then the feed's own count of series, `# EOF`.
 */
export function openMetricsText(series: readonly Series[], counts: FeedCounts): string {
  type Family = { unit: string; help: string; samples: string[] };
  const families = new Map<string, Family>();
  const add = (name: string, unit: string, help: string, sample: string) => {
    const found = families.get(name);
    if (found) found.samples.push(sample);
    else families.set(name, { unit, help, samples: [sample] });
  };
  for (const s of series) {
    const labels = formatLabels(s.labels);
    const converted = s.baseUnit && s.baseUnit !== snake(s.unit) ? `, converted from ${s.unit}` : "";
    add(
      s.family,
      s.family.endsWith(`_${s.baseUnit}`) ? s.baseUnit : "",
      `${s.help} (${s.baseUnit || s.unit}${converted}): each series' current figure, its latest campaign's median (a lone bundle's value)`,
      `${s.family}${labels} ${String(s.value)}`,
    );
    add(
      s.timeFamily,
      "seconds",
      `When each series of ${s.family} was measured (its newest bundle's run, else its upload), Unix seconds`,
      `${s.timeFamily}${labels} ${String(s.measuredAt.getTime() / 1000)}`,
    );
  }
  const lines: string[] = [];
  for (const name of [...families.keys()].sort()) {
    const family = families.get(name)!;
    lines.push(`# TYPE ${name} gauge`);
    if (family.unit) lines.push(`# UNIT ${name} ${family.unit}`);
    lines.push(`# HELP ${name} ${escapeHelp(family.help)}`);
    lines.push(...family.samples);
  }
  const current = counts.total - counts.expired;
  const truncated = current > series.length;
  lines.push(`# TYPE ${feedFamily} gauge`);
  lines.push(
    `# HELP ${feedFamily} ${
      truncated
        ? `Truncated: ${series.length} of the workspace's ${current} series are shown (at most ${counts.maxSeries} a scrape).`
        : "Series in this feed: every current figure of the workspace."
    } Scenarios not run in ${counts.maxAgeDays} days are left out (expired).`,
  );
  lines.push(`${feedFamily}{state="shown"} ${series.length}`);
  lines.push(`${feedFamily}{state="total"} ${counts.total}`);
  lines.push(`${feedFamily}{state="expired"} ${counts.expired}`);
  lines.push("# EOF");
  return `${lines.join("\n")}\n`;
}

/** Scenarios whose latest run is older than this many days are left out of the feed. */
const defaultMaxAgeDays = 365;

export type MetricsRouteOptions = {
  db: Db;
  /** CNIBENCH_FEED_MAX_SERIES: most series (figures) a response holds. */
  maxSeries?: number;
  /** CNIBENCH_FEED_MAX_AGE_DAYS: scenarios not run for longer are left out. */
  maxAgeDays?: number;
  /** The clock, for tests. */
  now?: () => Date;
};

export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, opts) => {
  const { db } = opts;
  const maxSeries = opts.maxSeries ?? defaultMaxSeries;
  const maxAgeDays = opts.maxAgeDays ?? defaultMaxAgeDays;
  const now = opts.now ?? (() => new Date());

  /**
   * The feed of a readable workspace, or null once a 404 or 304 was sent. Headers: caching for 60 s
   * (private to the client for a private workspace), an ETag from the workspace's data revision, so an
   * unchanged workspace is answered 304 without reading a figure.
   */
  async function feed(req: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply, format: string) {
    const { slug } = req.params;
    // The readable workspaces are read whether or not the slug exists: answering an unknown slug before
    // reading them made a private workspace's 404 measurably slower than a made-up one's (issue 43).
    const [found, readable] = await Promise.all([workspaceBySlug(db, slug), readableWorkspaces(db, req)]);
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
    const all = await listScenarios(db, { workspaceIds: [found.id] });
    // A scenario nobody has run for maxAgeDays is history, not a current figure: without a bound every
    // scenario ever uploaded would be scraped for ever. One without a run time (none given) stays.
    const cutoff = now().getTime() - maxAgeDays * 86_400_000;
    const scenarios = all.filter((s) => s.lastRunAt === null || s.lastRunAt.getTime() >= cutoff);
    // Counted first, so no more figures are read than a response holds (one scenario's at most over).
    const countOf = await currentFigureCounts(
      db,
      all.map((s) => s.id),
    );
    const total = [...countOf.values()].reduce((sum, n) => sum + n, 0);
    const expired = all.filter((s) => !scenarios.includes(s)).reduce((sum, s) => sum + (countOf.get(s.id) ?? 0), 0);
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
    // Scenario.testbedKey is a SHA-256 in hex; within one workspace (a feed's) 12 digits tell testbeds apart.
    const testbeds = new Map([...(await testbedKeys(db, chosen))].map(([id, key]) => [id, key.slice(0, 12)]));
    const feedCounts: FeedCounts = { total, expired, maxSeries, maxAgeDays };
    return { slug, counts: feedCounts, series: toSeries(scenarios, figures, measuredAt, maxSeries, testbeds) };
  }

  app.get<{ Params: { slug: string } }>("/v1/workspaces/:slug/metrics", async (req, reply) => {
    const found = await feed(req, reply, "openmetrics");
    if (!found) return reply;
    return reply.type(openMetricsContentType).send(openMetricsText(found.series, found.counts));
  });

  app.get<{ Params: { slug: string } }>("/v1/workspaces/:slug/figures.json", async (req, reply) => {
    const found = await feed(req, reply, "json");
    if (!found) return reply;
    return reply.send({
      workspace: found.slug,
      total: found.counts.total,
      expired: found.counts.expired,
      truncated: found.counts.total - found.counts.expired > found.series.length,
      maxSeries,
      maxAgeDays,
      rows: found.series.map((s) => ({
        time: s.measuredAt.toISOString(),
        series: s.family,
        value: s.value,
        unit: s.baseUnit || s.unit,
        n: s.n,
        ...s.labels,
      })),
    } satisfies z.input<typeof figureFeedSchema>);
  });
};
