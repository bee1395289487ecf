// PostgreSQL frozen (SIGSTOP) or killed (SIGKILL) under a running web app: a page, a tRPC call and
// /readyz answer 503 with Retry-After within the database timeout (never 500, never hanging for the
// whole outage), a browser sees a readable page that retries by itself, and everything recovers
// without restarting the app. The production build global-setup.ts made, on a PostgreSQL of its own.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, ensureDefaultWorkspace } from "@cnibench/db";
import type { EmbeddedPostgres } from "@cnibench/launcher";
import { freePort } from "@cnibench/test-support/ports";
import {
  DB_TIMEOUT_MS,
  expectUnavailable,
  killPostmaster,
  ownPostgres,
  recovery,
  restartPostgres,
  whileFrozen,
} from "@cnibench/test-support/postgres-faults";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("PostgreSQL frozen or killed under the web app", () => {
  let dataDir: string;
  let port: number;
  let pg: EmbeddedPostgres;
  let web: ChildProcess | undefined;
  let webUrl: string;
  let output = "";

  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(`${webUrl}${p}`, { headers, signal: AbortSignal.timeout(20_000), redirect: "manual" });
  const trpc = () => get(`/api/trpc/scenarios.explore?input=${encodeURIComponent("{}")}`);

  beforeAll(async () => {
    ({ dataDir, port, pg } = await ownPostgres("cnibench-web-outage-"));
    const db = createDb(pg.url, { maxConnections: 1 });
    await ensureDefaultWorkspace(db);
    await db.$disconnect();
    const webPort = await freePort();
    webUrl = `http://127.0.0.1:${webPort}`;
    web = spawn(
      process.execPath,
      [path.join(repoRoot, "node_modules/next/dist/bin/next"), "start", "-p", String(webPort), "-H", "127.0.0.1"],
      {
        cwd: path.join(repoRoot, "apps/web"),
        env: {
          ...process.env,
          DATABASE_URL: pg.url,
          CNIBENCH_DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
          NEXT_TELEMETRY_DISABLED: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    web.stdout?.on("data", (c: Buffer) => (output += c.toString()));
    web.stderr?.on("data", (c: Buffer) => (output += c.toString()));
    await recovery(async () => (await get("/readyz")).ok, 60_000).catch((error: unknown) => {
      throw new Error(`the web app did not start: ${error}\n${output}`);
    });
  }, 90_000);
  afterAll(async () => {
    if (web && web.exitCode === null) {
      const exited = new Promise((r) => web?.once("exit", r));
      web.kill("SIGTERM");
      await exited;
    }
    await pg?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function expectAllUnavailable() {
    // The gate's probe answer stands for PROBE_FRESH_MS (1 s, outage.ts) rather than one query per
    // page: a page asked for in the first second of an outage is not gated, and fails as it would
    // have without the gate. From then on every page is.
    await new Promise((r) => setTimeout(r, 1_000));
    const page = await expectUnavailable("a page", () => get("/"));
    // Prefetches render the page too: Next's own (next-router-prefetch, with its RSC header) and a
    // browser's (Purpose: prefetch) once skipped the gate and answered 500 after 10–20 s.
    await expectUnavailable("Next's prefetch", () => get("/", { "next-router-prefetch": "1", rsc: "1" }));
    await expectUnavailable("a browser's prefetch", () => get("/charts", { purpose: "prefetch" }));
    const call = await expectUnavailable("a tRPC call", trpc);
    const ready = await expectUnavailable("/readyz", () => get("/readyz"));
    return `page ${page} ms, tRPC ${call} ms, /readyz ${ready} ms`;
  }

  async function expectRecovered(): Promise<number> {
    const ms = await recovery(async () => (await get("/")).status === 200);
    expect((await trpc()).status).toBe(200);
    expect((await get("/readyz")).status).toBe(200);
    return ms;
  }

  it("answers 503 within the timeout while PostgreSQL is frozen, then recovers when it continues", async () => {
    expect((await get("/")).status).toBe(200);
    const figures = await whileFrozen(pg.dataDir, expectAllUnavailable);
    const recovered = await expectRecovered();
    console.log(`frozen: ${figures}; recovered ${recovered} ms after SIGCONT`);
  }, 50_000);

  it("answers 503 while PostgreSQL is killed, then recovers once it is restarted", async () => {
    await killPostmaster(pg);
    const figures = await expectAllUnavailable();
    pg = await restartPostgres(dataDir, port);
    const recovered = await expectRecovered();
    console.log(`killed: ${figures}; recovered ${recovered} ms after the restart`);
  }, 50_000);

  it("shows a browser a readable 503 page that turns back into the view by itself", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await killPostmaster(pg);
      await new Promise((r) => setTimeout(r, 1_000)); // the gate's probe answer stands 1 s (see above)
      const response = await page.goto(`${webUrl}/`);
      expect(response?.status()).toBe(503);
      await expect.poll(() => page.getByRole("heading", { name: "The database is unavailable" }).count()).toBe(1);
      pg = await restartPostgres(dataDir, port);
      // The page reloads itself after Retry-After's 5 s.
      await page.waitForResponse((r) => r.url() === `${webUrl}/` && r.status() === 200, { timeout: 15_000 });
      await expect.poll(() => page.getByRole("heading", { name: "Scenarios" }).count(), { timeout: 10_000 }).toBe(1);
    } finally {
      await browser.close();
    }
  }, 50_000);
});
