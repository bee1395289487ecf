import pg from "pg";
import type { Db } from "./client.ts";

/** True when the database answers a trivial query. */
export async function databaseReady(db: Db): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}

// What an error looks like when the database, not the request, is the problem: PostgreSQL shutting
// down or starting (57P01–57P03), connection failures (class 08), no connection to be had, how
// Prisma and pg report a connection that went away mid-transaction, and the timeouts of client.ts: a
// statement PostgreSQL cancelled at statement_timeout (57014) and one it never answered (pg's "Query
// read timeout", a frozen or unreachable server).
const outageCodes = /^(57P0[123]|57014|08\d{3}|53300|P1001|P1002|P1008|P1017|P2024|P2028)$/;
const outageWords =
  /connection terminated|terminating connection|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|EPIPE|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout|database system is (shutting down|starting up|in recovery mode)|transaction already closed|ConnectionClosed|DatabaseNotReachable|Connection is closed/i;

/**
 * True when an error says the database is unreachable or went away, judged from the error itself
 * (its causes included): a probe afterwards can race a server that is still closing connections.
 */
export function isDatabaseOutage(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== "object" || seen.has(e) || depth > 6) return false;
    seen.add(e);
    const { code, message, cause, meta } = e as { code?: unknown; message?: unknown; cause?: unknown; meta?: unknown };
    if (typeof code === "string" && outageCodes.test(code)) return true;
    if (typeof message === "string" && outageWords.test(message)) return true;
    const kind = (e as { kind?: unknown }).kind;
    if (typeof kind === "string" && outageWords.test(kind)) return true;
    const nested = meta && typeof meta === "object" ? Object.values(meta) : [];
    // Connecting to a name with several addresses fails with an AggregateError of one error each.
    const { errors } = e as { errors?: unknown };
    const each = Array.isArray(errors) ? errors : [];
    return [cause, ...nested, ...each].some((c) => visit(c, depth + 1));
  };
  return visit(error, 0);
}

/**
 * The database stopped answering after COMMIT was sent (a frozen server, a lost connection): the
 * transaction may have been written or not, and nobody can tell until the server answers again. A
 * frozen PostgreSQL that continues commits what it had received, so an upload answered "nothing was
 * stored" was found stored (issue 43). Callers answer 503 saying the outcome is unknown.
 */
export class CommitInDoubtError extends Error {
  readonly commitInDoubt = true;
  constructor(cause: unknown) {
    super("The database stopped answering while committing: the change may or may not have been written.", {
      cause,
    });
    this.name = "CommitInDoubtError";
  }
}

/** True when `error` (or a cause of it) is a CommitInDoubtError, judged by shape: bundles may hold two copies of the class. */
export function isCommitInDoubt(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 6;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if ((e as { commitInDoubt?: unknown }).commitInDoubt === true) return true;
  }
  return false;
}

/**
 * What keeps a server from answering `SELECT 1` on a connection of its own (bounded at 5 s), or
 * undefined when it answers: the launcher's watch on DATABASE_URL, which has no client of its own.
 */
export async function serverUnreachable(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 5_000 });
  client.on("error", () => {});
  const error = await client
    .connect()
    .then(() => client.query("SELECT 1"))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  void client.end().catch(() => {});
  return error;
}
