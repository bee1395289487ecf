-- Workspaces become public or private, with members and roles. Users sign in through OpenID Connect.
CREATE TYPE "Visibility" AS ENUM ('public', 'private');
CREATE TYPE "Role" AS ENUM ('owner', 'member', 'viewer');

ALTER TABLE "Workspace" ADD COLUMN "visibility" "Visibility" NOT NULL DEFAULT 'private';
-- The workspace that held every upload before sign-in existed stays open to everyone.
UPDATE "Workspace" SET "visibility" = 'public' WHERE slug = 'public';

ALTER TABLE "Permalink" ADD COLUMN "published" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT,
    "name" TEXT,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "Membership" (
    "workspaceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("workspaceId","userId")
);

CREATE INDEX "User_email_idx" ON "User"("email");
CREATE UNIQUE INDEX "User_issuer_subject_key" ON "User"("issuer", "subject");
CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");

ALTER TABLE "Membership" ADD CONSTRAINT "Membership_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
