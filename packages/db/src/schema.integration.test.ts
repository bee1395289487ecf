import { freshDatabase } from "@cnibench/test-support/database";
import { adminQuery, withDatabase } from "@cnibench/test-support/global-setup";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrateDatabase } from "./migrate.ts";

describe("migrations from an empty database", () => {
  const name = `cnibench_empty_${process.pid}`;
  let url: string;
  beforeAll(async () => {
    const template = inject("templateDatabaseUrl");
    await adminQuery(template, `CREATE DATABASE ${name}`);
    url = withDatabase(template, name);
  });
  afterAll(() => adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it("creates every table, then finds nothing pending on a second run", async () => {
    const lines: string[] = [];
    await migrateDatabase(url, (l) => lines.push(l));
    expect(lines.join("\n")).toMatch(/applied/i);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    await client.end();
    expect(rows.map((r) => r.table_name)).toEqual([
      "AlertCampaign",
      "ApiToken",
      "Bundle",
      "Cluster",
      "CniConfig",
      "CurrentFigure",
      "Invitation",
      "Kernel",
      "Measurement",
      "Membership",
      "NodeSku",
      "Permalink",
      "RateBudget",
      "Scenario",
      "User",
      "UserSession",
      "Webhook",
      "WebhookDelivery",
      "Workspace",
      "_prisma_migrations",
    ]);
    const again: string[] = [];
    await migrateDatabase(url, (l) => again.push(l));
    expect(again.join("\n")).toMatch(/No pending migrations/);
  });
});

describe("uniqueness and foreign keys", () => {
  let db: { url: string; drop: () => Promise<void> };
  let client: pg.Client;
  const q = (sql: string, values: unknown[] = []) => client.query(sql, values);

  beforeAll(async () => {
    db = await freshDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await q(`INSERT INTO "Workspace" (id, slug, name) VALUES ('w1', 'public', 'Public')`);
    await q(`INSERT INTO "Cluster" (id, key, provider, region, "kubernetesVersion", "nodeCount")
             VALUES ('c1', 'ck', 'tke', 'ap-guangzhou', 'v1.34.1-tke.5', 3)`);
    await q(`INSERT INTO "NodeSku" (id, provider, sku, vcpus, "memoryGiB") VALUES ('n1', 'tke', 'SA5.LARGE8', 4, 8)`);
    await q(`INSERT INTO "Kernel" (id, os, version) VALUES ('k1', 'TencentOS Server 4', '6.6.117-45.11.2')`);
    await q(`INSERT INTO "CniConfig" (id, key, name, version, mode, "kubeProxy", label, settings)
             VALUES ('cni1', 'cnik', 'cilium', '1.19.4', 'overlay-vxlan', 'ebpf', 'Cilium Overlay', '{}')`);
    await q(`INSERT INTO "Scenario" (id, "workspaceId", key, "clusterId", "nodeSkuId", "kernelId", "cniConfigId")
             VALUES ('s1', 'w1', 'sk', 'c1', 'n1', 'k1', 'cni1')`);
    await q(`INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName")
             VALUES ('b1', 'w1', 'h1', '{}', 's1', 'tke-c')`);
    await q(`INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, "paramsKey", value, unit,
               "publishedValue", "publishedUnit", better, campaign)
             VALUES ('b1', 's1', 0, 'http.rps', '{"connection":"short","services":20000}', 13080, 'req/s', 13080, 'req/s', 'higher', 'b1')`);
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  const rejects = async (sql: string, constraint: RegExp) => {
    await expect(q(sql)).rejects.toThrow(constraint);
  };

  it("keeps one workspace per slug", () =>
    rejects(`INSERT INTO "Workspace" (id, slug, name) VALUES ('w2', 'public', 'Again')`, /Workspace_slug_key/));

  it("keeps one scenario per (workspace, identity)", () =>
    rejects(
      `INSERT INTO "Scenario" (id, "workspaceId", key, "clusterId", "nodeSkuId", "kernelId", "cniConfigId")
       VALUES ('s2', 'w1', 'sk', 'c1', 'n1', 'k1', 'cni1')`,
      /Scenario_workspaceId_key_key/,
    ));

  it("keeps one bundle per (workspace, content hash): the idempotency key", () =>
    rejects(
      `INSERT INTO "Bundle" (id, "workspaceId", "contentHash", raw, "scenarioId", "clusterName")
       VALUES ('b2', 'w1', 'h1', '{}', 's1', 'tke-c')`,
      /Bundle_workspaceId_contentHash_key/,
    ));

  it("keeps one SKU per provider and one token per hash", async () => {
    await rejects(
      `INSERT INTO "NodeSku" (id, provider, sku) VALUES ('n2', 'tke', 'SA5.LARGE8')`,
      /NodeSku_provider_sku_key/,
    );
    await q(`INSERT INTO "ApiToken" (id, "workspaceId", name, "tokenHash") VALUES ('t1', 'w1', 'ci', 'th')`);
    await rejects(
      `INSERT INTO "ApiToken" (id, "workspaceId", name, "tokenHash") VALUES ('t2', 'w1', 'other', 'th')`,
      /ApiToken_tokenHash_key/,
    );
  });

  it("refuses a measurement of a bundle that does not exist", () =>
    rejects(
      `INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, "paramsKey", value, unit,
         "publishedValue", "publishedUnit", better, campaign)
       VALUES ('nope', 's1', 0, 'http.rps', '{}', 1, 'req/s', 1, 'req/s', 'higher', 'nope')`,
      /Measurement_bundleId_fkey/,
    ));

  it("refuses a scenario pointing at a missing cluster", () =>
    rejects(
      `INSERT INTO "Scenario" (id, "workspaceId", key, "clusterId", "nodeSkuId", "kernelId", "cniConfigId")
       VALUES ('s3', 'w1', 'other', 'missing', 'n1', 'k1', 'cni1')`,
      /Scenario_clusterId_fkey/,
    ));

  it("refuses a qualifier outside the contract's vocabulary", () =>
    rejects(
      `INSERT INTO "Measurement" ("bundleId", "scenarioId", position, metric, "paramsKey", value, unit,
         "publishedValue", "publishedUnit", better, qualifier, campaign)
       VALUES ('b1', 's1', 1, 'http.rps', '{}', 1, 'req/s', 1, 'req/s', 'higher', 'about', 'b1')`,
      /invalid input value for enum "Qualifier"/,
    ));

  it("deletes a bundle's measurements with the bundle", async () => {
    await q(`DELETE FROM "Bundle" WHERE id = 'b1'`);
    const { rows } = await q(`SELECT count(*)::int AS n FROM "Measurement" WHERE "bundleId" = 'b1'`);
    expect(rows[0].n).toBe(0);
  });
});
