// npm run bench:ingest — for bundles of 20, 200 and 2,000 measurements: uploads synthetic bundles over
// HTTP (POST /v1/bundles, concurrency 8) and, in the same run, COPYs the same measurement rows into a
// scratch table by one connection: the yardstick of the goal. Two more rows bound the ratio from
// either side: the same bundles stored without HTTP (storeBundle, 8 at a time: the store's share), and
// COPY into Measurement itself with each bundle's row (the least any upload writes: the ceiling). Each size sends about BENCH_INGEST_MEASUREMENTS measurements (default 60,000). Alone it
// runs against a throwaway embedded PostgreSQL (or BENCH_DATABASE_URL); npm run bench calls benchIngest.
import http from "node:http";
import os from "node:os";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import { storeBundle } from "@cnibench/db";
import { readStorableBundle } from "@cnibench/schema";
import { startIngest } from "@cnibench/test-support/ingest";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { withDatabase } from "./database.ts";
import { syntheticUpload } from "./synthetic.ts";
import { type BenchRow, printTable } from "./table.ts";

const perSize = Number(process.env.BENCH_INGEST_MEASUREMENTS ?? 60_000);
const concurrency = 8;
/** The target of issue 31, for 200-measurement bundles. */
const targetRatio = 0.5;

type Api = Awaited<ReturnType<typeof startIngest>>;
/** Tells this run's bundles apart from an earlier run's in a BENCH_DATABASE_URL kept between runs. */
const run = Date.now().toString(36);

/** `way` tells the bundles each row sends apart: the same content twice would be "already stored". */
function syntheticBundle(n: number, size: number, way = "bundle") {
  return syntheticUpload(n, {
    title: "cnibench ingest benchmark",
    tool: "bench/ingest.ts",
    section: `run ${run}, ${way} ${size}/${n}`,
    clusters: 10,
    sku: "bench.large",
    results: Array.from({ length: size }, (_, i) => ({
      metric: "http.rps",
      unit: "req/s",
      value: 10_000 + ((n * 7919 + i * 104_729) % 5_000),
      aggregate: "median",
      params: { connection: i % 2 ? "short" : "keepalive", concurrency: 64, target: "service", services: i * 100 },
      samples: [10_000 + i, 10_100 + i, 10_050 + i],
    })),
  });
}

/**
 * One POST /v1/bundles on a kept-alive connection. node:http, not fetch: the client shares the
 * server's process, and fetch's own work was a tenth of the server's.
 */
function post(api: Api, agent: http.Agent, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${api.base}/v1/bundles`,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${api.token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Uploads the bodies at `concurrency`; measurements/s, latency percentiles (ms) and non-201 answers. */
async function upload(api: Api, bodies: string[], measurements: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const t0 = performance.now();
        const status = await post(api, agent, body);
        latencies.push(performance.now() - t0);
        if (status !== 201) failures++;
      }
    }),
  );
  const rate = measurements / ((performance.now() - started) / 1000);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return { rate, p50: pct(50), p99: pct(99), failures };
}

/**
 * The same bundles read for storage beforehand, then stored by storeBundle at `concurrency`: the store's
 * share of an upload, without HTTP, parsing or the contract. Measurements/s.
 */
async function storeAlone(api: Api, bodies: readonly string[], measurements: number): Promise<number> {
  const inputs = bodies.map((body) => {
    const read = readStorableBundle({ text: body });
    if (!read.ok) throw new Error(`the contract refused a synthetic bundle (${read.reason})`);
    const { raw, contentHash, bundle, warnings } = read;
    return { workspaceId: api.workspaceId, tokenId: null, raw, contentHash, bundle, warnings };
  });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < inputs.length) await storeBundle(api.db, inputs[next++]!);
    }),
  );
  return measurements / ((performance.now() - started) / 1000);
}

const copyColumns = `("bundleId","scenarioId",position,metric,params,"paramsKey",value,unit,low,high,samples,"publishedValue","publishedUnit",qualifier,aggregate,better,campaign)`;

/** The CSV lines of bundles [from, to)'s measurements; each bundle's id and scenario are the caller's. */
function* csvRows(
  size: number,
  from: number,
  to: number,
  bundleId: (n: number) => string,
  scenarioId: (n: number) => string,
) {
  for (let n = from; n < to; n++) {
    for (const [i, r] of syntheticBundle(n, size).results.entries()) {
      const params = JSON.stringify(r.params).replaceAll('"', '""');
      // campaign: the bundle's id, as for a bundle uploaded alone (it names no campaign).
      yield `${bundleId(n)},${scenarioId(n)},${i},${r.metric},"${params}","${params}",${r.value},${r.unit},,,"{${r.samples.join(",")}}",${r.value},${r.unit},,median,higher,${bundleId(n)}\n`;
    }
  }
}

const copyInto = (client: pg.Client, table: string, rows: Iterable<string>) =>
  pipeline(Readable.from(rows), client.query(copyFrom(`COPY ${table} ${copyColumns} FROM STDIN WITH (FORMAT csv)`)));

/** The same rows, COPYed by one connection into a fresh table shaped like Measurement (indexes included). */
async function copy(url: string, bundles: number, size: number): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS bench_copy`);
    await client.query(`CREATE TABLE bench_copy (LIKE "Measurement" INCLUDING DEFAULTS INCLUDING INDEXES)`);
    const started = performance.now();
    await copyInto(
      client,
      "bench_copy",
      csvRows(
        size,
        0,
        bundles,
        (n) => `b${n}`,
        (n) => `s${n % 2}`,
      ),
    );
    const rate = (bundles * size) / ((performance.now() - started) / 1000);
    await client.query(`DROP TABLE bench_copy`);
    return rate;
  } finally {
    await client.end();
  }
}

/**
 * The least any upload path writes: each bundle's row with the uploaded text, then its measurements
 * COPYed into Measurement itself, where the bundle key is checked and the current-figure trigger runs;
 * `concurrency` bundles a transaction, on two connections, as the store groups uploads arriving together
 * in its two write turns. Nothing of HTTP, parsing, the contract or the scenario's counts: the ceiling of
 * the ingest ratio on this machine. Written into the uploads' scenarios, then deleted.
 */
async function copyCeiling(url: string, api: Api, bodies: readonly string[], size: number): Promise<number> {
  const clients = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  await Promise.all(clients.map((c) => c.connect()));
  try {
    // The synthetic bundles alternate between two scenarios (their CNI mode): the uploads made both.
    const { rows } = await clients[0]!.query<{ id: string }>(
      `SELECT "scenarioId" AS id FROM "Bundle" WHERE "workspaceId" = $1 AND "sourceSection" = ANY($2) ORDER BY "sourceSection"`,
      [api.workspaceId, [0, 1].map((n) => `run ${run}, bundle ${size}/${n}`)],
    );
    const scenarios = rows.map((r) => r.id);
    const id = (n: number) => `ceiling-${run}-${size}-${n}`;
    const write = async (client: pg.Client, from: number, to: number) => {
      const ids = Array.from({ length: to - from }, (_, i) => id(from + i));
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName", "receivedAt", warnings, "measurementCount")
         SELECT b.id, $2, b.id, b.raw, b.scenario, 'ceiling', now() AT TIME ZONE 'UTC', '[]', $5
         FROM unnest($1::text[], ARRAY(SELECT json_array_elements_text($3::json)), $4::text[]) AS b(id, raw, scenario)`,
        // The texts as one JSON array, as the store sends them: node-postgres escapes a text[] slowly.
        [
          ids,
          api.workspaceId,
          JSON.stringify(bodies.slice(from, to)),
          ids.map((_, i) => scenarios[(from + i) % 2]),
          size,
        ],
      );
      await copyInto(
        client,
        `"Measurement"`,
        csvRows(size, from, to, id, (n) => scenarios[n % 2]!),
      );
      await client.query("COMMIT");
    };
    let next = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        while (next < bodies.length) {
          const from = next;
          next = Math.min(bodies.length, from + concurrency);
          await write(client, from, next);
        }
      }),
    );
    const rate = (bodies.length * size) / ((performance.now() - started) / 1000);
    await clients[0]!.query(`DELETE FROM "Bundle" WHERE id LIKE $1`, [`ceiling-${run}-%`]);
    return rate;
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

export async function benchIngest(url: string, sizes = [20, 200, 2000]): Promise<BenchRow[]> {
  // No rate limit: thousands of uploads a minute from one token are the point here.
  const api = await startIngest(url, { rateLimitPerMinute: 1e9 });
  const rows: BenchRow[] = [];
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  try {
    for (const size of sizes) {
      const bundles = Math.max(concurrency, Math.round(perSize / size));
      const bodies = Array.from({ length: bundles }, (_, i) => JSON.stringify(syntheticBundle(i, size)));
      const sent = await upload(api, bodies, bundles * size);
      const copyRate = await copy(url, bundles, size);
      const stored = await storeAlone(
        api,
        Array.from({ length: bundles }, (_, i) => JSON.stringify(syntheticBundle(i, size, "stored"))),
        bundles * size,
      );
      const ceiling = await copyCeiling(url, api, bodies, size);
      const ratio = sent.rate / copyRate;
      const failed = sent.failures > 0 ? `, ${sent.failures} of ${bundles} not 201` : "";
      const target = size === 200 ? `≥ ${targetRatio}× COPY` : undefined;
      const against = (rate: number) => `COPY ${n(copyRate)}/s → ${(rate / copyRate).toFixed(2)}×`;
      rows.push(
        {
          part: "ingest",
          what: `${n(size)} measurements/bundle, measurements/s`,
          figure: `${n(sent.rate)} (p50 ${n(sent.p50)} ms, p99 ${n(sent.p99)} ms${failed})`,
          against: against(sent.rate),
          target,
          met: sent.failures > 0 ? false : target ? ratio >= targetRatio : undefined,
        },
        {
          part: "ingest",
          what: `${n(size)}/bundle, the store alone: storeBundle, ${concurrency} at a time`,
          figure: `${n(stored)}/s`,
          against: against(stored),
        },
        {
          part: "ingest",
          what: `${n(size)}/bundle, ceiling: COPY into Measurement with the bundles' rows`,
          figure: `${n(ceiling)}/s`,
          against: against(ceiling),
        },
      );
    }
  } finally {
    await api.close();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const rows = await withDatabase((url) => benchIngest(url));
  printTable(`npm run bench:ingest — concurrency ${concurrency}, ${os.cpus().length} CPUs`, rows);
  if (rows.some((r) => r.met === false)) process.exitCode = 1;
}
