// `npm run db:migrate`: apply migrations to DATABASE_URL's server (the compose stack's one-shot
// migration service runs this before ingest-api and web start).
import { createDb, ensureDefaultWorkspace, migrateDatabase } from "@cnibench/db";
import { z } from "zod";

const url = z
  .string({ error: "DATABASE_URL is required" })
  .refine((v) => /^postgres(ql)?:\/\//.test(v) && URL.canParse(v), "DATABASE_URL must be a postgres:// URL")
  .safeParse(process.env.DATABASE_URL);
if (!url.success) {
  console.error(`[cnibench] ${url.error.issues[0]?.message}`);
  process.exit(1);
}
await migrateDatabase(url.data, (line) => console.log(`[cnibench] migrations: ${line}`));
const db = createDb(url.data, { maxConnections: 1 });
await ensureDefaultWorkspace(db);
await db.$disconnect();
