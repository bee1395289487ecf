-- A bundle's cni.label is a display name, not part of what its scenario is (docs/design.md, identity).
-- No semicolon inside a comment: the schema engine splits the script at each one, comments included.

-- The scenario keeps its name: the label of the most recent upload that named one. Until now a label
-- was part of the CNI configuration, so each scenario had exactly one, which it keeps.
ALTER TABLE "Scenario" ADD COLUMN "label" TEXT;
UPDATE "Scenario" s SET "label" = n."label" FROM "CniConfig" n WHERE n."id" = s."cniConfigId";
UPDATE "CniConfig" SET "label" = NULL;

-- Scenario and CNI configuration keys, and the content hashes of bundles naming a label, were computed
-- with the label. SQL cannot recompute them (canonical JSON, RFC 8785): the prefix marks every
-- scenario for the data step that migrateDatabase runs next (packages/db/src/rekey.ts), which computes
-- the new keys and hashes, merges what now turns out to be one scenario or one bundle, and clears the
-- marks, all in one transaction.
UPDATE "Scenario" SET "key" = 'rekey:' || "key";

-- Deleting a campaign (DELETE /v1/campaigns/:campaign) and counting its bundles on a scenario page.
CREATE INDEX "Bundle_workspaceId_campaign_idx" ON "Bundle"("workspaceId", "campaign");
