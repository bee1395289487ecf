// npm run bench:explore — read performance at scale. Builds a synthetic store of BENCH_MEASUREMENTS
// measurements (default 1,000,000: 1,000 scenarios × 2 runs × 500 figures) in a throwaway embedded
// PostgreSQL (or BENCH_DATABASE_URL, re-used when it holds data already), then times the explore, scenario and crossover views three ways:
// the named query functions, hand-written SQL giving the same answer (checked equal), and end to end
// through tRPC over HTTP against a production build of the web app. Finally it loads / and the
// crossover view in Chromium and reports the gzipped JS they load (budget 250 kB). BENCH_QUERIES_ONLY=1
// stops after the query functions.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chartView, createDb, ensureDefaultWorkspace, exploreView, migrateDatabase, scenarioView } from "@cnibench/db";
import { startEmbeddedPostgres } from "@cnibench/launcher";
import pg from "pg";
import { quantile } from "simple-statistics";
import { chromiumPath, launchBrowser } from "../apps/web/e2e/browser.ts";
import { crossoverOf, maxLines } from "../apps/web/src/server/chart-data.ts";
import { ensureWebBuild, nextBin } from "../packages/launcher/src/web-build.ts";
import { freePort } from "../test-support/ports.ts";
import { crossoverPoints, exploreFacets, exploreRows, scenarioPage } from "./hand-sql.ts";
import { seedSynthetic } from "./synthetic.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const total = Number(process.env.BENCH_MEASUREMENTS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 30);

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

const sum = (rows: { value: number }[]) => rows.reduce((a, r) => a + r.value, 0);

/** Equal as sets of rows (the two sides may order them differently). */
const same = (a: unknown[][], b: unknown[][]) =>
  JSON.stringify(a.map((r) => JSON.stringify(r)).sort()) === JSON.stringify(b.map((r) => JSON.stringify(r)).sort());

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
    const client = new pg.Pool({ connectionString: url, max: 3 });
    await seedSynthetic(client, workspace.id, total);
    const readable = [workspace.id];
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

    const explore = await time(() => exploreView(db, readable, filters));
    const exploreSql = await time(() =>
      Promise.all([client.query(exploreRows, [["tke"]]), client.query(exploreFacets, [["tke"]])]),
    );
    const keyColumns = ["throughput", "keepaliveRps", "shortRps", "tcpRrP99"] as const;
    check(
      "explore rows",
      same(
        explore.result.scenarios.map((s) => [s.id, ...keyColumns.map((k) => s.keyFigures[k]?.value ?? null)]),
        exploreSql.result[0].rows.map((r) => [r.id, ...keyColumns.map((k) => r[k])]),
      ),
    );
    check(
      "explore facets",
      same(
        explore.result.facets.flatMap((f) => f.values.map((v) => [f.key, v.value, v.count])),
        exploreSql.result[1].rows.map((r) => [r.facet, r.value, Number(r.count)]),
      ),
    );
    row("explore (provider=tke)", explore, exploreSql);

    const scenario = await time(() => scenarioView(db, readable, "sc7"));
    const scenarioSql = await time(() =>
      Promise.all([
        client.query(scenarioPage.facts, ["sc7"]),
        client.query(scenarioPage.figures, ["sc7"]),
        client.query(scenarioPage.bundles, ["sc7"]),
      ]),
    );
    const figures = scenario.result?.groups.flatMap((g) => g.rows.flatMap((r) => [r.current, ...r.history])) ?? [];
    const [, sqlFigures, sqlBundles] = scenarioSql.result;
    check(
      "scenario",
      figures.length === sqlFigures.rows.length &&
        Math.abs(sum(figures) - sum(sqlFigures.rows)) < 1e-6 &&
        same(
          scenario.result?.bundles.map((b) => [b.id, b.measurementCount]) ?? [],
          sqlBundles.rows.map((b) => [b.id, b.measurementCount]),
        ),
    );
    row("scenario page", scenario, scenarioSql);

    const crossoverQuery = {
      metric: "http.rps",
      x: "services",
      where: { connection: "short" },
      y: "absolute",
    } as const;
    const crossover = await time(async () => {
      const { scenarios: sc, figures: fs } = await chartView(db, readable, {
        filters,
        metrics: [crossoverQuery.metric],
        params: { contains: crossoverQuery.where, numeric: crossoverQuery.x },
      });
      return crossoverOf(sc, fs, crossoverQuery);
    });
    const crossoverSql = await time(() => client.query(crossoverPoints, [["tke"], "http.rps", maxLines]));
    check(
      "crossover",
      same(
        crossover.result.series.flatMap((s) => s.points.map((p) => [p.scenarioId, p.x, p.y])),
        crossoverSql.result.rows.map((r) => [r.scenarioId, r.x, r.value]),
      ),
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

    if (process.env.BENCH_QUERIES_ONLY) return;
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
