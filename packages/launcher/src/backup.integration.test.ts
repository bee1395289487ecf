// Backup and restore as docs/backup.md describes it: pg_dump of one database, pg_restore into an
// empty one, and the explorer, a comparison and a permalink answer the same from both. Runs against
// the PostgreSQL whose major version matches the installed pg_dump (BACKUP_TEST_URL, default the
// machine's server on 127.0.0.1:5432), since pg_dump refuses a newer server.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  accessFor,
  compareView,
  createDb,
  createPermalink,
  createWorkspace,
  ensureDefaultWorkspace,
  exploreView,
  getPermalink,
  ingestBundle,
  migrateDatabase,
  recordSignIn,
  setPermalinkPublished,
} from "@cnibench/db";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { storeDemoData } from "./demo-data.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const server = process.env.BACKUP_TEST_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const suffix = `${process.pid}_${Date.now()}`;
const names = [`cnibench_backup_a_${suffix}`, `cnibench_backup_b_${suffix}`];
const urlOf = (db: string) => {
  const u = new URL(server);
  u.pathname = `/${db}`;
  return u.toString();
};
const admin = async (sql: string) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

afterAll(async () => {
  for (const n of names) await admin(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
});

/** Everything a reader sees, from one database: explore (signed out and as the owner), a comparison, a permalink. */
async function answers(url: string, slug: string, ownerSubject: string) {
  const db = createDb(url);
  try {
    const owner = await db.user.findFirstOrThrow({ where: { subject: ownerSubject } });
    const [anonymous, member] = [await accessFor(db, null), await accessFor(db, owner.id)];
    const explore = await exploreView(db, member.readable, {});
    const ids = explore.scenarios.map((s) => s.id).slice(0, 3);
    const compared = await compareView(db, member.readable, { scenarioIds: ids });
    const link = await getPermalink(db, anonymous, slug);
    return JSON.stringify({
      anonymous: (await exploreView(db, anonymous.readable, {})).scenarios.map((s) => [s.id, s.keyFigures]),
      member: explore,
      compared,
      link,
    });
  } finally {
    await db.$disconnect();
  }
}

describe("backup and restore", () => {
  it("restores a pg_dump into another database with the same explore, compare and permalink answers", async () => {
    const dumpMajor = Number(
      execFileSync("pg_dump", ["--version"])
        .toString()
        .match(/(\d+)\.\d+/)?.[1],
    );
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    const serverMajor = Math.floor(
      Number((await client.query("SHOW server_version_num")).rows[0].server_version_num) / 10000,
    );
    await client.end();
    expect(
      serverMajor,
      `pg_dump ${dumpMajor} cannot dump a PostgreSQL ${serverMajor} server: set BACKUP_TEST_URL`,
    ).toBeLessThanOrEqual(dumpMajor);

    const [a, b] = names.map(urlOf) as [string, string];
    await admin(`CREATE DATABASE ${names[0]}`);
    await migrateDatabase(a, () => {});
    const db = createDb(a);
    const open = await ensureDefaultWorkspace(db);
    await storeDemoData(db, open.id, path.join(repoRoot, "demo-data/bundles"));
    const owner = await recordSignIn(db, { issuer: "t", subject: "backup-owner", email: "b@example.test", name: "B" });
    const team = await createWorkspace(db, owner.id, { slug: "backup-team", name: "Team", visibility: "private" });
    const example = JSON.parse(fs.readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
    const privateRun = await ingestBundle(db, {
      workspaceId: team.id,
      tokenId: null,
      text: JSON.stringify({ ...example, cni: { ...example.cni, label: "Team Cilium" } }),
    });
    if (!privateRun.ok) throw new Error("private bundle did not ingest");
    const scenarios = await db.scenario.findMany({ take: 1, where: { workspaceId: open.id } });
    const link = await createPermalink(db, await accessFor(db, owner.id), {
      scenarioIds: [scenarios[0]?.id ?? "", privateRun.stored.scenarioId],
      view: {},
    });
    await setPermalinkPublished(db, await accessFor(db, owner.id), link?.slug ?? "", true);
    await db.$disconnect();

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-backup-"));
    const dump = path.join(dir, "cnibench.dump");
    execFileSync("pg_dump", ["--format=custom", "--no-owner", `--file=${dump}`, a]);
    await admin(`CREATE DATABASE ${names[1]}`);
    execFileSync("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${b}`, dump]);
    fs.rmSync(dir, { recursive: true, force: true });

    const [before, after] = [
      await answers(a, link?.slug ?? "", "backup-owner"),
      await answers(b, link?.slug ?? "", "backup-owner"),
    ];
    expect(before).toContain("Team Cilium");
    expect(before.length).toBeGreaterThan(10_000);
    expect(after).toBe(before);
    // The restored database is complete enough to migrate (nothing pending) and take uploads.
    const lines: string[] = [];
    await migrateDatabase(b, (l) => lines.push(l));
    expect(lines.join("\n")).toMatch(/No pending migrations/);
  });
});
