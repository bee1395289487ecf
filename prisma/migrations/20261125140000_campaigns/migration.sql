-- Campaigns (docs/design.md, series and campaigns). No semicolon inside a comment: the schema engine splits
-- the script at each one, comments included.
-- A bundle may name its campaign. Every measurement carries its campaign key, the bundle's campaign or
-- else the bundle's own id (a bundle uploaded alone is its own campaign), so the runs of a series'
-- latest campaign are one index range away from its current figure.
ALTER TABLE "Bundle" ADD COLUMN "campaign" TEXT;
ALTER TABLE "Measurement" ADD COLUMN "campaign" TEXT;
-- Every existing bundle becomes its own campaign (its samples, if any, are its runs).
UPDATE "Measurement" SET "campaign" = "bundleId";
ALTER TABLE "Measurement" ALTER COLUMN "campaign" SET NOT NULL;
CREATE INDEX "Measurement_scenarioId_metric_paramsKey_campaign_idx" ON "Measurement"("scenarioId", "metric", "paramsKey", "campaign");
