// Hand-written SQL giving the same answers as the named query functions (bench/reads.ts checks
// them equal): what a careful engineer would write for each view with no application code around it.

const scenarioColumns = `s.id, c.provider, c.region, c."kubernetesVersion", c."nodeCount", k.sku, k.vcpus, k."memoryGiB",
  k."nicGbps", kr.os, kr.version AS kernel, n.name AS "cniName", n.version AS "cniVersion", n.mode AS "cniMode",
  n."kubeProxy", n.label AS "cniLabel", n.settings, s.sources, s."bundleCount", s."lastRunAt"`;
const scenarioJoins = `"Scenario" s JOIN "Cluster" c ON c.id = s."clusterId" JOIN "NodeSku" k ON k.id = s."nodeSkuId"
  JOIN "Kernel" kr ON kr.id = s."kernelId" JOIN "CniConfig" n ON n.id = s."cniConfigId"`;

// Current figures come from CurrentFigure (kept by triggers at ingest), as the query functions read
// them. ARRAY(…) runs the scope once, first; written as IN (…), PostgreSQL 17 joined it per row.
// A figure is its latest campaign's distribution: with several bundles in the holder's campaign, the
// median of their runs (rounds, else values; qualified figures are no runs), as the functions compute it.
const latest = (where: string, scenarios = "ARRAY(SELECT id FROM sc)") => `
  latest AS (
    SELECT m."scenarioId", m.metric, m.params,
      CASE WHEN r.bundles > 1 AND r.runs IS NOT NULL THEN
        CASE WHEN cardinality(r.runs) % 2 = 1 THEN r.runs[cardinality(r.runs) / 2 + 1]
          ELSE (r.runs[cardinality(r.runs) / 2] + r.runs[cardinality(r.runs) / 2 + 1]) / 2 END
        ELSE m.value END AS value,
      m.qualifier
    FROM "CurrentFigure" c JOIN "Measurement" m ON m.id = c."measurementId"
    CROSS JOIN LATERAL (
      SELECT count(*) AS bundles,
        (SELECT array_agg(x ORDER BY x) FROM "Measurement" q,
          unnest(CASE WHEN cardinality(q.samples) > 0 THEN q.samples ELSE ARRAY[q.value] END) x
         WHERE q."scenarioId" = m."scenarioId" AND q.metric = m.metric AND q."paramsKey" = m."paramsKey"
           AND q.campaign = m.campaign AND q.qualifier IS NULL) AS runs
      FROM "Measurement" r
      WHERE r."scenarioId" = m."scenarioId" AND r.metric = m.metric AND r."paramsKey" = m."paramsKey"
        AND r.campaign = m.campaign) r
    WHERE c."scenarioId" = ANY(${scenarios}) AND ${where})`;

// A column's figure: the metric at exactly the column's params once the baseline ones are taken off
// (the latest CTE keeps only figures whose services, policy and hubble are at baseline), the one with
// the fewest params first, an exact one before a qualified one; never chosen by its value.
const headline = (metric: string, params: object) =>
  `(array_agg(l.value ORDER BY (SELECT count(*) FROM jsonb_object_keys(l.params)), l.qualifier IS NOT NULL,
      l.params::text) FILTER (WHERE l.metric = '${metric}'
      AND l.params - 'services' - 'policy' - 'hubble' = '${JSON.stringify(params)}'::jsonb))[1]`;

/** The explorer's rows for providers $1: each scenario's facts and its figures in the default columns. */
export const exploreRows = `WITH
  sc AS (SELECT ${scenarioColumns} FROM ${scenarioJoins} WHERE c.provider = ANY($1)),
  ${latest(`c.metric IN ('http.rps', 'tcp.throughput', 'tcp.rr.latency', 'udp.loss')
      AND COALESCE(m.params->'services', '0') = '0' AND COALESCE(m.params->'policy', '"none"') = '"none"'
      AND COALESCE(m.params->'hubble', '"off"') = '"off"'`)}
  SELECT sc.id,
    ${headline("tcp.throughput", { path: "pod-pod", streams: 1 })} AS "tcpPod1",
    ${headline("tcp.throughput", { path: "pod-pod", streams: 8 })} AS "tcpPod8",
    ${headline("udp.loss", { path: "pod-pod", streams: 1 })} AS "udpLossPod1",
    ${headline("http.rps", { connection: "short", concurrency: 64, target: "service" })} AS "shortRps",
    ${headline("tcp.rr.latency", { percentile: "p99" })} AS "tcpRrP99",
    min(sc.provider) AS provider, min(sc.sku) AS sku, min(sc."cniName") AS cni, max(sc."bundleCount") AS bundles
  FROM sc LEFT JOIN latest l ON l."scenarioId" = sc.id
  GROUP BY sc.id`;

/** The explorer's facet counts with providers $1 ticked: a facet's counts ignore its own filter. */
export const exploreFacets = `WITH s AS (
    SELECT c.provider, k.sku, kr.version AS kernel, c."kubernetesVersion" AS k8s, n.name AS cni, n.mode,
      n."kubeProxy", s.sources, c.provider = ANY($1) AS ok
    FROM ${scenarioJoins})
  SELECT 'provider' AS facet, provider AS value, count(*) AS count FROM s GROUP BY provider
  UNION ALL SELECT 'sku', sku, count(*) FILTER (WHERE ok) FROM s GROUP BY sku
  UNION ALL SELECT 'kernel', kernel, count(*) FILTER (WHERE ok) FROM s GROUP BY kernel
  UNION ALL SELECT 'k8s', k8s, count(*) FILTER (WHERE ok) FROM s GROUP BY k8s
  UNION ALL SELECT 'cni', cni, count(*) FILTER (WHERE ok) FROM s GROUP BY cni
  UNION ALL SELECT 'mode', mode, count(*) FILTER (WHERE ok) FROM s GROUP BY mode
  UNION ALL SELECT 'kubeProxy', "kubeProxy", count(*) FILTER (WHERE ok) FROM s GROUP BY "kubeProxy"
  UNION ALL SELECT 'source', t, count(*) FILTER (WHERE ok) FROM s, unnest(s.sources) t GROUP BY t`;

/**
 * A scenario page for id $1: its facts, each figure's newest runs (its latest campaign, the largest of
 * which sets how many, and the three older ones the page shows) with the count of all, its bundles.
 */
export const scenarioPage = {
  facts: `SELECT ${scenarioColumns} FROM ${scenarioJoins} WHERE s.id = $1`,
  // The four newest bundles hold the four newest runs of every figure they measure four times (or
  // as often as it was measured at all); the others are read in full.
  figures: `WITH figure AS (SELECT metric, "paramsKey", runs FROM "CurrentFigure" WHERE "scenarioId" = $1),
    size AS (SELECT 3 + max(n) AS k FROM (SELECT count(*) AS n FROM "CurrentFigure" c
      JOIN "Measurement" m ON m.id = c."measurementId" JOIN "Measurement" r ON r."scenarioId" = m."scenarioId"
        AND r.metric = m.metric AND r."paramsKey" = m."paramsKey" AND r.campaign = m.campaign
      WHERE c."scenarioId" = $1 GROUP BY c.metric, c."paramsKey") per),
    recent AS (SELECT id FROM (SELECT id, rank() OVER (ORDER BY COALESCE("runAt", "receivedAt") DESC) AS r
      FROM "Bundle" WHERE "scenarioId" = $1) b WHERE r <= (SELECT k FROM size)),
    near AS (SELECT m.id, m.metric, m."paramsKey" FROM recent JOIN "Measurement" m ON m."bundleId" = recent.id),
    short AS (SELECT f.metric, f."paramsKey" FROM figure f
      LEFT JOIN (SELECT metric, "paramsKey", count(*) AS n FROM near GROUP BY 1, 2) found USING (metric, "paramsKey")
      WHERE COALESCE(found.n, 0) < LEAST(f.runs, (SELECT k FROM size))),
    picked AS (SELECT id FROM near WHERE (metric, "paramsKey") NOT IN (SELECT metric, "paramsKey" FROM short)
      UNION ALL SELECT m.id FROM short JOIN "Measurement" m
        ON m."scenarioId" = $1 AND m.metric = short.metric AND m."paramsKey" = short."paramsKey")
    SELECT * FROM (
      SELECT m.*, b."sourceTitle", b."sourceUrl", COALESCE(b."runAt", b."receivedAt") AS "measuredAt",
        row_number() OVER (PARTITION BY m.metric, m."paramsKey" ORDER BY COALESCE(b."runAt", b."receivedAt") DESC) AS n,
        f.runs
      FROM picked JOIN "Measurement" m ON m.id = picked.id JOIN "Bundle" b ON b.id = m."bundleId"
        JOIN figure f ON f.metric = m.metric AND f."paramsKey" = m."paramsKey") x
    WHERE n <= (SELECT k FROM size) ORDER BY metric, "paramsKey", n`,
  bundles: `SELECT * FROM "Bundle" WHERE "scenarioId" = $1 ORDER BY COALESCE("runAt", "receivedAt") DESC`,
};

/**
 * The crossover view of metric $2 along Services for providers $1 with connection=short: the points
 * of the first $3 lines (a line is a scenario and its other params, with two or more steps).
 */
export const crossoverPoints = `WITH
  sc AS (SELECT s.id, row_number() OVER (ORDER BY c.provider, s."createdAt", s.id) AS rank
    FROM "Scenario" s JOIN "Cluster" c ON c.id = s."clusterId" WHERE c.provider = ANY($1)),
  ${latest(`c.metric = $2 AND m.params @> '{"connection":"short"}' AND jsonb_typeof(m.params->'services') = 'number'`)},
  lines AS (
    SELECT l."scenarioId", l.params - 'services' - 'connection' AS rest, min(sc.rank) AS rank
    FROM latest l JOIN sc ON sc.id = l."scenarioId" GROUP BY 1, 2 HAVING count(*) >= 2
    ORDER BY 3 LIMIT $3)
  SELECT l."scenarioId", (l.params->>'services')::int AS x, l.value
  FROM latest l JOIN lines ON lines."scenarioId" = l."scenarioId" AND lines.rest = l.params - 'services' - 'connection'`;

/**
 * A comparison of scenarios $1: their facts, every current figure of each (the rows align them), and
 * the runs of each figure's earlier campaigns — measured and uploaded before its own — whose noise
 * the verdicts pool.
 */
export const compareData = {
  facts: `SELECT ${scenarioColumns} FROM ${scenarioJoins} WHERE s.id = ANY($1)`,
  figures: `WITH ${latest("TRUE", "$1")}
  SELECT "scenarioId", metric, params, value FROM latest`,
  earlier: `WITH cur AS (
    SELECT c."scenarioId", c.metric, c."paramsKey", m.params, m.campaign, b."receivedAt",
      COALESCE(b."runAt", b."receivedAt") AS at
    FROM "CurrentFigure" c JOIN "Measurement" m ON m.id = c."measurementId" JOIN "Bundle" b ON b.id = m."bundleId"
    WHERE c."scenarioId" = ANY($1))
  SELECT cur."scenarioId", cur.metric, cur.params, e.campaign,
    sum(GREATEST(cardinality(e.samples), 1))::int AS runs
  FROM cur JOIN "Measurement" e ON e."scenarioId" = cur."scenarioId" AND e.metric = cur.metric
      AND e."paramsKey" = cur."paramsKey" AND e.campaign <> cur.campaign AND e.qualifier IS NULL
    JOIN "Bundle" eb ON eb.id = e."bundleId" AND COALESCE(eb."runAt", eb."receivedAt") <= cur.at
      AND eb."receivedAt" <= cur."receivedAt"
  GROUP BY 1, 2, 3, 4`,
};

/**
 * What the guide ranks from: every scenario's current figures of metrics $1, and the clouds and
 * instance types its form offers with their scenario counts.
 */
export const guideData = {
  figures: `WITH sc AS (SELECT id FROM "Scenario"),
  ${latest("c.metric = ANY($1)")}
  SELECT "scenarioId", metric, params, value FROM latest`,
  clouds: `SELECT c.provider AS value, count(*)::int AS scenarios
    FROM "Scenario" s JOIN "Cluster" c ON c.id = s."clusterId" GROUP BY 1`,
  skus: `SELECT k.sku AS value, c.provider, count(*)::int AS scenarios
    FROM ${scenarioJoins} WHERE k.sku <> 'unknown' GROUP BY 1, 2`,
};

/**
 * A series' history (metric $2, params $3) across the testbed of scenario $1: the testbed's scenarios
 * (what changed between campaigns), and the latest 200 campaigns, each with its runs (samples, else the
 * value) and its time (its latest bundle's).
 */
export const historyData = {
  facts: `SELECT ${scenarioColumns} FROM ${scenarioJoins}
    WHERE (s."workspaceId", s."testbedKey") = (SELECT "workspaceId", "testbedKey" FROM "Scenario" WHERE id = $1)`,
  campaigns: `WITH
  t AS (SELECT t.id FROM "Scenario" a JOIN "Scenario" t ON t."workspaceId" = a."workspaceId"
    AND t."testbedKey" = a."testbedKey" WHERE a.id = $1)
  SELECT m."scenarioId", m.campaign, max(COALESCE(b."runAt", b."receivedAt")) AS at,
    array_agg(v ORDER BY v) AS runs
  FROM "Measurement" m JOIN "Bundle" b ON b.id = m."bundleId"
    CROSS JOIN LATERAL unnest(CASE WHEN cardinality(m.samples) > 0 THEN m.samples ELSE ARRAY[m.value] END) v
  WHERE m."scenarioId" IN (SELECT id FROM t) AND m.metric = $2 AND m."paramsKey" = $3 AND m.qualifier IS NULL
  GROUP BY 1, 2 ORDER BY 3 DESC, max(b."receivedAt") DESC, m.campaign COLLATE "C" DESC LIMIT 200`,
};
