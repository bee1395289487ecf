// A short sweep on this host, when it can run the lab (root, ip, wrk, iperf3, iptables-restore, nft):
// both modes, 0 and 5,000 Services, 1 run of 2 s, through `cnibench lab` (the CLI's dispatch and its
// upload code) to a real ingest API; then the crossover chart's own read model and shaping draw the
// stored figures, and the guide offers no "Lab" cloud. Elsewhere the test is skipped with the reason
// printed (no apt-get here: .ci/run installs the packages or the lab is skipped).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "@cnibench/cli";
import { accessFor, chartView } from "@cnibench/db";
import type { BundleInput } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { startIngest } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recommend } from "../../../apps/web/src/server/routers/guide.ts";
import { crossoverOf } from "../../../apps/web/src/server/views/chart-data/crossover.ts";
import { bundleIssues, checkPrerequisites, labNamespaces } from "./index.ts";

const pre = checkPrerequisites(["iptables", "nftables"]);
const reasons = [...pre.problems, ...pre.skipped.map((s) => `${s.mode}: ${s.reason}`)];
if (reasons.length > 0) console.warn(`lab integration test skipped: ${reasons.join("; ")}`);

/** What the lab may leave behind on the host: veth links and the processes it starts. */
function hostTraces() {
  const lines = (command: string, args: string[]) =>
    (spawnSync(command, args, { encoding: "utf8" }).stdout ?? "").split("\n").filter(Boolean);
  return {
    veths: lines("ip", ["-o", "link", "show", "type", "veth"]).map((l) => l.split(":")[1]?.trim()),
    processes: [
      ...lines("pgrep", ["-f", "packages/lab/src/(http-server|connect-probe)\\.mjs"]),
      ...lines("pgrep", ["-x", "iperf3"]),
      ...lines("pgrep", ["-x", "wrk"]),
    ],
  };
}

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

  it("sweeps 0 and 5,000 Services in both modes, uploads bundles the crossover view draws as two lines, leaves nothing behind", async () => {
    // Another job's iperf3 or wrk may run on a shared machine: only what appears during the sweep counts.
    const before = hostTraces();
    const out = join(dir, "bundles.json");
    let stdout = "";
    let stderr = "";
    const args = ["lab", "--services", "0,5000", "--runs", "1", "--duration", "2", "--warmup", "1", "--out", out];
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
      expect(short.map((r) => r.params?.services)).toEqual([0, 5000]);
      for (const r of short) expect(r.value).toBeGreaterThan(0);
      const throughput = bundle.results.filter((r) => r.metric === "tcp.throughput");
      for (const r of throughput) expect(r.value).toBeGreaterThan(0);
    }
    expect(stdout).toContain("2 bundle(s) written");
    expect(stdout).toMatch(/iptables: created \S+/);
    expect(stdout).toMatch(/nftables: created \S+/);

    // Stored without vocabulary warnings (provider lab, kube-proxy-lab and both modes are known words).
    const stored = await api.db.bundle.findMany({ select: { warnings: true } });
    expect(stored.map((b) => b.warnings)).toEqual([[], []]);

    // The crossover view, as its tRPC procedure builds it: the read model, then the chart's shaping.
    const query = { metric: "http.rps", x: "services", where: { connection: "short" }, y: "absolute" } as const;
    const { readable } = await accessFor(api.db, null);
    const { scenarios, figures } = await chartView(api.db, readable, {
      filters: {},
      metrics: [query.metric],
      params: { contains: query.where, numeric: query.x },
    });
    const chart = crossoverOf(scenarios, figures, query);
    expect(chart.notice).toBeNull();
    const modeOf = new Map(scenarios.map((s) => [s.id, s.cni.kubeProxy]));
    const lines = chart.series.map((s) => [modeOf.get(s.scenarioId), s.points.map((p) => p.x)] as const);
    expect(lines.sort()).toEqual([
      ["iptables", [0, 5000]],
      ["nftables", [0, 5000]],
    ]);
    for (const s of chart.series) for (const p of s.points) expect(p.y).toBeGreaterThan(0);

    // The guide: the lab is no cloud to choose, no option, only mechanism evidence.
    const guide = await recommend(api.db, readable, {
      cloud: null,
      sku: null,
      services: 5000,
      connections: "short",
      needs: [],
    });
    expect(guide.choices.clouds).toEqual([]);
    expect(guide.choices.skus).toEqual([]);
    expect(guide.options).toEqual([]);

    // Nothing left behind: no lab namespace, no new veth on the host, no lab process.
    expect(labNamespaces()).toEqual([]);
    const after = hostTraces();
    expect(after.veths.filter((v) => !before.veths.includes(v))).toEqual([]);
    expect(after.processes.filter((p) => !before.processes.includes(p))).toEqual([]);
  }, 180_000);
});
