export { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres.ts";
export { type LauncherEnv, readLauncherEnv } from "./env.ts";
