import { defineConfig } from "vitest/config";

// Unit tests (x.test.ts) are pure; integration tests (x.integration.test.ts) get a real PostgreSQL
// from packages/test-support/src/global-setup.ts: TEST_DATABASE_URL's server when set, else an embedded one.
// Browser tests (apps/web/e2e/*.browser.test.ts) drive Debian's Chromium against `npm start`'s product.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["{apps,packages}/**/src/**/*.test.ts", "demo-data/**/*.test.ts", "deploy/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["{apps,packages}/**/*.integration.test.ts"],
          exclude: ["**/node_modules/**"],
          globalSetup: ["packages/test-support/src/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "browser",
          include: ["apps/web/e2e/**/*.browser.test.ts"],
          exclude: ["**/node_modules/**"],
          globalSetup: ["apps/web/e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 360_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
