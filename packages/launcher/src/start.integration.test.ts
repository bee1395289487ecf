// `npm start` as a user runs it: the whole process tree, real ports, real signals.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshDatabase } from "@cnibench/test-support/database";
import { freePort } from "@cnibench/test-support/ports";
import { killPostmaster, postmasterPid, restartPostgres } from "@cnibench/test-support/postgres-faults";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

type Run = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

const launched: Run[] = [];

function launch(env: Record<string, string>): Run {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "packages/launcher/src/start.ts"], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const run = { child, output: () => output, exited };
  launched.push(run);
  return run;
}

async function waitFor(url: string, run: Run, timeoutMs = 240_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) throw new Error(`launcher exited early:\n${run.output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms:\n${run.output()}`);
}

function processesMentioning(text: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes(text) && !l.includes("ps -eo"));
}

describe("npm start on the embedded default", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-start-"));
  let ports: { pg: number; api: number; web: number; oidc: number };
  const env = () => ({
    CNIBENCH_DATA_DIR: dataDir,
    CNIBENCH_PG_PORT: String(ports.pg),
    CNIBENCH_API_PORT: String(ports.api),
    CNIBENCH_WEB_PORT: String(ports.web),
    CNIBENCH_OIDC_PORT: String(ports.oidc),
  });

  beforeAll(async () => {
    fs.chmodSync(dataDir, 0o755);
    ports = { pg: await freePort(), api: await freePort(), web: await freePort(), oidc: await freePort() };
  });
  // A failed check leaves its launcher running: stop it, so the next test and the data folder are free.
  afterAll(async () => {
    for (const run of launched) if (run.child.exitCode === null) run.child.kill("SIGTERM");
    await Promise.all(launched.map((run) => run.exited));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the API and the web app, stops everything on SIGTERM, and keeps its data across restarts", async () => {
    const first = launch(env());
    const ready = await waitFor(`http://127.0.0.1:${ports.api}/readyz`, first);
    expect(await ready.json()).toEqual({ status: "ready", database: "ok" });
    const page = await (await waitFor(`http://127.0.0.1:${ports.web}/`, first)).text();
    expect(page).toContain("Scenarios");
    expect(first.output()).toContain(`127.0.0.1:${ports.pg}`);

    // The local upload token: owner-only, printed as a ready-to-paste curl command that works.
    const tokenFile = path.join(dataDir, "upload-token");
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(tokenFile, "utf8").trim();
    expect(first.output()).toContain(`curl -sS -X POST http://127.0.0.1:${ports.api}/v1/bundles`);
    const curl = first
      .output()
      .match(/curl -sS[^\n]*\\\n[^\n]*/)?.[0]
      .replace("\\\n", " ");
    expect(curl).toBeDefined();
    const uploaded = execFileSync("sh", ["-c", `${curl} -w '\n%{http_code}'`], { cwd: repoRoot, encoding: "utf8" });
    expect(uploaded.trim().split("\n").pop()).toBe("201");

    // A row written now must survive the restart.
    const password = fs.readFileSync(path.join(dataDir, "postgres.password"), "utf8").trim();
    const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${ports.pg}/cnibench`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`INSERT INTO "Workspace" (id, slug, name) VALUES ('persist', 'persist', 'survives restarts')`);
    await client.end();

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(processesMentioning(dataDir)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);

    const second = launch(env());
    await waitFor(`http://127.0.0.1:${ports.api}/readyz`, second);
    expect(second.output()).not.toContain("initialising PostgreSQL");
    expect(fs.readFileSync(tokenFile, "utf8").trim()).toBe(token);
    const again = new pg.Client({ connectionString: url });
    await again.connect();
    const { rows } = await again.query(`SELECT name FROM "Workspace" WHERE slug = 'persist'`);
    await again.end();
    expect(rows).toEqual([{ name: "survives restarts" }]);
    second.child.kill("SIGINT");
    expect(await second.exited).toBe(0);
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 240_000); // two full starts: slow when other work shares the CPUs

  it("says clearly when its PostgreSQL port is taken", async () => {
    const blocker = (await import("node:net")).createServer().listen(ports.pg, "127.0.0.1");
    try {
      const run = launch(env());
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(`Port ${ports.pg} on 127.0.0.1 is already in use`);
      expect(run.output()).toContain("CNIBENCH_PG_PORT");
    } finally {
      blocker.close();
    }
  });

  it("names every bad environment variable", async () => {
    const run = launch({ ...env(), CNIBENCH_API_PORT: "eighty", DATABASE_URL: "mysql://x" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/CNIBENCH_API_PORT="eighty": must be a whole number/);
    expect(run.output()).toMatch(/DATABASE_URL="mysql:\/\/x": must be a postgres/);
  });
});

describe("npm start with DATABASE_URL", () => {
  it("uses that server, starts no embedded PostgreSQL, and migrates it", async () => {
    const database = await freshDatabase();
    try {
      const api = await freePort();
      const run = launch({
        DATABASE_URL: database.url,
        CNIBENCH_API_PORT: String(api),
        CNIBENCH_WEB_PORT: String(await freePort()),
      });
      await waitFor(`http://127.0.0.1:${api}/readyz`, run);
      expect(run.output()).toContain("using the PostgreSQL of DATABASE_URL");
      expect(run.output()).not.toContain("embedded");
      expect(run.output()).toMatch(/migrations: (No pending migrations|.*applied)/);
      run.child.kill("SIGTERM");
      expect(await run.exited).toBe(0);
    } finally {
      await database.drop();
    }
  });
});

/** Resolves once `predicate` holds of the launcher's output (at most `timeoutMs`). */
async function outputMatches(run: Run, predicate: (output: string) => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate(run.output())) {
    if (Date.now() > deadline) throw new Error(`not in the output after ${timeoutMs} ms:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("npm start when its PostgreSQL dies", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-start-death-"));
  afterAll(async () => {
    for (const run of launched) if (run.child.exitCode === null) run.child.kill("SIGTERM");
    await Promise.all(launched.map((run) => run.exited));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("restarts the embedded PostgreSQL, and stops with a clear message when it keeps dying", async () => {
    fs.chmodSync(dataDir, 0o755);
    const api = await freePort();
    const run = launch({
      CNIBENCH_DATA_DIR: dataDir,
      CNIBENCH_PG_PORT: String(await freePort()),
      CNIBENCH_API_PORT: String(api),
      CNIBENCH_WEB_PORT: String(await freePort()),
      CNIBENCH_OIDC_PORT: String(await freePort()),
    });
    await waitFor(`http://127.0.0.1:${api}/readyz`, run);

    // Killed: restarted on the same data; the API, never restarted, answers again.
    process.kill(postmasterPid(dataDir), "SIGKILL");
    await outputMatches(run, (o) => o.includes("PostgreSQL stopped unexpectedly (killed by SIGKILL); restarting it"));
    await outputMatches(run, (o) => count(o, "PostgreSQL is back") === 1);
    await waitFor(`http://127.0.0.1:${api}/readyz`, run, 20_000);
    expect(run.child.exitCode).toBeNull();

    // Killed again and again: after three restarts in ten minutes it gives up, says so, and stops
    // everything rather than serving errors.
    for (let restart = 2; restart <= 3; restart++) {
      process.kill(postmasterPid(dataDir), "SIGKILL");
      await outputMatches(run, (o) => count(o, "PostgreSQL is back") === restart);
    }
    process.kill(postmasterPid(dataDir), "SIGKILL");
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(
      /PostgreSQL stopped unexpectedly \(killed by SIGKILL\) for the 4th time in 10 minutes; giving up/,
    );
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 240_000);

  it("with DATABASE_URL, says when that server is unreachable and when it is back, and keeps serving", async () => {
    const external = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-start-external-"));
    fs.chmodSync(external, 0o755);
    const pgPort = await freePort();
    let pg = await startEmbeddedPostgres({ dataDir: external, port: pgPort, log: () => {} });
    try {
      const api = await freePort();
      const run = launch({
        DATABASE_URL: pg.url,
        CNIBENCH_API_PORT: String(api),
        CNIBENCH_WEB_PORT: String(await freePort()),
        CNIBENCH_OIDC_PORT: String(await freePort()),
      });
      await waitFor(`http://127.0.0.1:${api}/readyz`, run);
      await killPostmaster(pg);
      await outputMatches(run, (o) => o.includes("cannot reach the PostgreSQL of DATABASE_URL"));
      expect((await fetch(`http://127.0.0.1:${api}/readyz`)).status).toBe(503);
      pg = await restartPostgres(external, pgPort);
      await outputMatches(run, (o) => o.includes("the PostgreSQL of DATABASE_URL answers again"));
      await waitFor(`http://127.0.0.1:${api}/readyz`, run, 20_000);
      run.child.kill("SIGTERM");
      expect(await run.exited).toBe(0);
    } finally {
      await pg.stop();
      fs.rmSync(external, { recursive: true, force: true });
    }
  }, 240_000);
});
