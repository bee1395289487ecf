// npm run bench's import rows: POST /v1/import of a 5,000-file archive (gzipped tar of real iperf3
// outputs, as import-latency.integration.test sends; issue 31), files/s, and of a whole InfraBuilder
// result tree with its statexec files (177 MB unpacked; issue 46), seconds and peak memory; with the
// ingest process's event loop delay meanwhile (monitorEventLoopDelay: parsing runs in a worker thread,
// storing on the loop). The API runs in this process, so the histogram is the server's own loop.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { tar } from "@cnibench/test-support/archives";
import { environmentQuery, iperf3Fixture } from "@cnibench/test-support/fixtures";
import { curlImportTree, infrabuilderTreeArchive } from "@cnibench/test-support/infrabuilder-tree";
import { startIngest } from "@cnibench/test-support/ingest";
import { gzipSync } from "fflate";
import { type BenchRow, ms } from "./table.ts";

const files = 5_000;
const targetRate = 2_000;
const targetP99Ms = 50;
const treeTargetSeconds = 30;
const treeTargetMaxMs = 50;

export async function benchImport(url: string): Promise<BenchRow[]> {
  const api = await startIngest(url, { rateLimitPerMinute: 1e9 });
  const archive = (name: string, n: number) =>
    Buffer.from(
      gzipSync(
        tar(Array.from({ length: n }, (_, i) => ({ name: `${name}/${i}/iperf3.json`, bytes: iperf3Fixture() }))),
      ),
    );
  const post = async (body: Buffer, cluster: string, expected: number) => {
    const res = await fetch(`${api.base}/v1/import?${environmentQuery({ cluster })}`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.token}`, "content-type": "application/gzip" },
      body,
    });
    const answer = (await res.json()) as { bundles?: unknown[] };
    if (res.status !== 201 || answer.bundles?.length !== expected)
      throw new Error(`import answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  };
  try {
    await post(archive("warm", 10), "warm", 10); // the worker thread and the pool exist before the measured import
    const body = archive("runs", files);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    await post(body, "bench-import", files);
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    const rate = files / seconds;
    const p99 = delay.percentile(99) / 1e6;
    return [
      {
        part: "import",
        what: `${files.toLocaleString("en-US")}-file archive, files/s`,
        figure: `${Math.round(rate).toLocaleString("en-US")} (${seconds.toFixed(1)} s)`,
        target: `≥ ${targetRate.toLocaleString("en-US")}`,
        met: rate >= targetRate,
      },
      {
        part: "import",
        what: "event loop delay meanwhile, p99 / max ms",
        figure: `${ms(p99)} / ${ms(delay.max / 1e6)}`,
        target: `p99 < ${targetP99Ms}`,
        met: p99 < targetP99Ms,
      },
      ...(await benchTree(api.base, api.token)),
    ];
  } finally {
    await api.close();
  }
}

/**
 * The whole tree, sent by curl from a file (so this thread runs only the server): seconds, the loop's
 * longest turn (issue 46: never blocked > 50 ms) and the process's peak memory above its start.
 */
async function benchTree(base: string, token: string): Promise<BenchRow[]> {
  const { body, unpacked, files: entries } = infrabuilderTreeArchive();
  const dir = mkdtempSync(path.join(tmpdir(), "cnibench-bench-tree-"));
  const upload = path.join(dir, "tree.tgz");
  writeFileSync(upload, body);
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  try {
    delay.enable();
    const started = performance.now();
    const { status, answer } = await curlImportTree(base, token, upload, "bench-tree");
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    if (status !== 201 || answer.bundles.length !== 75)
      throw new Error(`tree import answered ${status}: ${JSON.stringify(answer).slice(0, 300)}`);
    const maxMs = delay.max / 1e6;
    const size = `${(unpacked / 2 ** 20).toFixed(0)} MiB in ${entries.toLocaleString("en-US")} files`;
    return [
      {
        part: "import",
        what: "whole InfraBuilder tree, s",
        figure: seconds.toFixed(1),
        against: `${size}, ${(body.length / 2 ** 20).toFixed(1)} MiB gzip; rss +${((rssPeak - rssBefore) / 2 ** 20).toFixed(0)} MiB at peak`,
        target: `< ${treeTargetSeconds} s`,
        met: seconds < treeTargetSeconds,
      },
      {
        part: "import",
        what: "event loop delay meanwhile, p99 / max ms",
        figure: `${ms(delay.percentile(99) / 1e6)} / ${ms(maxMs)}`,
        target: `max < ${treeTargetMaxMs}`,
        met: maxMs < treeTargetMaxMs,
      },
    ];
  } finally {
    clearInterval(sampler);
    rmSync(dir, { recursive: true, force: true });
  }
}
