/**
 * POST /v1/import of a result tree of the size class of InfraBuilder's whole published 2024 tree (175 MB
 * unpacked, about 5,000 files, most of the bytes statexec .prom; @cnibench/test-support's
 * infrabuilder-tree.ts), over real HTTP against a real PostgreSQL, with the default limits: accepted,
 * memory bounded, the event loop free.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Db } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { softirqShare } from "@cnibench/test-support/infrabuilder-setups";
import { curlImportTree, infrabuilderTreeArchive } from "@cnibench/test-support/infrabuilder-tree";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
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

describe("POST /v1/import of a whole InfraBuilder tree with its .prom files", () => {
  it("is accepted with the default limits, memory bounded and the event loop free", async () => {
    const { body, unpacked, files } = infrabuilderTreeArchive();
    const dir = mkdtempSync(path.join(tmpdir(), "cnibench-ib-tree-"));
    const upload = path.join(dir, "ib.tgz");
    writeFileSync(upload, body);
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // The size class of the published tree: 175 MB and about 5,000 files, over the 100 MiB held limit.
    expect(unpacked).toBeGreaterThan(170 * 1024 * 1024);
    expect(files).toBeGreaterThan(5000);

    const before = await rowCounts(db);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 10);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = performance.now();
    const { status, answer } = await curlImportTree(base, token, upload, "infrabuilder-whole-tree");
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
    // Each setup's own CPU: a test's whole-CPU figure (from its 32-CPU .prom) is all.results' user +
    // system of that test and role (its own figure in the bundle) with softirq on top, 2.3 times as
    // much for an encrypted setup and 0.6 times for a plain one (infrabuilder-setups.ts).
    const seen = new Map<string, number>();
    for (const { id } of answer.bundles) {
      const stored = (await (await fetch(`${base}/v1/bundles/${id}`)).json()) as {
        bundle: {
          cni: { label: string };
          results: { metric: string; value: number; params?: Record<string, unknown> }[];
        };
      };
      const cpu = stored.bundle.results.filter((r) => r.metric === "cpu.usage");
      // The same test and role: every param but the accounting.
      const testOf = (params: Record<string, unknown> = {}) => {
        const { accounting: _, ...rest } = params;
        return JSON.stringify(Object.entries(rest).sort());
      };
      const userSystem = (params?: Record<string, unknown>) =>
        cpu.find((r) => r.params?.accounting === "user+system" && testOf(r.params) === testOf(params))!.value;
      const whole = cpu.filter((r) => r.params?.accounting === "all-modes");
      expect(whole.length).toBeGreaterThan(0);
      const setup = stored.bundle.cni.label;
      for (const r of whole) {
        const expected = userSystem(r.params) * (1 + softirqShare(setup));
        // Counters of 6 decimals, 3 busy modes × 32 CPUs over 2 s: their rounding stays under 5e-5 cores.
        expect(r.value, `${setup} ${testOf(r.params)}`).toBeCloseTo(expected, 4);
      }
      const eightStreams = whole.find(
        (r) => r.params!.streams === 8 && r.params!.protocol === "tcp" && r.params!.role === "client",
      );
      seen.set(setup, eightStreams!.value);
    }
    // Not one figure for all: WireGuard costs Calico more CPU than none, as in infrabuilder-setups.ts.
    expect(seen.get("calico-wg")!).toBeGreaterThan(3 * seen.get("calico")!);
  }, 120_000);
});
