// npm run bench's import row (issue 31): POST /v1/import of a 5,000-file archive (gzipped tar of real
// iperf3 outputs, as import-latency.integration.test sends), files/s, and the ingest process's event
// loop delay meanwhile (monitorEventLoopDelay: parsing runs in a worker thread, storing on the loop).
// The API runs in this process, so the histogram is the server's own loop.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { tar } from "@cnibench/test-support/archives";
import { environmentQuery, iperf3Fixture } from "@cnibench/test-support/fixtures";
import { startIngest } from "@cnibench/test-support/ingest";
import { gzipSync } from "fflate";
import { type BenchRow, ms } from "./table.ts";

const files = 5_000;
const targetRate = 2_000;
const targetP99Ms = 50;

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
    ];
  } finally {
    await api.close();
  }
}
