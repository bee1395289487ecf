-- Access hardening (README, Security).
-- (No semicolon inside a comment: the schema engine splits the script at each one, comments included.)

-- A permalink names every workspace whose bundles it pins, fixed when it is made, so deleting
-- scenarios or bundles later never changes who may read it. It is public only once an owner of each
-- private one of them has agreed (approvals: workspace ids), and any of those owners can withdraw.
ALTER TABLE "Permalink" ADD COLUMN "workspaceIds" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "Permalink" ADD COLUMN "approvals" TEXT[] NOT NULL DEFAULT '{}';
UPDATE "Permalink" p SET "workspaceIds" = ARRAY(
  SELECT DISTINCT w FROM unnest(
    array_append(ARRAY(SELECT s."workspaceId" FROM "Scenario" s WHERE s."id" = ANY(p."scenarioIds")), p."workspaceId")
  ) AS w ORDER BY w
);
-- A publication so far spoke for the link's home workspace only (which was how a viewer of another
-- team's workspace could publish its data): it keeps that approval and no other.
UPDATE "Permalink" SET "approvals" = ARRAY["workspaceId"] WHERE "published";
ALTER TABLE "Permalink" DROP CONSTRAINT "Permalink_workspaceId_fkey";
ALTER TABLE "Permalink" DROP COLUMN "workspaceId";
ALTER TABLE "Permalink" DROP COLUMN "published";
ALTER TABLE "Permalink" ALTER COLUMN "workspaceIds" DROP DEFAULT;
CREATE INDEX "Permalink_workspaceIds_idx" ON "Permalink" USING GIN ("workspaceIds");

-- An e-mail address is kept only when the identity provider says it is verified, and names one user:
-- addresses stored before were never checked, so they are dropped and come back verified at sign-in.
UPDATE "User" SET "email" = NULL;
DROP INDEX "User_email_idx";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- Who created a token: removing that member, or making them a viewer, revokes it.
ALTER TABLE "ApiToken" ADD COLUMN "createdById" TEXT;
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "ApiToken_createdById_idx" ON "ApiToken"("createdById");

-- Sign-in sessions, so that signing out ends one on the server: the session cookie names a row here,
-- and a cookie whose row is gone signs nobody in.
CREATE TABLE "UserSession" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UserSession_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "UserSession_userId_idx" ON "UserSession"("userId");
ALTER TABLE "UserSession" ADD CONSTRAINT "UserSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
