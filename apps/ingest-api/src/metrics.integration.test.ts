// The metrics feed: the demo bundles uploaded, their current figures exposed as OpenMetrics and parsed
// back with an exposition parser from npm (parse-prometheus-text-format), every figure equal to the read
// model's; the JSON rows equal the samples; private workspaces need a token of their own; a read token
// reads and never writes.
import { spawnSync } from "node:child_process";
import { createToken, type LatestFigure, latestFigures, listScenarios } from "@cnibench/db";
import { findMetric } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { exampleBundle, iperf3Fixture } from "@cnibench/test-support/fixtures";
import { startIngest } from "@cnibench/test-support/ingest";
import Fastify from "fastify";
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedFamily, metricsRoutes, openMetricsContentType } from "./routes/metrics.ts";

/**
 * A figure in the feed's base unit, written out independently of the feed's own table: Prometheus wants
 * seconds, bytes, ratios and bytes (not bits) per second.
 */
const baseValue: Record<string, (v: number) => number> = {
  ms: (v) => v / 1000,
  µs: (v) => v / 1e6,
  "Gbit/s": (v) => (v * 1e9) / 8,
  "Mbit/s": (v) => (v * 1e6) / 8,
  Mbps: (v) => (v * 1e6) / 8,
  MiB: (v) => v * 1048576,
  "%": (v) => v / 100,
  millicores: (v) => v / 1000,
};
const inBase = (f: LatestFigure) => baseValue[f.unit]?.(f.value) ?? f.value;
/** A param name as a label: snake case (`sameNode` → `same_node`, `msg-size` → `msg_size`). */
const labelName = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_");

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;
let teamId: string;
let uploadToken: string;
let readToken: string;

/** A bundle of the private workspace: one TCP figure, in the campaign "nightly-1". */
const teamBundle = (value: number, runAt: string) => ({
  ...exampleBundle(),
  campaign: "nightly-1",
  runAt,
  collector: { name: "metrics-test", version: String(value) },
  cni: { ...(exampleBundle().cni as object), label: 'Team "B" \\ overlay\nsecond line' },
  results: [
    {
      metric: "tcp.throughput",
      unit: "Gbit/s",
      value,
      params: { path: "pod-pod", "msg-size": 64, scenario: "clashes", sameNode: false },
    },
  ],
});

beforeAll(async () => {
  database = await freshDatabase();
  api = await startIngest(database.url, { rateLimitPerMinute: 1_000_000 });
  for (const demo of loadDemoData().bundles) {
    const res = await api.upload(demo.input);
    expect(res.status, demo.file).toBeLessThan(300);
  }
  teamId = (await api.db.workspace.create({ data: { slug: "team-b", name: "Team B", visibility: "private" } })).id;
  uploadToken = (await createToken(api.db, teamId, "ci")).token;
  readToken = (await createToken(api.db, teamId, "grafana", null, "read")).token;
  for (const [value, runAt] of [
    [9.1, "2026-11-20T01:00:00Z"],
    [9.5, "2026-11-20T02:00:00Z"],
  ] as const) {
    const res = await fetch(`${api.base}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${uploadToken}`, "content-type": "application/json" },
      body: JSON.stringify(teamBundle(value, runAt)),
    });
    expect(res.status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await api.close();
  await database.drop();
});

const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(`${api.base}${path}`, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

/** The read model's current figures of a workspace: what the pages show. */
async function readModel(workspaceId: string) {
  const scenarios = await listScenarios(api.db, { workspaceIds: [workspaceId] });
  const figures = await latestFigures(api.db, { scenarios: scenarios.map((s) => s.id) });
  return { scenarios, figures };
}

type Sample = { family: string; labels: Record<string, string>; value: number };
const samplesOf = (families: ParsedFamily[]): Sample[] =>
  families
    .filter((f) => f.name !== feedFamily && !f.name.endsWith("_timestamp_seconds"))
    .flatMap((f) => f.metrics.map((m) => ({ family: f.name, labels: m.labels ?? {}, value: Number(m.value) })));

/** The samples of a figure: same scenario, metric, qualifier and params (the demo's param names are label names). */
function sampleOf(samples: Sample[], f: LatestFigure): Sample[] {
  return samples.filter(
    (s) =>
      s.labels.scenario_id === f.scenarioId &&
      s.labels.metric === f.metric &&
      s.labels.qualifier === (f.qualifier ?? undefined) &&
      Object.keys(s.labels).length === 11 + Object.keys(f.params).length + (f.qualifier ? 1 : 0) &&
      Object.entries(f.params).every(([k, v]) => s.labels[labelName(k)] === String(v)),
  );
}

describe("GET /v1/workspaces/{slug}/metrics", () => {
  it("exposes every current figure of the demo data as OpenMetrics that a Prometheus parser reads back", async () => {
    const res = await get("/v1/workspaces/public/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(openMetricsContentType);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("etag")).toMatch(/^"openmetrics-public-[0-9a-f]{32}"$/);
    const text = await res.text();
    expect(text.endsWith("# EOF\n")).toBe(true);

    const families = parsePrometheusTextFormat(text);
    const { scenarios, figures } = await readModel(api.workspaceId);
    expect(figures.length).toBeGreaterThan(200);
    const samples = samplesOf(families);
    expect(samples).toHaveLength(figures.length);
    const byId = new Map(scenarios.map((s) => [s.id, s]));
    const keys = new Map(
      (await api.db.scenario.findMany({ select: { id: true, testbedKey: true } })).map((s) => [s.id, s.testbedKey]),
    );
    for (const f of figures) {
      const found = sampleOf(samples, f);
      expect(found, `${f.scenarioId} ${f.metric} ${JSON.stringify(f.params)}`).toHaveLength(1);
      const [sample] = found;
      const scenario = byId.get(f.scenarioId)!;
      // The read model's number in the base unit: JavaScript's shortest round-trip form, parsed back.
      expect(sample!.value, `${f.metric} ${f.value} ${f.unit}`).toBe(inBase(f));
      expect(sample!.labels).toMatchObject({
        scenario: scenario.label,
        provider: scenario.provider,
        sku: scenario.sku,
        kernel: scenario.kernel,
        cni: scenario.cni.name,
        cni_version: scenario.cni.version,
        testbed: keys.get(f.scenarioId)!.slice(0, 12),
        mode: scenario.cni.mode,
        kube_proxy: scenario.cni.kubeProxy,
      });
    }
    // Names follow OpenMetrics: the catalogue key in snake case, the base unit as suffix, gauges, HELP from the label.
    const tcp = families.find((f) => f.name === "cnibench_tcp_throughput_bytes_per_second");
    expect(tcp).toMatchObject({ type: "GAUGE" });
    expect(tcp!.help).toContain(findMetric("tcp.throughput")!.label);
    expect(text).toContain("# UNIT cnibench_tcp_throughput_bytes_per_second bytes_per_second\n");
    expect(families.map((f) => f.name)).toContain("cnibench_http_rps_requests_per_second");
    expect(families.map((f) => f.name)).toContain("cnibench_http_latency_seconds");
    expect(families.map((f) => f.name)).toContain("cnibench_http_latency_timestamp_seconds");
    for (const f of families) expect(f.name).toMatch(/^cnibench_[a-z0-9_]+$/);
    // Every series has its measurement time, with the same labels.
    const times = families.filter((f) => f.name.endsWith("_timestamp_seconds")).flatMap((f) => f.metrics);
    expect(times).toHaveLength(figures.length);
    for (const t of times) expect(Number(t.value)).toBeGreaterThan(Date.parse("2020-01-01") / 1000);
    const feed = families.find((f) => f.name === feedFamily)!;
    expect(feed.help).not.toMatch(/truncated/i);
    expect(feed.metrics.map((m) => Number(m.value))).toEqual([figures.length, figures.length, 0]);
  });

  it("answers 304 to the ETag it gave while nothing changes, and a new tag after an upload", async () => {
    const first = await get("/v1/workspaces/public/metrics");
    const etag = first.headers.get("etag")!;
    const again = await get("/v1/workspaces/public/metrics", undefined, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    const json = await get("/v1/workspaces/public/figures.json");
    expect(json.headers.get("etag")).not.toBe(etag);
    const res = await api.upload({ ...exampleBundle(), collector: { name: "metrics-test", version: "etag" } });
    expect(res.status).toBe(201);
    const after = await get("/v1/workspaces/public/metrics", undefined, { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
  });

  it("gives a private workspace to its own tokens only, read or upload; to everyone else it does not exist", async () => {
    for (const path of ["/v1/workspaces/team-b/metrics", "/v1/workspaces/team-b/figures.json"]) {
      const missing = await get(path.replace("team-b", "no-such-team"));
      expect(missing.status, path).toBe(404);
      for (const token of [undefined, api.token, "cnb_madeup"]) {
        const res = await get(path, token);
        expect(res.status, `${path} ${token}`).toBe(404);
        const body = (await res.json()) as { error: string; message: string };
        expect(body.error).toBe("not_found");
        expect(body.message).toBe(
          ((await missing.clone().json()) as { message: string }).message.replace("no-such-team", "team-b"),
        );
      }
      for (const token of [readToken, uploadToken]) {
        const res = await get(path, token);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("cache-control")).toBe("private, max-age=60");
        expect(res.headers.get("vary")).toMatch(/authorization/i);
      }
    }
  });

  it("gives a campaign's median, escapes label values and names clashing params apart", async () => {
    const text = await (await get("/v1/workspaces/team-b/metrics", readToken)).text();
    const samples = samplesOf(parsePrometheusTextFormat(text));
    const { figures } = await readModel(teamId);
    expect(figures).toHaveLength(1);
    expect(figures[0]!.value).toBeCloseTo(9.3, 12);
    expect(samples).toHaveLength(1);
    // 9.3 Gbit/s = 9.3e9 / 8 bytes a second (up to the median's last bit).
    expect(samples[0]!.value).toBeCloseTo(1_162_500_000, 3);
    expect(samples[0]!.labels).toMatchObject({
      scenario: 'Team "B" \\ overlay\nsecond line',
      path: "pod-pod",
      msg_size: "64",
      param_scenario: "clashes",
      same_node: "false",
      metric: "tcp.throughput",
    });
    expect(text).toContain('scenario="Team \\"B\\" \\\\ overlay\\nsecond line"');
  });

  it("says so, within its bound, when a workspace holds more series than a response may", async () => {
    const app = Fastify({ logger: false });
    app.register(metricsRoutes, { db: api.db, maxSeries: 7 });
    await app.ready();
    const res = await app.inject("/v1/workspaces/public/metrics");
    const families = parsePrometheusTextFormat(res.body);
    const { figures } = await readModel(api.workspaceId);
    expect(samplesOf(families)).toHaveLength(7);
    const feed = families.find((f) => f.name === feedFamily)!;
    expect(feed.help).toMatch(/^Truncated: 7 of the workspace's \d+ series/);
    expect(feed.metrics.map((m) => Number(m.value))).toEqual([7, figures.length, 0]);
    const json = (await app.inject("/v1/workspaces/public/figures.json")).json();
    expect(json).toMatchObject({ truncated: true, total: figures.length, expired: 0, maxSeries: 7 });
    expect(json.rows).toHaveLength(7);
    await app.close();
  });
});

describe("the feed's bounds and Prometheus' linter", () => {
  it("leaves out scenarios not run within maxAgeDays, and counts them as expired", async () => {
    const app = Fastify({ logger: false });
    // 2030: every scenario with a run time is more than 30 days old; those without one stay.
    app.register(metricsRoutes, { db: api.db, maxAgeDays: 30, now: () => new Date("2030-01-01T00:00:00Z") });
    await app.ready();
    const { scenarios, figures } = await readModel(api.workspaceId);
    const old = new Set(scenarios.filter((s) => s.lastRunAt !== null).map((s) => s.id));
    const expired = figures.filter((f) => old.has(f.scenarioId)).length;
    expect(expired).toBeGreaterThan(0);
    const families = parsePrometheusTextFormat((await app.inject("/v1/workspaces/public/metrics")).body);
    const samples = samplesOf(families);
    expect(samples).toHaveLength(figures.length - expired);
    expect(samples.some((s) => old.has(s.labels.scenario_id!))).toBe(false);
    const feed = families.find((f) => f.name === feedFamily)!;
    expect(feed.metrics.map((m) => Number(m.value))).toEqual([figures.length - expired, figures.length, expired]);
    expect(feed.help).toMatch(/not run in 30 days/);
    const json = (await app.inject("/v1/workspaces/public/figures.json")).json();
    expect(json).toMatchObject({ truncated: false, total: figures.length, expired, maxAgeDays: 30 });
    await app.close();
  });

  it.skipIf(spawnSync("promtool", ["--version"]).status !== 0)(
    "passes `promtool check metrics` on the demo data's feed (skipped without promtool: apt-get install prometheus)",
    async () => {
      const text = await (await get("/v1/workspaces/public/metrics")).text();
      const out = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
      expect(`${out.stdout}${out.stderr}`).toBe("");
      expect(out.status).toBe(0);
    },
  );
});

describe("GET /v1/workspaces/{slug}/figures.json", () => {
  it("gives the same series as the OpenMetrics feed, as flat rows with their time", async () => {
    for (const [slug, token] of [
      ["public", undefined],
      ["team-b", readToken],
    ] as const) {
      const res = await get(`/v1/workspaces/${slug}/figures.json`, token);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await res.json()) as {
        total: number;
        truncated: boolean;
        rows: (Record<string, string | number> & { time: string; series: string; value: number })[];
      };
      const samples = samplesOf(
        parsePrometheusTextFormat(await (await get(`/v1/workspaces/${slug}/metrics`, token)).text()),
      );
      expect(body.truncated).toBe(false);
      expect(body.rows).toHaveLength(samples.length);
      expect(body.total).toBe(samples.length);
      const key = (labels: Record<string, unknown>) =>
        JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
      const bySeries = new Map(samples.map((s) => [`${s.family} ${key(s.labels)}`, s.value]));
      for (const { time, series, value, unit: _unit, n, ...labels } of body.rows) {
        expect(bySeries.get(`${series} ${key(labels)}`), `${series} ${key(labels)}`).toBe(value);
        expect(new Date(time).toISOString()).toBe(time);
        expect(n).toBeGreaterThanOrEqual(1);
      }
    }
    const team = (await (await get("/v1/workspaces/team-b/figures.json", readToken)).json()) as {
      rows: { time: string; n: number }[];
    };
    // The newest bundle of the campaign, and both runs.
    expect(team.rows[0]).toMatchObject({ time: "2026-11-20T02:00:00.000Z", n: 2 });
  });
});

describe("a read token", () => {
  it("cannot upload, import, gate or delete: 403, nothing written", async () => {
    const before = await api.db.bundle.count({ where: { workspaceId: teamId } });
    const send = (path: string, init: RequestInit) =>
      fetch(`${api.base}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${readToken}` },
      });
    const json = { "content-type": "application/json" };
    const requests: [string, RequestInit][] = [
      ["/v1/bundles", { method: "POST", headers: json, body: JSON.stringify(teamBundle(1, "2026-11-21T00:00:00Z")) }],
      [
        "/v1/import?cluster=c&provider=on-prem&sku=x&kernel=6.1&cni=cilium&mode=native",
        { method: "POST", headers: { "content-type": "application/octet-stream" }, body: iperf3Fixture() },
      ],
      ["/v1/gate", { method: "POST", headers: json, body: JSON.stringify({ candidate: { bundleIds: ["x"] } }) }],
      ["/v1/campaigns/nightly-1", { method: "DELETE" }],
    ];
    for (const [path, init] of requests) {
      const res = await send(path, init);
      expect(res.status, path).toBe(403);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error).toBe("read_only_token");
      expect(body.message).toMatch(/read token.*cannot upload/);
    }
    expect(await api.db.bundle.count({ where: { workspaceId: teamId } })).toBe(before);
    // It reads its workspace's bundles like an upload token does.
    const list = await get("/v1/bundles", readToken);
    expect(((await list.json()) as { total: number }).total).toBeGreaterThanOrEqual(before);
  });
});
