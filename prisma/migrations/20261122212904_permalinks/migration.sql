-- CreateTable
CREATE TABLE "Permalink" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "scenarioIds" TEXT[],
    "pins" JSONB NOT NULL,
    "view" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Permalink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Permalink_slug_key" ON "Permalink"("slug");

-- AddForeignKey
ALTER TABLE "Permalink" ADD CONSTRAINT "Permalink_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
