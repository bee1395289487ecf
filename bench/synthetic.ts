// Synthetic benchmark data, generated inside PostgreSQL: no round trips for millions of rows.
// 1,000 scenarios, each measured in several runs (bundles) of 500 figures: the short-connection
// Service steps, throughput by streams, TCP_RR percentiles, keepalive RPS, and filler metrics.
// A larger store is more runs of the same scenarios (a year of nightly runs, not 10,000 figures a
// bundle): what the explorer, charts and guide show keeps its size, and the history under it grows.
// Runs come in campaigns (docs/design.md) of four consecutive runs of a scenario, 'c<scenario>_<j / 4>':
// a figure's current value is its latest campaign's distribution, the older campaigns its history.
import type pg from "pg";

/**
 * A bundle of Cilium HTTP results for the upload benchmarks (bench/ingest.ts, bench/load.ts): bundle `n`
 * of a run, on one of `clusters` clusters, alternating native and VXLAN.
 */
export function syntheticUpload<R>(
  n: number,
  o: {
    title: string;
    tool: string;
    section: string;
    clusters: number;
    sku: string;
    results: R[];
  },
) {
  return {
    schema: "cnibench/bundle@1",
    source: { title: o.title, section: o.section },
    collector: { name: o.tool, version: String(n) },
    cluster: {
      name: `${o.sku.split(".")[0]}-${n % o.clusters}`,
      provider: "kind",
      region: "local",
      kubernetesVersion: "v1.34.0",
      nodeCount: 3,
    },
    node: { sku: o.sku, vcpus: 4, memoryGiB: 16, os: "Debian 12", kernel: "6.1.0" },
    cni: { name: "cilium", version: "1.19.4", mode: n % 2 ? "native" : "overlay-vxlan", kubeProxy: "ebpf" },
    results: o.results,
  };
}

export const syntheticScenarios = 1000;
const figuresPerRun = 500;
/** Consecutive runs of a scenario that form one campaign (the last one of a store may hold fewer). */
const runsPerCampaign = 4;
const providers = ["tke", "eks", "aks", "gke", "kind"];

/**
 * Seeds up to `total` measurements: 1,000 scenarios × max(2, total / 500,000) runs. A database that
 * already holds synthetic runs gets only the newer runs it lacks (so 1M grows into 10M); one holding
 * other data is used as it is.
 */
export async function seedSynthetic(client: pg.Pool, workspaceId: string, total: number): Promise<void> {
  const scenarios = syntheticScenarios;
  const runs = Math.max(2, Math.round(total / (scenarios * figuresPerRun)));
  const perRun = Math.max(20, Math.round(total / scenarios / runs));
  const count = async () =>
    Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM "Measurement"')).rows[0]?.n);
  const existing = await count();
  const { rows: seeded } = await client.query<{ runs: number; perRun: number }>(
    `SELECT count(*)::int AS runs, max("measurementCount") AS "perRun" FROM "Bundle" WHERE "scenarioId" = 'sc0'`,
  );
  const have = seeded[0]?.runs ?? 0;
  if (existing > 0 && (have === 0 || seeded[0]?.perRun !== perRun || have >= runs)) {
    console.log(`reusing ${existing.toLocaleString("en-US")} measurements already in the database`);
    return;
  }
  const t0 = performance.now();
  const tx = await client.connect();
  try {
    await tx.query("BEGIN");
    if (have === 0) await seedScenarios(tx, workspaceId, scenarios);
    // Indexes and foreign keys are set aside during the bulk insert and built once afterwards:
    // maintaining them row by row made a 10M seed take a quarter of an hour. The triggers that keep
    // CurrentFigure stay on, as for any writer.
    const { rows: indexes } = await tx.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes
       WHERE tablename = 'Measurement' AND indexname <> 'Measurement_pkey'`,
    );
    const { rows: keys } = await tx.query<{ name: string; def: string }>(
      `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
       WHERE conrelid = '"Measurement"'::regclass AND contype = 'f'`,
    );
    for (const k of keys) await tx.query(`ALTER TABLE "Measurement" DROP CONSTRAINT "${k.name}"`);
    for (const i of indexes) await tx.query(`DROP INDEX "${i.name}"`);
    await tx.query(`
      INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName", "sourceTitle", "runAt",
        "measurementCount", campaign)
      SELECT 'b' || i || '_' || j, '${workspaceId}', md5(i || '_' || j), '{}', 'sc' || i, 'bench', 'bench source',
        timestamp '2026-01-01' + (j || ' days')::interval, ${perRun}, 'c' || i || '_' || (j / ${runsPerCampaign})
      FROM generate_series(0, ${scenarios - 1}) i, generate_series(${have}, ${runs - 1}) j`);
    // Per run, in the order ingest would write it (a bundle's figures together, runs one after another).
    for (let j = have; j < runs; j++) {
      await tx.query(`
        WITH f AS (
          SELECT k, v.metric, v.params::jsonb AS params, v.params AS key, v.unit, v.better::"Better" AS better
          FROM generate_series(0, ${perRun - 1}) k, LATERAL (SELECT * FROM (VALUES
            (k < 7, 'http.rps',
              '{"concurrency":64,"connection":"short","services":' || (k * 5000) || ',"target":"service"}', 'req/s', 'higher'),
            (k BETWEEN 7 AND 10, 'tcp.throughput', '{"path":"pod-pod","streams":' || (ARRAY[1,8,16,32])[k - 6] || '}',
              'Gbit/s', 'higher'),
            (k BETWEEN 11 AND 13, 'tcp.rr.latency', '{"percentile":"' || (ARRAY['p50','p90','p99'])[k - 10] || '"}',
              'µs', 'lower'),
            (k BETWEEN 14 AND 15, 'http.rps',
              '{"concurrency":' || (ARRAY[64,256])[k - 13] || ',"connection":"keepalive","target":"service"}', 'req/s', 'higher'),
            (k >= 16, 'x.bench.filler', '{"i":' || k || '}', 'count', 'none')
          ) AS v(ok, metric, params, unit, better) WHERE v.ok) v)
        INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, params, "paramsKey", value, unit, samples,
          "publishedValue", "publishedUnit", better, campaign)
        SELECT 'b' || i || '_${j}', 'sc' || i, k, f.metric, f.params, f.key, x.value, f.unit, '{}', x.value, f.unit, f.better,
          'c' || i || '_${Math.floor(j / runsPerCampaign)}'
        FROM generate_series(0, ${scenarios * perRun - 1}) n
          CROSS JOIN LATERAL (SELECT n / ${perRun} AS i) s
          JOIN f ON f.k = n % ${perRun}
          -- Short-connection RPS falls with the Service count but stays positive, as the contract requires
          -- of a rate: at 3000 a step it reached −24,000 req/s, which the guide ranked and quoted.
          CROSS JOIN LATERAL (SELECT CASE
            WHEN k < 7 THEN 30000 - k * 1400 * (1 + i % 3) + ${j * 10} + i % 97
            WHEN k <= 10 THEN 9 + (i % 7) * 0.1 + k * 0.01 + ${j * 0.001}
            WHEN k <= 13 THEN 80 + k * 10 + i % 13 + ${j % 5}
            WHEN k <= 15 THEN 90000 + i % 1000 + ${j}
            ELSE k + i % 11 + ${j} END AS value) x
        ORDER BY n`);
    }
    for (const i of indexes) await tx.query(i.def);
    for (const k of keys) await tx.query(`ALTER TABLE "Measurement" ADD CONSTRAINT "${k.name}" ${k.def}`);
    // The counts the ingest transaction keeps (bundles.ts).
    await tx.query(`
      UPDATE "Scenario" SET "bundleCount" = ${runs}, "lastRunAt" = timestamp '2026-01-01' + interval '${runs - 1} days',
        sources = '{bench source}'`);
    await tx.query("COMMIT");
  } catch (error) {
    await tx.query("ROLLBACK");
    throw error;
  } finally {
    tx.release();
  }
  // Settled as a long-running store would be (visibility map set, statistics fresh, its pages
  // written), so neither autovacuum nor a checkpoint starts in the middle of the timings.
  await client.query("VACUUM ANALYZE");
  await client.query("CHECKPOINT");
  console.log(
    `seeded ${(await count()).toLocaleString("en-US")} measurements (${scenarios.toLocaleString("en-US")} scenarios × ${runs} runs × ${perRun}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

/** The scenarios and the clusters, instance types, kernels and CNI configurations they combine. */
async function seedScenarios(tx: pg.PoolClient, workspaceId: string, scenarios: number): Promise<void> {
  await tx.query(`
    INSERT INTO "Cluster" (id, key, provider, region, "kubernetesVersion", "nodeCount")
      SELECT 'cl' || i, 'cl' || i, (ARRAY['${providers.join("','")}'])[1 + i % 5], 'r' || i, 'v1.3' || (i % 4), 3
      FROM generate_series(0, 19) i;
    INSERT INTO "NodeSku" (id, provider, sku, vcpus, "memoryGiB", "nicGbps")
      SELECT 'sku' || i, 'p' || i, 'sku.' || i, 4, 16, 12.5 FROM generate_series(0, 19) i;
    INSERT INTO "Kernel" (id, os, version) SELECT 'k' || i, 'Linux', '6.' || i FROM generate_series(0, 9) i;
    INSERT INTO "CniConfig" (id, key, name, version, mode, "kubeProxy", label, settings)
      SELECT 'cni' || i, 'cni' || i, (ARRAY['cilium','cilium','antrea','aws-vpc-cni','calico','flannel'])[1 + i],
        '1.0', (ARRAY['overlay-vxlan','native','overlay-geneve','eni','bgp','overlay-vxlan'])[1 + i],
        -- The vocabulary's slugs, as an upload stores them; Cilium replaces kube-proxy, the others run beside it.
        (ARRAY['ebpf','ebpf','iptables','iptables','iptables','iptables'])[1 + i], 'CNI ' || i, '{}'
      FROM generate_series(0, 5) i;
    INSERT INTO "Scenario" (id, "workspaceId", key, "clusterId", "nodeSkuId", "kernelId", "cniConfigId")
      SELECT 'sc' || i, '${workspaceId}', 'sc' || i, 'cl' || (i % 20), 'sku' || (i % 20), 'k' || (i % 10), 'cni' || (i % 6)
      FROM generate_series(0, ${scenarios - 1}) i;`);
}
