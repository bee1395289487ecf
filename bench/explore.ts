// npm run bench:explore — read performance at 1,000,000 measurements (bench/reads.ts) in a throwaway
// embedded PostgreSQL, or in BENCH_DATABASE_URL (re-used when it holds data already).
// BENCH_MEASUREMENTS sets the size, BENCH_RUNS the runs per timing; BENCH_QUERIES_ONLY=1 leaves out
// tRPC over HTTP (and so the production build of the web app it needs).
import { withDatabase } from "./database.ts";
import { benchReads } from "./reads.ts";
import { printTable, sizeLabel } from "./table.ts";

const total = Number(process.env.BENCH_MEASUREMENTS ?? 1_000_000);

withDatabase((url) =>
  benchReads({
    url,
    total,
    label: sizeLabel(total),
    queriesOnly: Boolean(process.env.BENCH_QUERIES_ONLY),
    runs: Number(process.env.BENCH_RUNS ?? 30),
  }),
).then(
  ({ rows }) => printTable("read performance: query functions vs hand-written SQL (answers checked equal), tRPC", rows),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
