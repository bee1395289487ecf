import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type Prisma, PrismaClient } from "./generated/prisma/client.ts";

export type Db = PrismaClient;

// Kept on the client under a registered symbol, not in a module-level map: Next.js may load this
// module once per server layer while sharing one client between them.
const readPool = Symbol.for("cnibench.readPool");
type WithPool = Db & { [readPool]?: pg.Pool };

/**
 * A connection whose "error" event always has a listener. When the server ends a connection that is
 * checked out but idle between queries (PostgreSQL shutting down during an upload's transaction),
 * pg emits "error" on it; with no listener that crashed the whole process (npm run test:load). The
 * query in progress, or the next one, still fails with the error.
 */
class ListenedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => {});
  }
}

/**
 * A Prisma client over node-postgres (driver adapter: no native query engine to download), and
 * beside it a plain node-postgres pool for the views' read queries (see `readRows`).
 */
export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const settings = {
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    // Fail fast when the database is down, so callers can answer 503 instead of hanging.
    connectionTimeoutMillis: 5_000,
    Client: ListenedClient,
  };
  const db = new PrismaClient({ adapter: new PrismaPg(settings) });
  const pool = new pg.Pool({ ...settings, allowExitOnIdle: true });
  // An idle connection the server closes (restart, DROP DATABASE … WITH (FORCE)) must not crash
  // the process; the next query opens a new one or fails with its own error.
  pool.on("error", () => {});
  (db as WithPool)[readPool] = pool;
  return db;
}

/**
 * Rows of a read-only query, straight through node-postgres. Prisma's raw-query path through the
 * driver adapter cost about 0.2 ms a row, which made the scenario and explore views 5–100× slower
 * than their SQL at a million measurements (npm run bench:explore).
 */
export async function readRows<T>(db: Db, query: Prisma.Sql): Promise<T[]> {
  const pool = (db as WithPool)[readPool];
  if (!pool) throw new Error("readRows needs a client made by createDb");
  // A named (prepared) statement is planned once per connection: planning the six-way joins cost
  // several milliseconds a request. The name is the text's hash, so one name never means two texts.
  const name = createHash("sha1").update(query.text).digest("hex").slice(0, 24);
  const result = await pool.query({ name, text: query.text, values: query.values });
  return result.rows as T[];
}
