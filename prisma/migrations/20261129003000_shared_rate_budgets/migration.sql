-- Request budgets counted in one place for every replica (issue 44): with counters in each process,
-- N replicas of an app allowed N times its limit. One row per budget ("api:token:…", "web:user:…"):
-- the requests counted in its current fixed window, which ends at resetAt (packages/db rate-budgets.ts).
-- UNLOGGED: a counter needs no write-ahead log, and a crash that empties the table only forgives one
-- window of requests. Time with its zone: only the database's clock (now()) ever writes or reads it.

CREATE UNLOGGED TABLE "RateBudget" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "resetAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RateBudget_pkey" PRIMARY KEY ("key")
);
