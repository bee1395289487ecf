// A production build of the web app served on loopback against a given database, for the benchmarks
// that go through HTTP (tRPC, pages).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@cnibench/test-support/ports";
import { ensureWebBuild, nextBin } from "../packages/launcher/src/web-build.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function startWeb(databaseUrl: string): Promise<{ base: string; stop: () => void }> {
  await ensureWebBuild(repoRoot, (l) => console.log(l));
  const port = await freePort();
  const web = spawn(process.execPath, [nextBin(repoRoot), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: path.join(repoRoot, "apps/web"),
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { base, stop: () => web.kill("SIGTERM") };
    if (web.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  web.kill("SIGKILL");
  throw new Error(`the web app did not answer on ${base} within two minutes`);
}
