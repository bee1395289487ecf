-- The current figure of each (scenario, metric, params): the measurement of its most recent bundle
-- (runAt, else upload time), as DESIGN.md's "Identity and granularity" defines it. Views read current
-- figures here instead of sorting every run's figures per request, which grew with each scenario's
-- history (npm run bench:explore at 10M measurements: 20 runs per scenario). Triggers on "Measurement"
-- keep it, so every writer (ingest, bundle deletes and their cascades) keeps it right unawares.
CREATE TABLE "CurrentFigure" (
    "scenarioId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "paramsKey" TEXT NOT NULL,
    "measurementId" BIGINT NOT NULL,
    -- Where the holder stands in "most recent first": what a newly stored figure is compared with.
    "measuredAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "CurrentFigure_pkey" PRIMARY KEY ("scenarioId", "metric", "paramsKey")
);
-- Views read a few thousand rows of it by key: a parallel plan, which the planner chose for the
-- comparison of three scenarios, only added the workers' start-up (tens of ms on two busy cores).
ALTER TABLE "CurrentFigure" SET (parallel_workers = 0);

-- The function bodies write each semicolon as \073: @prisma/adapter-pg 6.19 applies a migration by splitting
-- its text at every semicolon, quoted or not, which would cut a body apart.

-- New figures take over a key when they are more recent than its holder: later run, then later
-- upload, then earlier in the bundle. Rows are upserted in key order, so two uploads into one
-- scenario wait for each other instead of deadlocking.
CREATE FUNCTION "current_figure_added"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "CurrentFigure" AS c ("scenarioId", "metric", "paramsKey", "measurementId", "measuredAt", "receivedAt", "position")
  SELECT DISTINCT ON (a."scenarioId", a."metric", a."paramsKey") a."scenarioId", a."metric", a."paramsKey", a."id",
    COALESCE(b."runAt", b."receivedAt"), b."receivedAt", a."position"
  FROM "added" a JOIN "Bundle" b ON b."id" = a."bundleId"
  ORDER BY a."scenarioId", a."metric", a."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC,
    a."position"
  ON CONFLICT ("scenarioId", "metric", "paramsKey") DO UPDATE SET "measurementId" = EXCLUDED."measurementId",
    "measuredAt" = EXCLUDED."measuredAt", "receivedAt" = EXCLUDED."receivedAt", "position" = EXCLUDED."position"
  WHERE (EXCLUDED."measuredAt", EXCLUDED."receivedAt", -EXCLUDED."position") > (c."measuredAt", c."receivedAt", -c."position")\073
  RETURN NULL\073
END ';

-- A deleted holder hands its key to the next most recent figure, if one is left.
CREATE FUNCTION "current_figure_removed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM "CurrentFigure" c USING "removed" r
  WHERE c."scenarioId" = r."scenarioId" AND c."metric" = r."metric" AND c."paramsKey" = r."paramsKey"
    AND c."measurementId" = r."id"\073
  INSERT INTO "CurrentFigure" ("scenarioId", "metric", "paramsKey", "measurementId", "measuredAt", "receivedAt", "position")
  SELECT DISTINCT ON (m."scenarioId", m."metric", m."paramsKey") m."scenarioId", m."metric", m."paramsKey", m."id",
    COALESCE(b."runAt", b."receivedAt"), b."receivedAt", m."position"
  FROM (
    SELECT DISTINCT r."scenarioId", r."metric", r."paramsKey" FROM "removed" r
    WHERE NOT EXISTS (SELECT FROM "CurrentFigure" c
      WHERE c."scenarioId" = r."scenarioId" AND c."metric" = r."metric" AND c."paramsKey" = r."paramsKey")
  ) k
  JOIN "Measurement" m ON m."scenarioId" = k."scenarioId" AND m."metric" = k."metric" AND m."paramsKey" = k."paramsKey"
  JOIN "Bundle" b ON b."id" = m."bundleId"
  ORDER BY m."scenarioId", m."metric", m."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC,
    m."position"
  ON CONFLICT DO NOTHING\073
  RETURN NULL\073
END ';

CREATE TRIGGER "current_figure_added" AFTER INSERT ON "Measurement"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "current_figure_added"();
CREATE TRIGGER "current_figure_removed" AFTER DELETE ON "Measurement"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "current_figure_removed"();

INSERT INTO "CurrentFigure" ("scenarioId", "metric", "paramsKey", "measurementId", "measuredAt", "receivedAt", "position")
SELECT DISTINCT ON (m."scenarioId", m."metric", m."paramsKey") m."scenarioId", m."metric", m."paramsKey", m."id",
  COALESCE(b."runAt", b."receivedAt"), b."receivedAt", m."position"
FROM "Measurement" m JOIN "Bundle" b ON b."id" = m."bundleId"
ORDER BY m."scenarioId", m."metric", m."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC,
  m."position";
