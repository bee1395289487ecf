import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { rekeyScenarios } from "./rekey.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../..");
const require = createRequire(import.meta.url);

/**
 * Applies committed migrations (prisma/migrations) with `prisma migrate deploy`, then the data steps
 * SQL cannot do (rekey.ts).
 * The CLI runs with the JavaScript schema engine (prisma.config.ts) so nothing is downloaded;
 * the preload makes it exit as soon as it is done (see prisma-cli-preload.cjs).
 */
export async function migrateDatabase(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  const cli = require.resolve("prisma/build/index.js");
  const preload = path.join(here, "prisma-cli-preload.cjs");
  // biome-ignore lint/style/noProcessEnv: Prisma's CLI inherits the environment, with the preload added
  const { NODE_OPTIONS, ...inherited } = process.env;
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "migrate", "deploy"], {
      cwd: repoRoot,
      env: {
        ...inherited,
        DATABASE_URL: databaseUrl,
        CHECKPOINT_DISABLE: "1",
        NODE_OPTIONS: `${NODE_OPTIONS ?? ""} --require ${preload}`.trim(),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (line.trim()) output.push(line);
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) {
    throw new Error(`prisma migrate deploy failed (exit ${code}):\n${output.slice(-20).join("\n")}`);
  }
  const summary = output.find((l) => /applied|No pending migrations/i.test(l));
  if (summary) log(summary.trim());
  const client = new pg.Client({ connectionString: databaseUrl });
  // A connection the server ends fails its query; unlistened, the "error" event would end the process.
  client.on("error", () => {});
  await client.connect();
  try {
    const rekeyed = await rekeyScenarios(client);
    if (rekeyed) {
      log(
        `scenario keys and bundle hashes recomputed (a label or a campaign is not what was measured): scenarios re-keyed ${rekeyed.scenarios}, merged into another ${rekeyed.mergedScenarios}, copies of a bundle removed ${rekeyed.mergedBundles}`,
      );
    }
  } finally {
    await client.end();
  }
}
