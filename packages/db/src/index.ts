export {
  type Access,
  accessFor,
  atLeast,
  createWorkspace,
  getWorkspace,
  LastOwnerError,
  listWorkspaces,
  type Role,
  removeMember,
  roles,
  setMember,
  setRole,
  setVisibility,
  UnknownUserError,
  type Visibility,
  WorkspaceSlugTakenError,
} from "./access.ts";
export {
  type BundleFilter,
  campaignBundleCount,
  getBundle,
  listBundles,
} from "./bundle-queries.ts";
export {
  type BundleSelection,
  type DeletedBundles,
  deleteBundle,
  deleteBundles,
  type StoreBundleInput,
  type StoredBundle,
  storeBundle,
  storeBundles,
} from "./bundles.ts";
export { createDb, type Db, poolStats } from "./client.ts";
export { bundleTimes, currentFigureCounts, testbedKeys } from "./feed.ts";
export {
  type GateBaseline,
  type GateRefusal,
  type GateSide,
  type GateSides,
  gateSides,
} from "./gate.ts";
export {
  CommitInDoubtError,
  databaseReady,
  isCommitInDoubt,
  isDatabaseOutage,
  serverUnreachable,
} from "./health.ts";
export {
  type AnnotationChange,
  type CampaignAnnotations,
  type HistoryCampaign,
  historyLimit,
  type SeriesHistory,
  seriesHistory,
  type Testbed,
  testbedOf,
} from "./history.ts";
export { type IngestOutcome, ingestBundle } from "./ingest.ts";
export {
  acceptInvitation,
  declineInvitation,
  invitationsFor,
  invite,
  listInvitations,
  withdrawInvitation,
} from "./invitations.ts";
export {
  type EarlierCampaign,
  type LatestFigure,
  latestFigures,
  type MeasurementRow,
  type Provenance,
  scenarioBundles,
  scenarioFigures,
} from "./measurements.ts";
export { migrateDatabase } from "./migrate.ts";
export {
  createPermalink,
  getPermalink,
  listWorkspacePermalinks,
  type Pin,
  pinnedLabels,
  revokePermalink,
  setPermalinkPublished,
} from "./permalinks.ts";
export { type BudgetSpent, spendBudget } from "./rate-budgets.ts";
export {
  annotationChangeSchema,
  annotationKeys,
  type BundleSummary,
  bundleSummarySchema,
  type CrossoverPoint,
  type CurrentFigure,
  campaignAnnotationsSchema,
  crossoverPointSchema,
  currentFigureSchema,
  type FigureSummary,
  figureSummarySchema,
  historyCampaignSchema,
  latestFigureSchema,
  type Measurement,
  measurementRowSchema,
  measurementSchema,
  type PlottedFigure,
  paramsSchema,
  paramValueSchema,
  plottedFigureSchema,
  provenanceSchema,
  type SeriesRun,
  scenarioSummarySchema,
  seriesHistorySchema,
  seriesRunSchema,
  settingValueSchema,
} from "./read-models.ts";
export {
  getScenarioSummary,
  listScenarios,
  type ScenarioSummary,
  scenarioLabel,
  scenarioRevisions,
  scenariosRevision,
} from "./scenarios.ts";
export {
  authenticateToken,
  createToken,
  hashToken,
  listTokens,
  revokeToken,
  TokenNameTakenError,
  type TokenSummary,
  tokenOfOwner,
} from "./tokens.ts";
export { endSession, type Identity, recordSignIn, sessionUser, startSession } from "./users.ts";
export { chartView, compareView, exploreView, scenarioView } from "./views.ts";
export {
  addressAllowed,
  portOf,
  RefusedTargetError,
  refusedTargetWords,
  type TargetPolicy,
  targetLookup,
  urlAllowed,
  webhookPolicy,
} from "./webhook-targets.ts";
export {
  alertWorkspace,
  type ClaimedCampaign,
  type ClaimedDelivery,
  campaignBundleIds,
  campaignJudged,
  campaignJudgingFailed,
  campaignOfBundle,
  campaignSeriesHistories,
  checkWebhookUrl,
  claimCompleteCampaigns,
  claimDueDeliveries,
  closeCampaign,
  createWebhook,
  type DeliveryStatus,
  type DeliverySummary,
  deleteWebhook,
  deliveryCounts,
  forgetJudgedCampaigns,
  listDeliveries,
  listWebhooks,
  nextCampaignDueAt,
  nextDueAt,
  queueCampaignAlerts,
  recordAttempt,
  setWebhookPaused,
  TooManyWebhooksError,
  type WebhookFormat,
  type WebhookSummary,
  WebhookUrlError,
  webhookExists,
} from "./webhooks.ts";
export {
  DEFAULT_WORKSPACE,
  ensureDefaultWorkspace,
  workspaceBySlug,
  workspaceIdBySlug,
  workspaceOfBundle,
  workspaceOfScenario,
  workspaceSlug,
} from "./workspace.ts";
