/**
 * `cnibench import <URL>` against a local HTTP server (node:http) serving a .tar.gz of real fixture
 * outputs: downloaded, built and printed (--dry-run); and its refusals — HTTP 404, a body over
 * --max-bytes (declared, and streamed without Content-Length), a host that does not answer.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BundleInput } from "@cnibench/schema";
import { tar } from "@cnibench/test-support/archives";
import { gzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Io, run } from "./cli.ts";
import { downloadTarget } from "./download.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../importers/fixtures");
const entry = (name: string, fixture: string) => ({
  name,
  bytes: new Uint8Array(readFileSync(path.join(fixtures, fixture))),
});
// A published tree as `git archive` would pack it: a top folder, results, and a README that is no result.
const archive = gzipSync(
  tar([
    entry("bench-main/results/perf.txt", "real/cilium-cli/tke-s5medium4-native-routing_summary.txt"),
    entry("bench-main/results/result-1700000000.csv", "real/k8s-netperf/docs_example_result.csv"),
    { name: "bench-main/README.md", bytes: new TextEncoder().encode("# results\n") },
  ]),
);

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/bench.tar.gz") {
      res.writeHead(200, { "content-type": "application/gzip", "content-length": archive.byteLength });
      res.end(archive);
    } else if (req.url === "/chunked") {
      // No Content-Length: the limit must hold while streaming.
      res.writeHead(200, { "content-type": "application/octet-stream" });
      for (let i = 0; i < 8; i++) res.write(new Uint8Array(64 * 1024));
      res.end();
    } else {
      res.writeHead(404).end("no");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function capture(): { io: Io; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false, env: {}, sleep: async () => {} },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

const env = ["--cluster=lab", "--provider=on-prem", "--sku=x", "--kernel=6.1", "--cni=cilium", "--mode=native"];

describe("cnibench import <URL>", () => {
  it("downloads a published archive and builds its bundles (dry run), the README skipped", async () => {
    const { io, out, err } = capture();
    expect(await run(["import", "--dry-run", ...env, `${base}/bench.tar.gz`], io)).toBe(0);
    const bundles = JSON.parse(out()) as BundleInput[];
    // cilium perf (36 figures, its unit test) and k8s-netperf (12).
    expect(bundles.map((b) => [b.collector?.name, b.results.length]).sort()).toEqual([
      ["cilium-cli connectivity perf", 36],
      ["k8s-netperf", 12],
    ]);
    expect(err()).toContain(`downloading ${base}/bench.tar.gz\n`);
    expect(err()).toMatch(/downloaded \d+\.\d KiB as bench\.tar\.gz\n/);
    expect(err()).toContain("bench.tar.gz/bench-main/README.md: skipped (not a format cnibench imports)");
  });

  it.each([
    [["/missing.tar.gz"], `${"BASE"}/missing.tar.gz answered HTTP 404 Not Found`],
    [["/bench.tar.gz", "--max-bytes=100"], `is larger than the limit of 100 bytes (--max-bytes)`],
    [["/chunked", "--max-bytes=100000"], `is larger than the limit of 100000 bytes (--max-bytes)`],
  ])("%j: exit 1, saying why", async ([where, ...flags], message) => {
    const { io, err } = capture();
    expect(await run(["import", "--dry-run", ...env, ...flags, `${base}${where}`], io)).toBe(1);
    expect(err()).toContain(message.replace("BASE", base));
  });

  it("offline (nothing answers): says it cannot reach the host", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { io, err } = capture();
    expect(await run(["import", "--dry-run", ...env, `http://127.0.0.1:${port}/x.tar.gz`], io)).toBe(1);
    expect(err()).toContain(
      `cannot reach 127.0.0.1:${port} (ECONNREFUSED): check the URL, or whether this machine is online`,
    );
  });

  it("a GitHub repository URL is its tarball; other URLs are fetched as they are", () => {
    expect(downloadTarget("https://github.com/InfraBuilder/benchmark-k8s-cni-2024-01")).toEqual({
      url: "https://codeload.github.com/InfraBuilder/benchmark-k8s-cni-2024-01/tar.gz/HEAD",
      name: "benchmark-k8s-cni-2024-01-HEAD.tar.gz",
    });
    expect(downloadTarget("https://github.com/o/r.git/tree/v1.2").url).toBe(
      "https://codeload.github.com/o/r/tar.gz/v1.2",
    );
    expect(downloadTarget("https://example.org/a/results%20v2.zip?x=1")).toEqual({
      url: "https://example.org/a/results%20v2.zip?x=1",
      name: "results v2.zip",
    });
    expect(() => downloadTarget("file:///etc/passwd")).toThrow("only http(s) URLs can be imported");
    expect(() => downloadTarget("not a url")).toThrow();
  });

  it("no URL, or two: a usage error", async () => {
    const { io, err } = capture();
    expect(await run(["import", "--dry-run"], io)).toBe(2);
    expect(err()).toContain("give one URL");
  });
});
