/**
 * POST /v1/import parses in a worker thread (import-pool.ts): while an archive of 5,000 result files
 * is unpacked, parsed and stored, the event loop keeps answering. The server is a real process started
 * as `npm start` and the container image start it (`node --import tsx src/main.ts`), so its worker
 * thread loads the same way, and the probes' client does not share its event loop.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, createToken, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { tar } from "@cnibench/test-support/archives";
import { freshDatabase } from "@cnibench/test-support/database";
import { environmentQuery, iperf3Fixture } from "@cnibench/test-support/fixtures";
import { freePort } from "@cnibench/test-support/ports";
import { gzipSync } from "fflate";
import { afterAll, beforeAll, expect, it } from "vitest";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
let token: string;
let base: string;
let child: ChildProcess;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { maxConnections: 2 });
  token = (await createToken(db, (await ensureDefaultWorkspace(db)).id, "latency-test")).token;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: appDir,
    env: { ...process.env, DATABASE_URL: database.url, CNIBENCH_API_PORT: String(port), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("ingest-api did not start");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await db?.$disconnect();
  await database?.drop();
});

/** 5,000 iperf3 outputs, the most entries CNIBENCH_IMPORT_MAX_ENTRIES allows by default (400 kB gzipped). */
function bigArchive(): Uint8Array {
  const iperf3 = iperf3Fixture();
  return gzipSync(tar(Array.from({ length: 5_000 }, (_, i) => ({ name: `runs/${i}/iperf3.json`, bytes: iperf3 }))));
}

const importArchive = (body: Uint8Array, cluster: string) =>
  fetch(`${base}/v1/import?${environmentQuery({ cluster })}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
    body: Buffer.from(body),
  });

async function healthzLatency(): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${base}/healthz`);
  await res.text();
  expect(res.status).toBe(200);
  return performance.now() - start;
}

it("answers /healthz promptly while a 5,000-entry archive is imported", { timeout: 120_000 }, async () => {
  const body = bigArchive();
  // Warm up: the worker thread and the connection pool exist before the measured import.
  const warm = await importArchive(gzipSync(tar([{ name: "warm/iperf3.json", bytes: iperf3Fixture() }])), "warm");
  expect(warm.status).toBe(201);

  const started = performance.now();
  let answered = false;
  const importing = importArchive(body, "latency").then(async (res) => {
    answered = true;
    return { status: res.status, answer: (await res.json()) as { bundles?: unknown[]; files?: unknown[] } };
  });
  const latencies: number[] = [];
  while (!answered) {
    latencies.push(await healthzLatency());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const { status, answer } = await importing;
  const took = performance.now() - started;
  expect(status, JSON.stringify(answer).slice(0, 500)).toBe(201);
  expect(answer.files).toHaveLength(5_000);
  expect(answer.bundles).toHaveLength(5_000);

  latencies.sort((a, b) => a - b);
  const worst = latencies.at(-1)!;
  const p50 = latencies[Math.floor(latencies.length / 2)]!;
  console.info(
    `/healthz during a 5,000-entry import (${Math.round(took)} ms): ${latencies.length} probes, p50 ${p50.toFixed(1)} ms, max ${worst.toFixed(1)} ms`,
  );
  expect(latencies.length).toBeGreaterThan(3);
  // ~100 ms is the goal, with a margin for a loaded 2-core CI machine. Parsed on the main thread, the
  // same import held a probe for 1.4 s (max 1,365 ms; 66 ms since).
  expect(worst).toBeLessThan(250);
});
