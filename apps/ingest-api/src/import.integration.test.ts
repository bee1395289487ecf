/**
 * POST /v1/import over real HTTP against a real PostgreSQL: raw tool outputs and archives in,
 * bundles stored in one transaction (or none, or with ?partial=true every valid one), with the same
 * auth and errors as /v1/bundles and a body limit of its own.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, type Db, storeBundles } from "@cnibench/db";
import { readStorableBundle } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle, labEnvironment } from "@cnibench/test-support/fixtures";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { freePort } from "@cnibench/test-support/ports";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildServer } from "./server.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../packages/importers/fixtures");
const fixture = (relative: string) => new Uint8Array(readFileSync(path.join(fixtures, relative)));

type Json = Record<string, unknown>;
type ImportBody = Json & {
  campaign: string;
  refused: number;
  bundles: (Json & { id: string; scenarioId: string; created: boolean; file: string })[];
  files: (Json & { file: string; status: string; missing?: { path: string; input: string }[] })[];
  issues?: { path: string; message: string }[];
};

let database: Awaited<ReturnType<typeof freshDatabase>>;
let ingest: Awaited<ReturnType<typeof startIngest>>;
let db: Db;
let base: string;
let token: string;
let workspaceId: string;

beforeAll(async () => {
  database = await freshDatabase();
  ingest = await startIngest(database.url, {
    maxBundleBytes: 64 * 1024,
    maxImportBytes: 512 * 1024,
    importLimits: { maxEntries: 300, maxUnpackedBytes: 4 * 1024 * 1024 },
  });
  ({ db, base, token, workspaceId } = ingest);
});
afterAll(async () => {
  await ingest.close();
  await database.drop();
});

const environment = labEnvironment;
const envQuery = new URLSearchParams(environment).toString();

async function importBody(
  body: Uint8Array | string,
  query = "",
  headers: Record<string, string> = {},
): Promise<{ status: number; body: ImportBody; headers: Headers }> {
  const res = await fetch(`${base}/v1/import${query ? `?${query}` : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream", ...headers },
    body: typeof body === "string" ? body : Buffer.from(body),
  });
  return { status: res.status, body: (await res.json()) as ImportBody, headers: res.headers };
}

const eksZip = () =>
  zipSync(
    Object.fromEntries(
      ["scenario-a-vpccni", "scenario-b-cilium-kp", "scenario-c-kpless", "scenario-d-eni", "scenario-e-eni-tuned"].map(
        (s) => [`results/${s}.json`, fixture(`real/eks-devfloor9/${s}.json`)],
      ),
    ),
  );
const eksEnvironment = {
  provider: "eks",
  sku: "m6i.xlarge",
  kernel: "6.1.159-182.297.amzn2023",
  files: {
    "scenario-a-vpccni.json": { cni: "aws-vpc-cni", mode: "eni", kubeProxy: "iptables" },
    "scenario-b-cilium-kp.json": { cni: "cilium", mode: "native", kubeProxy: "iptables" },
    "scenario-c-kpless.json": { cni: "cilium", mode: "native", kubeProxy: "ebpf" },
    "scenario-d-eni.json": { cni: "cilium", mode: "eni", kubeProxy: "ebpf" },
    "scenario-e-eni-tuned.json": {
      cni: "cilium",
      mode: "eni",
      kubeProxy: "ebpf",
      settings: { "bpf.masquerade": true },
    },
  },
};

describe("POST /v1/import", () => {
  it("imports a raw iperf3 output with the environment as query parameters (201), then answers 200 writing nothing", async () => {
    const before = await rowCounts(db);
    const first = await importBody(
      fixture("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json"),
      `${envQuery}&param=path=pod-pod`,
    );
    expect(first.status).toBe(201);
    // The file's uname line says 5.4.104+; the query's kernel wins, with a warning naming both.
    const kernelWarning = {
      path: "node.kernel",
      message: 'node.kernel: you passed "6.1.0", the files state "5.4.104+"; stored as you passed',
    };
    expect(first.body.files).toEqual([
      { file: "upload", format: "iperf3", status: "imported", bundles: 1, warnings: [kernelWarning.message] },
    ]);
    const [bundle] = first.body.bundles;
    expect(bundle).toMatchObject({ created: true, measurementCount: 3, format: "iperf3", warnings: [kernelWarning] });
    expect(bundle?.apiUrl).toBe(`http://api.example/v1/bundles/${bundle?.id}`);
    const after = await rowCounts(db);
    expect(after.bundles - before.bundles).toBe(1);

    const read = (await (await fetch(`${base}/v1/bundles/${bundle?.id}`)).json()) as Json & { measurements: Json[] };
    // end.sum_received.bits_per_second 1709695955.1191564 bit/s, kept as published and converted to Gbit/s
    expect(read.measurements[0]).toMatchObject({
      metric: "tcp.throughput",
      unit: "Gbit/s",
      value: 1.70969595512,
      publishedValue: expect.closeTo(1709695955.1191564, 3), // float8 through PostgreSQL
      publishedUnit: "bit/s",
      params: { path: "pod-pod", streams: 1 },
    });

    const again = await importBody(
      fixture("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json"),
      `${envQuery}&param=path=pod-pod`,
    );
    expect(again.status).toBe(200);
    expect(again.body.bundles[0]).toMatchObject({ id: bundle?.id, created: false });
    expect(await rowCounts(db)).toEqual(after);
  });

  it("gives the same bundle (200, same id) for the same content uploaded through POST /v1/bundles", async () => {
    const text =
      '{"RunType":"HTTP","ActualQPS":1234.5,"RequestedQPS":"max","NumThreads":8,"DurationHistogram":{"Percentiles":[]}}';
    const imported = await importBody(text, envQuery, { "content-type": "application/json" });
    expect(imported.status).toBe(201);
    const { importFiles, withCampaign } = await import("@cnibench/importers");
    // The import gave its bundle the campaign derived from it, as the CLI does (withCampaign).
    const { campaign, bundles } = withCampaign(importFiles([{ name: "x", bytes: strToU8(text) }], environment).bundles);
    expect(imported.body.campaign).toBe(campaign);
    const built = bundles[0]!.bundle;
    const res = await fetch(`${base}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(built, null, 2),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).id).toBe(imported.body.bundles[0]?.id);
  });

  it("imports a TKE result directory as .tar.gz (environment header), and the same as .zip answers 200", async () => {
    const header = {
      "x-cnibench-environment": JSON.stringify({ provider: "tke", kubeProxy: "ebpf", label: "Cilium Overlay" }),
    };
    const tgz = await importBody(fixture("synthetic/tke-benchmark-results-synthetic.tar.gz"), "", {
      ...header,
      "content-type": "application/gzip",
    });
    expect(tgz.status).toBe(201);
    expect(tgz.body.files).toEqual([
      { file: "upload/tke-benchmark-results-synthetic", format: "tke", status: "imported", bundles: 1 },
    ]);
    const [bundle] = tgz.body.bundles;
    expect(bundle?.measurementCount).toBeGreaterThan(50);
    const read = (await (await fetch(`${base}/v1/bundles/${bundle?.id}`)).json()) as Json & {
      bundle: Json & { cluster: Json; cni: Json };
      measurements: (Json & { params: Json })[];
    };
    expect(read.bundle.cluster).toMatchObject({ name: "tke-c-synthetic", provider: "tke", nodeCount: 3 });
    expect(read.bundle.cni).toMatchObject({
      name: "cilium",
      mode: "overlay",
      kubeProxy: "ebpf",
      label: "Cilium Overlay",
    });
    const single = read.measurements.find(
      (m) => m.metric === "tcp.throughput" && m.params.path === "pod-pod" && m.params.streams === 1,
    );
    expect(single).toMatchObject({ value: 10.75, aggregate: "mean" });
    expect(single?.samples).toHaveLength(10);
    expect((single!.samples as number[])[9]).toBe(10.751); // r10, after r9

    const zip = await importBody(fixture("synthetic/tke-benchmark-results-synthetic.zip"), "", {
      ...header,
      "content-type": "application/zip",
    });
    expect(zip.status).toBe(200);
    expect(zip.body.bundles[0]?.id).toBe(bundle?.id);
  });

  it("stores every bundle of an archive in one go: EKS results, one CNI per file from the header's files", async () => {
    const before = await rowCounts(db);
    const res = await importBody(eksZip(), "format=eks", {
      "content-type": "application/zip",
      "x-cnibench-environment": JSON.stringify(eksEnvironment),
    });
    expect(res.status).toBe(201);
    expect(res.body.bundles.map((b) => b.file)).toEqual([
      "upload/results/scenario-a-vpccni.json",
      "upload/results/scenario-b-cilium-kp.json",
      "upload/results/scenario-c-kpless.json",
      "upload/results/scenario-d-eni.json",
      "upload/results/scenario-e-eni-tuned.json",
    ]);
    expect(new Set(res.body.bundles.map((b) => b.scenarioId)).size).toBe(5);
    const after = await rowCounts(db);
    expect(after.bundles - before.bundles).toBe(5);
    expect(after.measurements - before.measurements).toBe(5 * 13);
  });

  it("leaves one set of bundles after identical imports at once", async () => {
    const zip = zipSync({ "r/scenario-a-vpccni.json": fixture("real/eks-devfloor9/scenario-a-vpccni.json") });
    const headers = {
      "content-type": "application/zip",
      "x-cnibench-environment": JSON.stringify({ ...eksEnvironment, kernel: "6.1-concurrent" }),
    };
    const before = await rowCounts(db);
    const responses = await Promise.all(Array.from({ length: 8 }, () => importBody(zip, "", headers)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.bundles[0]?.id)).size).toBe(1);
    expect((await rowCounts(db)).bundles - before.bundles).toBe(1);
  });
});

describe("campaigns: the bundles of one import belong together", () => {
  const eksFiles = (kernel: string) => ({
    "content-type": "application/zip",
    "x-cnibench-environment": JSON.stringify({ ...eksEnvironment, kernel }),
  });
  const campaigns = async (ids: string[]) => {
    const rows = await db.$queryRaw<{ bundle: string | null; measurement: string }[]>`
      SELECT DISTINCT b.campaign AS bundle, m.campaign AS measurement
      FROM "Bundle" b JOIN "Measurement" m ON m."bundleId" = b.id WHERE b.id = ANY(${ids})`;
    return rows;
  };
  const storedCampaign = async (id: string | undefined) =>
    ((await (await fetch(`${base}/v1/bundles/${id}`)).json()) as { bundle: Json }).bundle.campaign;

  it("without ?campaign=, derives one campaign from the bundles built: stored JSON, bundle and measurements hold it", async () => {
    const res = await importBody(eksZip(), "format=eks", eksFiles("6.1-derived"));
    expect(res.status).toBe(201);
    expect(res.body.campaign).toMatch(/^import-[0-9a-f]{16}$/);
    const ids = res.body.bundles.map((b) => b.id);
    expect(ids).toHaveLength(5);
    expect(await campaigns(ids)).toEqual([{ bundle: res.body.campaign, measurement: res.body.campaign }]);
    expect(await storedCampaign(ids[0])).toBe(res.body.campaign);

    // The same results again, packed in another order: the same campaign, so the same bundles (200).
    const before = await rowCounts(db);
    const reordered = zipSync(
      Object.fromEntries(
        [
          "scenario-e-eni-tuned",
          "scenario-d-eni",
          "scenario-c-kpless",
          "scenario-b-cilium-kp",
          "scenario-a-vpccni",
        ].map((s) => [`other/${s}.json`, fixture(`real/eks-devfloor9/${s}.json`)]),
      ),
    );
    const again = await importBody(reordered, "format=eks", eksFiles("6.1-derived"));
    expect(again.status).toBe(200);
    expect(again.body.campaign).toBe(res.body.campaign);
    expect(new Set(again.body.bundles.map((b) => b.id))).toEqual(new Set(ids));
    expect(await rowCounts(db)).toEqual(before);

    // One of them alone: its own derived campaign, but the run is already there, in the first one.
    const one = zipSync({ "results/scenario-a-vpccni.json": fixture("real/eks-devfloor9/scenario-a-vpccni.json") });
    const subset = await importBody(one, "format=eks", eksFiles("6.1-derived"));
    expect(subset.status).toBe(200);
    expect(subset.body.campaign).not.toBe(res.body.campaign);
    expect(subset.body.bundles.map((b) => [b.id, b.created, b.campaign])).toEqual([[ids[0], false, res.body.campaign]]);
    expect(await rowCounts(db)).toEqual(before);

    // Other results make another campaign.
    const other = await importBody(one, "format=eks", eksFiles("6.1-other"));
    expect(other.status).toBe(201);
    expect(other.body.campaign).toMatch(/^import-[0-9a-f]{16}$/);
    expect(other.body.campaign).not.toBe(res.body.campaign);
  });

  it("?campaign= names the campaign (trimmed) of every bundle that names none of its own", async () => {
    const res = await importBody(eksZip(), "format=eks&campaign=%20upgrade-2026-11%20", eksFiles("6.1-named"));
    expect(res.status).toBe(201);
    expect(res.body.campaign).toBe("upgrade-2026-11");
    const ids = res.body.bundles.map((b) => b.id);
    expect(await campaigns(ids)).toEqual([{ bundle: "upgrade-2026-11", measurement: "upgrade-2026-11" }]);
    expect(await storedCampaign(ids[4])).toBe("upgrade-2026-11");

    const same = await importBody(eksZip(), "format=eks&campaign=upgrade-2026-11", eksFiles("6.1-named"));
    expect(same.status).toBe(200);
    // The same runs under another campaign are the same runs: already there, in the campaign they were stored in.
    const next = await importBody(eksZip(), "format=eks&campaign=upgrade-2026-12", eksFiles("6.1-named"));
    expect(next.status).toBe(200);
    expect(next.body.bundles.map((b) => [b.id, b.created, b.campaign])).toEqual(
      ids.map((id) => [id, false, "upgrade-2026-11"]),
    );
    expect(await campaigns(ids)).toEqual([{ bundle: "upgrade-2026-11", measurement: "upgrade-2026-11" }]);

    const own = { ...exampleBundle(), campaign: "its-own" };
    const kept = await importBody(JSON.stringify(own), "format=bundle&campaign=upgrade-2026-11", {
      "content-type": "application/json",
    });
    expect(kept.status).toBe(201);
    expect(await campaigns([kept.body.bundles[0]!.id])).toEqual([{ bundle: "its-own", measurement: "its-own" }]);
  });

  it("400 naming `campaign` when it is empty or longer than 200 characters; nothing written", async () => {
    const before = await rowCounts(db);
    for (const bad of ["", "%20%20", "x".repeat(201)]) {
      const res = await importBody(eksZip(), `format=eks&campaign=${bad}`, eksFiles("6.1-bad"));
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe("bad_query");
      expect(res.body.issues).toEqual([{ path: "campaign", message: expect.stringContaining("1 to 200 characters") }]);
    }
    expect(await rowCounts(db)).toEqual(before);
  });
});

/**
 * InfraBuilder's result tree (packages/importers/fixtures/real/infrabuilder-2024): two setups × three
 * runs, each run a 40 kB `iperf3 --json` output (dts-client.stdout) beside bench.sh's summary
 * (dts.results, not a format cnibench imports). Stored uncompressed, as a zip of a result tree with
 * its logs often is: 246,888 bytes, above the test server's 64 KiB bundle limit.
 */
const infrabuilderRoot = path.join(fixtures, "real/infrabuilder-2024");
const infrabuilderTree = (replace: Record<string, Uint8Array> = {}) => {
  const entries: Record<string, Uint8Array> = {};
  // The iperf3 outputs alone, without the *-client.cmd files that make a folder an infrabuilder run
  // (import-infrabuilder.integration.test.ts sends whole runs): each imports as a raw iperf3 file.
  for (const setup of ["antrea-ipsec", "flannel"])
    for (const run of ["1", "2", "3"])
      for (const file of ["dts-client.stdout", "dts.results"]) {
        const name = `${setup}/${run}/${file}`;
        entries[`results/${name}`] = replace[name] ?? fixture(`real/infrabuilder-2024/${name}`);
      }
  return zipSync(entries, { level: 0 });
};
const infrabuilderHeaders = (cluster: string) => ({
  "content-type": "application/zip",
  "x-cnibench-environment": JSON.stringify({
    cluster,
    provider: "on-prem",
    sku: "bare-metal",
    files: {
      "flannel/*/dts-client.stdout": { cni: "flannel", mode: "vxlan" },
      "antrea-ipsec/*/dts-client.stdout": {
        cni: "antrea",
        mode: "geneve",
        settings: { trafficEncryptionMode: "ipsec" },
      },
    },
  }),
});
/** What bench.sh published for a run: DTS_BW of its dts.results, in bit/s. */
const publishedBandwidth = (run: string) =>
  Number(/^DTS_BW=(.+)$/m.exec(readFileSync(path.join(infrabuilderRoot, run, "dts.results"), "utf8"))?.[1]);

describe("?partial=true: the valid files of an archive are stored, the others refused with their reason", () => {
  // One run's output cut short, as a collector killed mid-write leaves it.
  const truncated = fixture("real/infrabuilder-2024/antrea-ipsec/3/dts-client.stdout").subarray(0, 3000);
  const corrupted = () => infrabuilderTree({ "antrea-ipsec/3/dts-client.stdout": truncated });

  it("without it, one corrupted file refuses the whole archive (422) and nothing is stored", async () => {
    const before = await rowCounts(db);
    const res = await importBody(corrupted(), "", infrabuilderHeaders("infrabuilder-partial"));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("import_failed");
    expect(res.body.message).toBe("1 of 12 file(s) could not be imported; nothing was stored.");
    expect(res.body.files.filter((f) => f.status === "failed").map((f) => f.file)).toEqual([
      "upload/results/antrea-ipsec/3/dts-client.stdout",
    ]);
    expect(await rowCounts(db)).toEqual(before);
  });

  it("with it, stores the five good runs (201) and counts and lists the refused one", async () => {
    const before = await rowCounts(db);
    const res = await importBody(corrupted(), "partial=true", infrabuilderHeaders("infrabuilder-partial"));
    expect(res.status).toBe(201);
    expect(res.body.refused).toBe(1);
    expect(res.body.bundles.map((b) => b.file)).toEqual([
      "upload/results/antrea-ipsec/1/dts-client.stdout",
      "upload/results/antrea-ipsec/2/dts-client.stdout",
      "upload/results/flannel/1/dts-client.stdout",
      "upload/results/flannel/2/dts-client.stdout",
      "upload/results/flannel/3/dts-client.stdout",
    ]);
    const refused = res.body.files.filter((f) => f.status === "failed");
    expect(refused).toEqual([
      {
        file: "upload/results/antrea-ipsec/3/dts-client.stdout",
        format: "iperf3",
        status: "failed",
        bundles: 0,
        error: expect.stringMatching(/^iperf3 JSON: malformed JSON at line \d+, column \d+/),
      },
    ]);
    const after = await rowCounts(db);
    expect(after.bundles - before.bundles).toBe(5);
    // Each run: received and sent throughput, and retransmits.
    expect(after.measurements - before.measurements).toBe(5 * 3);

    // The stored figure is the one bench.sh published: flannel/1/dts.results DTS_BW=19587401486.345478.
    const flannel = res.body.bundles.find((b) => b.file.endsWith("flannel/1/dts-client.stdout"));
    const read = (await (await fetch(`${base}/v1/bundles/${flannel?.id}`)).json()) as Json & {
      measurements: (Json & { metric: string })[];
    };
    expect(read.measurements.find((m) => m.metric === "tcp.throughput")).toMatchObject({
      publishedUnit: "bit/s",
      publishedValue: expect.closeTo(publishedBandwidth("flannel/1"), 3),
    });

    // The same again: nothing new to store (200), the same file still refused.
    const again = await importBody(corrupted(), "partial=true", infrabuilderHeaders("infrabuilder-partial"));
    expect(again.status).toBe(200);
    expect(again.body.refused).toBe(1);
    expect(await rowCounts(db)).toEqual(after);
  });

  it("with it, still 422 when no file imports; nothing stored", async () => {
    const before = await rowCounts(db);
    const zip = zipSync({
      "results/antrea-ipsec/3/dts-client.stdout": truncated,
      "results/notes.txt": strToU8("notes"),
    });
    const res = await importBody(zip, "partial=true", infrabuilderHeaders("infrabuilder-partial"));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("import_failed");
    expect(res.body.message).toBe("1 of 2 file(s) could not be imported; nothing was stored.");
    expect(res.body.issues?.[0]?.path).toBe("upload/results/antrea-ipsec/3/dts-client.stdout");
    expect(await rowCounts(db)).toEqual(before);
  });

  it("says 0 refused for a whole import, and 400 naming `partial` when it is neither true nor false", async () => {
    const whole = await importBody(infrabuilderTree(), "partial=false", infrabuilderHeaders("infrabuilder-whole"));
    expect(whole.status).toBe(201);
    expect(whole.body.refused).toBe(0);
    expect(whole.body.bundles).toHaveLength(6);

    const before = await rowCounts(db);
    for (const bad of ["yes", "1", "TRUE", ""]) {
      const res = await importBody(corrupted(), `partial=${bad}`, infrabuilderHeaders("infrabuilder-bad"));
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe("bad_query");
      expect(res.body.issues).toEqual([{ path: "partial", message: "must be true or false" }]);
    }
    expect(await rowCounts(db)).toEqual(before);
  });
});

describe("large uploads: /v1/import has its own body limit (CNIBENCH_IMPORT_MAX_BYTES)", () => {
  it("takes an archive above the bundle limit and below the import limit", async () => {
    const zip = infrabuilderTree();
    expect(zip.length).toBeGreaterThan(64 * 1024);
    expect(zip.length).toBeLessThan(512 * 1024);
    const res = await importBody(zip, "", infrabuilderHeaders("infrabuilder-large"));
    expect(res.status).toBe(201);
    expect(res.body.bundles).toHaveLength(6);

    // POST /v1/bundles keeps its own, smaller limit.
    const bundle = await fetch(`${base}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ ...exampleBundle(), padding: "x".repeat(70 * 1024) }),
    });
    expect(bundle.status).toBe(413);
    expect(await bundle.json()).toMatchObject({
      error: "payload_too_large",
      message: "The body is larger than the limit of 65536 bytes (CNIBENCH_MAX_BUNDLE_BYTES).",
    });
  });

  it("stops reading a body sent without Content-Length once it crosses the limit: 413 naming the limit", async () => {
    const before = await rowCounts(db);
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(65);
    // 64 chunks of 64 KiB (4 MiB) on offer; the server answers after reading a little over 512 KiB.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 64) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${base}/v1/import?${envQuery}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      error: "payload_too_large",
      message: "The body is larger than the limit of 524288 bytes (CNIBENCH_IMPORT_MAX_BYTES).",
    });
    expect(sent).toBeLessThan(64);
    expect(await rowCounts(db)).toEqual(before);
  });
});

describe("refused imports: a clear status, and nothing written", () => {
  let before: Awaited<ReturnType<typeof rowCounts>>;
  beforeEach(async () => {
    before = await rowCounts(db);
  });
  const nothingWritten = async () => expect(await rowCounts(db)).toEqual(before);

  it("422 naming each required field still missing and the parameter that supplies it", async () => {
    const res = await importBody(fixture("real/eks-devfloor9/scenario-a-vpccni.json"), "sku=m6i.xlarge&kernel=6.1");
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("import_failed");
    expect(res.body.files[0]?.missing).toEqual([
      { path: "cni.name", input: "cni" },
      { path: "cni.mode", input: "mode" },
    ]);
    expect(res.body.issues).toEqual([
      { path: "upload: cni.name", message: 'required; pass ?cni=… or "cni" in X-Cnibench-Environment' },
      { path: "upload: cni.mode", message: 'required; pass ?mode=… or "mode" in X-Cnibench-Environment' },
    ]);
    expect(res.body.requestId).toBe(res.headers.get("x-request-id"));
    await nothingWritten();
  });

  it("422 for an archive mixing good and bad files: per-file outcome, no bundle half-written", async () => {
    const iperf = fixture("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json");
    const zip = zipSync({
      "run/good.json": iperf,
      "run/truncated.json": iperf.subarray(0, 3000),
      "run/notes.txt": strToU8("just notes"),
    });
    const res = await importBody(zip, envQuery, { "content-type": "application/zip" });
    expect(res.status).toBe(422);
    expect(res.body.files.map((f) => [f.file, f.status])).toEqual([
      ["upload/run/good.json", "imported"],
      ["upload/run/truncated.json", "failed"],
      ["upload/run/notes.txt", "skipped"],
    ]);
    expect(res.body.files[1]?.error).toMatch(/iperf3 JSON: malformed JSON at line \d+, column \d+/);
    await nothingWritten();
  });

  it("422 when nothing in the upload is a result", async () => {
    const res = await importBody("hello, world", envQuery, { "content-type": "text/plain" });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("nothing_to_import");
    await nothingWritten();
  });

  it("422 above the archive entry limit, 413 above the decompressed-size limit, 413 above the import body limit", async () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 301 }, (_, i) => [`f${i}.txt`, strToU8("x")])));
    const entries = await importBody(many, envQuery, { "content-type": "application/zip" });
    expect(entries.status).toBe(422);
    expect(entries.body.error).toBe("too_many_entries");
    expect(entries.body.message).toMatch(/more than 300 archive entries/);

    const bomb = zipSync({ "big.json": new Uint8Array(5 * 1024 * 1024) });
    const unpacked = await importBody(bomb, envQuery, { "content-type": "application/zip" });
    expect(unpacked.status).toBe(413);
    expect(unpacked.body.error).toBe("archive_too_large");

    const huge = await importBody(new Uint8Array(600 * 1024).fill(65), envQuery);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({
      error: "payload_too_large",
      message: "The body is larger than the limit of 524288 bytes (CNIBENCH_IMPORT_MAX_BYTES).",
    });
    await nothingWritten();
  });

  it("422 for an archive entry that points outside the archive", async () => {
    const zip = zipSync({ "../../etc/cron.d/x": strToU8("{}") });
    const res = await importBody(zip, envQuery, { "content-type": "application/zip" });
    expect(res.status).toBe(422);
    expect(res.body.files[0]?.error).toMatch(/points outside the archive/);
    await nothingWritten();
  });

  it("401 without a token, 415 for a form upload, 400 for an empty body and for bad parameters", async () => {
    const anonymous = await fetch(`${base}/v1/import`, { method: "POST", body: "x" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("Bearer");

    const form = await importBody("a=b", envQuery, { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect(form.body.message).toMatch(/--data-binary/);

    const empty = await importBody("", envQuery);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("empty_body");

    const bad = await importBody("x", "format=pcap&nodeCount=three&kubeproxy=ipvs", {
      "x-cnibench-environment": "{not json",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues?.map((i) => i.path)).toEqual(["kubeproxy", "format", "nodeCount", "X-Cnibench-Environment"]);
    await nothingWritten();
  });

  it("rolls back every bundle when storing one of them fails", async () => {
    const { importFiles } = await import("@cnibench/importers");
    const built = importFiles(
      [
        { name: "a.json", bytes: fixture("real/eks-devfloor9/scenario-a-vpccni.json") },
        { name: "b.json", bytes: fixture("real/eks-devfloor9/scenario-b-cilium-kp.json") },
      ],
      { provider: "eks", sku: "m6i.xlarge", kernel: "6.1-rollback", cni: "cilium", mode: "native" },
    ).bundles;
    const inputs = built.map((b) => {
      const read = readStorableBundle({ bundle: b.bundle });
      if (!read.ok) throw new Error("unexpected");
      const { raw, contentHash, bundle, warnings } = read;
      return { workspaceId, tokenId: null, raw, contentHash, bundle, warnings };
    });
    // The second bundle's measurement carries a value PostgreSQL refuses (not an "Aggregate" enum label).
    inputs[1]!.bundle.measurements[0]!.aggregate = "bogus" as never;
    await expect(storeBundles(db, inputs)).rejects.toThrow();
    await nothingWritten();
  });
});

it("answers 503 with Retry-After when the database is unreachable", async () => {
  const unreachable = createDb(`postgresql://nobody@127.0.0.1:${await freePort()}/none`);
  const app = buildServer({
    db: unreachable,
    publicApiUrl: "http://api.example",
    publicWebUrl: "http://web.example",
    logLevel: "silent",
  });
  const down = await app.listen({ host: "127.0.0.1", port: 0 });
  try {
    const res = await fetch(`${down}/v1/import?${envQuery}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: Buffer.from(fixture("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json")),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ error: "database_unavailable" });
  } finally {
    await app.close();
    await unreachable.$disconnect();
  }
});

it("documents POST /v1/import in the OpenAPI document", async () => {
  const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { parameters: { name: string }[]; responses: Json }>>;
    components: { schemas: Json };
  };
  const post = doc.paths["/v1/import"]?.post;
  expect(Object.keys(post?.responses ?? {}).sort()).toEqual([
    "200",
    "201",
    "400",
    "401",
    "403",
    "413",
    "415",
    "422",
    "429",
    "503",
  ]);
  expect(post?.parameters.map((p) => p.name)).toEqual(
    expect.arrayContaining([
      "format",
      "partial",
      "campaign",
      "provider",
      "sku",
      "kernel",
      "cni",
      "mode",
      "kubeProxy",
      "X-Cnibench-Environment",
    ]),
  );
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["ImportResult", "ImportError"]));
});
