// What a scenario page is given of the warnings stored with its bundles (issue 23): a figure above the NIC
// line rate carries its warning while its bundle holds the current figure; an environment field that
// contradicts the files is listed once for the uploads.
import { accessFor, createDb, type Db, ensureDefaultWorkspace, ingestBundle } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { fixtureBytes, labEnvironment } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFiles } from "../../../../../packages/importers/src/import.ts";
import { createCaller } from "../trpc/root";

// A raw iperf3 run (start.system_info: kernel 5.4.104+) imported with --kernel 6.1.0 and a 1 Gbit/s NIC:
// end.sum_received 1,709,695,955 and end.sum_sent 1,710,292,618 bit/s are 1.71 Gbit/s each.
const [imported] = importFiles(
  [{ name: "iperf3.json", bytes: fixtureBytes("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json") }],
  { ...labEnvironment, nicGbps: 1 },
).bundles;
const bundle = imported!.bundle;
const kernel = 'node.kernel: you passed "6.1.0", the files state "5.4.104+"; stored as you passed';

describe("warnings on the scenario page's data", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;

  const ingest = async (document: object) => {
    const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(document) });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    return outcome.stored;
  };
  const page = async (id: string) => {
    const view = await createCaller({ db, access: await accessFor(db, null) }).scenarios.byId({ id });
    const byMetric = Object.fromEntries(
      view.groups.flatMap((g) => g.rows.map((r) => [g.metric, r.warnings.map((w) => w.message)])),
    );
    return { byMetric, uploads: view.warnings, rows: view.groups.flatMap((g) => g.rows) };
  };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("puts a warning at results[i] on that figure, and the rest once above the figures", async () => {
    const first = await ingest(bundle);
    const { byMetric, uploads, rows } = await page(first.scenarioId);
    expect(byMetric).toEqual({
      "tcp.throughput": ["tcp.throughput 1.71 Gbit/s is above the NIC line rate of 1 Gbit/s (node.nicGbps)"],
      "x.tcp.throughput.sent": [
        "x.tcp.throughput.sent 1.71 Gbit/s is above the NIC line rate of 1 Gbit/s (node.nicGbps)",
      ],
      "x.tcp.retransmits": [],
    });
    expect(rows[0]?.warnings[0]?.bundleId).toBe(first.id);
    expect(uploads).toEqual([{ path: "node.kernel", message: kernel, bundleIds: [first.id] }]);
  });

  it("drops a figure's warning once a later campaign within the line rate holds it; keeps the uploads' one", async () => {
    // The same run a day later at half the rate (855 Mbit/s): a campaign of its own, now the current one.
    const rerun = await ingest({
      ...bundle,
      runAt: "2021-08-03T18:53:45Z",
      results: bundle.results.map((r) => (r.unit === "bit/s" ? { ...r, value: Math.round(r.value / 2) } : r)),
    });
    const { byMetric, uploads } = await page(rerun.scenarioId);
    expect(byMetric).toEqual({ "tcp.throughput": [], "x.tcp.throughput.sent": [], "x.tcp.retransmits": [] });
    const first = await ingest(bundle); // the same content again: the first bundle, nothing written
    expect(uploads).toEqual([{ path: "node.kernel", message: kernel, bundleIds: [rerun.id, first.id] }]);
  });
});
