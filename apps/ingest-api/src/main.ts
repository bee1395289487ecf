import { createDb, ensureDefaultWorkspace } from "@cnibench/db";
import { readIngestEnv } from "./env.ts";
import { buildServer } from "./server.ts";

const env = readIngestEnv(process.env);
const db = createDb(env.DATABASE_URL);
const workspace = await ensureDefaultWorkspace(db);
const app = buildServer({
  db,
  publicWorkspaceId: workspace.id,
  publicApiUrl: env.publicApiUrl,
  publicWebUrl: env.publicWebUrl,
  maxBundleBytes: env.CNIBENCH_MAX_BUNDLE_BYTES,
  importLimits: {
    maxEntries: env.CNIBENCH_IMPORT_MAX_ENTRIES,
    maxUnpackedBytes: env.CNIBENCH_IMPORT_MAX_UNPACKED_BYTES,
  },
  logLevel: env.LOG_LEVEL,
});

async function stop(): Promise<void> {
  await app.close();
  await db.$disconnect();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

await app.listen({ host: env.CNIBENCH_HOST, port: env.CNIBENCH_API_PORT });
