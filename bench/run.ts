// npm run bench — issue 12's one table: ingest vs COPY, reads at 1M and 10M measurements vs hand
// SQL and through tRPC, page JS and LCP, interactions with two dozen series, start-up. Every part runs
// on loopback against throwaway embedded PostgreSQL databases and stops by itself. Settings:
//   BENCH_PARTS  ingest,import,reads,pages,interaction,startup (default all)
//   BENCH_SIZES  measurements for the read benchmark (default 1000000,10000000); pages use the first
//   BENCH_SKIP_COLD=1  no cold start (it moves the web build aside and rebuilds it: a few minutes)
import os from "node:os";
import { createDb, ensureDefaultWorkspace } from "@cnibench/db";
import pg from "pg";
import { withDatabase } from "./database.ts";
import { benchImport } from "./import.ts";
import { benchIngest } from "./ingest.ts";
import { benchInteraction } from "./interaction.ts";
import { benchPages } from "./pages.ts";
import { benchReads } from "./reads.ts";
import { settle } from "./settle.ts";
import { benchStartup } from "./startup.ts";
import { seedSynthetic } from "./synthetic.ts";
import { type BenchRow, printTable, sizeLabel } from "./table.ts";
import { startWeb } from "./web.ts";

const parts = new Set((process.env.BENCH_PARTS ?? "ingest,import,reads,pages,interaction,startup").split(","));
const sizes = (process.env.BENCH_SIZES ?? "1000000,10000000").split(",").map(Number);

// The synthetic store's ids (bench/synthetic.ts): sc0… are scenarios, every fifth one on tke.
const pages = {
  "/": "/?provider=tke",
  "scenario page": "/scenarios/sc7",
  "crossover view": "/charts?provider=tke",
  "/compare": "/compare?s=sc0&s=sc5&s=sc10",
  "/guide": "/guide?services=30000&connections=short",
};

/** The synthetic store for the pages, when the read benchmark (which seeds it) does not run. */
async function seedOnly(url: string, total: number): Promise<void> {
  const db = createDb(url);
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  // A connection the server ends while idle must not crash the run: the query using it fails instead.
  pool.on("error", (error) => console.error(`bench: an idle connection failed: ${error.message}`));
  try {
    await seedSynthetic(pool, (await ensureDefaultWorkspace(db)).id, total);
  } finally {
    await pool.end();
    await db.$disconnect();
  }
}

/**
 * Runs one part; a part that fails becomes a MISSED row (its error printed) and the others still run,
 * so a late failure does not throw away the figures of a long run.
 */
let failedParts = 0;
async function attempt(rows: BenchRow[], part: string, fn: () => Promise<BenchRow[]>): Promise<void> {
  try {
    rows.push(...(await fn()));
  } catch (error) {
    failedParts++;
    console.error(`\n${part} failed:`, error);
    rows.push({ part, what: "failed (error above)", figure: String(error).split("\n")[0]!.slice(0, 80), met: false });
  }
}

async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  const started = performance.now();
  if (parts.has("ingest")) await attempt(rows, "ingest", () => withDatabase((url) => benchIngest(url)));
  if (parts.has("import")) await attempt(rows, "import", () => withDatabase((url) => benchImport(url)));

  let baseline: Record<string, number> | undefined;
  for (const [i, total] of sizes.entries()) {
    if (!parts.has("reads") && !(i === 0 && parts.has("pages"))) continue;
    await withDatabase(async (url) => {
      if (parts.has("reads")) {
        await attempt(rows, `reads ${sizeLabel(total)}`, async () => {
          const reads = await benchReads({ url, total, label: sizeLabel(total), baseline });
          baseline ??= reads.p50;
          return reads.rows;
        });
      }
      if (i === 0 && parts.has("pages")) {
        await attempt(rows, "pages", async () => {
          if (!parts.has("reads")) await seedOnly(url, total);
          await settle("the pages");
          const web = await startWeb(url);
          try {
            return await benchPages(web.base, pages);
          } finally {
            web.stop();
          }
        });
      }
    });
  }

  // Each timed part after the last's store is deleted starts on an idle machine (settle.ts says why).
  if (parts.has("interaction")) {
    await settle("the interactions");
    await attempt(rows, "interaction", () => withDatabase((url) => benchInteraction(url)));
  }
  if (parts.has("startup")) {
    await settle("the start-up");
    await attempt(rows, "start-up", () => benchStartup({ cold: !process.env.BENCH_SKIP_COLD }));
  }

  const cpus = os.cpus();
  printTable(
    `npm run bench — ${cpus.length} × ${cpus[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
      `Node ${process.version}, ${((performance.now() - started) / 60_000).toFixed(1)} min`,
    rows,
  );
  const missed = rows.filter((r) => r.met === false);
  if (missed.length > 0) {
    console.log(`\n${missed.length} target(s) missed: ${missed.map((r) => `${r.part}: ${r.what}`).join("; ")}`);
  }
  // A failed part is an error of the benchmark, not a missed target.
  if (failedParts > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
