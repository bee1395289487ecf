-- Materialised per-scenario and per-bundle counts, kept by the ingest transaction.
ALTER TABLE "Scenario" ADD COLUMN "bundleCount" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "lastRunAt" TIMESTAMP(3),
  ADD COLUMN "sources" TEXT[] DEFAULT ARRAY[]::TEXT[];

ALTER TABLE "Bundle" ADD COLUMN "measurementCount" INTEGER NOT NULL DEFAULT 0;

UPDATE "Bundle" b SET "measurementCount" = (SELECT count(*) FROM "Measurement" m WHERE m."bundleId" = b.id);

UPDATE "Scenario" s SET "bundleCount" = agg.count, "lastRunAt" = agg.last, "sources" = COALESCE(agg.sources, ARRAY[]::TEXT[])
FROM (
  SELECT "scenarioId", count(*) AS count, max(COALESCE("runAt", "receivedAt")) AS last,
    array_agg(DISTINCT "sourceTitle" ORDER BY "sourceTitle") FILTER (WHERE "sourceTitle" IS NOT NULL) AS sources
  FROM "Bundle" GROUP BY "scenarioId"
) agg
WHERE agg."scenarioId" = s.id;
