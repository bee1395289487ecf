// Prisma CLI configuration. Prisma 6's JavaScript schema engine (engine: "js") runs migrations
// through the pg driver adapter, so nothing is downloaded: the native schema engine is never needed.
// The workarounds it needs live in packages/db/src/migrate-adapter.ts.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { migrationAdapterFactory } from "./packages/db/src/migrate-adapter.ts";
import { readMigrationEnv } from "./packages/settings/src/env.ts";

export default defineConfig({
  experimental: { adapter: true },
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  engine: "js",
  adapter: async () => {
    const env = readMigrationEnv(undefined, "prisma");
    return migrationAdapterFactory(env.DATABASE_URL, env.SHADOW_DATABASE_URL);
  },
});
