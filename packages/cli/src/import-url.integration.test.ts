/**
 * `cnibench import <URL>` end to end: a local HTTP server (node:http) serves a .tar.gz of real outputs
 * (a `cilium connectivity perf` run and k8s-netperf's documented CSV), the CLI downloads it and uploads
 * its bundles to a real ingest API on a real PostgreSQL; the same URL again stores nothing.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tar } from "@cnibench/test-support/archives";
import { freshDatabase } from "@cnibench/test-support/database";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { gzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Io, run } from "./cli.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../importers/fixtures");
const archive = gzipSync(
  tar(
    [
      ["bench-main/results/perf.txt", "real/cilium-cli/tke-s5medium4-native-routing_summary.txt"],
      ["bench-main/results/result-1700000000.csv", "real/k8s-netperf/docs_example_result.csv"],
    ].map(([name, fixture]) => ({ name: name!, bytes: new Uint8Array(readFileSync(path.join(fixtures, fixture!))) })),
  ),
);

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;
let server: Server;
let url: string;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startIngest(database.url);
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/gzip", "content-length": archive.byteLength }).end(archive);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench-main.tar.gz`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await api.close();
  await database.drop();
});

function capture(): { io: Io; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false, env: {}, sleep: async () => {} },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

describe("cnibench import <URL>", () => {
  it("downloads the archive and uploads its bundles; the same URL again stores nothing", async () => {
    const argv = ["import", `--server=${api.base}`, `--token=${api.token}`, "--cluster=lab", "--provider=on-prem"];
    const env = ["--sku=x", "--kernel=6.1", "--cni=cilium", "--mode=native", url];
    const before = await rowCounts(api.db);
    const first = capture();
    expect(await run([...argv, ...env], first.io), first.out() + first.err()).toBe(0);
    expect(first.out()).toMatch(/2 bundle\(s\) created, 0 already there, 0 upload\(s\) failed, 0 file\(s\) failed/);
    const after = await rowCounts(api.db);
    expect(after.bundles - before.bundles).toBe(2);
    expect(after.measurements - before.measurements).toBe(36 + 12);

    const again = capture();
    expect(await run([...argv, ...env], again.io)).toBe(0);
    expect(again.out()).toMatch(/0 bundle\(s\) created, 2 already there/);
    expect(await rowCounts(api.db)).toEqual(after);
  });
});
