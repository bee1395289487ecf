// `npm run db:migrate`: apply migrations to DATABASE_URL's server (the compose stack's one-shot
// migration service runs this before ingest-api and web start).
import { createDb, ensureDefaultWorkspace, migrateDatabase } from "@cnibench/db";
import { readMigrationEnv } from "@cnibench/settings";

let url: string;
try {
  url = readMigrationEnv().DATABASE_URL;
} catch (error) {
  console.error(`[cnibench] ${(error as Error).message}`);
  process.exit(1);
}
await migrateDatabase(url, (line) => console.log(`[cnibench] migrations: ${line}`));
const db = createDb(url, { maxConnections: 1 });
await ensureDefaultWorkspace(db);
await db.$disconnect();
