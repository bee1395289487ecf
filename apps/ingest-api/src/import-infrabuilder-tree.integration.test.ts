/**
 * POST /v1/import of a result tree of the size class of InfraBuilder's whole published 2024 tree (175 MB
 * unpacked, about 5,000 files, most of the bytes statexec .prom), over real HTTP against a real
 * PostgreSQL, with the default limits: accepted, memory bounded, the event loop free. The tree is the
 * synthetic 25 setups × 3 runs of @cnibench/test-support (infrabuilder-setups.ts) with, for every test
 * and role, a synthetic statexec .prom of real statexec lines: 1,350 files of 131 KB, 177 MB in all
 * (the published files range from a few hundred KB to 8 MB; the total and the file count are what
 * the limits meet).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { promisify } from "node:util";
import type { Db } from "@cnibench/db";
import { tarHeader } from "@cnibench/test-support/archives";
import { freshDatabase } from "@cnibench/test-support/database";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { Gzip, strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let ingest: Awaited<ReturnType<typeof startIngest>>;
let db: Db;
let base: string;
let token: string;

beforeAll(async () => {
  database = await freshDatabase();
  // The default import limits (100 MiB held, 512 MiB streamed, 10,000 entries); a body limit of 64 MiB.
  ingest = await startIngest(database.url);
  ({ db, base, token } = ingest);
});
afterAll(async () => {
  await ingest.close();
  await database.drop();
});

const modes = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guestNice"];
/** CPU seconds each CPU spends per second in a mode: 0.08 busy (user, system, softirq), the rest idle. */
const perSecond: Record<string, number> = { user: 0.01, system: 0.02, softirq: 0.05, idle: 0.9, iowait: 0.02 };
const CPUS = 32;
const SAMPLES = 3;

/** statexec's per-second text for one test and role: SAMPLES samples of 32 CPUs × 10 modes, as statexec writes them. */
function syntheticProm(setup: string, run: string, test: string, role: string): Uint8Array {
  const lines = ["# Collector: blackswift/statexec", "# TYPE statexec_cpu_seconds_total counter"];
  for (let s = 0; s < SAMPLES; s++) {
    const at = 1704067200000 + s * 1000;
    lines.push(
      `statexec_command_status{instance="${test}",job="statexec",role="${role}",run="${run}",id="${setup}"} 1 ${at}`,
    );
    for (let cpu = 0; cpu < CPUS; cpu++) {
      for (const mode of modes) {
        const value = (100 + cpu + s * (perSecond[mode] ?? 0)).toFixed(6);
        lines.push(
          `statexec_cpu_seconds_total{instance="${test}",job="statexec",role="${role}",cpu="cpu${cpu}",mode="${mode}",id="${setup}",run="${run}"} ${value} ${at}`,
        );
      }
    }
  }
  return strToU8(`${lines.join("\n")}\n`);
}

/** A tar.gz built entry by entry (the 177 MB tar never exists whole in the test either). */
function tarGz(entries: Iterable<{ name: string; bytes: Uint8Array }>): {
  body: Uint8Array;
  unpacked: number;
  files: number;
} {
  const out: Uint8Array[] = [];
  let size = 0;
  const gzip = new Gzip({ level: 1 }, (chunk) => {
    out.push(chunk);
    size += chunk.length;
  });
  let unpacked = 0;
  let files = 0;
  for (const { name, bytes } of entries) {
    gzip.push(tarHeader({ name, bytes }));
    gzip.push(bytes);
    const pad = (512 - (bytes.length % 512)) % 512;
    if (pad) gzip.push(new Uint8Array(pad));
    unpacked += bytes.length;
    files += 1;
  }
  gzip.push(new Uint8Array(1024), true);
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of out) {
    body.set(c, at);
    at += c.length;
  }
  return { body, unpacked, files };
}

function* tree(): Generator<{ name: string; bytes: Uint8Array }> {
  const base = infrabuilderSetups("upload").filter((f) => !f.name.endsWith(".prom"));
  yield* base;
  for (const f of base) {
    const m = /^upload\/results\/([^/]+)\/(\d+)\/([a-z]+)-client\.cmd$/.exec(f.name);
    if (!m) continue;
    const [, setup, run, test] = m as unknown as [string, string, string, string];
    for (const role of ["client", "server"]) {
      yield {
        name: `upload/results/${setup}/${run}/${test}-${role}.prom`,
        bytes: syntheticProm(setup, run, test, role),
      };
    }
  }
}

describe("POST /v1/import of a whole InfraBuilder tree with its .prom files", () => {
  it("is accepted with the default limits, memory bounded and the event loop free", async () => {
    const { body, unpacked, files } = tarGz(tree());
    const dir = mkdtempSync(path.join(tmpdir(), "cnibench-ib-tree-"));
    const upload = path.join(dir, "ib.tgz");
    writeFileSync(upload, body);
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // The size class of the published tree: 175 MB and about 5,000 files, over the 100 MiB held limit.
    expect(unpacked).toBeGreaterThan(170 * 1024 * 1024);
    expect(files).toBeGreaterThan(5000);

    // The testbed as a user gives it (nicGbps 40, hybridnet's mode), the cluster of its own.
    const query = new URLSearchParams({ cluster: "infrabuilder-whole-tree" });
    const environment = JSON.stringify(infrabuilderEnvironment);
    const before = await rowCounts(db);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 10);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = performance.now();
    // Sent by curl, another process: this thread runs only the server (and the samplers), so what
    // holds its event loop is the server's.
    const { stdout } = await promisify(execFile)(
      "curl",
      [
        "-sS",
        "-X",
        "POST",
        `${base}/v1/import?${query}`,
        "-H",
        `authorization: Bearer ${token}`,
        "-H",
        "content-type: application/gzip",
        "-H",
        `x-cnibench-environment: ${environment}`,
        "--data-binary",
        `@${upload}`,
        "-w",
        "\n%{http_code}",
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const status = Number(stdout.slice(stdout.lastIndexOf("\n") + 1));
    const answer = JSON.parse(stdout.slice(0, stdout.lastIndexOf("\n"))) as {
      bundles: unknown[];
      refused: number;
      files: { status: string }[];
    };
    const seconds = (performance.now() - started) / 1000;
    lag.disable();
    clearInterval(sampler);
    const rssDelta = rssPeak - rssBefore;
    console.info(
      `whole tree: ${(body.length / 2 ** 20).toFixed(1)} MiB gzip, ${(unpacked / 2 ** 20).toFixed(1)} MiB unpacked in ${files} files; ` +
        `${seconds.toFixed(1)} s; rss +${(rssDelta / 2 ** 20).toFixed(0)} MiB at peak; event loop delay p95 ${(lag.percentile(95) / 1e6).toFixed(0)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms, max ${(lag.max / 1e6).toFixed(0)} ms`,
    );

    expect(status, JSON.stringify(answer).slice(0, 2000)).toBe(201);
    expect(answer.refused).toBe(0);
    expect(answer.bundles).toHaveLength(25 * 3);
    expect((await rowCounts(db)).bundles - before.bundles).toBe(75);
    // Bounded: measured here +180 to +206 MiB at peak, of which about +124 MiB is what the same import
    // without its .prom files (1.7 MB unpacked) costs: the worker's start and heap, the storage. Held
    // whole, as before, the 180 MiB tree was inflated, joined and copied into entries: +360 MiB at least.
    expect(rssDelta).toBeLessThan(256 * 1024 * 1024);
    // The unpacking and parsing run in a worker thread: this thread answers within 50 ms meanwhile, 95 %
    // of the time at least on this shared 2-core host at load 10-14 (measured: p95 11-20 ms, p99 19-80
    // ms, max 0.17-0.55 s). Profiled, this thread's own work is small (PostgreSQL statement building,
    // ~100 ms in all); the long turns are garbage collection, mostly of the 180 MB this test built.
    expect(lag.percentile(95) / 1e6).toBeLessThan(50);
    // One setup's figures, by construction: every CPU spends 0.01 s/s in user, 0.02 in system, 0.05 in
    // softirq; 32 CPUs over the 2 s between the first and the last sample: 0.08 × 32 = 2.56 cores.
    const first = answer.bundles[0] as { id: string };
    const stored = (await (await fetch(`${base}/v1/bundles/${first.id}`)).json()) as {
      bundle: { results: { metric: string; value: number; params?: Record<string, unknown> }[] };
    };
    const whole = stored.bundle.results.filter((r) => r.metric === "cpu.usage" && r.params?.accounting === "all-modes");
    expect(whole.length).toBeGreaterThan(0);
    for (const r of whole) expect(r.value).toBeCloseTo(2.56, 9);
  }, 120_000);
});
