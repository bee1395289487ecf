export {
  type BundleFilter,
  type BundleSummary,
  getBundle,
  listBundles,
  type MeasurementRow,
} from "./bundle-queries.ts";
export { type StoreBundleInput, type StoredBundle, storeBundle } from "./bundles.ts";
export { createDb, type Db } from "./client.ts";
export { databaseReady } from "./health.ts";
export { type IngestOutcome, ingestBundle } from "./ingest.ts";
export { migrateDatabase } from "./migrate.ts";
export { listScenarios, type ScenarioSummary, scenarioLabel } from "./scenarios.ts";
export {
  authenticateToken,
  createToken,
  hashToken,
  listTokens,
  revokeToken,
  TokenNameTakenError,
  type TokenSummary,
} from "./tokens.ts";
export { DEFAULT_WORKSPACE, ensureDefaultWorkspace } from "./workspace.ts";
