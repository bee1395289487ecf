-- Testbeds (docs/design.md, identity and granularity): the scenarios of a workspace that differ only in
-- what changes over time (CNI version, kernel and OS, the node image, and Kubernetes version), so a
-- series can be followed across upgrades. A testbed is the cluster's provider, region and node count,
-- the instance type, and the CNI's name, mode, kube-proxy mode and settings. Scenario identity stays.
-- No semicolon inside a comment: the schema engine splits the script at each one, comments included.

-- The key is a hash of those fields, computed by one function in the database: the backfill below and
-- the trigger that sets it on every scenario written later (by ingest, the rekey data step, bench's
-- synthetic loader, or a test's INSERT) use the same definition, so the two cannot drift apart. It is
-- not workspace-wide unique on its own: a testbed is (workspace, testbedKey), as a scenario is
-- (workspace, key). The JSON text of a jsonb value is canonical (keys sorted, no spacing), so equal
-- settings hash alike. Cluster, instance type and CNI configuration rows are keyed by their fields and
-- never change them, so the key of a scenario changes only when it is pointed at another row.
CREATE FUNCTION "testbed_key"("clusterId" TEXT, "nodeSkuId" TEXT, "cniConfigId" TEXT) RETURNS TEXT
LANGUAGE sql STABLE AS E'
  SELECT encode(sha256(convert_to(jsonb_build_array(
    c.provider, c.region, c."nodeCount", k.provider, k.sku, n.name, n.mode, n."kubeProxy", n.settings)::text, ''UTF8'')), ''hex'')
  FROM "Cluster" c, "NodeSku" k, "CniConfig" n
  WHERE c.id = "testbed_key"."clusterId" AND k.id = "testbed_key"."nodeSkuId" AND n.id = "testbed_key"."cniConfigId"
';

ALTER TABLE "Scenario" ADD COLUMN "testbedKey" TEXT;
UPDATE "Scenario" SET "testbedKey" = "testbed_key"("clusterId", "nodeSkuId", "cniConfigId");
ALTER TABLE "Scenario" ALTER COLUMN "testbedKey" SET NOT NULL;

-- The function bodies write each semicolon as \073 (see migration current_figures for why). A row
-- pointing at a missing cluster, instance type or CNI configuration gets no key from the function: the
-- empty one lets its foreign key refuse it with its own error (checked after this trigger).
CREATE FUNCTION "scenario_testbed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  NEW."testbedKey" := COALESCE("testbed_key"(NEW."clusterId", NEW."nodeSkuId", NEW."cniConfigId"), '''')\073
  RETURN NEW\073
END ';
CREATE TRIGGER "scenario_testbed" BEFORE INSERT OR UPDATE OF "clusterId", "nodeSkuId", "cniConfigId" ON "Scenario"
  FOR EACH ROW EXECUTE FUNCTION "scenario_testbed"();

-- A series' history reads every scenario of its testbed.
CREATE INDEX "Scenario_workspaceId_testbedKey_idx" ON "Scenario"("workspaceId", "testbedKey");
