// Gives integration tests a real PostgreSQL: the server of TEST_DATABASE_URL when set (a throwaway
// database is created there and dropped afterwards), otherwise an embedded PostgreSQL in a temporary
// folder on a free port. A migrated template database lets each test file clone a fresh database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "@cnibench/db";
import { startEmbeddedPostgres } from "@cnibench/launcher";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { freePort } from "./ports.ts";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const cleanups: (() => Promise<void>)[] = [];
  let serverUrl: string;
  if (process.env.TEST_DATABASE_URL) {
    serverUrl = process.env.TEST_DATABASE_URL;
    console.log(`[tests] PostgreSQL of TEST_DATABASE_URL: ${new URL(serverUrl).host}`);
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-test-"));
    fs.chmodSync(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), log: () => {} });
    serverUrl = embedded.url;
    cleanups.push(async () => {
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    console.log("[tests] embedded PostgreSQL 17 (set TEST_DATABASE_URL to use another server)");
  }

  const template = `cnibench_template_${process.pid}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${template}`);
  cleanups.unshift(() => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  const templateUrl = withDatabase(serverUrl, template);
  await migrateDatabase(templateUrl);
  project.provide("templateDatabaseUrl", templateUrl);

  return async () => {
    for (const cleanup of cleanups) await cleanup();
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
