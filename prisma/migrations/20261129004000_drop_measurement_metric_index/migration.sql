-- Every read of measurements names the scenario, which "Measurement_scenarioId_metric_paramsKey_campaign_idx"
-- leads with. This index only cost each stored measurement one more insert (npm run bench, ingest of
-- 200-measurement bundles: see docs/performance.md) and 33 MB per million measurements.
DROP INDEX "Measurement_metric_scenarioId_paramsKey_idx";
