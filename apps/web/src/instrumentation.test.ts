import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// env.ts refuses to load outside Next's server build; here it is the server.
vi.mock("server-only", () => ({}));

const DATABASE_URL = "postgresql://u@db/cnibench";

describe("the web app's start-up", () => {
  beforeEach(() => {
    vi.resetModules(); // webEnv() keeps the settings it read first
    for (const key of Object.keys(process.env)) {
      if (key === "DATABASE_URL" || key === "AUTH_SECRET" || key.startsWith("CNIBENCH_")) vi.stubEnv(key, undefined);
    }
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  async function start() {
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { register } = await import("./instrumentation");
    register();
    return { exit, error };
  }

  it("starts with good settings", async () => {
    vi.stubEnv("DATABASE_URL", DATABASE_URL);
    const { exit } = await start();
    expect(exit).not.toHaveBeenCalled();
  });

  it("stops with a bad setting, naming the variable", async () => {
    vi.stubEnv("DATABASE_URL", DATABASE_URL);
    vi.stubEnv("CNIBENCH_API_PORT", "eighty");
    const { exit, error } = await start();
    expect(error).toHaveBeenCalledWith(
      'web: invalid environment:\n  CNIBENCH_API_PORT="eighty": must be a whole number',
    );
    expect(exit).toHaveBeenCalledWith(1);
  });

  it("names every bad variable, the shared ones and the web app's own", async () => {
    const { readWebEnv } = await import("./env");
    expect(() => readWebEnv({ DATABASE_URL: "mysql://x", CNIBENCH_TRUSTED_PROXIES: "-1" })).toThrow(
      'web: invalid environment:\n  DATABASE_URL="mysql://x": must be a postgres:// URL\n  CNIBENCH_TRUSTED_PROXIES="-1": must be 0 or more',
    );
    expect(() => readWebEnv({ DATABASE_URL, CNIBENCH_OIDC_ISSUER: "https://id.example" })).toThrow(
      'CNIBENCH_OIDC_ISSUER="https://id.example": set all of CNIBENCH_OIDC_ISSUER, CNIBENCH_OIDC_CLIENT_ID, CNIBENCH_OIDC_CLIENT_SECRET and AUTH_SECRET, or none',
    );
  });
});
