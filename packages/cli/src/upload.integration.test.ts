/**
 * The CLI against a real ingest API on a real PostgreSQL: a folder of real EKS results (with a
 * cnibench-environment.json), a TKE archive, and bad files; then the same folder again; then a
 * server that rate-limits it.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freshDatabase } from "@cnibench/test-support/database";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { freePort } from "@cnibench/test-support/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Io, run } from "./cli.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, "../../importers/fixtures");
const bin = path.resolve(here, "../bin/cnibench.js");

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;
let dir: string;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startIngest(database.url);
  dir = mkdtempSync(path.join(os.tmpdir(), "cnibench-cli-"));
  const results = path.join(dir, "results");
  cpSync(path.join(fixtures, "real/eks-devfloor9"), results, { recursive: true });
  writeFileSync(
    path.join(results, "cnibench-environment.json"),
    JSON.stringify({
      provider: "eks",
      sku: "m6i.xlarge",
      kernel: "6.1.159-182.297.amzn2023",
      files: {
        "scenario-a-vpccni.json": { cni: "aws-vpc-cni", mode: "eni", kubeProxy: "iptables" },
        "scenario-b-cilium-kp.json": { cni: "cilium", mode: "native", kubeProxy: "iptables" },
        "scenario-c-kpless.json": { cni: "cilium", mode: "native", kubeProxy: "ebpf" },
        "scenario-d-eni.json": { cni: "cilium", mode: "eni", kubeProxy: "ebpf" },
        "scenario-e-eni-tuned.json": { cni: "cilium", mode: "eni", kubeProxy: "ebpf" },
      },
    }),
  );
  cpSync(path.join(fixtures, "synthetic/tke-benchmark-results-synthetic.tar.gz"), path.join(dir, "tke-run.tar.gz"));
  writeFileSync(path.join(dir, "README.md"), "# how these were measured\n");
  writeFileSync(
    path.join(dir, "results", "scenario-z-truncated.json"),
    '{\n  "scenario": "scenario-z",\n  "network": {\n',
  );
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await api.close();
  await database.drop();
});

function capture(): { io: Io; out: () => string } {
  const out: string[] = [];
  return {
    io: { stdout: (t) => out.push(t), stderr: (t) => out.push(t), isTTY: false, env: { CNIBENCH_TOKEN: api.token } },
    out: () => out.join(""),
  };
}

describe("cnibench upload against a real ingest API", () => {
  let campaign: string | undefined;

  it("uploads every good file's bundles, reports the bad ones per file, exits 1", async () => {
    const before = await rowCounts(api.db);
    const { io, out } = capture();
    const code = await run(["upload", "--server", api.base, "--provider", "tke", "--kube-proxy", "ebpf", dir], io);
    expect(code).toBe(1);
    const text = out();
    // The TKE archive takes --provider/--kube-proxy from flags; flags also win over the EKS sidecar's provider.
    expect(text).toMatch(/✓ \S+\/tke-run\.tar\.gz\/tke-benchmark-results-synthetic \[tke\]: 1 created/);
    expect(text).toMatch(/✓ \S+\/results\/scenario-a-vpccni\.json \[eks\]: 1 created/);
    expect(text).toMatch(
      /✗ \S+\/results\/scenario-z-truncated\.json \[eks\]: EKS cni-benchmark JSON: malformed JSON at line 4/,
    );
    expect(text).toMatch(/- \S+\/README\.md: skipped \(not a format cnibench imports\)/);
    expect(text).toMatch(/6 bundle\(s\) created, 0 already there, 0 upload\(s\) failed, 1 file\(s\) failed/);
    const after = await rowCounts(api.db);
    expect(after.bundles - before.bundles).toBe(6);
    // The six bundles of the invocation are one campaign, in each bundle and each of its measurements.
    campaign = /\ncampaign (import-[0-9a-f]{16})\n/.exec(text)?.[1];
    expect(campaign).toBeDefined();
    const stored = await api.db.$queryRaw<{ bundles: number; measurements: number }[]>`
      SELECT count(DISTINCT b.id)::int AS bundles, count(*)::int AS measurements
      FROM "Bundle" b JOIN "Measurement" m ON m."bundleId" = b.id
      WHERE b.campaign = ${campaign} AND m.campaign = ${campaign}`;
    expect(stored[0]?.bundles).toBe(6);
    expect(stored[0]?.measurements).toBe(after.measurements - before.measurements);

    const { items } = (await (await fetch(`${api.base}/v1/bundles?pageSize=50`)).json()) as {
      items: { collectorName: string; clusterName: string }[];
    };
    expect(items.filter((b) => b.collectorName === "run-benchmark.sh").map((b) => b.clusterName)).toEqual(
      Array(5).fill("cni-bench"),
    );
  });

  it("is idempotent: the same folder again writes nothing and says so", async () => {
    const before = await rowCounts(api.db);
    const { io, out } = capture();
    const code = await run(["upload", "--server", api.base, "--provider", "tke", "--kube-proxy", "ebpf", dir], io);
    expect(code).toBe(1); // the truncated file still fails
    expect(out()).toMatch(/0 bundle\(s\) created, 6 already there/);
    expect(out()).toContain(`\ncampaign ${campaign}\n`);
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("uploads an InfraBuilder tree with its statexec .prom: the server's CPU by mode, the NIC speed", async () => {
    // results/antrea-ipsec/<run>/ and setup/cni-configs/antrea-ipsec.sh as a clone of the repository has them.
    const tree = mkdtempSync(path.join(os.tmpdir(), "cnibench-cli-ib-"));
    try {
      cpSync(path.join(fixtures, "real/infrabuilder-2024/antrea-ipsec"), path.join(tree, "results/antrea-ipsec"), {
        recursive: true,
      });
      cpSync(
        path.join(fixtures, "real/infrabuilder-2024/setup/cni-configs/antrea-ipsec.sh"),
        path.join(tree, "setup/cni-configs/antrea-ipsec.sh"),
      );
      const { io, out } = capture();
      const args = ["upload", "--server", api.base, "--format", "infrabuilder", "--provider", "on-prem"];
      args.push("--sku", "bare-metal-40g", "--nic-gbps", "40", "--cluster", "cli-infrabuilder");
      const code = await run([...args, path.join(tree, "results"), path.join(tree, "setup")], io);
      expect(code, out()).toBe(0);
      const bundles = await api.db.bundle.findMany({ where: { clusterName: "cli-infrabuilder" } });
      expect(bundles).toHaveLength(3);
      // By hand (awk over stm-server.prom, last minus first sample per cpu and mode, summed over 32 CPUs,
      // over 79 s): softirq 70.04, system 26.72, user 3.74 CPU-seconds; every busy mode 100.5 s = 1.2722 cores.
      const cpu = await api.db.measurement.findMany({
        where: { metric: "cpu.usage", bundleId: { in: bundles.map((b) => b.id) } },
      });
      const stm = cpu.filter((m) => {
        const p = m.params as Record<string, unknown>;
        return p.role === "server" && p.path === "service" && p.protocol === "tcp" && p.streams === 8;
      });
      const by = (accounting: string, mode?: string) =>
        stm.find((m) => {
          const p = m.params as Record<string, unknown>;
          return p.accounting === accounting && p.mode === mode;
        });
      expect(by("all-modes")?.publishedValue).toBeCloseTo(100.5 / 79, 9);
      expect(by("mode", "softirq")!.publishedValue * 79).toBeCloseTo(70.04, 6);
      expect(by("mode", "system")!.publishedValue * 79).toBeCloseTo(26.72, 6);
      expect(by("mode", "user")!.publishedValue * 79).toBeCloseTo(3.74, 6);
      const raw = bundles.map((b) => JSON.parse(b.raw as string) as { node: { nicGbps?: number } });
      expect(raw.map((b) => b.node.nicGbps)).toEqual([40, 40, 40]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it("uploads vegeta clients as one run and k8s-netperf's means with their summary statistics", async () => {
    const tree = mkdtempSync(path.join(os.tmpdir(), "cnibench-cli-collectors-"));
    try {
      cpSync(path.join(fixtures, "synthetic/vegeta/clients-synthetic"), path.join(tree, "vegeta"), { recursive: true });
      cpSync(path.join(fixtures, "real/k8s-netperf/docs_example_result.csv"), path.join(tree, "result-1700000000.csv"));
      cpSync(
        path.join(fixtures, "real/k8s-netperf/e2e-benchmarking_pr575_stdout_table_TRUNCATED.txt"),
        path.join(tree, "k8s-netperf.log"),
      );
      const { io, out } = capture();
      const args = ["upload", "--server", api.base, "--provider", "on-prem", "--sku", "m5.large", "--kernel", "6.1.0"];
      args.push("--cni", "cilium", "--mode", "vxlan", "--cluster", "cli-collectors");
      const code = await run([...args, tree], io);
      expect(code, out()).toBe(0);
      expect(out()).toContain("vegeta/{client-a.json,client-b.json,client-c.json} [vegeta]: 1 created");
      const bundles = await api.db.bundle.findMany({ where: { clusterName: "cli-collectors" } });
      // The three clients' run, the later vegeta run, the CSV and the printed tables.
      expect(bundles).toHaveLength(4);
      const stored = await api.db.measurement.findMany({ where: { bundleId: { in: bundles.map((b) => b.id) } } });
      const clients = stored.filter((m) => m.samplesAre === "clients");
      expect(new Set(clients.map((m) => m.samples.length))).toEqual(new Set([3]));
      // docs_example_result.csv row 1: 873.606667 Mb/s of 3 samples, 95 % CI 861.939…–885.274…, stored in Gbit/s.
      const tput = stored.find((m) => m.metric === "tcp.throughput" && m.publishedValue === 873.606667);
      expect(tput).toMatchObject({ summaryN: 3, summaryOf: "runs", summarySd: null });
      expect(tput?.summaryMean).toBeCloseTo(0.873606667, 12);
      expect(tput?.summaryLow).toBeCloseTo(0.8619391413991156, 12);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it("runs as a command through bin/cnibench.js; network errors are retried, then reported", async () => {
    const clean = mkdtempSync(path.join(os.tmpdir(), "cnibench-cli-clean-"));
    try {
      cpSync(path.join(fixtures, "real/knb/knb_text_output_example_calico_ipip.txt"), path.join(clean, "knb.txt"));
      const args = [
        bin,
        "upload",
        "--server",
        api.base,
        "--cluster=lab",
        "--provider=on-prem",
        "--sku=bare-metal-xeon",
        "--cni=calico",
        "--mode=ipip",
        clean,
      ];
      const { stdout } = await promisify(execFile)(process.execPath, args, {
        env: { ...process.env, CNIBENCH_TOKEN: api.token },
      });
      expect(stdout).toMatch(/\[1\/1\] \S+\/knb\.txt: created \S+/);
      expect(stdout).toMatch(/1 bundle\(s\) created/);

      // Nothing listens on this port: network errors are retried, then the file is reported failed (exit 1).
      const nobody = `http://127.0.0.1:${await freePort()}`;
      const refused = await promisify(execFile)(
        process.execPath,
        [...args.slice(0, 3), nobody, ...args.slice(4), "--retries=1"],
        {
          env: { ...process.env, CNIBENCH_TOKEN: api.token },
        },
      ).catch((error: { code: number; stdout: string }) => error);
      expect((refused as { code: number }).code).toBe(1);
      expect((refused as { stdout: string }).stdout).toMatch(
        /network error: ECONNREFUSED \(gave up after 2 attempts\)/,
      );
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });

  it("understands the server's 429: says it waits the Retry-After, retries, and reports the refusal", async () => {
    // One request a minute per token (two per address): the file's first run gets in, its second is
    // rate limited, and so is its retry.
    const limited = await startIngest(database.url, { rateLimitPerMinute: 1 });
    try {
      const waits: number[] = [];
      const out: string[] = [];
      const io: Io = {
        stdout: (t) => out.push(t),
        stderr: (t) => out.push(t),
        isTTY: false,
        env: { CNIBENCH_TOKEN: limited.token },
        // The server's window is a real minute: record the wait instead of sitting it out.
        sleep: async (ms) => {
          waits.push(ms);
        },
      };
      const code = await run(
        [
          "upload",
          "--server",
          limited.base,
          "--retries=1",
          "--cluster=lab-rate",
          "--provider=on-prem",
          "--sku=x",
          "--cni=cilium",
          "--mode=native",
          "--kernel=6.1",
          path.join(fixtures, "real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt"),
        ],
        io,
      );
      expect(code).toBe(1);
      const text = out.join("");
      expect(text).toMatch(/\[1\/2\] \S+flowtables\.txt: created \S+\n/);
      // Retry-After is what is left of the server's one-minute window.
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(50_000);
      expect(waits[0]).toBeLessThanOrEqual(60_000);
      expect(text).toContain(
        `[2/2] netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt#run 2: waiting ${waits[0]! / 1000} s (429 rate limited)\n`,
      );
      expect(text).toMatch(
        /HTTP 429: More than \d requests a minute .*; retry in \d+ s\. \(gave up after 2 attempts\)/,
      );
      expect(text).toMatch(/1 bundle\(s\) created, 0 already there, 1 upload\(s\) failed/);
    } finally {
      await limited.close();
    }
  });
});
