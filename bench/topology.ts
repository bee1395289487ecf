// npm run test:topology — two replicas of each app behave as one (issue 44), proved on one machine with
// real parts: the embedded PostgreSQL, Debian's PgBouncer in transaction mode in front of it, two
// ingest-api and two web processes (the web app's production build) on PgBouncer, and Debian's nginx
// in front of all four, as the shipped Ingress routes (/v1 to the API, the rest to the web app).
// Through nginx it drives uploads, imports, pages, a sign-in with the local OpenID Connect provider,
// and an alert, while one replica of each app is killed (SIGKILL) and restarted, twice. Then it checks:
// no upload lost or stored twice, no 5xx but the documented 503s, the rate limits and the web app's
// write budget spent once across both replicas, the session valid on both web replicas, the alert
// delivered exactly once. Prints the figures and writes them into docs/scaling.md.
// Needs pgbouncer and nginx (`apt-get install -y pgbouncer nginx`); without them it says so and exits 0.
// Settings: TOPOLOGY_SECONDS (40) of load, TOPOLOGY_UPLOADERS (4).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createDb, createToken, createWebhook, ensureDefaultWorkspace, migrateDatabase } from "@cnibench/db";
import { startLocalIdentityProvider } from "@cnibench/identity";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "@cnibench/launcher";
import { parseAllowList } from "@cnibench/settings/allow-list";
import { tar } from "@cnibench/test-support/archives";
import { environmentQuery, iperf3Fixture } from "@cnibench/test-support/fixtures";
import { freePort } from "@cnibench/test-support/ports";
import { gzipSync } from "fflate";
import pg from "pg";
import { quantile } from "simple-statistics";
import { ensureWebBuild, nextBin } from "../packages/launcher/src/web-build.ts";
import { syntheticUpload } from "./synthetic.ts";
import { repoRoot } from "./web.ts";

const loadSeconds = Number(process.env.TOPOLOGY_SECONDS ?? 40);
const uploaders = Number(process.env.TOPOLOGY_UPLOADERS ?? 4);
/**
 * Requests a minute per upload token (both replicas together); the load spreads over LOAD_TOKENS
 * tokens, enough for 128 uploads a second (an idle 2-core machine sends about 50) within the budget.
 */
const TOKEN_LIMIT = 120;
const LOAD_TOKENS = 64;
/** Changes a minute per signed-in user in the web app. */
const WRITE_LIMIT = 5;

const which = (bin: string) =>
  ["/usr/sbin", "/usr/bin", "/sbin", "/bin"].map((d) => path.join(d, bin)).find(fs.existsSync);

type Proc = { name: string; child: ChildProcess; port: number; start: () => ChildProcess };

async function waitFor(url: string, what: string, child?: ChildProcess, seconds = 180): Promise<void> {
  for (let i = 0; i < seconds * 4; i++) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not answer at ${url}`);
}

/** Cookies by name, from Set-Cookie answers: enough of a jar for one host. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/**
 * Signs in through the web app (via nginx) at the local provider, as a browser does: Auth.js's form
 * post, the provider's login page, its redirect back. Returns the web app's cookies.
 */
async function signIn(web: string, login: string): Promise<Jar> {
  const webJar = new Jar();
  const idJar = new Jar();
  const csrfRes = await fetch(`${web}/api/auth/csrf`);
  webJar.take(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  let res = await fetch(`${web}/api/auth/signin/oidc`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: webJar.header() },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${web}/workspaces` }),
  });
  webJar.take(res);
  let next = res.headers.get("location") ?? "";
  // The provider: its authorisation endpoint, its login page (any login, any password), back to the app.
  for (let hop = 0; next && !next.startsWith(web) && hop < 10; hop++) {
    const url = new URL(next);
    const page = await fetch(url, { redirect: "manual", headers: { cookie: idJar.header() } });
    idJar.take(page);
    if (page.status === 200) {
      const html = await page.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`sign-in: no login form at ${url}`);
      res = await fetch(new URL(action, url), {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: idJar.header() },
        body: new URLSearchParams({ prompt: "login", login, password: "any" }),
      });
      idJar.take(res);
      next = new URL(res.headers.get("location") ?? "", url).toString();
    } else {
      next = new URL(page.headers.get("location") ?? "", url).toString();
    }
  }
  if (!next?.startsWith(web)) throw new Error(`sign-in: the provider did not send back to ${web} (${next})`);
  res = await fetch(next, { redirect: "manual", headers: { cookie: webJar.header() } });
  webJar.take(res);
  if (![...webJar.cookies.keys()].some((k) => k.includes("session-token"))) {
    throw new Error(`sign-in: no session cookie (callback answered ${res.status})`);
  }
  return webJar;
}

function nginxConfig(dir: string, port: number, api: number[], web: number[]): string {
  const temp = (name: string) => {
    const p = path.join(dir, name);
    fs.mkdirSync(p, { recursive: true, mode: 0o777 });
    fs.chmodSync(p, 0o777);
    return p;
  };
  const upstream = (name: string, ports: number[]) =>
    `upstream ${name} {\n${ports.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join("\n")}\n    keepalive 16;\n  }`;
  // A replica that is down refuses the connection: nginx tries the other one. Uploads may be retried
  // there even once sent (non_idempotent): storing is idempotent by content, so a retry never stores twice.
  // max_fails=0: a replica is never written off for a while (nginx's default 10 s after one failure),
  // since it may be back, and the other one down, the moment after; a refused connection costs nothing.
  const proxy = `proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout non_idempotent;
      proxy_next_upstream_tries 2;
      proxy_read_timeout 120s;`;
  return `daemon off;
worker_processes 1;
pid ${path.join(dir, "nginx.pid")};
error_log ${path.join(dir, "nginx-error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_max_body_size 64m;
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  ${upstream("api", api)}
  ${upstream("web", web)}
  server {
    listen 127.0.0.1:${port};
    location /v1/ {
      proxy_pass http://api;
      ${proxy}
    }
    location / {
      proxy_pass http://web;
      ${proxy}
    }
  }
}
`;
}

async function main(): Promise<void> {
  const pgbouncerBin = which("pgbouncer");
  const nginxBin = which("nginx");
  if (!pgbouncerBin || !nginxBin) {
    console.log("test:topology skipped: needs pgbouncer and nginx (apt-get install -y pgbouncer nginx)");
    return;
  }
  const deadline = setTimeout(() => {
    console.error("test:topology: still running after 20 minutes, stopping");
    process.exit(2);
  }, 20 * 60_000);
  deadline.unref();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-topology-"));
  fs.chmodSync(dir, 0o755);
  const children: ChildProcess[] = [];
  const procs: Proc[] = [];
  let database: EmbeddedPostgres | undefined;
  let identity: Awaited<ReturnType<typeof startLocalIdentityProvider>> | undefined;
  let receiver: http.Server | undefined;
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
    if (!ok) failures.push(what);
  };
  try {
    await ensureWebBuild(repoRoot, (l) => console.log(l));

    // PostgreSQL, then PgBouncer in transaction mode in front of it.
    database = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), log: () => {} });
    await migrateDatabase(database.url);
    const direct = new URL(database.url);
    const user = decodeURIComponent(direct.username);
    const password = decodeURIComponent(direct.password);
    const bouncerPort = await freePort();
    // PgBouncer runs as the postgres user (it refuses root): its log goes where that user may write.
    const bouncerDir = path.join(dir, "pgbouncer");
    fs.mkdirSync(bouncerDir, { mode: 0o777 });
    fs.chmodSync(bouncerDir, 0o777);
    fs.writeFileSync(path.join(dir, "userlist.txt"), `"${user}" "${password}"\n`, { mode: 0o644 });
    fs.writeFileSync(
      path.join(dir, "pgbouncer.ini"),
      `[databases]
cnibench = host=127.0.0.1 port=${direct.port} dbname=${direct.pathname.slice(1)} user=${user} password=${password}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${bouncerPort}
unix_socket_dir =
auth_type = plain
auth_file = ${path.join(dir, "userlist.txt")}
pool_mode = transaction
max_client_conn = 500
default_pool_size = 20
; node-postgres sends the apps' statement timeout at connect; PgBouncer 1.18 refuses parameters it does
; not know. The apps' own client-side timeout still bounds every query.
ignore_startup_parameters = statement_timeout,extra_float_digits
logfile = ${path.join(bouncerDir, "pgbouncer.log")}
`,
      { mode: 0o644 },
    );
    const asUser = process.getuid?.() === 0 ? ["-u", "postgres"] : [];
    // It logs every connection: to its file only.
    const bouncer = spawn(pgbouncerBin, [...asUser, path.join(dir, "pgbouncer.ini")], { stdio: "ignore" });
    children.push(bouncer);
    const bouncerUrl = `postgresql://${direct.username}:${direct.password}@127.0.0.1:${bouncerPort}/cnibench?pgbouncer=true`;
    for (let i = 0; ; i++) {
      const c = new pg.Client({ connectionString: bouncerUrl });
      const ok = await c.connect().then(
        () => c.query("SELECT 1").then(() => true),
        () => false,
      );
      await c.end().catch(() => {});
      if (ok) break;
      if (i > 40) throw new Error("PgBouncer did not start");
      await new Promise((r) => setTimeout(r, 250));
    }

    // What the load uses: upload tokens, a token for the limit check, a webhook to a receiver here.
    const setup = createDb(database.url, { maxConnections: 2 });
    const workspaceId = (await ensureDefaultWorkspace(setup)).id;
    const tokens = await Promise.all(
      Array.from({ length: LOAD_TOKENS }, async (_, i) => (await createToken(setup, workspaceId, `load-${i}`)).token),
    );
    const limitToken = (await createToken(setup, workspaceId, "limit")).token;
    const alertToken = (await createToken(setup, workspaceId, "alerts")).token;
    const alertsReceived: string[] = [];
    receiver = http.createServer((req, res) => {
      alertsReceived.push(String(req.headers["x-cnibench-delivery"]));
      req.resume();
      req.on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
    const receiverPort = (receiver.address() as import("node:net").AddressInfo).port;
    await createWebhook(
      setup,
      { workspaceId, url: `http://127.0.0.1:${receiverPort}/alerts`, format: "json", events: ["campaign-worse"] },
      { allow: parseAllowList("127.0.0.1/32"), ownPorts: [] },
    );
    await setup.$disconnect();

    const [nginxPort, oidcPort] = [await freePort(), await freePort()];
    const front = `http://127.0.0.1:${nginxPort}`;
    const clientSecret = "topology-secret-0123456789abcdef";
    identity = await startLocalIdentityProvider({
      host: "127.0.0.1",
      port: oidcPort,
      redirectUris: [`${front}/api/auth/callback/oidc`],
      clientSecret,
    });

    const common = {
      ...process.env,
      DATABASE_URL: bouncerUrl,
      CNIBENCH_DB_POOL_MAX: "8",
      CNIBENCH_PUBLIC_API_URL: front,
      CNIBENCH_PUBLIC_WEB_URL: front,
      LOG_LEVEL: "error",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    const ingest = (port: number) => () =>
      spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: path.join(repoRoot, "apps/ingest-api"),
        env: {
          ...common,
          CNIBENCH_HOST: "127.0.0.1",
          CNIBENCH_API_PORT: String(port),
          CNIBENCH_API_METRICS_PORT: "0",
          CNIBENCH_RATE_LIMIT_PER_MINUTE: String(TOKEN_LIMIT),
          // Every client comes through nginx, one address: the per-address budget would be the proxy's.
          CNIBENCH_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: "1000000",
          CNIBENCH_WEBHOOK_ALLOW: "127.0.0.1/32",
        },
        stdio: ["ignore", "inherit", "inherit"],
      });
    const web = (port: number) => () =>
      spawn(process.execPath, [nextBin(repoRoot), "start", "-p", String(port), "-H", "127.0.0.1"], {
        cwd: path.join(repoRoot, "apps/web"),
        env: {
          ...common,
          CNIBENCH_WEB_PORT: String(port),
          CNIBENCH_WEB_METRICS_PORT: "0",
          CNIBENCH_WEB_WRITES_PER_MINUTE: String(WRITE_LIMIT),
          CNIBENCH_TRUSTED_PROXIES: "1", // nginx
          CNIBENCH_OIDC_ISSUER: identity!.issuer,
          CNIBENCH_OIDC_CLIENT_ID: identity!.clientId,
          CNIBENCH_OIDC_CLIENT_SECRET: clientSecret,
          AUTH_SECRET: "topology-auth-secret-0123456789abcdefghijkl",
        },
        stdio: ["ignore", "inherit", "inherit"],
      });
    for (const [name, make] of [
      ["ingest-api 1", ingest],
      ["ingest-api 2", ingest],
      ["web 1", web],
      ["web 2", web],
    ] as const) {
      const port = await freePort();
      const start = make(port);
      procs.push({ name, port, start, child: start() });
    }
    const apis = procs.slice(0, 2);
    const webs = procs.slice(2);
    await Promise.all([...procs.map((p) => waitFor(`http://127.0.0.1:${p.port}/healthz`, p.name, p.child))]);
    fs.writeFileSync(
      path.join(dir, "nginx.conf"),
      nginxConfig(
        dir,
        nginxPort,
        apis.map((p) => p.port),
        webs.map((p) => p.port),
      ),
    );
    const nginx = spawn(nginxBin, ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "inherit" });
    children.push(nginx);
    await waitFor(`${front}/healthz`, "nginx", nginx);
    console.log(
      `topology: nginx ${front} → ingest-api ×2, web ×2 → PgBouncer :${bouncerPort} (transaction) → PostgreSQL`,
    );

    // Sign-in through nginx, then the session on both web replicas (straight, not through nginx).
    const jar = await signIn(front, "topology-user");
    const sessions = await Promise.all(
      webs.map(async (p) => {
        const res = await fetch(`http://127.0.0.1:${p.port}/api/auth/session`, { headers: { cookie: jar.header() } });
        return ((await res.json()) as { user?: { email?: string } } | null)?.user?.email;
      }),
    );

    // The load, while replicas are killed and restarted.
    const statuses = new Map<string, number>();
    const count = (kind: string, status: number) => {
      const key = `${kind} ${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    };
    const uploadMs: number[] = [];
    const acceptedIds = new Map<number, string>();
    const importedIds = new Set<string>();
    let sent = 0;
    let cutOff = 0;
    let stop = false;
    const faults: string[] = [];
    const t0 = performance.now();
    const since = () => ((performance.now() - t0) / 1000).toFixed(1);

    const body = (n: number) =>
      JSON.stringify(
        syntheticUpload(n, {
          title: "cnibench topology test",
          tool: "bench/topology.ts",
          section: `bundle ${n}`,
          clusters: 10,
          sku: "topology.large",
          results: Array.from({ length: 20 }, (_, i) => ({
            metric: "http.rps",
            unit: "req/s",
            value: 10_000 + ((n * 7919 + i * 104_729) % 5_000),
            params: { connection: "short", concurrency: 64, target: "service", services: i * 500 },
          })),
        }),
      );
    /** Status and body, or null when the connection or the body was cut off (a replica killed mid-answer). */
    const answer = async (url: string, init: RequestInit) => {
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
        return { status: res.status, text: await res.text() };
      } catch {
        return null;
      }
    };
    /** POSTs until stored: refused with 503 or cut off, it is sent again, as the CLI does. */
    const store = async (kind: string, url: string, init: RequestInit): Promise<unknown> => {
      for (let attempt = 0; ; attempt++) {
        const res = await answer(url, init);
        if (!res) cutOff++;
        else {
          count(kind, res.status);
          if (res.status < 300) return JSON.parse(res.text);
          // Another 5xx fails the run (counted above) but is sent again, so the run still ends with figures.
          if (res.status < 500) throw new Error(`${kind}: HTTP ${res.status}: ${res.text.slice(0, 300)}`);
        }
        if (attempt > 100) throw new Error(`${kind}: not stored after 100 attempts`);
        await new Promise((r) => setTimeout(r, 300));
      }
    };

    const uploading = Array.from({ length: uploaders }, async (_, worker) => {
      for (let n = worker; !stop; n += uploaders) {
        sent++;
        const started = performance.now();
        const res = await store("upload", `${front}/v1/bundles`, {
          method: "POST",
          headers: { authorization: `Bearer ${tokens[n % LOAD_TOKENS]}`, "content-type": "application/json" },
          body: body(n),
        });
        uploadMs.push(performance.now() - started);
        acceptedIds.set(n, (res as { id: string }).id);
      }
    });
    const importing = (async () => {
      for (let k = 0; !stop; k++) {
        const archive = Buffer.from(
          gzipSync(
            tar(Array.from({ length: 5 }, (_, i) => ({ name: `run-${k}/${i}/iperf3.json`, bytes: iperf3Fixture() }))),
          ),
        );
        const res = await store("import", `${front}/v1/import?${environmentQuery({ cluster: `topology-${k}` })}`, {
          method: "POST",
          headers: { authorization: `Bearer ${tokens[k % LOAD_TOKENS]}`, "content-type": "application/gzip" },
          body: archive,
        });
        for (const b of (res as { bundles: { id: string }[] }).bundles) importedIds.add(b.id);
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const pages = ["/", "/guide", "/charts", "/workspaces", "/api/trpc/scenarios.explore?input=%7B%7D"];
    const reading = Array.from({ length: 2 }, async (_, worker) => {
      for (let k = worker; !stop; k++) {
        const p = pages[k % pages.length]!;
        const res = await answer(`${front}${p}`, { headers: { cookie: jar.header() } });
        if (!res) cutOff++;
        else count("page", res.status);
      }
    });
    // An alert: two campaigns of one testbed, the second 15 % slower, each closed by its collector.
    const alerting = (async () => {
      const campaign = (name: string, runs: number[], hour: number) =>
        runs.map((value, i) => ({
          schema: "cnibench/bundle@1",
          collector: { name: "iperf3" },
          cluster: {
            name: "topology-alerts",
            provider: "kind",
            region: "local",
            kubernetesVersion: "v1.34.0",
            nodeCount: 3,
          },
          node: { sku: "topology.alerts", os: "Debian 12", kernel: "6.1.0" },
          cni: { name: "cilium", version: "1.19.4", mode: "native", kubeProxy: "ebpf" },
          runAt: `2026-11-2${hour}T02:0${i}:00Z`,
          campaign: name,
          results: [{ metric: "tcp.throughput", unit: "Gbit/s", params: { path: "pod-pod", streams: 1 }, value }],
        }));
      for (const [name, runs, day] of [
        ["topology-1", [9.4, 9.42, 9.38], 1],
        ["topology-2", [8.0, 8.02, 7.98], 2],
      ] as const) {
        for (const b of campaign(name, [...runs], day)) {
          await store("alert upload", `${front}/v1/bundles`, {
            method: "POST",
            headers: { authorization: `Bearer ${alertToken}`, "content-type": "application/json" },
            body: JSON.stringify(b),
          });
        }
        await store("alert close", `${front}/v1/campaigns/close`, {
          method: "POST",
          headers: { authorization: `Bearer ${alertToken}`, "content-type": "application/json" },
          body: JSON.stringify({ campaign: name }),
        });
      }
    })();

    const restart = async (p: Proc) => {
      p.child.kill("SIGKILL");
      faults.push(`${since()} s: ${p.name} killed (SIGKILL)`);
      await new Promise((r) => setTimeout(r, 2_000));
      p.child = p.start();
      await waitFor(`http://127.0.0.1:${p.port}/healthz`, p.name, p.child);
      faults.push(`${since()} s: ${p.name} answers again`);
    };
    const faulting = (async () => {
      const at = (s: number) => new Promise((r) => setTimeout(r, Math.max(0, s * 1000 - (performance.now() - t0))));
      await at(loadSeconds * 0.25);
      await Promise.all([restart(apis[0]!), restart(webs[0]!)]);
      await at(loadSeconds * 0.6);
      await Promise.all([restart(apis[1]!), restart(webs[1]!)]);
    })();
    // Settled at once: a failure of one is reported with the others, never as an unhandled rejection.
    const working = Promise.allSettled([...uploading, importing, ...reading, alerting, faulting]);
    await new Promise((r) => setTimeout(r, loadSeconds * 1000));
    await faulting.catch(() => {});
    stop = true;
    for (const r of await working) if (r.status === "rejected") check(false, `load: ${(r.reason as Error).message}`);
    const seconds = (performance.now() - t0) / 1000;

    // Limits once both replicas are up: one token's budget through nginx, which alternates replicas.
    const limitAnswers: number[] = [];
    let retryAfter = "";
    for (let i = 0; i < TOKEN_LIMIT + 5; i++) {
      // The cheapest request an upload token makes: closing a campaign it has no bundle of (404).
      const res = await fetch(`${front}/v1/campaigns/close`, {
        method: "POST",
        headers: { authorization: `Bearer ${limitToken}`, "content-type": "application/json" },
        body: JSON.stringify({ campaign: "limit-check" }),
      });
      await res.arrayBuffer();
      limitAnswers.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after") ?? "";
    }
    const allowed = limitAnswers.indexOf(429);
    const writes: number[] = [];
    for (let i = 0; i < WRITE_LIMIT + 2; i++) {
      const res = await fetch(`${front}/api/trpc/workspaces.create`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: jar.header() },
        body: JSON.stringify({ slug: `topology-${i}`, name: `Topology ${i}`, visibility: "private" }),
      });
      await res.arrayBuffer();
      writes.push(res.status);
    }

    // The alert: judged and sent by whichever worker got there, once.
    const direct2 = new pg.Client({ connectionString: database.url });
    await direct2.connect();
    for (let i = 0; i < 120; i++) {
      const { rows } = await direct2.query<{ n: string }>(
        `SELECT count(*) AS n FROM "WebhookDelivery" WHERE status = 'delivered'`,
      );
      if (Number(rows[0]!.n) >= 1 && alertsReceived.length >= 1) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, 2_000)); // a second delivery, were there one, would arrive by now
    const deliveries = await direct2.query<{ id: string; status: string }>(`SELECT id, status FROM "WebhookDelivery"`);

    // What is stored: every accepted upload and import, once, whole.
    const ids = [...acceptedIds.values(), ...importedIds];
    const { rows: stored } = await direct2.query<{ found: string; partial: string }>(
      `SELECT (SELECT count(*) FROM "Bundle" WHERE id = ANY($1::text[])) AS found,
        (SELECT count(*) FROM "Bundle" b WHERE b."measurementCount" <> (SELECT count(*) FROM "Measurement" m WHERE m."bundleId" = b.id)) AS partial`,
      [ids],
    );
    const { rows: dupes } = await direct2.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT "contentHash" FROM "Bundle" GROUP BY "workspaceId", "contentHash" HAVING count(*) > 1) d`,
    );
    await direct2.end();

    const fiveHundreds = [...statuses].filter(([k]) => /\b5\d\d$/.test(k) && !k.endsWith(" 503"));
    const fiveOhThrees = [...statuses].filter(([k]) => k.endsWith(" 503")).reduce((a, [, c]) => a + c, 0);
    const lost = new Set(ids).size - Number(stored[0]!.found);
    const figures = {
      seconds: seconds.toFixed(0),
      uploads: acceptedIds.size,
      "uploads/s": (acceptedIds.size / seconds).toFixed(1),
      "upload p50 ms": quantile(uploadMs, 0.5).toFixed(0),
      "upload p99 ms": quantile(uploadMs, 0.99).toFixed(0),
      "imported bundles": importedIds.size,
      pages: [...statuses].filter(([k]) => k.startsWith("page ")).reduce((a, [, c]) => a + c, 0),
      "503 (retried)": fiveOhThrees,
      "cut off (retried)": cutOff,
      "other 5xx": fiveHundreds.reduce((a, [, c]) => a + c, 0),
      lost,
      duplicated: Number(dupes[0]!.n),
    };
    console.log(
      `\ntopology: ${uploaders} uploaders, 1 importer, 2 page readers for ${loadSeconds} s; sent ${sent} uploads`,
    );
    for (const f of faults) console.log(`  fault: ${f}`);
    console.table([figures]);
    console.log("answers:", Object.fromEntries(statuses));
    check(fiveHundreds.length === 0, `no 5xx but 503 (${JSON.stringify(Object.fromEntries(fiveHundreds))})`);
    check(lost === 0, `no accepted upload or import lost (${lost} of ${new Set(ids).size})`);
    check(figures.duplicated === 0, "nothing stored twice (one bundle per workspace and content)");
    check(Number(stored[0]!.partial) === 0, "every bundle whole (its measurements all there)");
    check(
      sessions.every((e) => e === "topology-user@example.test"),
      `the session signed in through nginx is valid on both web replicas (${sessions.join(", ")})`,
    );
    check(
      allowed === TOKEN_LIMIT && limitAnswers.slice(allowed).every((s) => s === 429) && Number(retryAfter) > 0,
      `one token budget across both ingest replicas: ${allowed} answered of ${TOKEN_LIMIT} a minute, then 429 with Retry-After ${retryAfter} s`,
    );
    check(
      writes.filter((s) => s === 200).length === WRITE_LIMIT && writes.slice(WRITE_LIMIT).every((s) => s === 429),
      `one write budget across both web replicas: ${JSON.stringify(writes)} for ${WRITE_LIMIT} a minute`,
    );
    const delivered = deliveries.rows.filter((d) => d.status === "delivered").map((d) => d.id);
    check(
      delivered.length === 1 && alertsReceived.length === 1 && alertsReceived[0] === delivered[0],
      `the regression's alert delivered exactly once (${alertsReceived.length} received, ${deliveries.rows.length} queued)`,
    );
    writeScalingDoc(figures, faults, failures.length === 0);
    console.log(failures.length === 0 ? "test:topology: PASS" : `test:topology: FAIL (${failures.length})`);
    process.exitCode = failures.length === 0 ? 0 : 1;
  } finally {
    for (const c of [...procs.map((p) => p.child), ...children]) c.kill("SIGTERM");
    await identity?.stop();
    receiver?.close();
    await new Promise((r) => setTimeout(r, 1_000));
    await database?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    clearTimeout(deadline);
  }
}

/** Replaces the measured table in docs/scaling.md (between its topology markers) with this run's. */
function writeScalingDoc(figures: Record<string, string | number>, faults: string[], passed: boolean): void {
  const file = path.join(repoRoot, "docs/scaling.md");
  const text = fs.readFileSync(file, "utf8");
  const start = "<!-- test:topology start -->";
  const end = "<!-- test:topology end -->";
  const cpu = os.cpus().length;
  const load = os.loadavg()[0]!.toFixed(1);
  const pgbouncer = execFileSync(which("pgbouncer")!, ["--version"], { encoding: "utf8" }).split("\n")[0];
  // nginx prints its version on stderr.
  const nginx = spawnSync(which("nginx")!, ["-v"], { encoding: "utf8" }).stderr.trim().replace("nginx version: ", "");
  const keys = Object.keys(figures);
  const table = [
    `| ${keys.join(" | ")} |`,
    `|${keys.map(() => "---").join("|")}|`,
    `| ${keys.map((k) => figures[k]).join(" | ")} |`,
  ].join("\n");
  const block = `${start}
Last run (${new Date().toISOString().slice(0, 10)}, ${cpu} cores, load average ${load} at the end; ${pgbouncer}, ${nginx}): **${passed ? "passed" : "FAILED"}**.

${table}

${faults.map((f) => `- ${f}`).join("\n")}
${end}`;
  const at = text.indexOf(start);
  const next = at >= 0 ? text.slice(0, at) + block + text.slice(text.indexOf(end) + end.length) : `${text}\n${block}\n`;
  fs.writeFileSync(file, next);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
