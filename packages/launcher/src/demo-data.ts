import fs from "node:fs";
import path from "node:path";
import { type Db, ingestBundle } from "@cnibench/db";

/**
 * Loads the demo bundles (demo-data/bundles/*.json: the published seed benchmarks) through the same
 * path as uploads. Idempotent: bundles already stored are recognised by their content hash.
 */
export async function storeDemoData(
  db: Db,
  workspaceId: string,
  dir: string,
): Promise<{ files: number; created: number; measurements: number }> {
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
  let created = 0;
  let measurements = 0;
  for (const file of files) {
    const outcome = await ingestBundle(db, {
      workspaceId,
      tokenId: null,
      text: fs.readFileSync(path.join(dir, file), "utf8"),
    });
    if (!outcome.ok) {
      const detail =
        outcome.reason === "malformed_json"
          ? outcome.message
          : outcome.issues.map((i) => `${i.path}: ${i.message}`).join("; ");
      throw new Error(`demo data file ${file} is not a valid bundle: ${detail}`);
    }
    if (outcome.stored.created) created++;
    measurements += outcome.stored.measurementCount;
  }
  return { files: files.length, created, measurements };
}
