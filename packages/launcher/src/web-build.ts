import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const SKIP = new Set(["node_modules", "generated", "test-artifacts"]);
// Outputs, not inputs: a build (.next, or one moved aside as .next-*) and the type checker's
// incremental state, which `npm run typecheck` rewrites; hashed, each made the next start build again.
const isOutput = (name: string) => name.startsWith(".next") || name.endsWith(".tsbuildinfo");

/** A digest of everything a production build of the web app depends on. */
export function webBuildInputsDigest(repoRoot: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIP.has(entry.name) || isOutput(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) hash.update(path.relative(repoRoot, full)).update(fs.readFileSync(full));
    }
  };
  for (const dir of ["apps/web", "packages/schema", "packages/db", "packages/charts", "packages/analysis"]) {
    walk(path.join(repoRoot, dir));
  }
  hash.update(fs.readFileSync(path.join(repoRoot, "package-lock.json")));
  hash.update(fs.readFileSync(path.join(repoRoot, "prisma/schema.prisma")));
  return hash.digest("hex");
}

/** `npm start` serves a production build: build when there is none or its inputs changed. */
export async function ensureWebBuild(repoRoot: string, log: (line: string) => void): Promise<void> {
  const webDir = path.join(repoRoot, "apps/web");
  const stamp = path.join(webDir, ".next", "cnibench-build-inputs");
  const digest = webBuildInputsDigest(repoRoot);
  if (
    fs.existsSync(path.join(webDir, ".next", "BUILD_ID")) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, "utf8") === digest
  ) {
    return;
  }
  log("building the web app (first start or changed sources; takes a minute or two)…");
  const started = Date.now();
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin(repoRoot), "build"], {
      cwd: webDir,
      // biome-ignore lint/style/noProcessEnv: the build inherits the environment (PATH, proxies)
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue;
        output.push(line);
        if (/^\s*(✓|Creating|Compiled|Generating|Finalizing)/.test(line)) log(`  web build: ${line.trim()}`);
      }
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${output.slice(-30).join("\n")}`);
  fs.writeFileSync(stamp, digest);
  log(`web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function nextBin(repoRoot: string): string {
  return path.join(repoRoot, "node_modules/next/dist/bin/next");
}
