// SIGTERM reaches a real ingest-api process — `node --import tsx src/main.ts`, as `npm start` and the
// container image run it — while uploads are in flight. It must stop accepting connections, finish
// every upload it had begun, commit each one whole, and exit 0: a rolling update or a scale-down on
// Kubernetes loses no upload and leaves no bundle half-written.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, createToken, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { freePort } from "@cnibench/test-support/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RESULTS_PER_BUNDLE = 60;

/** A bundle of 60 figures (the example's five, at twelve Service counts), told apart by its collector version. */
function bundle(version: string): string {
  const example = exampleBundle();
  const results = Array.from({ length: RESULTS_PER_BUNDLE / example.results.length }, (_, round) =>
    example.results.map((r) => ({ ...r, params: { ...(r.params as object), round } })),
  ).flat();
  return JSON.stringify({ ...example, collector: { name: "drain-test", version }, results });
}

type Outcome = { status: number; body: string } | { error: string };

/**
 * An upload whose headers and first half are sent now, and whose second half is sent by finish(). A
 * keep-alive agent keeps the connection open once answered, as proxies and load balancers do.
 */
function slowUpload(port: number, token: string, id: string, agent: http.Agent | false) {
  const bytes = Buffer.from(bundle(id));
  const req = http.request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/v1/bundles",
    agent,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "content-length": bytes.length,
      "x-request-id": id,
    },
  });
  const outcome = new Promise<Outcome>((resolve) => {
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (error) => resolve({ error: error.message }));
  });
  req.write(bytes.subarray(0, bytes.length >> 1));
  return { outcome, finish: () => req.end(bytes.subarray(bytes.length >> 1)) };
}

function quickUpload(port: number, token: string, id: string): Promise<Outcome> {
  return fetch(`http://127.0.0.1:${port}/v1/bundles`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-request-id": id },
    body: bundle(id),
  }).then(
    async (res) => ({ status: res.status, body: await res.text() }),
    (error: Error) => ({ error: String(error.cause ?? error.message) }),
  );
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("SIGTERM to a real ingest-api process during uploads", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;
  let token: string;
  let port: number;
  let child: ChildProcess;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    database = await freshDatabase();
    db = createDb(database.url, { maxConnections: 2 });
    const workspace = await ensureDefaultWorkspace(db);
    token = (await createToken(db, workspace.id, "drain-test")).token;
    port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: appDir,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        CNIBENCH_HOST: "127.0.0.1",
        CNIBENCH_API_PORT: String(port),
        CNIBENCH_DB_POOL_MAX: "4",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    let pending = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        try {
          logLines.push(JSON.parse(line));
        } catch {
          // not a log record
        }
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    await waitFor("ingest-api to listen", async () => {
      if (child.exitCode !== null) throw new Error(`ingest-api exited with ${child.exitCode} before listening`);
      return fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    });
  });

  afterAll(async () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
    await db?.$disconnect();
    await database?.drop();
  });

  it("finishes the uploads it has begun, takes no new connection, commits each whole, and exits 0", async () => {
    // Uploads the server has begun (headers read, routed, body half received) when the signal comes.
    const keepAlive = new http.Agent({ keepAlive: true });
    const slow = Array.from({ length: 6 }, (_, i) => slowUpload(port, token, `slow-${i}`, i < 2 ? keepAlive : false));
    const begun = () =>
      slow.every((_, i) => logLines.some((l) => l.reqId === `slow-${i}` && l.msg === "incoming request"));
    await waitFor("the server to begin every slow upload", begun);
    // And a burst of quick ones racing the signal: each is stored whole, or refused with nothing stored.
    const quick = Array.from({ length: 12 }, (_, i) => quickUpload(port, token, `quick-${i}`));

    child.kill("SIGTERM");
    await waitFor("the listening socket to close", () => refusesConnections(port), 10_000);
    expect(child.exitCode).toBeNull(); // still draining: the slow uploads are not finished

    for (const upload of slow) upload.finish();
    const slowOutcomes = await Promise.all(slow.map((u) => u.outcome));
    const quickOutcomes = await Promise.all(quick);
    // Promptly: idle keep-alive connections are closed, not waited out (keepAliveTimeout is 72 s).
    const answered = Date.now();
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - answered).toBeLessThan(5_000);
    keepAlive.destroy();

    // None lost: every upload begun before the signal was answered 201.
    expect(slowOutcomes.map((o) => ("status" in o ? o.status : o.error))).toEqual(Array(6).fill(201));
    for (const o of quickOutcomes) {
      if ("status" in o) expect([201, 503]).toContain(o.status);
    }

    // None half-written: exactly the bundles answered 201 are stored, each with every figure.
    const stored = await db.bundle.findMany({
      select: { collectorVersion: true, _count: { select: { measurements: true } } },
    });
    const answered201 = [
      ...slowOutcomes.map((o, i) => ({ o, id: `slow-${i}` })),
      ...quickOutcomes.map((o, i) => ({ o, id: `quick-${i}` })),
    ]
      .filter(({ o }) => "status" in o && o.status === 201)
      .map(({ id }) => id);
    expect(stored.map((b) => b.collectorVersion).sort()).toEqual(answered201.sort());
    expect(stored.every((b) => b._count.measurements === RESULTS_PER_BUNDLE)).toBe(true);
    expect(logLines.some((l) => l.msg === "drained; exiting")).toBe(true);
  });
});
