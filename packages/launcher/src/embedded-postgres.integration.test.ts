import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@cnibench/test-support/ports";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

// As root, PostgreSQL runs as the postgres user; a data folder under a 700 folder is hidden from it.
describe.runIf(process.getuid?.() === 0)("embedded PostgreSQL under a folder the postgres user cannot enter", () => {
  const hidden = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-hidden-"));
  const open = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-open-"));
  fs.chmodSync(hidden, 0o700);
  fs.chmodSync(open, 0o755);
  afterAll(() => {
    fs.rmSync(hidden, { recursive: true, force: true });
    fs.rmSync(open, { recursive: true, force: true });
  });

  it("explains which folder blocks it and what to do", async () => {
    await expect(
      startEmbeddedPostgres({ dataDir: path.join(hidden, "data"), port: await freePort(), log: () => {} }),
    ).rejects.toThrow(new RegExp(`because ${hidden} is not open to other users \\(mode 700\\).*CNIBENCH_DATA_DIR`));
  });

  it("uses the fallback folder for the default data folder, and says so", async () => {
    const lines: string[] = [];
    const fallback = path.join(open, "fallback");
    const pg = await startEmbeddedPostgres({
      dataDir: path.join(hidden, "data"),
      fallbackDataDir: fallback,
      port: await freePort(),
      log: (l) => lines.push(l),
    });
    try {
      expect(lines.join("\n")).toContain(`keeping the database in ${fallback} instead`);
      expect(fs.existsSync(path.join(fallback, "postgres", "PG_VERSION"))).toBe(true);
    } finally {
      await pg.stop();
    }
  });
});
