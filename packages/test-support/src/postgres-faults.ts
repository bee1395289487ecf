// Faults of a real PostgreSQL server for outage tests: frozen (SIGSTOP, as a VM pause or a stuck
// disk looks from outside) and killed (SIGKILL of the postmaster).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "@cnibench/db";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "@cnibench/launcher";
import { expect } from "vitest";
import { freePort } from "./ports.ts";

/** CNIBENCH_DB_TIMEOUT_MS of the apps under test, and what "within the timeout" allows on a busy 2-core machine. */
export const DB_TIMEOUT_MS = 1_500;
const ANSWER_WITHIN_MS = DB_TIMEOUT_MS + 2_500;

/** A migrated embedded PostgreSQL of the test's own (the shared one must not be frozen or killed). */
export async function ownPostgres(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const pg = await startEmbeddedPostgres({ dataDir, port, log: () => {} });
  await migrateDatabase(pg.url);
  return { dataDir, port, pg };
}

/** Expects 503 with Retry-After within the database timeout; how long the answer took, in ms. */
export async function expectUnavailable(name: string, request: () => Promise<Response>): Promise<number> {
  const { ms, value: res } = await timed(request);
  expect(res.status, `${name} status`).toBe(503);
  expect(res.headers.get("retry-after"), `${name} Retry-After`).toBe("5");
  expect(ms, `${name} answered after ${ms} ms`).toBeLessThan(ANSWER_WITHIN_MS);
  return ms;
}

/** The postmaster's pid, from the postmaster.pid of an embedded server's data folder. */
export function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
}

/** The postmaster and its backends and workers. */
function serverPids(dataDir: string): number[] {
  const postmaster = postmasterPid(dataDir);
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
    .split("\n")
    .map((l) => Number(l.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}

/** Runs `during` with the whole server stopped (SIGSTOP), and always continues it (SIGCONT) afterwards. */
export async function whileFrozen<T>(dataDir: string, during: () => Promise<T>): Promise<T> {
  const pids = serverPids(dataDir);
  try {
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    return await during();
  } finally {
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGCONT");
      } catch {
        // already gone
      }
    }
  }
}

/** SIGKILL of the postmaster; its backends notice and exit by themselves. Resolves once it is gone. */
export async function killPostmaster(pg: EmbeddedPostgres): Promise<void> {
  process.kill(postmasterPid(pg.dataDir), "SIGKILL");
  await pg.exited;
}

/** Starts the embedded server again on its data and port, retrying while the old backends still exit. */
export async function restartPostgres(dataDir: string, port: number): Promise<EmbeddedPostgres> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEmbeddedPostgres({ dataDir, port, log: () => {} });
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Milliseconds `work` took, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: Math.round(performance.now() - started), value };
}

/** Calls `attempt` until it returns true (at most `timeoutMs`); how long that took, in ms. */
export async function recovery(attempt: () => Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  while (!(await attempt().catch(() => false))) {
    if (performance.now() - started > timeoutMs) throw new Error(`no recovery within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return Math.round(performance.now() - started);
}
