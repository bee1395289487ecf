-- Measurement."scenarioId" is its bundle's, written from the same row (packages/db/src/bundles.ts). The
-- bundle's foreign key already ties it to the scenario and cascades its deletion, so this key only
-- checked once more, for every measurement stored, what the bundle's check had: 0.72 ms of a
-- 200-measurement upload's 6.5 ms store statement (auto_explain, issue 31).
ALTER TABLE "Measurement" DROP CONSTRAINT "Measurement_scenarioId_fkey";

-- A prefix of Measurement_scenarioId_metric_paramsKey_campaign_idx, which serves the same lookups: in a
-- whole read benchmark at 1M it was scanned 3 times against 4 million, and every stored measurement
-- paid for its upkeep.
DROP INDEX "Measurement_scenarioId_metric_idx";
