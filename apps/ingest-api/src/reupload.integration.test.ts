/**
 * The same runs uploaded again are "already there", whatever their packaging or campaign (issue 42:
 * re-uploading one setup of an imported tree answered "3 created"). Five real EKS cni-benchmark
 * results (packages/importers/fixtures/real/eks-devfloor9) imported as one .tar.gz, then: a subset
 * of two, the five reordered in a .zip, the five under a named campaign, one bundle through
 * POST /v1/bundles — each 200, nothing written (row counts unchanged), each bundle named with the
 * campaign it stays in.
 */
import type { Db } from "@cnibench/db";
import { importFiles } from "@cnibench/importers";
import { tar, zipEntries } from "@cnibench/test-support/archives";
import { freshDatabase } from "@cnibench/test-support/database";
import { environmentQuery, fixtureBytes, labEnvironment } from "@cnibench/test-support/fixtures";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { gzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Json = Record<string, unknown>;
type ImportBody = Json & { campaign: string; bundles: (Json & { id: string; created: boolean; campaign?: string })[] };

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

const names = [
  "scenario-a-vpccni",
  "scenario-b-cilium-kp",
  "scenario-c-kpless",
  "scenario-d-eni",
  "scenario-e-eni-tuned",
];
const entry = (name: string) => ({
  name: `results/${name}.json`,
  bytes: fixtureBytes(`real/eks-devfloor9/${name}.json`),
});
const query = (extra: Record<string, string> = {}) => environmentQuery({ cluster: "eks-lab", ...extra });

async function post(path: string, body: Uint8Array, type: string) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body: Buffer.from(body),
  });
  return { status: res.status, body: (await res.json()) as ImportBody };
}

describe("re-uploading runs already stored", () => {
  let first: ImportBody;

  beforeAll(async () => {
    const res = await post(`/v1/import?${query()}`, gzipSync(tar(names.map(entry))), "application/gzip");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    first = res.body;
    expect(first.bundles.map((b) => b.created)).toEqual([true, true, true, true, true]);
    expect(first.bundles.some((b) => "campaign" in b)).toBe(false); // all in the import's own
  });

  const idsOf = (body: ImportBody) => body.bundles.map((b) => b.id).sort();

  it.each([
    [
      "a subset of two",
      () => post(`/v1/import?${query()}`, gzipSync(tar(names.slice(1, 3).map(entry))), "application/gzip"),
      2,
    ],
    [
      "the five reordered, in a .zip",
      () =>
        post(
          `/v1/import?${query()}`,
          zipEntries([...names].reverse().map((n) => [`other/${n}.json`, entry(n).bytes])),
          "application/zip",
        ),
      5,
    ],
    [
      "the five under a named campaign",
      () => post(`/v1/import?${query({ campaign: "renamed" })}`, gzipSync(tar(names.map(entry))), "application/gzip"),
      5,
    ],
  ])("%s: 200, nothing written, each bundle in the campaign it was first stored in", async (_, send, count) => {
    const before = await rowCounts(db);
    const again = await send();
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.bundles).toHaveLength(count);
    // Where a bundle names no campaign of its own in the answer, it is in the import's.
    expect(again.body.bundles.map((b) => [b.created, b.campaign ?? again.body.campaign])).toEqual(
      again.body.bundles.map(() => [false, first.campaign]),
    );
    expect(idsOf(again.body).every((id) => idsOf(first).includes(id))).toBe(true);
    expect(await rowCounts(db)).toEqual(before);
  });

  it("one of them as a bundle through POST /v1/bundles, with its own campaign: 200 and the stored campaign", async () => {
    const built = importFiles([{ name: `${names[0]}.json`, bytes: entry(names[0]!).bytes }], {
      ...labEnvironment,
      cluster: "eks-lab",
    });
    const bundle = { ...built.bundles[0]!.bundle, campaign: "by-hand" };
    const before = await rowCounts(db);
    const res = await post("/v1/bundles", new TextEncoder().encode(JSON.stringify(bundle)), "application/json");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: first.bundles[0]!.id, campaign: first.campaign });
    expect(await rowCounts(db)).toEqual(before);
  });
});
