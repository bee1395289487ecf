import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseEnv, publicUrls, readMigrationEnv, sharedEnvSchema } from "./env.ts";

const problems = (env: Record<string, string>) =>
  sharedEnvSchema.safeParse(env).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("the settings web, ingest-api and npm start share", () => {
  it("take their defaults when only DATABASE_URL is set", () => {
    const env = sharedEnvSchema.parse({ DATABASE_URL: "postgresql://u@db/cnibench" });
    expect(env).toMatchObject({
      CNIBENCH_HOST: "127.0.0.1",
      CNIBENCH_API_PORT: 4000,
      CNIBENCH_WEB_PORT: 3000,
      CNIBENCH_DB_POOL_MAX: 10,
      CNIBENCH_DB_TIMEOUT_MS: 10_000,
      LOG_LEVEL: "info",
    });
    expect(publicUrls(env)).toEqual({ publicApiUrl: "http://127.0.0.1:4000", publicWebUrl: "http://127.0.0.1:3000" });
  });

  it("refuse a database URL that is missing or not PostgreSQL's, naming the variable", () => {
    expect(problems({})).toEqual(["DATABASE_URL: is required"]);
    expect(problems({ DATABASE_URL: "mysql://u@db/x" })).toEqual(["DATABASE_URL: must be a postgres:// URL"]);
    expect(problems({ DATABASE_URL: "postgres://[" })).toEqual(["DATABASE_URL: must be a postgres:// URL"]);
  });

  it("refuse ports that are not whole numbers from 1 to 65535, naming the variable", () => {
    const url = { DATABASE_URL: "postgres://u@db/x" };
    expect(problems({ ...url, CNIBENCH_API_PORT: "eighty" })).toEqual(["CNIBENCH_API_PORT: must be a whole number"]);
    expect(problems({ ...url, CNIBENCH_WEB_PORT: "70000" })).toEqual([
      "CNIBENCH_WEB_PORT: must be between 1 and 65535",
    ]);
    expect(problems({ ...url, CNIBENCH_PUBLIC_API_URL: "api.example" })).toEqual([
      "CNIBENCH_PUBLIC_API_URL: must be a URL",
    ]);
  });

  it("refuse a webhook allow-list that is not CIDR ranges, naming the variable", () => {
    const url = { DATABASE_URL: "postgres://u@db/x" };
    expect(problems({ ...url, CNIBENCH_WEBHOOK_ALLOW: "10.0.0.0/8, fd12::/64" })).toEqual([]);
    expect(problems({ ...url, CNIBENCH_WEBHOOK_ALLOW: "10.0.0.0/33" })).toEqual([
      "CNIBENCH_WEBHOOK_ALLOW: must be CIDR ranges or addresses separated by commas, e.g. 10.20.0.0/16,fd12::/64",
    ]);
  });

  it("link to the public URLs when set, else to where the apps listen", () => {
    const env = sharedEnvSchema.parse({
      DATABASE_URL: "postgres://u@db/x",
      CNIBENCH_HOST: "0.0.0.0",
      CNIBENCH_API_PORT: "4001",
      CNIBENCH_PUBLIC_WEB_URL: "https://bench.example/",
    });
    expect(publicUrls(env)).toEqual({ publicApiUrl: "http://127.0.0.1:4001", publicWebUrl: "https://bench.example" });
  });

  it("quote what was given in errors, never a password or a secret", () => {
    const schema = sharedEnvSchema.extend({ AUTH_SECRET: z.string().min(32, "must be at least 32 characters") });
    const env = {
      DATABASE_URL: "mysql://admin:hunter2@db/x",
      CNIBENCH_API_PORT: "eighty",
      AUTH_SECRET: "short-s3cret",
    };
    expect(() => parseEnv(schema, env, "web")).toThrow(
      [
        "web: invalid environment:",
        '  DATABASE_URL="mysql://admin:***@db/x": must be a postgres:// URL',
        '  CNIBENCH_API_PORT="eighty": must be a whole number',
        "  AUTH_SECRET=(hidden): must be at least 32 characters",
      ].join("\n"),
    );
    expect(() => readMigrationEnv({})).toThrow("db:migrate: invalid environment:\n  DATABASE_URL: is required");
  });
});
