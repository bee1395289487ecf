// A tiny sweep on this host, when it can run the lab (root, ip, wrk, iperf3, iptables-restore, nft):
// both modes, 0 and 100 Services, 1 run of 1 s. Elsewhere the test is skipped with the reason printed
// (no apt-get here: CI installs the packages or the lab is skipped).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BundleInput } from "@cnibench/schema";
import { afterAll, describe, expect, it } from "vitest";
import { bundleIssues, checkPrerequisites, labNamespaces, runLab } from "./index.ts";

const pre = checkPrerequisites(["iptables", "nftables"]);
const reasons = [...pre.problems, ...pre.skipped.map((s) => `${s.mode}: ${s.reason}`)];
if (reasons.length > 0) console.warn(`lab integration test skipped: ${reasons.join("; ")}`);

describe.skipIf(reasons.length > 0)("cnibench lab on this host", () => {
  const dir = mkdtempSync(join(tmpdir(), "cnibench-lab-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("sweeps 0 and 100 Services in both modes, writes valid bundles and leaves no namespace behind", async () => {
    const out = join(dir, "bundles.json");
    let stdout = "";
    let stderr = "";
    const code = await runLab(
      ["--services", "0,100", "--runs", "1", "--duration", "1", "--warmup", "1", "--out", out],
      {
        stdout: (t) => {
          stdout += t;
        },
        stderr: (t) => {
          stderr += t;
        },
        env: {},
      },
    );
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
    expect(labNamespaces().filter((ns) => ns.startsWith(`cnb-lab-${process.pid}-`))).toEqual([]);
  }, 180_000);
});
