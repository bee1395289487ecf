// npm run bench:ingest — uploads synthetic bundles over HTTP at a given concurrency and, in the same
// run, COPYs the same measurement rows into a scratch table: the practical upper bound for writing
// them. Everything runs on loopback against a throwaway embedded PostgreSQL (or BENCH_DATABASE_URL).
// Settings: BENCH_BUNDLES (default 200), BENCH_MEASUREMENTS per bundle (200), BENCH_CONCURRENCY (8).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { migrateDatabase } from "@cnibench/db";
import { startEmbeddedPostgres } from "@cnibench/launcher";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { startIngest } from "../test-support/ingest.ts";
import { freePort } from "../test-support/ports.ts";

const bundles = Number(process.env.BENCH_BUNDLES ?? 200);
const perBundle = Number(process.env.BENCH_MEASUREMENTS ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

function syntheticBundle(n: number) {
  return {
    schema: "cnibench/bundle@1",
    source: { title: "cnibench ingest benchmark", section: `bundle ${n}` },
    collector: { name: "bench/ingest.ts", version: String(n) },
    cluster: { name: `bench-${n % 10}`, provider: "kind", region: "local", kubernetesVersion: "v1.34.0", nodeCount: 3 },
    node: { sku: "bench.large", vcpus: 4, memoryGiB: 16, os: "Debian 12", kernel: "6.1.0" },
    cni: { name: "cilium", version: "1.19.4", mode: n % 2 ? "native" : "overlay-vxlan", kubeProxy: "ebpf" },
    results: Array.from({ length: perBundle }, (_, i) => ({
      metric: "http.rps",
      unit: "req/s",
      value: 10_000 + ((n * 7919 + i * 104_729) % 5_000),
      aggregate: "median",
      params: { connection: i % 2 ? "short" : "keepalive", concurrency: 64, target: "service", services: i * 100 },
      samples: [10_000 + i, 10_100 + i, 10_050 + i],
    })),
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-bench-"));
  fs.chmodSync(dataDir, 0o755);
  const embedded = process.env.BENCH_DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir, port: await freePort(), log: () => {} });
  const url = process.env.BENCH_DATABASE_URL ?? embedded!.url;
  try {
    await migrateDatabase(url);
    const api = await startIngest(url);
    const bodies = Array.from({ length: bundles }, (_, n) => JSON.stringify(syntheticBundle(n)));
    const latencies: number[] = [];
    let next = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const t0 = performance.now();
          const res = await api.upload(body);
          await res.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (res.status !== 201) failures++;
        }
      }),
    );
    const httpSeconds = (performance.now() - started) / 1000;
    await api.close();

    // The same rows, COPYed by one connection into a table shaped like Measurement.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE TABLE bench_copy (LIKE "Measurement" INCLUDING DEFAULTS INCLUDING INDEXES)`);
    const rows = function* () {
      for (let n = 0; n < bundles; n++) {
        for (const [i, r] of syntheticBundle(n).results.entries()) {
          const params = JSON.stringify(r.params).replaceAll('"', '""');
          yield `b${n},s${n % 2},${i},${r.metric},"${params}","${params}",${r.value},${r.unit},,,"{${r.samples.join(",")}}",${r.value},${r.unit},,median,higher\n`;
        }
      }
    };
    const copyStarted = performance.now();
    await pipeline(
      Readable.from(rows()),
      client.query(
        copyFrom(
          `COPY bench_copy ("bundleId","scenarioId",position,metric,params,"paramsKey",value,unit,low,high,samples,"publishedValue","publishedUnit",qualifier,aggregate,better) FROM STDIN WITH (FORMAT csv)`,
        ),
      ),
    );
    const copySeconds = (performance.now() - copyStarted) / 1000;
    await client.end();

    const measurements = bundles * perBundle;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
    const httpRate = measurements / httpSeconds;
    const copyRate = measurements / copySeconds;
    console.log(
      `\ningest benchmark: ${bundles} bundles × ${perBundle} measurements, concurrency ${concurrency}, ${os.cpus().length} CPUs`,
    );
    console.table({
      "HTTP upload": {
        seconds: httpSeconds.toFixed(2),
        "bundles/s": (bundles / httpSeconds).toFixed(1),
        "measurements/s": Math.round(httpRate),
        "p50 ms": pct(50),
        "p99 ms": pct(99),
        failures,
      },
      "COPY (same rows)": { seconds: copySeconds.toFixed(2), "measurements/s": Math.round(copyRate) },
    });
    console.log(`HTTP / COPY = ${(httpRate / copyRate).toFixed(2)}`);
    if (failures > 0) process.exitCode = 1;
  } finally {
    await embedded?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
