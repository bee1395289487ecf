// npm run bench:explore — read performance at scale. Builds a synthetic store of BENCH_MEASUREMENTS
// measurements (default 1,000,000: 1,000 scenarios × 2 runs × 500 figures) in a throwaway embedded
// PostgreSQL (or BENCH_DATABASE_URL), then times the explore, scenario and crossover views three ways:
// the named query functions, hand-written SQL giving the same answer (checked equal), and end to end
// through tRPC over HTTP against a production build of the web app. Finally it loads / and the
// crossover view in Chromium and reports the gzipped JS they load (budget 250 kB).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import {
  chartView,
  createDb,
  DEFAULT_WORKSPACE,
  ensureDefaultWorkspace,
  exploreView,
  migrateDatabase,
  scenarioView,
} from "@cnibench/db";
import { startEmbeddedPostgres } from "@cnibench/launcher";
import pg from "pg";
import { quantile } from "simple-statistics";
import { chromiumPath, launchBrowser } from "../apps/web/e2e/browser.ts";
import { crossoverOf } from "../apps/web/src/server/chart-data.ts";
import { ensureWebBuild, nextBin } from "../packages/launcher/src/web-build.ts";
import { freePort } from "../test-support/ports.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const total = Number(process.env.BENCH_MEASUREMENTS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 30);
const scenarios = 1000;
const perBundle = Math.max(20, Math.round(total / scenarios / 2));
const providers = ["tke", "eks", "aks", "gke", "kind"];

/** Synthetic data generated inside PostgreSQL: no round trips for a million rows. */
async function seed(client: pg.Client, workspaceId: string): Promise<void> {
  const t0 = performance.now();
  await client.query(`
    INSERT INTO "Cluster" (id, key, provider, region, "kubernetesVersion", "nodeCount")
      SELECT 'cl' || i, 'cl' || i, (ARRAY['${providers.join("','")}'])[1 + i % 5], 'r' || i, 'v1.3' || (i % 4), 3
      FROM generate_series(0, 19) i;
    INSERT INTO "NodeSku" (id, provider, sku, vcpus, "memoryGiB", "nicGbps")
      SELECT 'sku' || i, 'p' || i, 'sku.' || i, 4, 16, 12.5 FROM generate_series(0, 19) i;
    INSERT INTO "Kernel" (id, os, version) SELECT 'k' || i, 'Linux', '6.' || i FROM generate_series(0, 9) i;
    INSERT INTO "CniConfig" (id, key, name, version, mode, "kubeProxy", label, settings)
      SELECT 'cni' || i, 'cni' || i, (ARRAY['cilium','cilium','kube-proxy','aws-vpc-cni','calico','flannel'])[1 + i],
        '1.0', (ARRAY['overlay-vxlan','native-routing','iptables','eni','bgp','vxlan'])[1 + i], 'ebpf', 'CNI ' || i, '{}'
      FROM generate_series(0, 5) i;
    INSERT INTO "Scenario" (id, "workspaceId", key, "clusterId", "nodeSkuId", "kernelId", "cniConfigId")
      SELECT 'sc' || i, '${workspaceId}', 'sc' || i, 'cl' || (i % 20), 'sku' || (i % 20), 'k' || (i % 10), 'cni' || (i % 6)
      FROM generate_series(0, ${scenarios - 1}) i;
    INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName", "sourceTitle", "runAt")
      SELECT 'b' || i || '_' || j, '${workspaceId}', md5(i || '_' || j), '{}', 'sc' || i, 'bench', 'bench source',
        timestamp '2026-01-01' + (j || ' days')::interval
      FROM generate_series(0, ${scenarios - 1}) i, generate_series(0, 1) j;`);
  // Per bundle: the short-connection Service steps, throughput by streams, TCP_RR percentiles,
  // keepalive RPS, and filler metrics up to perBundle.
  await client.query(`
    INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, params, "paramsKey", value, unit, samples,
      "publishedValue", "publishedUnit", better)
    SELECT 'b' || i || '_' || j, 'sc' || i, k, f.metric, f.params::jsonb, f.params, f.value, f.unit, '{}', f.value, f.unit,
      f.better::"Better"
    FROM generate_series(0, ${scenarios - 1}) i, generate_series(0, 1) j, generate_series(0, ${perBundle - 1}) k,
    LATERAL (SELECT * FROM (VALUES
      (k < 7, 'http.rps', '{"concurrency":64,"connection":"short","services":' || (k * 5000) || ',"target":"service"}',
        30000 - k * 3000 * (1 + i % 3) + j * 10 + i % 97, 'req/s', 'higher'),
      (k BETWEEN 7 AND 10, 'tcp.throughput', '{"path":"pod-pod","streams":' || (ARRAY[1,8,16,32])[k - 6] || '}',
        9 + (i % 7) * 0.1 + k * 0.01, 'Gbit/s', 'higher'),
      (k BETWEEN 11 AND 13, 'tcp.rr.latency', '{"percentile":"' || (ARRAY['p50','p90','p99'])[k - 10] || '"}',
        80 + k * 10 + i % 13, 'µs', 'lower'),
      (k BETWEEN 14 AND 15, 'http.rps', '{"concurrency":' || (ARRAY[64,256])[k - 13] || ',"connection":"keepalive","target":"service"}',
        90000 + i % 1000 + j, 'req/s', 'higher'),
      (k >= 16, 'x.bench.filler', '{"i":' || k || '}', k + i % 11, 'count', 'none')
    ) AS v(ok, metric, params, value, unit, better) WHERE v.ok) f`);
  await client.query("ANALYZE");
  const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM "Measurement"');
  console.log(
    `seeded ${Number(rows[0]?.n).toLocaleString("en-US")} measurements in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

async function time<T>(fn: () => Promise<T>): Promise<{ p50: number; p95: number; result: T }> {
  let result = await fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = await fn();
    ms.push(performance.now() - t0);
  }
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), result };
}

// Hand-written SQL: the same answers in one statement each.
const latestCte = `
  latest AS (
    SELECT DISTINCT ON (m."scenarioId", m.metric, m."paramsKey") m."scenarioId", m.metric, m.params, m.value
    FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
    WHERE m."scenarioId" IN (SELECT id FROM sc) AND m.metric = ANY($2)
    ORDER BY m."scenarioId", m.metric, m."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC)`;
const scopeCte = `
  sc AS (SELECT s.id FROM "Scenario" s JOIN "Cluster" c ON c.id = s."clusterId" WHERE c.provider = ANY($1))`;
const handExplore = `WITH ${scopeCte}, ${latestCte}
  SELECT "scenarioId" AS id,
    max(value) FILTER (WHERE metric = 'http.rps' AND params->>'connection' = 'short'
      AND COALESCE((params->>'services')::int, 0) = 0) AS short
  FROM latest GROUP BY 1 ORDER BY 1`;
const handCrossover = `WITH ${scopeCte}, ${latestCte}
  SELECT "scenarioId", (params->>'services')::int AS x, value FROM latest
  WHERE params->>'connection' = 'short' AND jsonb_typeof(params->'services') = 'number'`;
// Every figure of the scenario with the bundle it came from, as the page lists them.
const handScenario = `SELECT m.*, b."sourceTitle", b."runAt" FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
  WHERE m."scenarioId" = $1 ORDER BY m.metric, m."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC`;
const sum = (rows: { value: number }[]) => rows.reduce((a, r) => a + r.value, 0);

function check(name: string, ok: boolean): void {
  if (!ok) throw new Error(`${name}: the query function and the hand-written SQL disagree`);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-bench-"));
  fs.chmodSync(dataDir, 0o755);
  const embedded = process.env.BENCH_DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir, port: await freePort(), log: () => {} });
  const url = process.env.BENCH_DATABASE_URL ?? embedded!.url;
  const children: ReturnType<typeof spawn>[] = [];
  try {
    await migrateDatabase(url);
    const db = createDb(url);
    const workspace = await ensureDefaultWorkspace(db);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await seed(client, workspace.id);
    const slug = DEFAULT_WORKSPACE.slug;
    const filters = { provider: ["tke"] };
    const rows: (string | number)[][] = [];
    const row = (view: string, fn: { p50: number; p95: number }, sql: { p50: number; p95: number }) => {
      rows.push([
        view,
        fn.p50.toFixed(1),
        fn.p95.toFixed(1),
        sql.p50.toFixed(1),
        sql.p95.toFixed(1),
        (fn.p50 / sql.p50).toFixed(2),
      ]);
    };

    const explore = await time(() => exploreView(db, slug, filters));
    const exploreSql = await time(() =>
      client.query(handExplore, [["tke"], ["http.rps", "tcp.throughput", "tcp.rr.latency"]]),
    );
    check(
      "explore",
      JSON.stringify(explore.result.scenarios.map((s) => [s.id, s.keyFigures.shortRps?.value ?? null]).sort()) ===
        JSON.stringify(exploreSql.result.rows.map((r) => [r.id, r.short]).sort()),
    );
    row("explore (provider=tke)", explore, exploreSql);

    const scenario = await time(() => scenarioView(db, slug, "sc7"));
    const scenarioSql = await time(() => client.query(handScenario, ["sc7"]));
    const figures = scenario.result?.groups.flatMap((g) => g.rows.flatMap((r) => [r.current, ...r.history])) ?? [];
    check(
      "scenario",
      figures.length === scenarioSql.result.rows.length && Math.abs(sum(figures) - sum(scenarioSql.result.rows)) < 1e-6,
    );
    row("scenario page", scenario, scenarioSql);

    const crossover = await time(async () => {
      const { scenarios: sc, figures: fs } = await chartView(db, slug, { filters, metrics: ["http.rps"] });
      return crossoverOf(sc, fs, { metric: "http.rps", x: "services", where: { connection: "short" }, y: "absolute" });
    });
    const crossoverSql = await time(() => client.query(handCrossover, [["tke"], ["http.rps"]]));
    const points = crossover.result.series.flatMap((s) => s.points);
    check(
      "crossover",
      points.length === crossoverSql.result.rows.length &&
        Math.abs(points.reduce((a, p) => a + p.y, 0) - sum(crossoverSql.result.rows)) < 1e-3,
    );
    row("crossover (provider=tke)", crossover, crossoverSql);
    await client.end();
    await db.$disconnect();

    console.log(`\nquery functions vs hand-written SQL, ${runs} runs each, answers checked equal (ms)`);
    console.table(
      rows.map(([view, fp50, fp95, sp50, sp95, ratio]) => ({
        view,
        "fn p50": fp50,
        "fn p95": fp95,
        "SQL p50": sp50,
        "SQL p95": sp95,
        "fn/SQL": ratio,
      })),
    );

    // End to end: tRPC over HTTP against a production build of the web app on this database.
    await ensureWebBuild(repoRoot, (l) => console.log(l));
    const port = await freePort();
    const web = spawn(process.execPath, [nextBin(repoRoot), "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: path.join(repoRoot, "apps/web"),
      env: { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
    });
    children.push(web);
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 120; i++) {
      if (
        await fetch(base).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const trpc = (proc: string, input: unknown) => async () => {
      const res = await fetch(`${base}/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`);
      if (!res.ok) throw new Error(`${proc}: HTTP ${res.status}: ${(await res.text()).slice(0, 500)}`);
      return res.json();
    };
    const http = [
      ["scenarios.explore", await time(trpc("scenarios.explore", filters))],
      ["scenarios.byId", await time(trpc("scenarios.byId", { id: "sc7" }))],
      [
        "charts.crossover",
        await time(
          trpc("charts.crossover", {
            filters,
            metric: "http.rps",
            x: "services",
            where: { connection: "short" },
            y: "absolute",
          }),
        ),
      ],
    ] as const;
    console.log(`\ntRPC over HTTP, ${runs} runs each (ms; target p95 < 100)`);
    console.table(http.map(([proc, t]) => ({ procedure: proc, p50: t.p50.toFixed(1), p95: t.p95.toFixed(1) })));

    // Gzipped JS a page loads, measured in Chromium.
    chromiumPath();
    const browser = await launchBrowser();
    const pages: Record<string, number> = {};
    for (const [name, url] of [
      ["/", `${base}/?provider=tke`],
      ["crossover view", `${base}/charts?provider=tke`],
    ] as const) {
      const page = await browser.newPage();
      const bodies: Promise<number>[] = [];
      page.on("response", (res) => {
        if (res.request().resourceType() === "script")
          bodies.push(
            res.body().then(
              (b) => gzipSync(b).length,
              () => 0,
            ),
          );
      });
      await page.goto(url, { waitUntil: "networkidle" });
      pages[name] = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
      await page.close();
    }
    await browser.close();
    console.log("\ngzipped JS loaded (budget 250 kB)");
    console.table(Object.entries(pages).map(([page, bytes]) => ({ page, kB: (bytes / 1024).toFixed(1) })));
  } finally {
    for (const c of children) c.kill("SIGTERM");
    await embedded?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
