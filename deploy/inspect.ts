// What deploy/*.test.ts read: the Dockerfiles (parsed just enough to check what they name), the
// build context's .dockerignore, the workspaces and the variables each app's environment schema knows.
// No Docker engine runs here, so these static checks, `docker-compose config -q` in CI and the drain
// test are what verifies the deployment files (deploy/README.md says which checks what).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ingestEnvSchema } from "../apps/ingest-api/src/env.ts";
import { launcherEnvSchema } from "../packages/launcher/src/env.ts";
import { sharedEnvSchema } from "../packages/settings/src/env.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function read(relative: string): string {
  return fs.readFileSync(path.join(repoRoot, relative), "utf8");
}

export function exists(relative: string): boolean {
  return fs.existsSync(path.join(repoRoot, relative));
}

export type Instruction = { keyword: string; args: string; line: number };
export type Stage = { name: string; from: string; instructions: Instruction[] };

/** A Dockerfile's stages, each with its instructions (continuation lines joined, comments dropped). */
export function parseDockerfile(relative: string): Stage[] {
  const stages: Stage[] = [];
  let pending = "";
  let startLine = 0;
  read(relative)
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.trim();
      if (!pending && (line === "" || line.startsWith("#"))) return;
      if (!pending) startLine = index + 1;
      if (line.endsWith("\\")) {
        pending += `${line.slice(0, -1)} `;
        return;
      }
      const text = `${pending}${line}`.trim();
      pending = "";
      const [keyword = "", ...rest] = text.split(/\s+/);
      const instruction = { keyword: keyword.toUpperCase(), args: rest.join(" "), line: startLine };
      if (instruction.keyword === "FROM") {
        const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
        if (!match) throw new Error(`${relative}:${startLine}: cannot read FROM ${instruction.args}`);
        stages.push({ from: match[1]!, name: match[2] ?? String(stages.length), instructions: [] });
      } else if (stages.length > 0) {
        stages.at(-1)!.instructions.push(instruction);
      } else if (instruction.keyword !== "ARG") {
        throw new Error(`${relative}:${startLine}: ${instruction.keyword} before the first FROM`);
      }
    });
  return stages;
}

export type Copy = { from: string | undefined; sources: string[]; dest: string; line: number };

export function copies(stage: Stage): Copy[] {
  return stage.instructions
    .filter((i) => i.keyword === "COPY")
    .map((i) => {
      const words = i.args.split(/\s+/);
      const from = words.find((w) => w.startsWith("--from="))?.slice("--from=".length);
      const paths = words.filter((w) => !w.startsWith("--"));
      return { from, sources: paths.slice(0, -1), dest: paths.at(-1)!, line: i.line };
    });
}

/** The exec-form CMD of a stage, as its words. */
export function cmd(stage: Stage): string[] {
  const instruction = stage.instructions.filter((i) => i.keyword === "CMD").at(-1);
  if (!instruction) throw new Error(`stage ${stage.name} has no CMD`);
  return JSON.parse(instruction.args);
}

/** ENV instructions (KEY=value forms) of a stage, merged over those of the stages it is built from. */
export function stageEnv(stages: Stage[], stage: Stage): Record<string, string> {
  const parent = stages.find((s) => s.name === stage.from);
  const env: Record<string, string> = parent ? stageEnv(stages, parent) : {};
  for (const i of stage.instructions.filter((i) => i.keyword === "ENV")) {
    for (const pair of i.args.split(/\s+/)) {
      const [key, ...value] = pair.split("=");
      if (!key || value.length === 0) throw new Error(`ENV ${i.args}: use the KEY=value form`);
      env[key] = value.join("=");
    }
  }
  return env;
}

/** The folder the stage's CMD runs in: the last WORKDIR of the stage or of the stages it is built from. */
export function workdir(stages: Stage[], stage: Stage): string {
  const own = stage.instructions.filter((i) => i.keyword === "WORKDIR").at(-1)?.args;
  if (own) return own;
  const parent = stages.find((s) => s.name === stage.from);
  return parent ? workdir(stages, parent) : "/";
}

/** The user the stage's CMD runs as: the last USER of the stage or of the stages it is built from. */
export function user(stages: Stage[], stage: Stage): string {
  const own = stage.instructions.filter((i) => i.keyword === "USER").at(-1)?.args;
  if (own) return own;
  const parent = stages.find((s) => s.name === stage.from);
  return parent ? user(stages, parent) : "root";
}

/** Whether .dockerignore keeps a path (relative to the repository root) out of the build context. */
export function dockerIgnored(relative: string): boolean {
  const patterns = read(".dockerignore")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const parts = relative.split("/");
  const candidates = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
  return patterns.some((pattern) => {
    const regex = new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*\*\//g, "%GLOBSTAR%")
        .replace(/\*/g, "[^/]*")
        .replace(/\?/g, "[^/]")
        .replace(/%GLOBSTAR%/g, "(?:.*/)?")}$`,
    );
    return candidates.some((c) => regex.test(c));
  });
}

/** The workspace folders of the root package.json (its globs are `folder/*`). */
export function workspaceDirs(): string[] {
  const globs: string[] = JSON.parse(read("package.json")).workspaces;
  return globs
    .flatMap((glob) => {
      if (!glob.endsWith("/*")) return [glob];
      const parent = glob.slice(0, -2);
      return fs
        .readdirSync(path.join(repoRoot, parent), { withFileTypes: true })
        .filter((d) => d.isDirectory() && exists(`${parent}/${d.name}/package.json`))
        .map((d) => `${parent}/${d.name}`);
    })
    .sort();
}

export type PackageJson = {
  name: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  exports?: Record<string, string>;
};

export function packageJson(dir: string): PackageJson {
  return JSON.parse(read(path.join(dir, "package.json")));
}

export function workspaceByName(name: string): string {
  const dir = workspaceDirs().find((d) => packageJson(d).name === name);
  if (!dir) throw new Error(`no workspace is named ${name}`);
  return dir;
}

/** The variables each process reads, from the schemas that validate them at start-up. */
export const envKeys = {
  ingestApi: Object.keys(ingestEnvSchema.in.shape),
  launcher: Object.keys(launcherEnvSchema.shape),
  // apps/web/src/env.ts imports "server-only", which throws outside Next's server build: read its own
  // keys from the object literal that extends the shared ones instead.
  web: [
    ...Object.keys(sharedEnvSchema.shape),
    ...[...read("apps/web/src/env.ts").matchAll(/^ {4}([A-Z][A-Z0-9_]*): z\b/gm)].map((m) => m[1]!),
  ],
};

/**
 * Bare module specifiers imported (not type-only) by a source file: static imports and re-exports,
 * and dynamic import() of a string literal.
 */
export function runtimeImports(source: string): string[] {
  const found: string[] = [];
  // Comment lines are no code: `distinct from "ipvs"` in one read as an import of "ipvs".
  const code = source.replace(/^\s*(\/\/|\/\*|\*).*$/gm, "");
  // A specifier has no spaces: `Pick<T, "from" | "to">` in an export's signature is no import.
  const statement = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"'\s]+)["']/gms;
  for (const m of code.matchAll(statement)) {
    if (m[2]) continue; // import type … / export type …
    found.push(m[4]!);
  }
  for (const m of code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

/** The package name of a bare specifier (`@scope/name/deep` → `@scope/name`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}
