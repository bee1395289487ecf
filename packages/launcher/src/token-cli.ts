// `npm run token -- create|revoke|list [name] [--workspace <slug>] [--scope upload|read]`: tokens of a
// workspace (the public one by default); create makes an upload token unless `--scope read` asks for a
// read-only one (dashboards, Prometheus scraping a private workspace's metrics). Works with
// DATABASE_URL, with a running `npm start`, or by starting the embedded PostgreSQL for the moment.
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createDb,
  createToken,
  ensureDefaultWorkspace,
  listTokens,
  revokeToken,
  TokenNameTakenError,
  workspaceBySlug,
} from "@cnibench/db";
import { openDatabase } from "./database.ts";
import { readLauncherEnv } from "./env.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
type TokenScope = NonNullable<Parameters<typeof createToken>[4]>;
const tokenScopes: readonly TokenScope[] = ["upload", "read"];
const usage =
  "usage: npm run token -- create <name> [--scope upload|read] | revoke <name> | list  [--workspace <slug>]";
const args = process.argv.slice(2);
/** Takes `--<flag> <value>` out of the arguments: undefined when absent, "" when the value is missing. */
function option(flag: string): string | undefined {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const [, value = ""] = args.splice(at, 2);
  return value;
}
const workspaceSlug = option("--workspace");
const scopeArg = option("--scope");
const [command, name, ...rest] = args;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (!command || !["create", "revoke", "list"].includes(command) || rest.length > 0) fail(usage);
if (command !== "list" && !name) fail(`${command} needs a token name\n${usage}`);
if (workspaceSlug === "") fail(`--workspace needs a workspace's slug\n${usage}`);
if (scopeArg !== undefined && !tokenScopes.includes(scopeArg as TokenScope))
  fail(`--scope is upload or read\n${usage}`);
if (scopeArg !== undefined && command !== "create") fail(`--scope goes with create\n${usage}`);
const scope = (scopeArg ?? "upload") as TokenScope;
if (name && !/^[\w.-]{1,64}$/.test(name)) fail("a token name has 1 to 64 letters, digits, '.', '_' or '-'");

const env = readLauncherEnv(repoRoot);
const database = await openDatabase(env, repoRoot, (line) => console.error(`[cnibench] ${line}`));
const db = createDb(database.url, { maxConnections: 1 });
let exitCode = 0;
try {
  const workspace = workspaceSlug ? await workspaceBySlug(db, workspaceSlug) : await ensureDefaultWorkspace(db);
  if (!workspace) fail(`No workspace "${workspaceSlug}": create it in the web app first (Workspaces).`);
  if (command === "create") {
    try {
      const { token } = await createToken(db, workspace.id, name!, null, scope);
      const what = scope === "read" ? "read token (reads only, cannot upload)" : "upload token";
      console.error(`Created ${what} "${name}" for workspace ${workspace.slug}. It is shown once; store it now:`);
      console.log(token);
    } catch (error) {
      if (!(error instanceof TokenNameTakenError)) throw error;
      console.error(`${error.message}; pick another name or revoke it first`);
      exitCode = 1;
    }
  } else if (command === "revoke") {
    if (await revokeToken(db, workspace.id, name!))
      console.log(`Revoked "${name}": requests with it are refused from now on.`);
    else {
      console.error(`No live token named "${name}".`);
      exitCode = 1;
    }
  } else {
    const tokens = await listTokens(db, workspace.id);
    if (tokens.length === 0) console.log("No tokens yet: npm run token -- create <name>");
    for (const t of tokens) {
      const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : "live";
      const used = t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : "never used";
      console.log(`${t.name}\t${t.scope}\t${state}\tcreated ${t.createdAt.toISOString()}\t${used}`);
    }
  }
} finally {
  await db.$disconnect();
  await database.stop();
}
process.exit(exitCode);
