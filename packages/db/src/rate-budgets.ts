// Request budgets counted in PostgreSQL, so that every replica of an app spends the same budget
// (issue 44: counters in each process let N replicas allow N times the limit). One statement per
// request, an atomic upsert on the budget's row: concurrent requests on any replica each count once.
// Fixed windows, as the in-process counters had: a budget's window starts with its first request and
// its count starts again once the window has ended.
import { type Db, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

/** A request counted: how many its budget's window has counted (it included), and when that window ends. */
export type BudgetSpent = { count: number; resetInMs: number };

/** Ended windows are deleted at most this often per process; until then a late request restarts its row. */
const SWEEP_EVERY_MS = 60_000;
const lastSweep = new WeakMap<Db, number>();

/**
 * Counts one request against the budget `key` ("api:token:…", "web:user:…"), whose window lasts
 * `windowMs`. The caller compares the count with its limit: a request over it is still counted, as
 * before, so a client that keeps trying does not get a fresh budget sooner.
 */
export async function spendBudget(db: Db, key: string, windowMs: number): Promise<BudgetSpent> {
  sweepEndedWindows(db);
  // The database's clock alone: replicas' clocks may disagree, and a window must end once for all.
  const [row] = await readRows<BudgetSpent>(
    db,
    Prisma.sql`INSERT INTO "RateBudget" AS b (key, count, "resetAt")
      VALUES (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN b."resetAt" <= now() THEN 1 ELSE b.count + 1 END,
        "resetAt" = CASE WHEN b."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE b."resetAt" END
      RETURNING count, GREATEST(0, EXTRACT(EPOCH FROM b."resetAt" - now()) * 1000)::float8 AS "resetInMs"`,
  );
  return row!;
}

/** Deletes the rows of ended windows, in the background, so addresses seen once do not stay forever. */
function sweepEndedWindows(db: Db): void {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  // A failure (the database away) is the request's own to report; the next sweep tries again.
  db.$executeRaw`DELETE FROM "RateBudget" WHERE "resetAt" < now()`.catch(() => {});
}
