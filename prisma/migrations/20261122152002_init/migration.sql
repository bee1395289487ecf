-- CreateEnum
CREATE TYPE "Qualifier" AS ENUM ('approx', 'at-most', 'at-least', 'range');

-- CreateEnum
CREATE TYPE "Aggregate" AS ENUM ('single', 'median', 'mean', 'min', 'max');

-- CreateEnum
CREATE TYPE "Better" AS ENUM ('higher', 'lower', 'none');

-- CreateTable
CREATE TABLE "Workspace" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Workspace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Cluster" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "kubernetesVersion" TEXT NOT NULL,
    "nodeCount" INTEGER,

    CONSTRAINT "Cluster_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NodeSku" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "vcpus" DOUBLE PRECISION,
    "memoryGiB" DOUBLE PRECISION,
    "nicGbps" DOUBLE PRECISION,

    CONSTRAINT "NodeSku_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Kernel" (
    "id" TEXT NOT NULL,
    "os" TEXT NOT NULL,
    "version" TEXT NOT NULL,

    CONSTRAINT "Kernel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CniConfig" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "kubeProxy" TEXT NOT NULL,
    "label" TEXT,
    "settings" JSONB NOT NULL,

    CONSTRAINT "CniConfig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Scenario" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "clusterId" TEXT NOT NULL,
    "nodeSkuId" TEXT NOT NULL,
    "kernelId" TEXT NOT NULL,
    "cniConfigId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Scenario_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Bundle" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "clusterName" TEXT NOT NULL,
    "sourceTitle" TEXT,
    "sourceUrl" TEXT,
    "sourcePublishedAt" TEXT,
    "sourceSection" TEXT,
    "collectorName" TEXT,
    "collectorVersion" TEXT,
    "collectorCommand" TEXT,
    "runAt" TIMESTAMP(3),
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "tokenId" TEXT,

    CONSTRAINT "Bundle_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Measurement" (
    "id" BIGSERIAL NOT NULL,
    "bundleId" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "metric" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "paramsKey" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "unit" TEXT NOT NULL,
    "low" DOUBLE PRECISION,
    "high" DOUBLE PRECISION,
    "samples" DOUBLE PRECISION[],
    "publishedValue" DOUBLE PRECISION NOT NULL,
    "publishedUnit" TEXT NOT NULL,
    "qualifier" "Qualifier",
    "aggregate" "Aggregate",
    "better" "Better" NOT NULL,

    CONSTRAINT "Measurement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Workspace_slug_key" ON "Workspace"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "Cluster_key_key" ON "Cluster"("key");

-- CreateIndex
CREATE INDEX "Cluster_provider_idx" ON "Cluster"("provider");

-- CreateIndex
CREATE UNIQUE INDEX "NodeSku_provider_sku_key" ON "NodeSku"("provider", "sku");

-- CreateIndex
CREATE UNIQUE INDEX "Kernel_os_version_key" ON "Kernel"("os", "version");

-- CreateIndex
CREATE UNIQUE INDEX "CniConfig_key_key" ON "CniConfig"("key");

-- CreateIndex
CREATE INDEX "CniConfig_name_mode_idx" ON "CniConfig"("name", "mode");

-- CreateIndex
CREATE INDEX "Scenario_clusterId_idx" ON "Scenario"("clusterId");

-- CreateIndex
CREATE INDEX "Scenario_nodeSkuId_idx" ON "Scenario"("nodeSkuId");

-- CreateIndex
CREATE INDEX "Scenario_kernelId_idx" ON "Scenario"("kernelId");

-- CreateIndex
CREATE INDEX "Scenario_cniConfigId_idx" ON "Scenario"("cniConfigId");

-- CreateIndex
CREATE UNIQUE INDEX "Scenario_workspaceId_key_key" ON "Scenario"("workspaceId", "key");

-- CreateIndex
CREATE INDEX "Bundle_scenarioId_runAt_idx" ON "Bundle"("scenarioId", "runAt");

-- CreateIndex
CREATE UNIQUE INDEX "Bundle_workspaceId_contentHash_key" ON "Bundle"("workspaceId", "contentHash");

-- CreateIndex
CREATE INDEX "Measurement_metric_scenarioId_paramsKey_idx" ON "Measurement"("metric", "scenarioId", "paramsKey");

-- CreateIndex
CREATE INDEX "Measurement_scenarioId_metric_idx" ON "Measurement"("scenarioId", "metric");

-- CreateIndex
CREATE UNIQUE INDEX "Measurement_bundleId_position_key" ON "Measurement"("bundleId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_workspaceId_name_key" ON "ApiToken"("workspaceId", "name");

-- AddForeignKey
ALTER TABLE "Scenario" ADD CONSTRAINT "Scenario_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Scenario" ADD CONSTRAINT "Scenario_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "Cluster"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Scenario" ADD CONSTRAINT "Scenario_nodeSkuId_fkey" FOREIGN KEY ("nodeSkuId") REFERENCES "NodeSku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Scenario" ADD CONSTRAINT "Scenario_kernelId_fkey" FOREIGN KEY ("kernelId") REFERENCES "Kernel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Scenario" ADD CONSTRAINT "Scenario_cniConfigId_fkey" FOREIGN KEY ("cniConfigId") REFERENCES "CniConfig"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Bundle" ADD CONSTRAINT "Bundle_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Bundle" ADD CONSTRAINT "Bundle_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Bundle" ADD CONSTRAINT "Bundle_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "ApiToken"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Measurement" ADD CONSTRAINT "Measurement_bundleId_fkey" FOREIGN KEY ("bundleId") REFERENCES "Bundle"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Measurement" ADD CONSTRAINT "Measurement_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
