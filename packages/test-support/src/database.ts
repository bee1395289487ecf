import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { adminQuery, withDatabase } from "./global-setup.ts";

/**
 * A fresh, migrated database for one test file, cloned from the template (fast), and a function
 * that drops it.
 */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const templateUrl = inject("templateDatabaseUrl");
  const template = new URL(templateUrl).pathname.slice(1);
  const name = `cnibench_t_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await adminQuery(templateUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return {
    url: withDatabase(templateUrl, name),
    drop: () => adminQuery(templateUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
