-- How many runs measured each current figure (every stored measurement of its key): the scenario page
-- says so and fetches only the latest few runs, instead of reading a scenario's whole history to
-- count it (npm run bench: 20 runs per scenario at 10M measurements made the page 5.4× slower than 2
-- runs at 1M). The triggers keep the count with the holder.
ALTER TABLE "CurrentFigure" ADD COLUMN "runs" INTEGER NOT NULL DEFAULT 1;
UPDATE "CurrentFigure" c SET "runs" = n."runs"
FROM (SELECT "scenarioId", "metric", "paramsKey", count(*)::int AS "runs" FROM "Measurement" GROUP BY 1, 2, 3) n
WHERE c."scenarioId" = n."scenarioId" AND c."metric" = n."metric" AND c."paramsKey" = n."paramsKey";
ALTER TABLE "CurrentFigure" ALTER COLUMN "runs" DROP DEFAULT;

-- A scenario's revision goes up whenever its measurements change: the guide keeps the figures it ranks
-- while no revision in its workspaces has moved, instead of reading 12,000 of them per answer.
ALTER TABLE "Scenario" ADD COLUMN "revision" INTEGER NOT NULL DEFAULT 0;

-- As before (migration current_figures, which says why semicolons are spelt \073), and every added
-- figure counts as a run of its key whether or not it takes the key over, and its scenario is revised.
CREATE OR REPLACE FUNCTION "current_figure_added"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "CurrentFigure" AS c ("scenarioId", "metric", "paramsKey", "measurementId", "measuredAt", "receivedAt", "position",
    "runs")
  SELECT DISTINCT ON (a."scenarioId", a."metric", a."paramsKey") a."scenarioId", a."metric", a."paramsKey", a."id",
    COALESCE(b."runAt", b."receivedAt"), b."receivedAt", a."position",
    count(*) OVER (PARTITION BY a."scenarioId", a."metric", a."paramsKey")
  FROM "added" a JOIN "Bundle" b ON b."id" = a."bundleId"
  ORDER BY a."scenarioId", a."metric", a."paramsKey", COALESCE(b."runAt", b."receivedAt") DESC, b."receivedAt" DESC,
    a."position"
  ON CONFLICT ("scenarioId", "metric", "paramsKey") DO UPDATE SET "runs" = c."runs" + EXCLUDED."runs",
    "measurementId" = CASE WHEN (EXCLUDED."measuredAt", EXCLUDED."receivedAt", -EXCLUDED."position") > (c."measuredAt", c."receivedAt", -c."position") THEN EXCLUDED."measurementId" ELSE c."measurementId" END,
    "measuredAt" = CASE WHEN (EXCLUDED."measuredAt", EXCLUDED."receivedAt", -EXCLUDED."position") > (c."measuredAt", c."receivedAt", -c."position") THEN EXCLUDED."measuredAt" ELSE c."measuredAt" END,
    "receivedAt" = CASE WHEN (EXCLUDED."measuredAt", EXCLUDED."receivedAt", -EXCLUDED."position") > (c."measuredAt", c."receivedAt", -c."position") THEN EXCLUDED."receivedAt" ELSE c."receivedAt" END,
    "position" = CASE WHEN (EXCLUDED."measuredAt", EXCLUDED."receivedAt", -EXCLUDED."position") > (c."measuredAt", c."receivedAt", -c."position") THEN EXCLUDED."position" ELSE c."position" END\073
  UPDATE "Scenario" SET "revision" = "revision" + 1 WHERE "id" IN (SELECT "scenarioId" FROM "added")\073
  RETURN NULL\073
END ';

-- A deleted holder hands its key to the next most recent figure, if one is left, with the runs left;
-- the scenario, unless it goes too, is revised.
CREATE OR REPLACE FUNCTION "current_figure_removed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM "CurrentFigure" c USING "removed" r
  WHERE c."scenarioId" = r."scenarioId" AND c."metric" = r."metric" AND c."paramsKey" = r."paramsKey"
    AND c."measurementId" = r."id"\073
  UPDATE "CurrentFigure" c SET "runs" = c."runs" - r."runs"
  FROM (SELECT "scenarioId", "metric", "paramsKey", count(*)::int AS "runs" FROM "removed" GROUP BY 1, 2, 3) r
  WHERE c."scenarioId" = r."scenarioId" AND c."metric" = r."metric" AND c."paramsKey" = r."paramsKey"\073
  INSERT INTO "CurrentFigure" ("scenarioId", "metric", "paramsKey", "measurementId", "measuredAt", "receivedAt", "position",
    "runs")
  SELECT DISTINCT ON (m."scenarioId", m."metric", m."paramsKey") m."scenarioId", m."metric", m."paramsKey", m."id",
    COALESCE(b."runAt", b."receivedAt"), b."receivedAt", m."position",
    count(*) OVER (PARTITION BY m."scenarioId", m."metric", m."paramsKey")
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
  UPDATE "Scenario" SET "revision" = "revision" + 1 WHERE "id" IN (SELECT "scenarioId" FROM "removed")\073
  RETURN NULL\073
END ';
