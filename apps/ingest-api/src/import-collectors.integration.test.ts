/**
 * POST /v1/import of the collectors added for issue 42 — ClusterLoader2, vegeta, k8s-netperf,
 * kube-burner and `cilium connectivity perf` — one real (or documented) file each in one .tar.gz, over
 * real HTTP against a real PostgreSQL; and a knb .knbdata, answered with how to render it.
 * Expected figure counts are the importers' unit tests' (read by hand from the files). A fast-check
 * property sends hostile variants of each file (cut, bytes flipped, numbers made huge, negative or
 * not numbers): never a 5xx.
 */
import type { Db } from "@cnibench/db";
import { tar } from "@cnibench/test-support/archives";
import { freshDatabase } from "@cnibench/test-support/database";
import { environmentQuery, fixtureBytes } from "@cnibench/test-support/fixtures";
import { fuzzBanner, fuzzSettings, fuzzTimeout } from "@cnibench/test-support/fuzz";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import fc from "fast-check";
import { gzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Json = Record<string, unknown>;
type ImportBody = Json & {
  refused: number;
  bundles: (Json & { id: string; created: boolean; file: string })[];
  files: (Json & { file: string; format: string | null; status: string; error?: string })[];
};

let database: Awaited<ReturnType<typeof freshDatabase>>;
let ingest: Awaited<ReturnType<typeof startIngest>>;
let db: Db;
let base: string;
let token: string;

beforeAll(async () => {
  database = await freshDatabase();
  ingest = await startIngest(database.url);
  ({ db, base, token } = ingest);
});
afterAll(async () => {
  await ingest.close();
  await database.drop();
});

const files = {
  "PodStartupLatency_PodStartupLatency_resource-consumer_2025-05-03T17-16-07Z.json": [
    "real/clusterloader2/telescope_PodStartupLatency_PodStartupLatency_resource-consumer_2025-05-03T17-16-07Z.json",
    "clusterloader2",
    15,
  ],
  "vegeta-report.json": ["real/vegeta/vegeta_report_json_from_readme.json", "vegeta", 9],
  "result-1700000000.csv": ["real/k8s-netperf/docs_example_result.csv", "k8s-netperf", 12],
  // k8s-netperf's printed tables, as a console log: its two whole rows (the third is cut short).
  "k8s-netperf.log": ["real/k8s-netperf/e2e-benchmarking_pr575_stdout_table_TRUNCATED.txt", "k8s-netperf", 2],
  "netpolLatencyQuantilesMeasurement-network-policy-perf.json": [
    "real/kube-burner/netpolLatencyQuantilesMeasurement_doc_example.json",
    "kube-burner",
    10,
  ],
  "perf.txt": ["real/cilium-cli/tke-s5medium4-native-routing_summary.txt", "cilium-perf", 36],
} as const;

async function post(body: Uint8Array, query: string, type = "application/gzip") {
  const res = await fetch(`${base}/v1/import?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body: Buffer.from(body),
  });
  return { status: res.status, body: (await res.json()) as ImportBody };
}

describe("POST /v1/import of ClusterLoader2, vegeta, k8s-netperf, kube-burner and cilium perf outputs", () => {
  it("detects each, stores one bundle per file with every figure; the same archive again stores nothing", async () => {
    const archive = gzipSync(
      tar(Object.entries(files).map(([name, [fixture]]) => ({ name: `out/${name}`, bytes: fixtureBytes(fixture) }))),
    );
    const before = await rowCounts(db);
    const first = await post(archive, environmentQuery({ cluster: "collectors" }));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.refused).toBe(0);
    expect(first.body.files.map((f) => [f.file.replace(/^.*\/out\//, ""), f.format, f.status]).sort()).toEqual(
      Object.entries(files)
        .map(([name, [, format]]) => [name, format, "imported"])
        .sort(),
    );
    const after = await rowCounts(db);
    expect(after.bundles - before.bundles).toBe(6);
    expect(after.measurements - before.measurements).toBe(15 + 9 + 12 + 2 + 10 + 36);

    // pod.startup.latency is stored in the catalogue's seconds: 4078.342422 ms → 4.078342422 s.
    const cl2 = first.body.bundles.find((b) => b.file.endsWith("Z.json"))!;
    const stored = (await (await fetch(`${base}/v1/bundles/${cl2.id}`)).json()) as {
      bundle: { results: Json[] };
    };
    expect(stored.bundle.results).toContainEqual(
      expect.objectContaining({ metric: "pod.startup.latency", value: 4078.342422, unit: "ms" }),
    );

    const again = await post(archive, environmentQuery({ cluster: "collectors" }));
    expect(again.status).toBe(200);
    expect(again.body.bundles.every((b) => !b.created)).toBe(true);
    expect(await rowCounts(db)).toEqual(after);
  });

  it("a .knbdata gets one 422 saying `knb -fd <file> -o json`, not one refusal per entry", async () => {
    const before = await rowCounts(db);
    const res = await post(
      fixtureBytes("real/knb/infrabuilder-2020-doc-flannel-run1.knbdata"),
      environmentQuery({ cluster: "knb" }),
    );
    expect(res.status).toBe(422);
    expect(res.body.files).toEqual([
      expect.objectContaining({
        format: "knb",
        status: "failed",
        error: expect.stringContaining("knb -fd <file> -o json"),
      }),
    ]);
    expect(await rowCounts(db)).toEqual(before);
  });
});

describe("hostile variants of the five collectors' files", () => {
  console.info(fuzzBanner);
  const texts = Object.values(files).map(([fixture, format]) => ({
    format,
    text: new TextDecoder().decode(fixtureBytes(fixture)),
  }));
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({
      kind: fc.constant("number" as const),
      nth: fc.nat({ max: 60 }),
      value: fc.constantFrom("1e400", "-1", "-0.5", "NaN", '"x"', "", "99999999999999999999999", "0"),
    }),
  );
  const mutate = (text: string, m: Record<string, unknown>) => {
    if (m.kind === "cut") return new TextEncoder().encode(text.slice(0, (m.at as number) % (text.length + 1)));
    if (m.kind === "flip") {
      const bytes = new TextEncoder().encode(text);
      if (bytes.length > 0) bytes[(m.at as number) % bytes.length] = m.byte as number;
      return bytes;
    }
    let n = -1;
    return new TextEncoder().encode(text.replace(/-?\d+(\.\d+)?/g, (d) => (++n === m.nth ? (m.value as string) : d)));
  };

  it(
    "answer 2xx or 4xx, never 5xx, with auto and the forced format",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...texts), mutation, fc.boolean(), async (file, m, forced) => {
          const body = mutate(file.text, m as Record<string, unknown>);
          const res = await post(
            body,
            `${environmentQuery({ cluster: "fuzz" })}&partial=true${forced ? `&format=${file.format}` : ""}`,
            "application/octet-stream",
          );
          expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBeLessThan(500);
        }),
        fuzzSettings,
      );
    },
    fuzzTimeout(60_000, 1000),
  );
});
