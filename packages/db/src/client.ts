import { createHash } from "node:crypto";
import { DEFAULT_DB_TIMEOUT_MS } from "@cnibench/settings";
import { PrismaPg } from "@prisma/adapter-pg";
import pLimit, { type LimitFunction } from "p-limit";
import pg from "pg";
import { type Prisma, PrismaClient } from "./generated/prisma/client.ts";

/**
 * A database client: Prisma's models, and beside them the read pool (see `readRows`) and the uploads'
 * write turns (see WRITERS). Fields of the client rather than module-level maps: Next.js may load this
 * module once per server layer while sharing one client between them (apps/web/src/server/trpc/db.ts).
 */
export type Db = PrismaClient & { readonly readPool: pg.Pool; readonly writeTurn: LimitFunction };

/**
 * Uploads store this many at a time per process (bundles.ts), through the read pool. More writers only
 * contend in PostgreSQL for the same pages, rows and locks: on 2 cores, 8 concurrent uploads cost the
 * database twice the CPU a bundle of 2, for less throughput (npm run bench:ingest). A limit rather than
 * a pool of its own keeps a process's connections at two pools (deploy/README.md counts them).
 */
const WRITERS = 2;

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
 * A connection that sends every statement unnamed. PgBouncer in transaction mode (Debian 12's 1.18;
 * before 1.21 it keeps no prepared statements) runs each transaction on any server connection, where
 * a statement this connection prepared by name elsewhere does not exist. Chosen by `pgbouncer=true` in
 * the database URL, Prisma's own flag for it; the views then plan their queries at each call.
 */
class UnnamedStatementsClient extends ListenedClient {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((first: unknown, ...rest: unknown[]) => {
      // Plain query configs only: a submittable (a COPY stream) carries no name and must stay itself.
      const named = first && typeof first === "object" && "name" in first && !("submit" in first);
      return query(named ? { ...first, name: undefined } : first, ...rest);
    }) as pg.Client["query"];
  }
}

const behindPgBouncer = (databaseUrl: string): boolean => {
  try {
    return new URL(databaseUrl).searchParams.get("pgbouncer") === "true";
  } catch {
    return false;
  }
};

/**
 * A Prisma client over node-postgres (driver adapter: no native query engine to download), and
 * beside it a plain node-postgres pool for the views' read queries (see `readRows`) and uploads.
 *
 * Every connection of both pools is bounded by `timeoutMs`, so a request fails (and the apps answer
 * 503) instead of hanging while PostgreSQL is down, frozen or overloaded: getting a connection
 * (connectionTimeoutMillis, also the wait for a free one), each statement on the server
 * (statement_timeout, which cancels it) and as the client sees it (query_timeout, for a server that
 * no longer answers at all: frozen, or its host unreachable).
 */
export function createDb(databaseUrl: string, options: { maxConnections?: number; timeoutMs?: number } = {}): Db {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DB_TIMEOUT_MS;
  const settings = {
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs,
    Client: behindPgBouncer(databaseUrl) ? UnnamedStatementsClient : ListenedClient,
  };
  const readPool = new pg.Pool({ ...settings, allowExitOnIdle: true });
  // An idle connection the server closes (restart, DROP DATABASE … WITH (FORCE)) must not crash
  // the process; the next query opens a new one or fails with its own error.
  readPool.on("error", () => {});
  return Object.assign(new PrismaClient({ adapter: new PrismaPg(settings) }), {
    readPool,
    writeTurn: pLimit(WRITERS),
  });
}

/**
 * The read pool's connections (in use, idle, requests waiting for one) and the uploads storing or
 * waiting for a write turn (WRITERS): read by the apps' own metrics.
 */
export function poolStats(db: Db): { total: number; idle: number; waiting: number; storing: number; queued: number } {
  const { readPool, writeTurn } = db;
  return {
    total: readPool.totalCount,
    idle: readPool.idleCount,
    waiting: readPool.waitingCount,
    storing: writeTurn.activeCount,
    queued: writeTurn.pendingCount,
  };
}

/**
 * Rows of a read-only query, straight through node-postgres. Prisma's raw-query path through the
 * driver adapter cost about 0.2 ms a row, which made the scenario and explore views 5–100× slower
 * than their SQL at a million measurements (npm run bench:explore).
 */
export async function readRows<T>(db: Db, query: Prisma.Sql): Promise<T[]> {
  // A named (prepared) statement is planned once per connection: planning the six-way joins cost
  // several milliseconds a request. The name is the text's hash, so one name never means two texts.
  const name = createHash("sha1").update(query.text).digest("hex").slice(0, 24);
  const result = await db.readPool.query({ name, text: query.text, values: query.values });
  return result.rows as T[];
}

/** Runs an upload's store with a connection of the read pool, in its turn (see WRITERS). */
export function inWriteTurn<T>(db: Db, store: (pool: pg.Pool) => Promise<T>): Promise<T> {
  return db.writeTurn(() => store(db.readPool));
}
