-- Alerts judged on whole campaigns (issue 41). Each (scenario, campaign) that a workspace with a live
-- webhook stores a bundle into waits here until it is complete: its collector closed it, or no bundle
-- came for the quiet period. The alert worker then judges it once, as the gate does. A trigger on
-- "Bundle" keeps it, so every way in (API upload, import, the web page) is seen without queueing inside
-- the request, and a bundle stored is never without its row (same transaction).
-- No semicolon inside a comment: the schema engine splits the script at each one, comments included.

CREATE TABLE "AlertCampaign" (
    "scenarioId" TEXT NOT NULL,
    "campaign" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "lastBundleAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "version" INTEGER NOT NULL DEFAULT 1,
    "closedAt" TIMESTAMP(3),
    "judgedAt" TIMESTAMP(3),
    "judgedVersion" INTEGER,
    "claimedUntil" TIMESTAMP(3),

    CONSTRAINT "AlertCampaign_pkey" PRIMARY KEY ("scenarioId", "campaign")
);

-- The worker looks for campaigns not judged at their latest version.
CREATE INDEX "AlertCampaign_judgedVersion_lastBundleAt_idx" ON "AlertCampaign"("judgedVersion", "lastBundleAt");

-- CreateIndex
CREATE INDEX "AlertCampaign_workspaceId_campaign_idx" ON "AlertCampaign"("workspaceId", "campaign");

-- AddForeignKey
ALTER TABLE "AlertCampaign" ADD CONSTRAINT "AlertCampaign_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertCampaign" ADD CONSTRAINT "AlertCampaign_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The function body writes each semicolon as \073 (see migration current_figures for why). A bundle
-- without a campaign is a campaign of its own (its id), as the gate and the history read it. Each
-- statement storing bundles into a campaign counts one version: the worker judges a version and the
-- campaign again when a later one commits, however the transactions' times interleave.
CREATE FUNCTION "alert_campaign_touched"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "AlertCampaign" AS a ("scenarioId", "campaign", "workspaceId", "lastBundleAt")
  SELECT DISTINCT ON (n."scenarioId", COALESCE(n."campaign", n."id")) n."scenarioId", COALESCE(n."campaign", n."id"),
    n."workspaceId", now()
  FROM "added" n
  WHERE EXISTS (SELECT 1 FROM "Webhook" w WHERE w."workspaceId" = n."workspaceId" AND NOT w."disabled")
  ORDER BY n."scenarioId", COALESCE(n."campaign", n."id")
  ON CONFLICT ("scenarioId", "campaign") DO UPDATE SET "lastBundleAt" = EXCLUDED."lastBundleAt",
    "version" = a."version" + 1\073
  RETURN NULL\073
END ';

CREATE TRIGGER "alert_campaign_touched" AFTER INSERT ON "Bundle"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "alert_campaign_touched"();

-- Deliveries queued before this change hold the payload of one series, which the sender no longer
-- builds a message from: ended, with the reason in the delivery log.
UPDATE "WebhookDelivery" SET "status" = 'failed', "lastError" = 'not sent: queued before alerts were judged per campaign'
WHERE "status" = 'pending';
