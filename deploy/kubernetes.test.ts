// The Kubernetes manifests (deploy/kubernetes), checked offline. Every resource file is validated
// against the Kubernetes API's JSON schemas as the kubernetes-models package ships them (compiled,
// nothing is downloaded); kustomize's output is approximated by checking what each kustomization.yaml
// names, and — where kubectl is installed — by validating `kubectl kustomize` of every overlay too.
// The rest are the rules of deploy/README.md: replicas, probes, limits, non-root, read-only root
// filesystem, PodDisruptionBudgets, autoscalers, the database Secret, and the connection arithmetic.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { ingestEnvSchema } from "../apps/ingest-api/src/env.ts";
import { envKeys, parseDockerfile, read, repoRoot, stageEnv, workdir } from "./inspect.ts";

const k8sDir = path.join(repoRoot, "deploy/kubernetes");
const rel = (p: string) => path.relative(k8sDir, p);

// biome-ignore lint/suspicious/noExplicitAny: manifests are free-form YAML, checked field by field below
type Doc = Record<string, any>;

function loadYaml(file: string): Doc[] {
  return parseAllDocuments(fs.readFileSync(file, "utf8")).map((d) => {
    if (d.errors.length > 0) throw new Error(`${rel(file)}: ${d.errors[0]!.message}`);
    return d.toJS() as Doc;
  });
}

function kustomizationDirs(dir = k8sDir): string[] {
  const here = fs.existsSync(path.join(dir, "kustomization.yaml")) ? [dir] : [];
  return [
    ...here,
    ...fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => kustomizationDirs(path.join(dir, d.name))),
  ];
}

const kustomizations = new Map(
  kustomizationDirs().map((dir) => [dir, loadYaml(path.join(dir, "kustomization.yaml"))[0]!]),
);

/** Resource files (not kustomizations) that some kustomization.yaml lists. */
const resourceFiles = [...kustomizations].flatMap(([dir, k]) =>
  ((k.resources ?? []) as string[])
    .map((r) => path.resolve(dir, r))
    .filter((p) => fs.existsSync(p) && fs.statSync(p).isFile()),
);

const validatorInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve("kubernetes-models");
    return true;
  } catch {
    return false;
  }
})();

/**
 * Validates one object against the schema of its apiVersion and kind, with kubernetes-models'
 * compiled validators; returns undefined for kinds it has no schema for (custom resources).
 */
async function validate(doc: Doc): Promise<string | undefined | "no-schema"> {
  if (!validatorInstalled) throw new Error("the devDependency kubernetes-models (4.5.1) is not installed");
  const apiVersion: string = doc.apiVersion;
  let models: Record<string, new (data: Doc) => { validate(): void }>;
  try {
    models = await import(/* @vite-ignore */ `kubernetes-models/${apiVersion}`);
  } catch {
    return "no-schema";
  }
  const Model = models[doc.kind];
  if (!Model) return "no-schema";
  try {
    new Model(doc).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("kubernetes-models, the validator", () => {
  it("is installed (a devDependency: its schemas are compiled into the package, nothing is fetched)", () => {
    expect(validatorInstalled).toBe(true);
  });

  it("refuses what the API server would refuse", async () => {
    const broken = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "broken" },
      spec: { template: { spec: { containers: [{ name: "x", ports: [{ containerPort: "http" }] }] } } },
    };
    const message = await validate(broken);
    expect(message).toMatch(/selector/);
    expect(message).toMatch(/containerPort must be integer/);
  });
});

describe("kustomizations", () => {
  it("name only files and folders that exist", () => {
    for (const [dir, k] of kustomizations) {
      const where = rel(path.join(dir, "kustomization.yaml"));
      expect(k.apiVersion, where).toMatch(/^kustomize\.config\.k8s\.io\//);
      expect(["Kustomization", "Component"], where).toContain(k.kind);
      for (const r of [...(k.resources ?? []), ...(k.components ?? [])] as string[]) {
        const target = path.resolve(dir, r);
        expect(fs.existsSync(target), `${where}: ${r}`).toBe(true);
        if (fs.statSync(target).isDirectory()) {
          expect(fs.existsSync(path.join(target, "kustomization.yaml")), `${where}: ${r}`).toBe(true);
        }
      }
      for (const c of (k.components ?? []) as string[]) {
        expect(kustomizations.get(path.resolve(dir, c))?.kind, `${where}: ${c}`).toBe("Component");
      }
      for (const generator of [...(k.secretGenerator ?? []), ...(k.configMapGenerator ?? [])]) {
        for (const env of (generator.envs ?? []) as string[]) {
          // A file with secrets is not committed: its .example is, and says what to write.
          const file = path.resolve(dir, env);
          expect(fs.existsSync(file) || fs.existsSync(`${file}.example`), `${where}: ${env}`).toBe(true);
        }
      }
    }
  });

  it("list every resource file in the folder, so none is forgotten", () => {
    for (const [dir, k] of kustomizations) {
      const listed = new Set(((k.resources ?? []) as string[]).map((r) => path.resolve(dir, r)));
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml")) {
        expect(listed.has(path.join(dir, file)), `${rel(path.join(dir, file))} is in no kustomization`).toBe(true);
      }
    }
  });
});

describe.each(resourceFiles.map((f) => [rel(f), f]))("%s", (_name, file) => {
  it("is valid against the Kubernetes API schema of its kind", async () => {
    for (const doc of loadYaml(file)) {
      expect(doc.metadata?.name, "metadata.name").toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      const problem = await validate(doc);
      if (problem === "no-schema") {
        // Custom resources: kubernetes-models has no schema for them; see the CloudNativePG test below.
        expect(doc.apiVersion, `${doc.kind} has no schema here`).toMatch(
          /^(postgresql\.cnpg\.io|monitoring\.coreos\.com)\/v1$/,
        );
      } else {
        expect(problem, `${doc.kind} ${doc.metadata?.name}`).toBeUndefined();
      }
    }
  });
});

// The base, resolved as kustomize would for the checks below: generated ConfigMap, images by name.
const baseDir = path.join(k8sDir, "base");
const base = kustomizations.get(baseDir)!;
const baseDocs = ((base.resources ?? []) as string[]).flatMap((r) => loadYaml(path.join(baseDir, r)));
const byKind = (kind: string) => baseDocs.filter((d) => d.kind === kind);
const config: Record<string, string> = Object.fromEntries(
  (base.configMapGenerator as Doc[])
    .find((g) => g.name === "cnibench-config")!
    .literals.map((l: string) => l.split(/=(.*)/s).slice(0, 2)),
);

function labelsMatch(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

const apps = [
  {
    deployment: "cnibench-ingest-api",
    image: "cnibench-ingest-api",
    portVar: "CNIBENCH_API_PORT",
    metricsPortVar: "CNIBENCH_API_METRICS_PORT",
  },
  {
    deployment: "cnibench-web",
    image: "cnibench-web",
    portVar: "CNIBENCH_WEB_PORT",
    metricsPortVar: "CNIBENCH_WEB_METRICS_PORT",
  },
] as const;

describe.each(apps)("$deployment", (app) => {
  const deployment = byKind("Deployment").find((d) => d.metadata.name === app.deployment)!;
  const pod = deployment.spec.template.spec;
  const podLabels = deployment.spec.template.metadata.labels;
  const container = pod.containers[0];

  it("runs at least two replicas, spread over nodes, and rolls without losing capacity", () => {
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(labelsMatch(deployment.spec.selector.matchLabels, podLabels)).toBe(true);
    expect(pod.topologySpreadConstraints[0].topologyKey).toBe("kubernetes.io/hostname");
  });

  it("listens on the port its configuration names, and probes it", () => {
    expect(pod.containers).toHaveLength(1);
    expect(container.image).toBe(app.image);
    expect(container.ports).toEqual([
      { name: "http", containerPort: Number(config[app.portVar]) },
      ...(app.metricsPortVar ? [{ name: "metrics", containerPort: Number(config[app.metricsPortVar]) }] : []),
    ]);
    if (app.metricsPortVar) {
      // Annotation-based discovery scrapes the same port.
      expect(deployment.spec.template.metadata.annotations).toEqual({
        "prometheus.io/scrape": "true",
        "prometheus.io/port": config[app.metricsPortVar],
        "prometheus.io/path": "/metrics",
      });
    }
    for (const probe of ["startupProbe", "livenessProbe", "readinessProbe"]) {
      const p = container[probe];
      expect(p, probe).toBeDefined();
      expect((p.httpGet ?? p.tcpSocket).port, probe).toBe("http");
    }
    expect(container.envFrom).toEqual([{ configMapRef: { name: "cnibench-config" } }]);
  });

  it("reads DATABASE_URL from the Secret cnibench-db-app, key uri", () => {
    expect(container.env).toContainEqual({
      name: "DATABASE_URL",
      valueFrom: { secretKeyRef: { name: "cnibench-db-app", key: "uri" } },
    });
  });

  it("requests and limits CPU and memory", () => {
    for (const kind of ["requests", "limits"]) {
      expect(container.resources[kind], kind).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
    }
  });

  it("runs as a non-root user on a read-only root filesystem, writing only to emptyDirs", () => {
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1000,
      seccompProfile: { type: "RuntimeDefault" },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    const volumes = new Map<string, Doc>(pod.volumes.map((v: Doc) => [v.name, v]));
    for (const mount of container.volumeMounts) expect(volumes.get(mount.name)?.emptyDir, mount.name).toBeDefined();
    expect(container.volumeMounts.map((m: Doc) => m.mountPath)).toContain("/tmp");
  });

  it("waits before SIGTERM so that Services stop sending first, within the grace period", () => {
    expect(container.lifecycle.preStop.exec.command).toEqual(["sleep", "5"]);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(5 + 25); // preStop + ingest-api's drain deadline
  });

  it("has a Service, a PodDisruptionBudget and an autoscaler that select or target it", () => {
    const service = byKind("Service").find((s) => labelsMatch(s.spec.selector, podLabels))!;
    expect(service.spec.ports.map((p: Doc) => p.targetPort)).toEqual(
      app.metricsPortVar ? ["http", "metrics"] : ["http"],
    );
    const pdb = byKind("PodDisruptionBudget").find((p) => labelsMatch(p.spec.selector.matchLabels, podLabels))!;
    expect(pdb.spec.minAvailable).toBe(1);
    const hpa = byKind("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === app.deployment)!;
    expect(hpa.spec.scaleTargetRef.kind).toBe("Deployment");
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
  });
});

describe("the pods' specifics", () => {
  const container = (name: string) =>
    byKind("Deployment").find((d) => d.metadata.name === name)!.spec.template.spec.containers[0];

  it("ingest-api: ready when PostgreSQL answers (/readyz), live while the process answers (/healthz)", () => {
    const api = container("cnibench-ingest-api");
    expect(api.readinessProbe.httpGet.path).toBe("/readyz");
    expect(api.livenessProbe.httpGet.path).toBe("/healthz");
    expect(api.startupProbe.httpGet.path).toBe("/healthz");
  });

  it("web: its cache folder, where the image's standalone server keeps it, is an emptyDir", () => {
    const web = container("cnibench-web");
    const stages = parseDockerfile("apps/web/Dockerfile");
    const runtime = stages.at(-1)!;
    const cacheDir = path.posix.join(workdir(stages, runtime), "apps/web/.next/cache");
    expect(web.volumeMounts.map((m: Doc) => m.mountPath)).toContain(cacheDir);
    expect(web.readinessProbe.httpGet.path).toBe("/readyz");
    expect(web.livenessProbe.httpGet.path).toBe("/healthz");
  });

  it("runs as the uid of the images' node user", () => {
    for (const dockerfile of ["apps/web/Dockerfile", "apps/ingest-api/Dockerfile"]) {
      // The official node:20 images' `node` user is uid 1000, the pods' runAsUser.
      expect(read(dockerfile)).toMatch(/^ARG NODE_IMAGE=node:20-[a-z]+-slim$/m);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own ARG reference
      expect(parseDockerfile(dockerfile).at(-1)!.from).toBe("${NODE_IMAGE}");
    }
  });
});

describe("the migration Job", () => {
  const job = byKind("Job").find((j) => j.metadata.name === "cnibench-migrate")!;
  const pod = job.spec.template.spec;
  const container = pod.containers[0];

  it("runs the migrate image once, with the same Secret and the same restrictions", () => {
    expect(container.image).toBe("cnibench-migrate");
    expect(pod.restartPolicy).toBe("Never");
    expect(job.spec.backoffLimit).toBeGreaterThan(0);
    expect(container.env).toContainEqual({
      name: "DATABASE_URL",
      valueFrom: { secretKeyRef: { name: "cnibench-db-app", key: "uri" } },
    });
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(container.resources.limits).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
  });
});

describe("configuration", () => {
  it("sets only variables the apps know, with values they accept", () => {
    const known = new Set([...envKeys.ingestApi, ...envKeys.web]);
    for (const key of Object.keys(config)) expect(known, key).toContain(key);
    const parsed = ingestEnvSchema.safeParse({ ...config, DATABASE_URL: "postgresql://cnibench@db/cnibench" });
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it("uses the ports the images expose", () => {
    const api = stageEnv(
      parseDockerfile("apps/ingest-api/Dockerfile"),
      parseDockerfile("apps/ingest-api/Dockerfile").at(-1)!,
    );
    const web = stageEnv(parseDockerfile("apps/web/Dockerfile"), parseDockerfile("apps/web/Dockerfile").at(-1)!);
    expect(config.CNIBENCH_API_PORT).toBe(api.CNIBENCH_API_PORT);
    expect(config.CNIBENCH_WEB_PORT).toBe(web.CNIBENCH_WEB_PORT);
  });

  it("names every image the workloads use", () => {
    const names = (base.images as Doc[]).map((i) => i.name).sort();
    const used = [...byKind("Deployment"), ...byKind("Job")]
      .map((w) => w.spec.template.spec.containers[0].image)
      .sort();
    expect(names).toEqual(used);
  });
});

// Connections. createDb (packages/db/src/client.ts) gives each process two pools of maxConnections —
// Prisma's and the views' node-postgres pool — and the apps pass CNIBENCH_DB_POOL_MAX. The migration
// opens at most 3 (Prisma's migration pool of 2 and one client). During a rollout each Deployment runs
// up to maxSurge pods above its autoscaler's ceiling. All of it must fit max_connections less the 3
// connections PostgreSQL reserves for superusers by default.
const POOLS_PER_PROCESS = 2;

describe("connection arithmetic: Σ (maxReplicas + maxSurge) × 2 × pool + 3 ≤ max_connections − 3", () => {
  it("counts the pools createDb opens", () => {
    const client = read("packages/db/src/client.ts");
    const pools = [...client.matchAll(/new (PrismaPg|pg\.Pool)\(/g)].length;
    expect(pools, "createDb changed its pools: redo the sum here and in deploy/README.md").toBe(POOLS_PER_PROCESS);
    expect(client).toContain("max: options.maxConnections ?? 10");
  });

  const surge = byKind("Deployment").reduce((sum, d) => sum + d.spec.strategy.rollingUpdate.maxSurge, 0);
  const overlay = (dir: string) => {
    const k = kustomizations.get(dir)!;
    const literals: string[] = ((k.configMapGenerator ?? []) as Doc[]).flatMap((g) => g.literals ?? []);
    const pool = literals.find((l) => l.startsWith("CNIBENCH_DB_POOL_MAX="))?.split("=")[1];
    // An overlay may cap every autoscaler with a JSON patch on /spec/maxReplicas.
    const cap = ((k.patches ?? []) as Doc[])
      .filter((p) => p.target?.kind === "HorizontalPodAutoscaler")
      .flatMap((p) => parseAllDocuments(p.patch)[0]!.toJS() as Doc[])
      .find((op) => op.path === "/spec/maxReplicas")?.value;
    const maxReplicas = byKind("HorizontalPodAutoscaler").reduce((sum, h) => sum + (cap ?? h.spec.maxReplicas), 0);
    return { pool: Number(pool ?? config.CNIBENCH_DB_POOL_MAX), pods: maxReplicas + surge };
  };
  const needed = ({ pool, pods }: { pool: number; pods: number }) => pods * POOLS_PER_PROCESS * pool + 3;

  it("base, on PostgreSQL's default max_connections of 100", () => {
    expect(needed(overlay(baseDir))).toBeLessThanOrEqual(100 - 3);
  });

  it("CloudNativePG overlay, on the Cluster's own max_connections", () => {
    const dir = path.join(k8sDir, "overlays/cloudnative-pg");
    const cluster = loadYaml(path.join(dir, "cluster.yaml"))[0]!;
    const maxConnections = Number(cluster.spec.postgresql.parameters.max_connections);
    expect(needed(overlay(dir))).toBeLessThanOrEqual(maxConnections - 3);
  });

  it("managed overlay, on a small instance of 60 connections", () => {
    expect(needed(overlay(path.join(k8sDir, "overlays/managed-postgres")))).toBeLessThanOrEqual(60 - 3);
  });
});

describe("CloudNativePG overlay", () => {
  const dir = path.join(k8sDir, "overlays/cloudnative-pg");
  const cluster = loadYaml(path.join(dir, "cluster.yaml"))[0]!;

  // No npm package ships CloudNativePG's CRD schema offline: these are the fields the base relies on.
  it("declares a Cluster whose app secret is the one the base reads", () => {
    expect(cluster).toMatchObject({ apiVersion: "postgresql.cnpg.io/v1", kind: "Cluster" });
    // CloudNativePG names the application secret <cluster>-app; its `uri` key is the URL of the database.
    expect(`${cluster.metadata.name}-app`).toBe("cnibench-db-app");
    expect(cluster.spec.bootstrap.initdb).toEqual({ database: "cnibench", owner: "cnibench" });
    expect(cluster.spec.instances).toBeGreaterThanOrEqual(2);
    expect(cluster.spec.imageName).toMatch(/postgresql:17/);
    expect(cluster.spec.storage.size).toMatch(/^\d+Gi$/);
  });
});

const kubectl = (() => {
  try {
    execFileSync("kubectl", ["version", "--client"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

// kubectl's built-in kustomize, offline. Not installed on every machine (Debian's is too old), so
// this part runs where kubectl is; the checks above run everywhere.
describe.runIf(kubectl)("kubectl kustomize", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-kustomize-"));
  fs.cpSync(k8sDir, work, { recursive: true });
  const envFile = path.join(work, "overlays/managed-postgres/database.env");
  if (!fs.existsSync(envFile)) fs.copyFileSync(`${envFile}.example`, envFile);
  const authFile = path.join(work, "components/sign-in/auth.env");
  if (!fs.existsSync(authFile)) fs.copyFileSync(`${authFile}.example`, authFile);
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it.each(["base", "overlays/cloudnative-pg", "overlays/managed-postgres"])(
    "%s builds to objects that validate",
    async (target) => {
      const out = execFileSync("kubectl", ["kustomize", path.join(work, target)], { encoding: "utf8" });
      const docs = parseAllDocuments(out).map((d) => d.toJS() as Doc);
      for (const doc of docs) {
        // kustomize folds long base64 over lines; the API server's decoder skips the line breaks.
        for (const key of Object.keys(doc.kind === "Secret" ? (doc.data ?? {}) : {})) {
          doc.data[key] = doc.data[key].replace(/\s+/g, "");
        }
        const problem = await validate(doc);
        if (problem !== "no-schema") expect(problem, `${doc.kind} ${doc.metadata.name}`).toBeUndefined();
      }
      const configMap = docs.find((d) => d.kind === "ConfigMap")!;
      expect(configMap.metadata.name).toMatch(/^cnibench-config-[a-z0-9]+$/);
      for (const workload of docs.filter((d) => d.kind === "Deployment")) {
        const container = workload.spec.template.spec.containers[0];
        expect(container.envFrom[0].configMapRef.name).toBe(configMap.metadata.name);
        expect(container.image).toMatch(/^registry\.example\.com\/cnibench\/[a-z-]+:0\.1\.0$/);
      }
      if (target !== "base") {
        expect(docs.filter((d) => d.kind !== "Namespace").every((d) => d.metadata.namespace === "cnibench")).toBe(true);
        expect(docs.map((d) => d.kind)).toContain("Namespace");
      }
      if (target.endsWith("managed-postgres")) {
        expect(docs.find((d) => d.kind === "Secret" && d.metadata.name.startsWith("cnibench-db"))?.metadata.name).toBe(
          "cnibench-db-app",
        );
      }
    },
  );

  // The ServiceMonitor is a custom resource (no offline schema): checked field by field against what it
  // must find — the ingest-api Service by its labels, that Service's metrics port, the container's port.
  it("adds a ServiceMonitor that finds both apps' metrics ports with the prometheus component", () => {
    const overlay = path.join(work, "overlays/managed-postgres");
    const file = path.join(overlay, "kustomization.yaml");
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("#  - ../../components/prometheus");
    fs.writeFileSync(file, text.replace("#  - ../../components/prometheus", "  - ../../components/prometheus"));
    const docs = parseAllDocuments(execFileSync("kubectl", ["kustomize", overlay], { encoding: "utf8" })).map(
      (d) => d.toJS() as Doc,
    );
    fs.writeFileSync(file, text);
    const monitors = docs.filter((d) => d.kind === "ServiceMonitor");
    expect(monitors).toHaveLength(1);
    const monitor = monitors[0]!;
    expect(monitor.apiVersion).toBe("monitoring.coreos.com/v1");
    expect(monitor.metadata.namespace).toBe("cnibench");
    const [endpoint] = monitor.spec.endpoints;
    expect(endpoint).toMatchObject({ port: "metrics", path: "/metrics" });
    const configMap = docs.find((d) => d.kind === "ConfigMap")!;
    const services = docs.filter(
      (d) => d.kind === "Service" && labelsMatch(monitor.spec.selector.matchLabels, d.metadata.labels),
    );
    expect(services.map((d) => d.metadata.name).sort()).toEqual(["cnibench-ingest-api", "cnibench-web"]);
    for (const [name, portVar] of [
      ["cnibench-ingest-api", "CNIBENCH_API_METRICS_PORT"],
      ["cnibench-web", "CNIBENCH_WEB_METRICS_PORT"],
    ] as const) {
      // Service port named by the endpoint → container port it targets → the port the app is told.
      const servicePort = services
        .find((d) => d.metadata.name === name)!
        .spec.ports.find((p: Doc) => p.name === endpoint.port);
      const deployment = docs.find((d) => d.kind === "Deployment" && d.metadata.name === name)!;
      const containerPort = deployment.spec.template.spec.containers[0].ports.find(
        (p: Doc) => p.name === servicePort.targetPort,
      );
      expect(containerPort.containerPort, name).toBe(Number(configMap.data[portVar]));
    }
  });

  // Without the OpenID Connect settings nobody signs in: no owners, private workspaces, webhooks or
  // permalinks. Both overlays must hand the web app all of them, and only the web app.
  it.each(["overlays/cloudnative-pg", "overlays/managed-postgres"])(
    "%s gives the web app the sign-in settings from the Secret cnibench-auth",
    (target) => {
      const docs = parseAllDocuments(
        execFileSync("kubectl", ["kustomize", path.join(work, target)], { encoding: "utf8" }),
      ).map((d) => d.toJS() as Doc);
      const secret = docs.find((d) => d.kind === "Secret" && d.metadata.name.startsWith("cnibench-auth-"));
      expect(secret, "Secret cnibench-auth").toBeDefined();
      const settings = Object.fromEntries(
        Object.entries(secret!.data as Record<string, string>).map(([k, v]) => [
          k,
          Buffer.from(v.replace(/\s+/g, ""), "base64").toString("utf8"),
        ]),
      );
      const signIn = ["CNIBENCH_OIDC_ISSUER", "CNIBENCH_OIDC_CLIENT_ID", "CNIBENCH_OIDC_CLIENT_SECRET", "AUTH_SECRET"];
      expect(Object.keys(settings)).toEqual(expect.arrayContaining([...signIn, "CNIBENCH_ADMIN_EMAIL"]));
      for (const key of Object.keys(settings)) expect(envKeys.web, key).toContain(key);
      expect(URL.canParse(settings.CNIBENCH_OIDC_ISSUER!)).toBe(true);
      expect(settings.AUTH_SECRET!.length).toBeGreaterThanOrEqual(32);
      const deployments = Object.fromEntries(
        docs.filter((d) => d.kind === "Deployment").map((d) => [d.metadata.name, d.spec.template.spec.containers[0]]),
      );
      const secretRefs = (c: Doc) => (c.envFrom ?? []).flatMap((e: Doc) => (e.secretRef ? [e.secretRef.name] : []));
      expect(secretRefs(deployments["cnibench-web"]!)).toEqual([secret!.metadata.name]);
      expect(secretRefs(deployments["cnibench-ingest-api"]!)).toEqual([]);
    },
  );

  it("adds the Ingress and the public URLs with the ingress component", () => {
    const overlay = path.join(work, "overlays/cloudnative-pg");
    const file = path.join(overlay, "kustomization.yaml");
    const text = fs.readFileSync(file, "utf8");
    expect(text, "the overlay offers the ingress component as a commented line").toContain(
      "#  - ../../components/ingress",
    );
    fs.writeFileSync(file, text.replace("#  - ../../components/ingress", "  - ../../components/ingress"));
    const docs = parseAllDocuments(execFileSync("kubectl", ["kustomize", overlay], { encoding: "utf8" })).map(
      (d) => d.toJS() as Doc,
    );
    const ingress = docs.find((d) => d.kind === "Ingress")!;
    const services = docs.filter((d) => d.kind === "Service").map((s) => s.metadata.name);
    for (const p of ingress.spec.rules[0].http.paths) {
      expect(services).toContain(p.backend.service.name);
      // The apps' own metrics ports stay inside the cluster.
      expect(p.backend.service.port).toEqual({ name: "http" });
    }
    expect(docs.find((d) => d.kind === "ConfigMap")!.data).toMatchObject({
      CNIBENCH_PUBLIC_API_URL: "https://cnibench.example.com",
      CNIBENCH_PUBLIC_WEB_URL: "https://cnibench.example.com",
    });
  });
});
