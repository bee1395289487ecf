// Browser tests run against the product as a user starts it: `npm start`'s launcher with its own
// embedded PostgreSQL (a temporary folder, free ports), the demo data, the ingest API and a
// production build of the web app. Chromium is Debian's (.ci/run installs it).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@cnibench/test-support/ports";
import type { TestProject } from "vitest/node";
import { chromiumPath } from "./browser.ts";

declare module "vitest" {
  export interface ProvidedContext {
    webUrl: string;
    apiUrl: string;
    uploadToken: string;
  }
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export default async function setup(project: TestProject) {
  chromiumPath(); // fail at once, with what to install, rather than in every test
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-e2e-"));
  fs.chmodSync(dataDir, 0o755);
  const [pg, api, web, oidc] = [await freePort(), await freePort(), await freePort(), await freePort()];
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "packages/launcher/src/start.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      CNIBENCH_DATA_DIR: dataDir,
      CNIBENCH_PG_PORT: String(pg),
      CNIBENCH_API_PORT: String(api),
      CNIBENCH_WEB_PORT: String(web),
      CNIBENCH_OIDC_PORT: String(oidc),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const webUrl = `http://127.0.0.1:${web}`;
  const apiUrl = `http://127.0.0.1:${api}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the launcher exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`cnibench did not start within 5 minutes:\n${output}`);
    }
    const up = await Promise.all([fetch(`${apiUrl}/readyz`), fetch(webUrl)]).then(
      (rs) => rs.every((r) => r.ok),
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  project.provide("webUrl", webUrl);
  project.provide("apiUrl", apiUrl);
  project.provide("uploadToken", fs.readFileSync(path.join(dataDir, "upload-token"), "utf8").trim());

  return async () => {
    child.kill("SIGTERM");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
