// `npm start` timed from launch to serving (the ingest API's /readyz and the web app's / both answer),
// as a user runs it: with an existing data folder (warm), and the first start after `npm ci`, which
// creates the database, loads the demo data and builds the web app (cold).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@cnibench/test-support/ports";
import { quantile } from "simple-statistics";
import type { BenchRow } from "./table.ts";
import { repoRoot } from "./web.ts";

const warmStarts = Number(process.env.BENCH_WARM_STARTS ?? 3);

async function answers(url: string): Promise<boolean> {
  return fetch(url).then(
    (r) => r.ok,
    () => false,
  );
}

/** Seconds from spawning `npm start` until both apps answer; then stops it as Ctrl-C does. */
async function timeStart(dataDir: string): Promise<number> {
  const ports = { pg: await freePort(), api: await freePort(), web: await freePort(), oidc: await freePort() };
  const started = performance.now();
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd: repoRoot,
    detached: true, // its own process group, stopped as a whole below
    env: {
      ...process.env,
      CNIBENCH_DATA_DIR: dataDir,
      CNIBENCH_PG_PORT: String(ports.pg),
      CNIBENCH_API_PORT: String(ports.api),
      CNIBENCH_WEB_PORT: String(ports.web),
      CNIBENCH_OIDC_PORT: String(ports.oidc),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output.slice(-3000)}`);
      if ((await answers(`http://127.0.0.1:${ports.api}/readyz`)) && (await answers(`http://127.0.0.1:${ports.web}/`)))
        return (performance.now() - started) / 1000;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`npm start was not serving after 10 minutes:\n${output.slice(-3000)}`);
  } finally {
    // Only while it runs: after an early exit its group is gone, and ESRCH would hide the reason.
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, "SIGINT");
    await exited;
  }
}

/**
 * Cold: a new data folder and no web build (the build is moved aside and restored if the start
 * fails, so a broken run leaves the checkout as it was). Warm: the same folder again.
 */
export async function benchStartup(opts: { cold: boolean }): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-start-"));
  fs.chmodSync(dataDir, 0o755);
  const rows: BenchRow[] = [];
  try {
    if (opts.cold) {
      const build = path.join(repoRoot, "apps/web/.next");
      // Outside the folders the launcher hashes to decide on a rebuild (web-build.ts), or the next
      // start would see changed sources and build again.
      const aside = path.join(repoRoot, "node_modules/.cache/cnibench-web-build-aside");
      fs.mkdirSync(path.dirname(aside), { recursive: true });
      fs.rmSync(aside, { recursive: true, force: true });
      if (fs.existsSync(build)) fs.renameSync(build, aside);
      let seconds: number;
      try {
        seconds = await timeStart(dataDir);
      } catch (error) {
        fs.rmSync(build, { recursive: true, force: true });
        if (fs.existsSync(aside)) fs.renameSync(aside, build);
        throw error;
      }
      fs.rmSync(aside, { recursive: true, force: true });
      rows.push({
        part: "start-up",
        what: "first start after npm ci, s",
        figure: seconds.toFixed(1),
        against: "new database, demo data, web build",
      });
    } else {
      await timeStart(dataDir); // creates the folder's database and demo data
    }
    const warm: number[] = [];
    for (let i = 0; i < warmStarts; i++) warm.push(await timeStart(dataDir));
    rows.push({
      part: "start-up",
      what: `start with existing data, s (median of ${warmStarts})`,
      figure: quantile(warm, 0.5).toFixed(1),
      against: `each: ${warm.map((s) => s.toFixed(1)).join(", ")}`,
      target: "< 15 s",
      met: quantile(warm, 0.5) < 15,
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
