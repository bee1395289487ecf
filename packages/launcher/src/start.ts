// `npm start` (and `npm run dev` with --dev): one process tree with the database (embedded unless
// DATABASE_URL is set), migrations, ingest-api and web. Ctrl-C or SIGTERM stops all of it.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, ensureDefaultWorkspace, serverUnreachable } from "@cnibench/db";
import type { LocalIdentityProvider } from "@cnibench/identity";
import { redactUrl } from "@cnibench/settings";
import { type DatabaseHandle, openDatabase } from "./database.ts";
import { storeDemoData } from "./demo-data.ts";
import { runningEmbeddedPostgres } from "./embedded-postgres.ts";
import { type LauncherEnv, readLauncherEnv } from "./env.ts";
import { ensureLocalUploadToken } from "./local-token.ts";
import { signInSettings } from "./sign-in.ts";
import { ensureWebBuild, nextBin } from "./web-build.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const dev = process.argv.includes("--dev");
const log = (line: string) => console.log(`[cnibench] ${line}`);

const children: ChildProcess[] = [];
let database: DatabaseHandle | undefined;
let identity: LocalIdentityProvider | null = null;
let stopping = false;

async function main(): Promise<void> {
  const env = readLauncherEnv(repoRoot);
  const build = dev ? Promise.resolve() : ensureWebBuild(repoRoot, log);
  build.catch(() => {}); // awaited below; avoid an unhandled rejection while the database starts

  if (env.DATABASE_URL) log(`using the PostgreSQL of DATABASE_URL (${redactUrl(env.DATABASE_URL)})`);
  if (runningEmbeddedPostgres([env.dataDir], env.CNIBENCH_PG_PORT)) {
    throw new Error(
      `cnibench is already running with the data in ${env.dataDir} (PostgreSQL on port ${env.CNIBENCH_PG_PORT}).`,
    );
  }
  database = await openDatabase(env, repoRoot, log);
  const db = createDb(database.url, { maxConnections: 1 });
  const workspace = await ensureDefaultWorkspace(db);
  const tokenFile = database.embeddedDataDir && path.join(database.embeddedDataDir, "upload-token");
  if (tokenFile) await ensureLocalUploadToken(db, workspace.id, tokenFile);
  const demo = await storeDemoData(db, workspace.id, path.join(repoRoot, "demo-data/bundles"));
  if (demo.files > 0) log(`demo data: ${demo.files} bundles, ${demo.measurements} measurements (${demo.created} new)`);
  await db.$disconnect();
  const signIn = await signInSettings({
    // biome-ignore lint/style/noProcessEnv: the web app's sign-in variables, left to it to check
    env: process.env,
    host: env.CNIBENCH_HOST,
    webPort: env.CNIBENCH_WEB_PORT,
    oidcPort: env.CNIBENCH_OIDC_PORT,
    dataDir: database.embeddedDataDir,
  });
  identity = signIn.local;
  await build;
  if (stopping) return;

  startApps(env, database.url, signIn.env);
  if (database.exited) superviseDatabase(database);
  else watchExternalDatabase(database.url);
  const api = `http://${env.CNIBENCH_HOST}:${env.CNIBENCH_API_PORT}`;
  log(`ingest API on ${api}  (GET /healthz, /readyz, /v1/openapi.json)`);
  log(`web app   on http://${env.CNIBENCH_HOST}:${env.CNIBENCH_WEB_PORT}`);
  if (identity) {
    log(`sign-in through the local OpenID Connect provider on ${identity.issuer}: any login name and password`);
    log("(the first to sign in administers this installation; set CNIBENCH_OIDC_ISSUER for a real provider)");
  }
  if (tokenFile) {
    log(`upload token in ${tokenFile}; upload the example bundle with:`);
    console.log(
      `\n  curl -sS -X POST ${api}/v1/bundles -H "Authorization: Bearer $(cat ${shellQuote(tokenFile)})" \\\n` +
        `       -H "Content-Type: application/json" --data-binary @${shellQuote(path.join(repoRoot, "examples/bundle.json"))}\n`,
    );
  }
  log("Ctrl-C stops everything.");
}

function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

function startApps(env: LauncherEnv, databaseUrl: string, signIn: Record<string, string>): void {
  const shared = {
    // biome-ignore lint/style/noProcessEnv: the apps inherit the environment and check their own settings
    ...process.env,
    ...signIn,
    DATABASE_URL: databaseUrl,
    CNIBENCH_HOST: env.CNIBENCH_HOST,
    CNIBENCH_API_PORT: String(env.CNIBENCH_API_PORT),
    CNIBENCH_WEB_PORT: String(env.CNIBENCH_WEB_PORT),
    LOG_LEVEL: env.LOG_LEVEL,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  supervise(
    "ingest-api",
    spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: path.join(repoRoot, "apps/ingest-api"),
      env: shared,
      stdio: "inherit",
    }),
  );
  const nextArgs = [
    nextBin(repoRoot),
    dev ? "dev" : "start",
    "-p",
    String(env.CNIBENCH_WEB_PORT),
    "-H",
    env.CNIBENCH_HOST,
  ];
  supervise(
    "web",
    spawn(process.execPath, nextArgs, { cwd: path.join(repoRoot, "apps/web"), env: shared, stdio: "inherit" }),
  );
}

function supervise(name: string, child: ChildProcess): void {
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    log(`${name} exited unexpectedly (${signal ?? `exit ${code}`}); stopping everything`);
    void shutdown(1);
  });
}

/** Restarts of the embedded PostgreSQL allowed within RESTART_WINDOW_MS before giving up. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 10 * 60_000;
const restarts: number[] = [];
let restarting: Promise<void> | undefined;

/**
 * The embedded PostgreSQL ending while we run (killed, crashed, out of memory) is restarted on the
 * same data; the apps answer 503 meanwhile and recover by themselves. A server that keeps dying is
 * not restarted forever: after MAX_RESTARTS in RESTART_WINDOW_MS everything stops with its last log.
 */
function superviseDatabase(handle: DatabaseHandle): void {
  void handle.exited?.then(({ how, log: lastLines }) => {
    if (!stopping) restarting = restartDatabase(handle, how, lastLines);
  });
}

async function restartDatabase(handle: DatabaseHandle, how: string, lastLines: string): Promise<void> {
  const now = Date.now();
  restarts.push(now);
  while (restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
  const said = lastLines ? `; its last log lines:\n${lastLines}` : "";
  if (restarts.length > MAX_RESTARTS) {
    log(
      `PostgreSQL stopped unexpectedly (${how}) for the ${ordinal(restarts.length)} time in ` +
        `${RESTART_WINDOW_MS / 60_000} minutes; giving up and stopping everything${said}`,
    );
    void shutdown(1);
    return;
  }
  log(`PostgreSQL stopped unexpectedly (${how}); restarting it, the apps answer 503 until it is back${said}`);
  for (let attempt = 1; !stopping; attempt++) {
    try {
      // Stopped by shutdown, which waits for this restart, when one began meanwhile.
      database = await handle.restart!();
      if (stopping) return;
      log("PostgreSQL is back");
      superviseDatabase(database);
      return;
    } catch (error) {
      // Backends of the dead server may hold its shared memory for a moment: try again shortly.
      if (attempt >= 10) {
        log(
          `cannot restart PostgreSQL: ${error instanceof Error ? error.message : String(error)}; stopping everything`,
        );
        void shutdown(1);
        return;
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

function ordinal(n: number): string {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

/**
 * DATABASE_URL's server is someone else's to keep alive: say when it stops answering and when it
 * answers again, while the apps answer 503 in between.
 */
function watchExternalDatabase(url: string): void {
  let reachable = true;
  const check = async () => {
    const error = await serverUnreachable(url);
    if (stopping) return;
    if (error && reachable) {
      log(
        `cannot reach the PostgreSQL of DATABASE_URL (${error instanceof Error ? error.message : String(error)}); the apps answer 503 until it is back`,
      );
    } else if (!error && !reachable) log("the PostgreSQL of DATABASE_URL answers again");
    reachable = !error;
  };
  const next = () => setTimeout(() => void check().then(next), 5_000).unref();
  next();
}

async function shutdown(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log("stopping…");
  await Promise.all(children.map((child) => stopChild(child)));
  await identity?.stop();
  await restarting;
  await database?.stop();
  log("stopped");
  process.exit(exitCode);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
main().catch(async (error: unknown) => {
  console.error(`[cnibench] cannot start: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
});
