import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Db = PrismaClient;

/** A Prisma client over node-postgres (driver adapter: no native query engine to download). */
export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    // Fail fast when the database is down, so callers can answer 503 instead of hanging.
    connectionTimeoutMillis: 5_000,
  });
  return new PrismaClient({ adapter });
}
