// The container images and docker-compose.yml, checked without a Docker engine: every path a
// Dockerfile copies exists in the build context, every script and workspace it names exists, every
// module the ingest-api image runs is a production dependency, every variable is one the apps'
// environment schemas know, and the ports agree. CI also runs `docker-compose config -q`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ingestEnvSchema } from "../apps/ingest-api/src/env.ts";
import {
  cmd,
  copies,
  dockerIgnored,
  envKeys,
  exists,
  packageJson,
  packageOf,
  parseDockerfile,
  read,
  repoRoot,
  runtimeImports,
  type Stage,
  stageEnv,
  user,
  workdir,
  workspaceByName,
  workspaceDirs,
} from "./inspect.ts";

const dockerfiles = {
  ingestApi: "apps/ingest-api/Dockerfile",
  web: "apps/web/Dockerfile",
} as const;

function stage(stages: Stage[], name: string): Stage {
  const found = stages.find((s) => s.name === name);
  if (!found) throw new Error(`no stage ${name}`);
  return found;
}

/** Variables a process in each image reads: its schema's, plus those its CMD or runtime reads. */
const known = {
  ingestApi: new Set([...envKeys.ingestApi, "NODE_ENV"]),
  web: new Set([...envKeys.web, "CNIBENCH_WEB_PORT", "NODE_ENV", "NEXT_TELEMETRY_DISABLED"]),
  migrate: new Set(["DATABASE_URL", "NODE_ENV", "HOME"]),
};
const hasDockerCompose = (() => {
  try {
    execFileSync("docker-compose", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const buildOnly = new Set(["CHECKPOINT_DISABLE", "NEXT_TELEMETRY_DISABLED"]);

describe.each(Object.entries(dockerfiles))("%s: %s", (_app, dockerfile) => {
  const stages = parseDockerfile(dockerfile);

  it("copies only paths that exist and that .dockerignore lets into the build context", () => {
    for (const s of stages) {
      for (const copy of copies(s)) {
        if (copy.from) {
          expect(
            stages.map((t) => t.name),
            `${dockerfile}:${copy.line} copies from an unknown stage`,
          ).toContain(copy.from);
          continue;
        }
        for (const source of copy.sources) {
          expect(exists(source), `${dockerfile}:${copy.line}: ${source} does not exist`).toBe(true);
          expect(dockerIgnored(source), `${dockerfile}:${copy.line}: ${source} is in .dockerignore`).toBe(false);
        }
      }
    }
  });

  it("copies every workspace manifest before `npm ci` (the lockfile names them all)", () => {
    const manifests = stage(stages, "manifests");
    const copied = copies(manifests).flatMap((c) => c.sources);
    expect(copied).toEqual(expect.arrayContaining(["package.json", "package-lock.json"]));
    for (const dir of workspaceDirs()) expect(copied, `${dir}/package.json`).toContain(`${dir}/package.json`);
  });

  it("keeps generated files and dependencies out of the build context", () => {
    for (const p of ["node_modules", "apps/web/node_modules", "packages/db/src/generated", "apps/web/.next", ".data"]) {
      expect(dockerIgnored(p), p).toBe(true);
    }
  });

  it("runs npm only on workspaces and scripts that exist", () => {
    for (const s of stages) {
      for (const run of s.instructions.filter((i) => i.keyword === "RUN")) {
        const workspace = /--workspace[= ](\S+)/.exec(run.args)?.[1];
        const dir = workspace ? workspaceByName(workspace) : ".";
        const script = /\bnpm run (\S+)/.exec(run.args)?.[1];
        if (script) expect(Object.keys(packageJson(dir).scripts ?? {}), `${dockerfile}:${run.line}`).toContain(script);
      }
    }
  });

  it("ends with a runtime stage that runs as the unprivileged node user, never as root", () => {
    const runtime = stages.at(-1)!;
    expect(runtime.name).toBe("runtime");
    for (const s of stages.filter((s) => s.instructions.some((i) => i.keyword === "CMD"))) {
      expect(user(stages, s), `stage ${s.name}`).toBe("node");
    }
  });
});

describe("ingest-api image", () => {
  const stages = parseDockerfile(dockerfiles.ingestApi);
  const runtime = stage(stages, "runtime");
  const apiDir = "apps/ingest-api";

  it("runs the same entry point as `npm start`, under tsx", () => {
    expect(workdir(stages, runtime)).toBe(`/app/${apiDir}`);
    const [node, flag, loader, entry] = cmd(runtime);
    expect([node, flag, loader]).toEqual(["node", "--import", "tsx"]);
    expect(packageJson(apiDir).scripts?.start).toBe(`tsx ${entry}`);
    expect(exists(path.join(apiDir, entry!))).toBe(true);
  });

  it("installs production dependencies only, and has tsx among them", () => {
    const install = stage(stages, "prod-deps").instructions.find((i) => i.keyword === "RUN")!;
    expect(install.args).toMatch(/npm ci --omit=dev .*--workspace @cnibench\/ingest-api/);
    expect(
      Object.keys(packageJson(apiDir).dependencies ?? {}),
      "the image runs `node --import tsx`: tsx must be a dependency of @cnibench/ingest-api",
    ).toContain("tsx");
    const nodeModules = copies(runtime).filter((c) => c.dest === "node_modules");
    expect(nodeModules.map((c) => c.from)).toEqual(["prod-deps"]);
  });

  // Follows imports from src/main.ts through the workspace packages: each third-party module must be
  // a production dependency of the package that imports it (or the workspace-scoped `npm ci` leaves it
  // out), and each workspace package it reaches must be copied into the image.
  it("declares and copies every module main.ts reaches at run time", () => {
    const copied = copies(runtime)
      .filter((c) => !c.from)
      .flatMap((c) => c.sources);
    const generated = copies(runtime).find((c) => c.from === "build")?.dest;
    const seen = new Set<string>();
    const problems: string[] = [];
    const visit = (file: string, ownerDir: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      if (!copied.some((c) => file === c || file.startsWith(`${c}/`)) && !file.startsWith(`${generated}/`)) {
        problems.push(`${file} is not copied into the runtime stage`);
      }
      if (!exists(file)) {
        if (!file.startsWith(`${generated}/`)) problems.push(`${file} does not exist`);
        return; // the generated Prisma client exists only after `prisma generate`
      }
      const owner = packageJson(ownerDir);
      for (const specifier of runtimeImports(read(file))) {
        if (specifier.startsWith("node:")) continue;
        if (specifier.startsWith(".")) {
          visit(path.posix.join(path.posix.dirname(file), specifier), ownerDir);
          continue;
        }
        const name = packageOf(specifier);
        if (!owner.dependencies?.[name]) {
          problems.push(`${file} imports ${name}, which is not in ${ownerDir}/package.json "dependencies"`);
          continue;
        }
        if (name.startsWith("@cnibench/")) {
          const dir = workspaceByName(name);
          visit(path.posix.join(dir, packageJson(dir).exports?.["."] ?? "src/index.ts"), dir);
        }
      }
    };
    visit(path.posix.join(apiDir, cmd(runtime)[3]!), apiDir);
    expect(problems).toEqual([]);
  });

  it("copies the generated Prisma client from where prisma/schema.prisma writes it", () => {
    const output = /output\s*=\s*"([^"]+)"/.exec(read("prisma/schema.prisma"))?.[1];
    const generatedDir = path.relative(repoRoot, path.resolve(repoRoot, "prisma", output!));
    const copy = copies(runtime).find((c) => c.from === "build")!;
    expect(copy.sources).toEqual([`/app/${path.dirname(generatedDir)}`]);
    expect(copy.dest).toBe(path.dirname(generatedDir));
  });

  it("has a migrate target that runs `npm run db:migrate`'s script", () => {
    const migrate = stage(stages, "migrate");
    const [node, flag, loader, entry] = cmd(migrate);
    expect([node, flag, loader]).toEqual(["node", "--import", "tsx"]);
    expect(workdir(stages, migrate)).toBe("/app");
    expect(packageJson(".").scripts?.["db:migrate"]).toBe(`tsx ${entry}`);
    const sources = copies(migrate).flatMap((c) => c.sources);
    for (const dir of ["packages/launcher", "packages/db", "packages/schema"]) expect(sources).toContain(dir);
    // prisma migrate deploy reads these, copied in the build stage it starts from
    for (const p of ["prisma", "prisma.config.ts"]) {
      expect(copies(stage(stages, "build")).flatMap((c) => c.sources)).toContain(p);
    }
  });

  it("sets only variables ingest-api knows, and exposes the port it listens on", () => {
    const env = stageEnv(stages, runtime);
    for (const key of Object.keys(env)) {
      if (!buildOnly.has(key)) expect(known.ingestApi, key).toContain(key);
    }
    const expose = runtime.instructions.find((i) => i.keyword === "EXPOSE")?.args;
    expect(expose).toBe(env.CNIBENCH_API_PORT);
    expect(ingestEnvSchema.safeParse({ ...env, DATABASE_URL: "postgresql://u@db/cnibench" }).success).toBe(true);
  });
});

describe("web image", () => {
  const stages = parseDockerfile(dockerfiles.web);
  const runtime = stage(stages, "runtime");

  it("builds with `output: standalone` and copies the standalone server and its static files", () => {
    expect(read("apps/web/next.config.ts")).toMatch(/^\s*output: "standalone",/m);
    const fromBuild = copies(runtime).filter((c) => c.from === "build");
    expect(fromBuild.map((c) => [c.sources[0], c.dest])).toEqual([
      ["/app/apps/web/.next/standalone", "./"],
      ["/app/apps/web/.next/static", "apps/web/.next/static"],
    ]);
    // No dependencies of its own: the standalone output holds the node_modules files it was traced to need.
    expect(copies(runtime).some((c) => c.dest.includes("node_modules"))).toBe(false);
  });

  it("starts the standalone server on the port and address cnibench's variables give", () => {
    expect(workdir(stages, runtime)).toBe("/app");
    const [shell, flag, script] = cmd(runtime);
    expect([shell, flag]).toEqual(["sh", "-c"]);
    expect(script).toBe('PORT="$CNIBENCH_WEB_PORT" HOSTNAME="$CNIBENCH_HOST" exec node apps/web/server.js');
    const env = stageEnv(stages, runtime);
    for (const key of Object.keys(env)) expect(known.web, key).toContain(key);
    for (const used of script!.matchAll(/\$([A-Z_]+)/g))
      expect(env, `${used[1]} has a default`).toHaveProperty(used[1]!);
    expect(runtime.instructions.find((i) => i.keyword === "EXPOSE")?.args).toBe(env.CNIBENCH_WEB_PORT);
  });

  it("copies into the build stage every workspace package the web app imports", () => {
    const build = stage(stages, "build");
    const sources = copies(build).flatMap((c) => c.sources);
    const web = packageJson("apps/web");
    for (const name of Object.keys(web.dependencies ?? {}).filter((n) => n.startsWith("@cnibench/"))) {
      const dir = workspaceByName(name);
      expect(sources, name).toContain(dir);
      for (const dep of Object.keys(packageJson(dir).dependencies ?? {}).filter((n) => n.startsWith("@cnibench/"))) {
        expect(sources, `${dep} (through ${name})`).toContain(workspaceByName(dep));
      }
    }
  });
});

type ComposeService = {
  image?: string;
  build?: { context: string; dockerfile?: string; target?: string };
  environment?: Record<string, string | null>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  read_only?: boolean;
  tmpfs?: string[];
  volumes?: string[];
};

describe("docker-compose.yml", () => {
  const text = read("docker-compose.yml");
  const compose = parse(text, { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const { services } = compose;
  /** A compose value with each ${VAR:-default} replaced by its default, as with an empty shell. */
  const withDefaults = (value: string) => value.replace(/\$\{([A-Z_]+)(?::?-([^}]*))?\}/g, (_m, _v, d) => d ?? "");
  const env = (name: string) =>
    Object.fromEntries(
      Object.entries(services[name]?.environment ?? {})
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withDefaults(String(v))]),
    );

  it("runs PostgreSQL 17, a one-shot migration, ingest-api and web", () => {
    expect(Object.keys(services).sort()).toEqual(["db", "ingest-api", "migrate", "web"]);
    expect(services.db?.image).toBe("postgres:17");
    expect(services.db?.volumes).toContain("pgdata:/var/lib/postgresql/data");
    expect(compose.volumes).toHaveProperty("pgdata");
    expect(services.migrate?.depends_on).toEqual({ db: { condition: "service_healthy" } });
    for (const app of ["ingest-api", "web"]) {
      expect(services[app]?.depends_on).toEqual({ migrate: { condition: "service_completed_successfully" } });
    }
  });

  it("builds each service from a Dockerfile stage that exists", () => {
    const targets: Record<string, [string, string]> = {
      migrate: [dockerfiles.ingestApi, "migrate"],
      "ingest-api": [dockerfiles.ingestApi, "runtime"],
      web: [dockerfiles.web, "runtime"],
    };
    for (const [name, [dockerfile, target]] of Object.entries(targets)) {
      const build = services[name]!.build!;
      expect(build.context).toBe(".");
      expect(build.dockerfile).toBe(dockerfile);
      const stages = parseDockerfile(dockerfile).map((s) => s.name);
      // Without a target, docker builds the last stage.
      expect(build.target ?? stages.at(-1)).toBe(target);
      expect(stages).toContain(target);
    }
  });

  it("passes each app only variables its environment schema knows", () => {
    const byService = { "ingest-api": known.ingestApi, web: known.web, migrate: known.migrate };
    for (const [name, keys] of Object.entries(byService)) {
      for (const key of Object.keys(services[name]?.environment ?? {})) expect(keys, `${name}: ${key}`).toContain(key);
    }
    const parsed = ingestEnvSchema.safeParse(env("ingest-api"));
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it("reads from the shell only variables of README's configuration and the database password", () => {
    const documented = new Set([...envKeys.launcher, ...envKeys.ingestApi, ...envKeys.web, "POSTGRES_PASSWORD"]);
    for (const m of text.matchAll(/\$\{([A-Z_]+)/g)) expect(documented, m[1]).toContain(m[1]);
    const passedOn = Object.values(services).flatMap((s) =>
      Object.entries(s.environment ?? {})
        .filter(([, v]) => v === null)
        .map(([k]) => k),
    );
    for (const key of passedOn) expect(documented, key).toContain(key);
  });

  it("publishes each app on the port it listens on, and checks its health there", () => {
    const apps = [
      { name: "ingest-api", portVar: "CNIBENCH_API_PORT", paths: ["/healthz", "/readyz"] },
      { name: "web", portVar: "CNIBENCH_WEB_PORT", paths: ["/readyz"] },
    ];
    for (const app of apps) {
      const service = services[app.name]!;
      const port = env(app.name)[app.portVar];
      expect(port).toMatch(/^\d+$/);
      const [published] = service.ports ?? [];
      expect(withDefaults(published!).split(":").slice(-2)).toEqual([port, port]);
      const [kind, node, flag, script] = service.healthcheck!.test;
      expect([kind, node, flag]).toEqual(["CMD", "node", "-e"]);
      expect(() => new Function(script!)).not.toThrow();
      expect(script).toContain(`process.env.${app.portVar}`);
      for (const p of app.paths) expect(script).toContain(`'${p}'`);
    }
    // The API's health routes exist.
    const meta = read("apps/ingest-api/src/routes/meta.ts");
    for (const p of ["/healthz", "/readyz"]) expect(meta).toContain(`app.get("${p}"`);
  });

  it("runs the apps on a read-only root filesystem with a tmpfs where they write", () => {
    expect(services["ingest-api"]?.read_only).toBe(true);
    expect(services["ingest-api"]?.tmpfs).toEqual(["/tmp:mode=1777"]);
    expect(services.web?.read_only).toBe(true);
    expect(services.web?.tmpfs).toEqual(["/tmp:mode=1777", "/app/apps/web/.next/cache:mode=1777"]);
  });

  it("passes the web app the sign-in settings, and both apps their public addresses", () => {
    const signIn = [
      "CNIBENCH_OIDC_ISSUER",
      "CNIBENCH_OIDC_CLIENT_ID",
      "CNIBENCH_OIDC_CLIENT_SECRET",
      "AUTH_SECRET",
      "CNIBENCH_ADMIN_EMAIL",
    ];
    for (const key of signIn) {
      expect(services.web?.environment, `web: ${key}`).toHaveProperty(key);
      expect(services["ingest-api"]?.environment ?? {}, `ingest-api: ${key}`).not.toHaveProperty(key);
    }
    for (const app of ["ingest-api", "web"]) {
      // Not 0.0.0.0, the address the apps listen on, which no browser can open.
      expect(env(app).CNIBENCH_PUBLIC_WEB_URL, app).toBe("http://localhost:3000");
      expect(env(app).CNIBENCH_PUBLIC_API_URL, app).toBe("http://localhost:4000");
    }
  });

  // Compose's own reading of the file, with the sign-in settings in the shell as an operator sets them.
  it.runIf(hasDockerCompose)("hands the shell's sign-in settings to the web app (docker-compose config)", () => {
    const shell = {
      CNIBENCH_OIDC_ISSUER: "https://dex.example.com/dex",
      CNIBENCH_OIDC_CLIENT_ID: "cnibench",
      CNIBENCH_OIDC_CLIENT_SECRET: "s3cret",
      AUTH_SECRET: "a".repeat(32),
      CNIBENCH_ADMIN_EMAIL: "admin@example.com",
      CNIBENCH_PUBLIC_WEB_URL: "https://cnibench.example.com",
    };
    const out = execFileSync("docker-compose", ["-f", "docker-compose.yml", "config"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { PATH: process.env.PATH, ...shell },
    });
    const rendered = (parse(out) as { services: Record<string, ComposeService> }).services;
    expect(rendered.web?.environment).toMatchObject(shell);
    expect(rendered["ingest-api"]?.environment?.CNIBENCH_PUBLIC_WEB_URL).toBe(shell.CNIBENCH_PUBLIC_WEB_URL);
    expect(rendered["ingest-api"]?.environment).not.toHaveProperty("AUTH_SECRET");
  });

  it("is checked by CI with docker-compose config", () => {
    expect(read(".ci/run")).toContain("docker-compose -f docker-compose.yml config -q");
  });
});

describe("the root Dockerfile", () => {
  it("is gone: each app has its own", () => {
    expect(fs.existsSync(path.join(repoRoot, "Dockerfile"))).toBe(false);
  });
});

describe("the imports the image check follows", () => {
  it("are code, not words in a comment that look like one", () => {
    // vocabulary.ts's comment on kube-router ended `distinct from "ipvs", …`: read as an import of ipvs.
    const source = [
      "export const vocabulary = {",
      "  // kube-router's own proxy: distinct from \"ipvs\", kube-proxy's mode.",
      ' * a JSDoc line that says from "nowhere"',
      "};",
      'import { z } from "zod";',
      'export { x } from "@cnibench/format";',
      'const m = await import("pg");',
    ].join("\n");
    expect(runtimeImports(source)).toEqual(["zod", "@cnibench/format", "pg"]);
  });
});
