// `pgbouncer=true` in the database URL: the pools' connections prepare no named statement, which
// PgBouncer in transaction mode (before 1.21) would run on another server connection than the one that
// prepared it. Seen from the server's side: pg_prepared_statements of the one connection of the pool.
import { freshDatabase } from "@cnibench/test-support/database";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, readRows } from "./client.ts";
import { Prisma } from "./generated/prisma/client.ts";

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.drop());

/** Named statements the pool's one connection holds after the same view query ran twice. */
async function preparedAfterTwoReads(url: string): Promise<number> {
  const db = createDb(url, { maxConnections: 1 });
  try {
    for (let i = 0; i < 2; i++) await readRows(db, Prisma.sql`SELECT count(*) FROM "Scenario" WHERE id <> ${"x"}`);
    const [row] = await readRows<{ n: number }>(db, Prisma.sql`SELECT count(*)::int AS n FROM pg_prepared_statements`);
    return row!.n;
  } finally {
    await db.$disconnect();
  }
}

it("prepares the views' statements by name on a direct connection", async () => {
  // The query above and the count itself.
  expect(await preparedAfterTwoReads(database.url)).toBe(2);
});

it("prepares none with pgbouncer=true", async () => {
  const url = new URL(database.url);
  url.searchParams.set("pgbouncer", "true");
  expect(await preparedAfterTwoReads(url.toString())).toBe(0);
});
