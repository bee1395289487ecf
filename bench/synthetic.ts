// Synthetic benchmark data, generated inside PostgreSQL: no round trips for millions of rows.
// Shape per bundle: the short-connection Service steps, throughput by streams, TCP_RR percentiles,
// keepalive RPS, and filler metrics up to the bundle size.
import type pg from "pg";

export const syntheticScenarios = 1000;
const providers = ["tke", "eks", "aks", "gke", "kind"];

/** Seeds `total` measurements (1,000 scenarios × 2 bundles) unless the database already holds them. */
export async function seedSynthetic(client: pg.Pool, workspaceId: string, total: number): Promise<void> {
  const { rows: existing } = await client.query<{ n: string }>('SELECT count(*) AS n FROM "Measurement"');
  if (Number(existing[0]?.n) > 0) {
    console.log(`reusing ${Number(existing[0]?.n).toLocaleString("en-US")} measurements already in the database`);
    return;
  }
  const scenarios = syntheticScenarios;
  const perBundle = Math.max(20, Math.round(total / scenarios / 2));
  const t0 = performance.now();
  await client.query(`
    INSERT INTO "Cluster" (id, key, provider, region, "kubernetesVersion", "nodeCount")
      SELECT 'cl' || i, 'cl' || i, (ARRAY['${providers.join("','")}'])[1 + i % 5], 'r' || i, 'v1.3' || (i % 4), 3
      FROM generate_series(0, 19) i;
    INSERT INTO "NodeSku" (id, provider, sku, vcpus, "memoryGiB", "nicGbps")
      SELECT 'sku' || i, 'p' || i, 'sku.' || i, 4, 16, 12.5 FROM generate_series(0, 19) i;
    INSERT INTO "Kernel" (id, os, version) SELECT 'k' || i, 'Linux', '6.' || i FROM generate_series(0, 9) i;
    INSERT INTO "CniConfig" (id, key, name, version, mode, "kubeProxy", label, settings)
      SELECT 'cni' || i, 'cni' || i, (ARRAY['cilium','cilium','kube-proxy','aws-vpc-cni','calico','flannel'])[1 + i],
        '1.0', (ARRAY['overlay-vxlan','native-routing','iptables','eni','bgp','vxlan'])[1 + i], 'ebpf', 'CNI ' || i, '{}'
      FROM generate_series(0, 5) i;
    INSERT INTO "Scenario" (id, "workspaceId", key, "clusterId", "nodeSkuId", "kernelId", "cniConfigId")
      SELECT 'sc' || i, '${workspaceId}', 'sc' || i, 'cl' || (i % 20), 'sku' || (i % 20), 'k' || (i % 10), 'cni' || (i % 6)
      FROM generate_series(0, ${scenarios - 1}) i;
    INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName", "sourceTitle", "runAt")
      SELECT 'b' || i || '_' || j, '${workspaceId}', md5(i || '_' || j), '{}', 'sc' || i, 'bench', 'bench source',
        timestamp '2026-01-01' + (j || ' days')::interval
      FROM generate_series(0, ${scenarios - 1}) i, generate_series(0, 1) j;`);
  // Per bundle: the short-connection Service steps, throughput by streams, TCP_RR percentiles,
  // keepalive RPS, and filler metrics up to perBundle.
  await client.query(`
    INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, params, "paramsKey", value, unit, samples,
      "publishedValue", "publishedUnit", better)
    SELECT 'b' || i || '_' || j, 'sc' || i, k, f.metric, f.params::jsonb, f.params, f.value, f.unit, '{}', f.value, f.unit,
      f.better::"Better"
    FROM generate_series(0, ${scenarios - 1}) i, generate_series(0, 1) j, generate_series(0, ${perBundle - 1}) k,
    LATERAL (SELECT * FROM (VALUES
      (k < 7, 'http.rps', '{"concurrency":64,"connection":"short","services":' || (k * 5000) || ',"target":"service"}',
        30000 - k * 3000 * (1 + i % 3) + j * 10 + i % 97, 'req/s', 'higher'),
      (k BETWEEN 7 AND 10, 'tcp.throughput', '{"path":"pod-pod","streams":' || (ARRAY[1,8,16,32])[k - 6] || '}',
        9 + (i % 7) * 0.1 + k * 0.01, 'Gbit/s', 'higher'),
      (k BETWEEN 11 AND 13, 'tcp.rr.latency', '{"percentile":"' || (ARRAY['p50','p90','p99'])[k - 10] || '"}',
        80 + k * 10 + i % 13, 'µs', 'lower'),
      (k BETWEEN 14 AND 15, 'http.rps', '{"concurrency":' || (ARRAY[64,256])[k - 13] || ',"connection":"keepalive","target":"service"}',
        90000 + i % 1000 + j, 'req/s', 'higher'),
      (k >= 16, 'x.bench.filler', '{"i":' || k || '}', k + i % 11, 'count', 'none')
    ) AS v(ok, metric, params, value, unit, better) WHERE v.ok) f`);
  // The counts the ingest transaction keeps (bundles.ts).
  await client.query(`
    UPDATE "Bundle" b SET "measurementCount" = ${perBundle};
    UPDATE "Scenario" s SET "bundleCount" = 2, "lastRunAt" = timestamp '2026-01-02', sources = '{bench source}';
    ANALYZE;`);
  const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM "Measurement"');
  console.log(
    `seeded ${Number(rows[0]?.n).toLocaleString("en-US")} measurements in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
