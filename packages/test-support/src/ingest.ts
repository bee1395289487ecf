import fs from "node:fs";
import path from "node:path";
import { createDb, createToken, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { buildServer, type ServerOptions } from "@cnibench/ingest-api/src/server.ts";
import { repoRoot } from "./paths.ts";

/** The example bundle of README's curl command, parsed: real TKE figures. */
export function exampleBundle(): Record<string, unknown> & { results: Record<string, unknown>[] } {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
}

/** A real ingest-api on a free loopback port over the given database, with one upload token. */
export async function startIngest(
  databaseUrl: string,
  options: {
    maxBundleBytes?: number;
    maxImportBytes?: number;
    importLimits?: ServerOptions["importLimits"];
    rateLimitPerMinute?: number;
    dbTimeoutMs?: number;
    timeouts?: ServerOptions["timeouts"];
  } = {},
) {
  const db: Db = createDb(databaseUrl, { timeoutMs: options.dbTimeoutMs });
  const workspace = await ensureDefaultWorkspace(db);
  const { token } = await createToken(db, workspace.id, `test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  const app = buildServer({
    db,
    publicApiUrl: "http://api.example",
    publicWebUrl: "http://web.example",
    maxBundleBytes: options.maxBundleBytes,
    maxImportBytes: options.maxImportBytes,
    importLimits: options.importLimits,
    rateLimitPerMinute: options.rateLimitPerMinute,
    timeouts: options.timeouts,
    logLevel: "silent",
  });
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
  const upload = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return {
    db,
    base,
    token,
    workspaceId: workspace.id,
    upload,
    close: async () => {
      await app.close();
      await db.$disconnect();
    },
  };
}

/** Row counts of the tables an upload writes, to prove that a refused upload wrote nothing. */
export async function rowCounts(db: Db) {
  const [bundles, measurements, scenarios] = await Promise.all([
    db.bundle.count(),
    db.measurement.count(),
    db.scenario.count(),
  ]);
  return { bundles, measurements, scenarios };
}

/**
 * Two columns of TKE's short-connection Service-scale table as bundles: Cilium Overlay (the example
 * bundle) and kube-proxy iptables (31,365 → 9,057 req/s), both dated to the published run.
 */
export function tkeServiceScale() {
  const overlay: ReturnType<typeof exampleBundle> = { ...exampleBundle(), runAt: "2026-02-09T22:23:39Z" };
  const iptables = {
    ...overlay,
    cluster: { ...(overlay.cluster as Record<string, unknown>), name: "tke-a" },
    cni: {
      name: "tke-vpc-cni",
      version: "unknown",
      mode: "iptables",
      kubeProxy: "iptables",
      label: "kube-proxy iptables",
    },
    results: [31365, 22237, 17261, 12916, 9057].map((value, i) => ({
      metric: "http.rps",
      unit: "req/s",
      value,
      params: { connection: "short", concurrency: 64, target: "service", services: [0, 5000, 10000, 20000, 30000][i] },
    })),
  };
  return { overlay, iptables };
}
