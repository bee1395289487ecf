// npm run test:load — 50 concurrent uploaders send 10,000 bundles (a share of them duplicates, some
// sent to both processes at once) to two ingest-api processes sharing one PostgreSQL, on loopback.
// Midway PostgreSQL is stopped and started again, and later one ingest process is killed (SIGKILL)
// mid-request and restarted. Uploaders retry what was refused with 503 or cut off, as the CLI does.
// Afterwards it checks: no 500 (nor other 5xx than 503), bundles stored = distinct bundles accepted,
// every bundle's measurements all there. Prints throughput and p50/p99 latency. Bounded: it stops by
// itself after LOAD_TIMEOUT_S (default 600). Settings: LOAD_BUNDLES (10000), LOAD_UPLOADERS (50).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, createToken, ensureDefaultWorkspace, migrateDatabase } from "@cnibench/db";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "@cnibench/launcher";
import { freePort } from "@cnibench/test-support/ports";
import pg from "pg";
import { quantile } from "simple-statistics";
import { syntheticUpload } from "./synthetic.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const total = Number(process.env.LOAD_BUNDLES ?? 10_000);
const uploaders = Number(process.env.LOAD_UPLOADERS ?? 50);
const timeoutS = Number(process.env.LOAD_TIMEOUT_S ?? 600);
const results = 5;

const bundle = (n: number) =>
  JSON.stringify(
    syntheticUpload(n, {
      title: "cnibench load test",
      tool: "bench/load.ts",
      section: `bundle ${n}`,
      clusters: 20,
      sku: "load.large",
      results: Array.from({ length: results }, (_, i) => ({
        metric: "http.rps",
        unit: "req/s",
        value: 10_000 + ((n * 7919 + i * 104_729) % 5_000),
        params: { connection: "short", concurrency: 64, target: "service", services: i * 5000 },
      })),
    }),
  );

/** The order of sends: every bundle once, 15 % of them again (some straight after, to the other process). */
function plan(): number[] {
  const sends: number[] = [];
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let n = 0; sends.length < total; n++) {
    sends.push(n);
    if (random() < 0.15 && sends.length < total) sends.push(random() < 0.5 ? n : Math.floor(random() * (n + 1)));
  }
  return sends;
}

function startIngestProcess(databaseUrl: string, port: number): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(repoRoot, "apps/ingest-api"),
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      CNIBENCH_API_PORT: String(port),
      CNIBENCH_RATE_LIMIT_PER_MINUTE: "10000000",
      CNIBENCH_DB_POOL_MAX: "10",
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`ingest-api on ${port} did not start`);
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`load test: still running after ${timeoutS} s, stopping`);
    process.exit(2);
  }, timeoutS * 1000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-load-"));
  fs.chmodSync(dataDir, 0o755);
  const pgPort = await freePort();
  let database: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, port: pgPort, log: () => {} });
  const ports = [await freePort(), await freePort()];
  const processes: ChildProcess[] = [];
  try {
    await migrateDatabase(database.url);
    const db = createDb(database.url, { maxConnections: 2 });
    const { token } = await createToken(db, (await ensureDefaultWorkspace(db)).id, "load");
    await db.$disconnect();
    for (const port of ports) processes.push(startIngestProcess(database.url, port));
    await Promise.all(ports.map(waitReady));

    const sends = plan();
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const accepted = new Set<number>();
    const latencies: number[] = [];
    let cutOff = 0;
    let next = 0;
    let done = 0;
    const faults: string[] = [];

    // The faults, at fixed points of progress.
    const faultAt = async (share: number, run: () => Promise<void>) => {
      while (done < total * share) await new Promise((r) => setTimeout(r, 50));
      await run();
    };
    const faultRuns = [
      faultAt(0.3, async () => {
        await database.stop();
        faults.push(`PostgreSQL stopped at ${done} bundles`);
        await new Promise((r) => setTimeout(r, 3000));
        database = await startEmbeddedPostgres({ dataDir, port: pgPort, log: () => {} });
        faults.push("PostgreSQL started again");
      }),
      faultAt(0.6, async () => {
        processes[0]?.kill("SIGKILL");
        faults.push(`ingest process 1 killed (SIGKILL) at ${done} bundles`);
        await new Promise((r) => setTimeout(r, 1000));
        processes[0] = startIngestProcess(database.url, ports[0]!);
        await waitReady(ports[0]!);
        faults.push("ingest process 1 restarted");
      }),
    ];

    const started = performance.now();
    await Promise.all(
      Array.from({ length: uploaders }, async (_, worker) => {
        while (next < sends.length) {
          const i = next++;
          const n = sends[i]!;
          const body = bundle(n);
          for (let attempt = 0; ; attempt++) {
            const port = ports[(i + attempt + worker) % 2]!;
            const t0 = performance.now();
            const res = await fetch(`http://127.0.0.1:${port}/v1/bundles`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
              body,
            }).catch(() => null);
            if (!res) {
              cutOff++;
            } else {
              await res.arrayBuffer();
              count(res.status);
              if (res.status === 200 || res.status === 201) {
                latencies.push(performance.now() - t0);
                accepted.add(n);
                break;
              }
              if (res.status !== 503) throw new Error(`bundle ${n}: HTTP ${res.status}`);
            }
            if (attempt > 200) throw new Error(`bundle ${n}: not stored after 200 attempts`);
            await new Promise((r) => setTimeout(r, 200));
          }
          done++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(faultRuns);

    // What is stored: exactly the distinct bundles accepted, each whole.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ bundles: string; partial: string; measurements: string }>(`
      SELECT (SELECT count(*) FROM "Bundle") AS bundles,
        (SELECT count(*) FROM "Bundle" b WHERE b."measurementCount" <> ${results}
           OR (SELECT count(*) FROM "Measurement" m WHERE m."bundleId" = b.id) <> ${results}) AS partial,
        (SELECT count(*) FROM "Measurement") AS measurements`);
    const scenarioCounts = await client.query<{ wrong: string }>(`
      SELECT count(*) AS wrong FROM "Scenario" s
      WHERE s."bundleCount" <> (SELECT count(*) FROM "Bundle" b WHERE b."scenarioId" = s.id)`);
    await client.end();
    const stored = Number(rows[0]?.bundles);
    const partial = Number(rows[0]?.partial);
    const fiveHundreds = [...statuses].filter(([s]) => s >= 500 && s !== 503).reduce((a, [, c]) => a + c, 0);

    console.log(`\nload: ${sends.length} sends of ${new Set(sends).size} distinct bundles by ${uploaders} uploaders`);
    for (const f of faults) console.log(`  fault: ${f}`);
    console.table([
      {
        "bundles/s": (sends.length / seconds).toFixed(0),
        "p50 ms": quantile(latencies, 0.5).toFixed(1),
        "p99 ms": quantile(latencies, 0.99).toFixed(1),
        "200/201": (statuses.get(200) ?? 0) + (statuses.get(201) ?? 0),
        "503 (retried)": statuses.get(503) ?? 0,
        "cut off (retried)": cutOff,
        "other 5xx": fiveHundreds,
      },
    ]);
    console.log(
      `stored ${stored} bundles (${rows[0]?.measurements} measurements) for ${accepted.size} distinct accepted; ` +
        `partial bundles: ${partial}; scenarios miscounted: ${scenarioCounts.rows[0]?.wrong}`,
    );
    const ok =
      fiveHundreds === 0 &&
      stored === accepted.size &&
      accepted.size === new Set(sends).size &&
      partial === 0 &&
      Number(scenarioCounts.rows[0]?.wrong) === 0;
    console.log(ok ? "load test: PASS" : "load test: FAIL");
    process.exitCode = ok ? 0 : 1;
  } finally {
    clearTimeout(deadline);
    for (const p of processes) p.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    await database.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
