// A tiny sweep on this host, when it can run the lab (root, ip, wrk, iperf3, iptables-restore, nft):
// both modes, 0 and 100 Services, 1 run of 1 s, through `cnibench lab` (the CLI's dispatch and its
// upload code) to a real ingest API. Elsewhere the test is skipped with the reason printed (no apt-get
// here: CI installs the packages or the lab is skipped).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "@cnibench/cli";
import type { BundleInput } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { startIngest } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleIssues, checkPrerequisites, labNamespaces } from "./index.ts";

const pre = checkPrerequisites(["iptables", "nftables"]);
const reasons = [...pre.problems, ...pre.skipped.map((s) => `${s.mode}: ${s.reason}`)];
if (reasons.length > 0) console.warn(`lab integration test skipped: ${reasons.join("; ")}`);

describe.skipIf(reasons.length > 0)("cnibench lab on this host", () => {
  const dir = mkdtempSync(join(tmpdir(), "cnibench-lab-test-"));
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let api: Awaited<ReturnType<typeof startIngest>>;
  beforeAll(async () => {
    database = await freshDatabase();
    api = await startIngest(database.url);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await api?.close();
    await database?.drop();
  });

  it("sweeps 0 and 100 Services in both modes, writes and uploads valid bundles, leaves no namespace behind", async () => {
    const out = join(dir, "bundles.json");
    let stdout = "";
    let stderr = "";
    const args = ["lab", "--services", "0,100", "--runs", "1", "--duration", "1", "--warmup", "1", "--out", out];
    const code = await run([...args, "--api", api.base, "--token", api.token], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      isTTY: false,
      env: {},
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const bundles = JSON.parse(readFileSync(out, "utf8")) as BundleInput[];
    expect(bundles.map((b) => b.cni.mode)).toEqual(["iptables", "nftables"]);
    for (const bundle of bundles) {
      expect(bundleIssues(bundle)).toEqual([]);
      expect(bundle.cluster.provider).toBe("lab");
      const short = bundle.results.filter((r) => r.metric === "http.rps" && r.params?.connection === "short");
      expect(short.map((r) => r.params?.services)).toEqual([0, 100]);
      for (const r of short) expect(r.value).toBeGreaterThan(0);
      const throughput = bundle.results.filter((r) => r.metric === "tcp.throughput");
      for (const r of throughput) expect(r.value).toBeGreaterThan(0);
    }
    expect(stdout).toContain("2 bundle(s) written");
    expect(stdout).toMatch(/iptables: created \S+/);
    expect(stdout).toMatch(/nftables: created \S+/);
    expect(labNamespaces().filter((ns) => ns.startsWith(`cnb-lab-${process.pid}-`))).toEqual([]);
  }, 180_000);
});
