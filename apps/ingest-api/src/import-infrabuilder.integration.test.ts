/**
 * POST /v1/import of InfraBuilder's bench.sh result tree (packages/importers/fixtures/real/infrabuilder-2024:
 * flannel, antrea-ipsec and baremetal, three runs each, and the setup/cni-configs scripts) as one
 * .tar.gz, over real HTTP against a real PostgreSQL: one bundle per run folder, one scenario per setup,
 * the failed tests named as missing runs in the answer and stored with their bundles; the statexec
 * .prom file of the fixture read for the CPU by mode, the credit and the NIC speed passed stored.
 */
import type { Db } from "@cnibench/db";
import { tar } from "@cnibench/test-support/archives";
import { freshDatabase } from "@cnibench/test-support/database";
import { fixtureTree } from "@cnibench/test-support/fixtures";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { gzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Json = Record<string, unknown>;
type ImportBody = Json & {
  refused: number;
  bundles: (Json & { id: string; scenarioId: string; created: boolean; file: string; warnings: Json[] })[];
  files: (Json & { file: string; status: string; error?: string; warnings?: string[] })[];
};

let database: Awaited<ReturnType<typeof freshDatabase>>;
let ingest: Awaited<ReturnType<typeof startIngest>>;
let db: Db;
let base: string;
let token: string;

beforeAll(async () => {
  database = await freshDatabase();
  ingest = await startIngest(database.url, {
    maxBundleBytes: 1024 * 1024,
    maxImportBytes: 16 * 1024 * 1024,
    importLimits: { maxEntries: 1000, maxUnpackedBytes: 64 * 1024 * 1024 },
  });
  ({ db, base, token } = ingest);
});
afterAll(async () => {
  await ingest.close();
  await database.drop();
});

/**
 * `tar czf ib.tgz results setup/cni-configs` of bench.sh's tree: the fixture's <setup>/<run>/ folders
 * under results/, one file optionally replaced.
 */
function archive(replace: Record<string, Uint8Array> = {}): Uint8Array {
  const files = fixtureTree("real/infrabuilder-2024", ".")
    .map((f) => ({ ...f, name: f.name.slice(2) }))
    .filter((f) => f.name !== "SOURCES.txt")
    .map((f) => ({
      name: f.name.startsWith("setup/") ? f.name : `results/${f.name}`,
      bytes: replace[f.name] ?? f.bytes,
    }));
  return gzipSync(tar(files));
}

async function importTree(body: Uint8Array, query: string): Promise<{ status: number; body: ImportBody }> {
  const res = await fetch(`${base}/v1/import?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
    body: Buffer.from(body),
  });
  return { status: res.status, body: (await res.json()) as ImportBody };
}

const testbed = (cluster: string, format = "infrabuilder") =>
  new URLSearchParams({ format, provider: "on-prem", sku: "bare-metal-40g", cluster }).toString();

describe("POST /v1/import?format=infrabuilder", () => {
  it("stores one bundle per run, one scenario per setup, the missing runs named; the same archive again stores nothing", async () => {
    const before = await rowCounts(db);
    const first = await importTree(archive(), testbed("infrabuilder-2024"));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.refused).toBe(0);
    const { bundles, files } = first.body;
    expect(bundles.map((b) => b.file)).toEqual(
      ["antrea-ipsec", "baremetal", "flannel"].flatMap((s) => [1, 2, 3].map((r) => `upload/results/${s}/${r}`)),
    );
    expect(new Set(bundles.map((b) => b.scenarioId)).size).toBe(3);
    for (const setup of [0, 3, 6]) {
      expect(new Set(bundles.slice(setup, setup + 3).map((b) => b.scenarioId)).size, `setup ${setup / 3}`).toBe(1);
    }
    // antrea-ipsec's sts (Service, TCP, 1 stream) failed in each run: named in the answer, per bundle and per folder.
    const missing = (run: number) =>
      `missing run: sts (via Service, TCP, 1 stream) of antrea-ipsec run ${run} — iperf3: unable to connect to server - server may have stopped running or use a different port, firewall issue, etc.: Name or service not known`;
    for (const run of [1, 2, 3]) {
      expect(bundles[run - 1]!.warnings).toContainEqual({ path: "", message: missing(run) });
      expect(files.find((f) => f.file === `upload/results/antrea-ipsec/${run}`)?.warnings).toContain(missing(run));
    }
    expect(bundles.slice(3).flatMap((b) => b.warnings)).toEqual([]);
    expect(files.filter((f) => f.status === "failed")).toEqual([]);

    // Stored with the bundle, as GET /v1/bundles/:id shows it.
    const stored = (await (await fetch(`${base}/v1/bundles/${bundles[0]!.id}`)).json()) as Json & {
      warnings: Json[];
      bundle: { cni: Json; node: Json };
    };
    expect(stored.warnings).toContainEqual({ path: "", message: missing(1) });
    expect(stored.bundle.cni).toMatchObject({
      name: "antrea",
      version: "1.15.0",
      mode: "overlay-geneve",
      label: "antrea-ipsec",
      settings: { encryption: "ipsec" },
    });
    expect(stored.bundle.node).toMatchObject({ kernel: "5.15.0-92-generic" });

    const after = await rowCounts(db);
    expect(after.bundles - before.bundles).toBe(9);
    // Per run: 64 figures (flannel), 57 (antrea-ipsec's runs 1 and 2: no sts), 55 + 4 (its run 3 lacks
    // bench.sh's stm server CPU and memory, but its stm-server.prom gives the whole CPU and 3 modes),
    // 34 (baremetal: d* tests only).
    expect(after.measurements - before.measurements).toBe(3 * 64 + 2 * 57 + 59 + 3 * 34);

    // Again, detected by auto: the same bundles, nothing written.
    const again = await importTree(archive(), testbed("infrabuilder-2024", "auto"));
    expect(again.status).toBe(200);
    expect(again.body.bundles.map((b) => [b.id, b.created])).toEqual(bundles.map((b) => [b.id, false]));
    expect(await rowCounts(db)).toEqual(after);
  });

  it("antrea-ipsec run 3's stm-server.prom gives the server's CPU by mode; the credit and the NIC speed are stored", async () => {
    const query = `${testbed("infrabuilder-cpu")}&nicGbps=40`;
    const res = await importTree(archive(), query);
    expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
    const run3 = res.body.bundles.find((b) => b.file === "upload/results/antrea-ipsec/3")!;
    // The NIC speed was passed: no file's report asks for it.
    expect(res.body.files.flatMap((f) => f.warnings ?? []).filter((w) => w.includes("not given"))).toEqual([]);
    const stored = (await (await fetch(`${base}/v1/bundles/${run3.id}`)).json()) as {
      bundle: {
        source: Json;
        node: Json;
        cni: Json;
        results: { metric: string; value: number; unit: string; params?: Record<string, unknown> }[];
      };
    };
    expect(stored.bundle.node).toMatchObject({ nicGbps: 40 });
    expect(stored.bundle.source).toEqual({
      title:
        "Benchmark results of Kubernetes network plugins (CNI) over 40Gbit/s network [2024] — Alexis Ducastel, InfraBuilder",
      url: "https://github.com/InfraBuilder/benchmark-k8s-cni-2024-01",
    });
    expect(stored.bundle.cni).toMatchObject({ mode: "overlay-geneve", kubeProxy: "iptables" });
    // By hand, from the .prom text with awk: for every statexec_cpu_seconds_total line holding a value and
    // a timestamp, per (cpu, mode) the last value minus the first, summed over the 32 CPUs —
    //   awk '/^statexec_cpu_seconds_total/ && NF==3 { match($0,/cpu="[^"]*"/); c=substr($0,RSTART,RLENGTH);
    //        match($0,/mode="[^"]*"/); m=substr($0,RSTART+6,RLENGTH-7); k=c" "m; if(!(k in f)) f[k]=$2; l[k]=$2 }
    //        END { for (k in f) { split(k,a," "); s[a[2]]+=l[k]-f[k] } for (m in s) print m, s[m] }'
    // gives softirq 70.04, system 26.72, user 3.74 CPU seconds (irq, nice, steal 0), over the samples'
    // 1704067200000 → 1704067279000 ms, 79 s. In cores: softirq 0.88658, system 0.33823, user 0.04734;
    // every busy mode 100.5 / 79 = 1.27215 — where bench.sh's user + system would say 0.38557.
    const server = stored.bundle.results.filter(
      (r) =>
        r.metric === "cpu.usage" &&
        r.params?.role === "server" &&
        r.params.path === "service" &&
        r.params.protocol === "tcp" &&
        r.params.streams === 8,
    );
    const byAccounting = Object.fromEntries(
      server.map((r) => [r.params!.accounting === "mode" ? String(r.params!.mode) : String(r.params!.accounting), r]),
    );
    expect(Object.keys(byAccounting).sort()).toEqual(["all-modes", "softirq", "system", "user"]);
    expect(byAccounting["all-modes"]!.unit).toBe("cores");
    expect(byAccounting["all-modes"]!.value).toBeCloseTo(100.5 / 79, 9);
    expect(byAccounting.softirq!.value * 79).toBeCloseTo(70.04, 6);
    expect(byAccounting.system!.value * 79).toBeCloseTo(26.72, 6);
    expect(byAccounting.user!.value * 79).toBeCloseTo(3.74, 6);
  });

  it("a damaged iperf3 output fails its run folder: 422 without ?partial, the other runs stored with it", async () => {
    const cut = fixtureTree("real/infrabuilder-2024/flannel/2", ".")
      .find((f) => f.name === "./dtm-client.stdout")!
      .bytes.subarray(0, 3000);
    const damaged = archive({ "flannel/2/dtm-client.stdout": cut });
    const failure = {
      file: "upload/results/flannel/2",
      format: "infrabuilder",
      status: "failed",
      bundles: 0,
      error: expect.stringMatching(/^dtm-client\.stdout \(iperf3 JSON\): malformed JSON at line \d+, column \d+/),
    };

    const before = await rowCounts(db);
    const whole = await importTree(damaged, testbed("infrabuilder-damaged"));
    expect(whole.status).toBe(422);
    expect(whole.body.files.filter((f) => f.status === "failed")).toEqual([failure]);
    expect(await rowCounts(db)).toEqual(before);

    const partial = await importTree(damaged, `${testbed("infrabuilder-damaged")}&partial=true`);
    expect(partial.status).toBe(201);
    expect(partial.body.refused).toBe(1);
    expect(partial.body.bundles).toHaveLength(8);
    expect(partial.body.files.filter((f) => f.status === "failed")).toEqual([failure]);
    expect((await rowCounts(db)).bundles - before.bundles).toBe(8);
  });
});
