// A comparison shared with its own margin δ recomputes on its permalink exactly as it was shared, and
// keeps doing so after a newer upload changes the live comparison; its evidence CSV (/d/<slug>/evidence.csv)
// downloads those pinned verdicts, to exactly whom the permalink page opens.
//
// TCP throughput, three runs a side. Expected numbers from scipy 1.17 (python3), b the baseline's runs and
// c the candidate's: r = stats.ttest_ind(np.log(c), np.log(b), equal_var=False), ratio =
// exp(mean(log c) − mean(log b)), 95 % interval = exp(r.confidence_interval(0.95)), 90 % interval =
// exp(r.confidence_interval(0.90)), margins m = log(1.03) = 0.029559 and log(1.05) = 0.048790.
import { accessFor, createDb, type Db, ensureDefaultWorkspace, recordSignIn } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as permalinkCsv } from "../../app/d/[slug]/evidence.csv/route";
import { createCaller } from "../trpc/root";

// The route runs as in the app, with the tRPC caller of the visitor the test chooses. Vitest knows no
// tsconfig paths: the app's `~/` imports are pointed at the modules Next.js resolves them to.
const visitor = vi.hoisted(() => ({ caller: undefined as unknown }));
vi.mock("server-only", () => ({}));
vi.mock("~/server/views/downloads", () => import("./downloads"));
vi.mock("~/trpc/server", () => ({ api: async () => visitor.caller }));

const baselineRuns = [10.0, 10.1, 9.9];
/** +4 %: better at δ 3 %, inconclusive at the catalogue's 5 %. */
const pinnedRuns = [10.4, 10.5, 10.3];
/** −10 %, uploaded after sharing: worse. */
const newerRuns = [9.0, 9.1, 8.9];

// r for c = pinnedRuns: p = 0.008093475840525015; ratio 1.0400026156396012 (d = 0.039223);
// 95 % 1.0171158651428247–1.0634043550046597; 90 % 1.0223869800552918–1.0579217670384626.
// δ 3 %: p < 0.05 and d > 0.029559 → better. δ 5 %: d < 0.048790, and 1.0579 > 1.05 leaves the 90 %
// interval outside ±δ → inconclusive.
const pinned = {
  p: 0.008093475840525015,
  ratio: 1.0400026156396012,
  low: 1.0171158651428247,
  high: 1.0634043550046597,
};
// r for c = newerRuns: p = 0.00027524415543889847, ratio 0.8999929622041546 (d = −0.105368 < −0.029559) → worse.
const newer = { p: 0.00027524415543889847, ratio: 0.8999929622041546 };

const { overlay, iptables } = tkeServiceScale();
const runsOf = (bundle: object, runs: number[], runAt: string) =>
  JSON.stringify({
    ...bundle,
    runAt,
    results: [
      {
        metric: "tcp.throughput",
        unit: "Gbit/s",
        value: [...runs].sort((a, b) => a - b)[1],
        aggregate: "median",
        samples: runs,
        params: { path: "pod-pod", streams: 1 },
      },
    ],
  });

/** CSV rows as records by header (quoted cells with commas and doubled quotes; no line breaks in cells). */
function csvRecords(text: string): Record<string, string>[] {
  const [header = [], ...rows] = text
    .trim()
    .split(/\r?\n/)
    .map((line) =>
      [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => m[1]?.replaceAll('""', '"') ?? m[2] ?? ""),
    );
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i] ?? ""])));
}

describe("a permalink shared with its own margins", () => {
  let db: Db;
  let drop: () => Promise<void>;
  const users: Record<"alice" | "bob", string> = { alice: "", bob: "" };
  const as = async (who: "alice" | "bob" | null) =>
    createCaller({ db, access: await accessFor(db, who ? users[who] : null) });
  const download = async (who: "alice" | "bob" | null, slug: string) => {
    visitor.caller = await as(who);
    return permalinkCsv(new Request(`http://web.example/d/${slug}/evidence.csv`), {
      params: Promise.resolve({ slug }),
    });
  };
  let scenarioIds: string[];
  let candidateId: string;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    await ensureDefaultWorkspace(db);
    const signIn = async (subject: string) =>
      (await recordSignIn(db, { issuer: "t", subject, email: `${subject}@example.test`, name: subject })).id;
    // The first to sign in administers the installation: neither Alice nor Bob.
    await signIn("admin");
    users.alice = await signIn("alice");
    users.bob = await signIn("bob");
    // Alice's private workspace, so the permalink opens to its readers only until she publishes it.
    await (await as("alice")).workspaces.create({ slug: "lab", name: "Lab", visibility: "private" });
    const upload = async (text: string) =>
      (await as("alice")).workspaces.upload({ slug: "lab", filename: "bundle.json", text });
    const baseline = await upload(runsOf(iptables, baselineRuns, "2026-02-01T00:00:00Z"));
    const candidate = await upload(runsOf(overlay, pinnedRuns, "2026-02-01T00:00:00Z"));
    scenarioIds = [baseline.scenarioId, candidate.scenarioId];
    candidateId = candidate.scenarioId;
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  const cellOf = (comparison: { rows: { metric: string; cells: unknown[] }[] }) => {
    const row = comparison.rows.find((r) => r.metric === "tcp.throughput");
    expect(row, "a TCP throughput row").toBeDefined();
    return row?.cells[1] as {
      verdict: string | null;
      evidence: { p: number | null; pAdjusted: number | null; marginPercent: number; ratio: number | null } | null;
    };
  };

  it("recomputes the shared verdicts, p-values and margins, before and after a newer upload", async () => {
    const alice = await as("alice");
    const standard = await alice.compare.view({ scenarioIds });
    expect(cellOf(standard).verdict).toBe("inconclusive");
    expect(cellOf(standard).evidence?.marginPercent).toBe(5);

    const view = await alice.compare.view({ scenarioIds, margins: { "tcp.throughput": 3 } });
    const cell = cellOf(view);
    expect(cell.verdict).toBe("better");
    expect(cell.evidence?.marginPercent).toBe(3);
    expect(cell.evidence?.p).toBeCloseTo(pinned.p, 10);
    // One figure compared: Benjamini–Hochberg leaves its p as it is.
    expect(cell.evidence?.pAdjusted).toBeCloseTo(pinned.p, 10);
    expect(cell.evidence?.ratio).toBeCloseTo(pinned.ratio, 10);
    expect(view.margins).toEqual([
      expect.objectContaining({ metric: "tcp.throughput", percent: 3, standard: 5, overridden: true }),
    ]);

    const { slug } = await alice.compare.share({ scenarioIds, view: { margins: { "tcp.throughput": 3 } } });
    const shared = await alice.compare.permalink({ slug });
    expect(shared.comparison.rows).toEqual(view.rows);
    expect(shared.comparison.margins).toEqual(view.margins);
    expect(shared.comparison.summaries).toEqual(view.summaries);

    await alice.workspaces.upload({
      slug: "lab",
      filename: "newer.json",
      text: runsOf(overlay, newerRuns, "2026-03-01T00:00:00Z"),
    });
    const live = cellOf(await alice.compare.view({ scenarioIds, margins: { "tcp.throughput": 3 } }));
    expect(live.verdict).toBe("worse");
    expect(live.evidence?.p).toBeCloseTo(newer.p, 10);
    expect(live.evidence?.ratio).toBeCloseTo(newer.ratio, 10);

    const later = await alice.compare.permalink({ slug });
    expect(later.newer.map((b) => b.scenarioId)).toEqual([candidateId]);
    expect(later.comparison.rows).toEqual(view.rows);
    expect(later.comparison.margins).toEqual(view.margins);

    // Its evidence CSV gives the pinned +4 %, not the live −10 %.
    const res = await download("alice", slug);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="cnibench-compare-${slug}.csv"`);
    const rows = csvRecords(await res.text()).filter((r) => r.metric === "tcp.throughput");
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      params: JSON.stringify({ path: "pod-pod", streams: 1 }),
      baseline_n: "3",
      candidate_n: "3",
      margin_percent: "3",
      test: "welch-log",
      verdict: "better",
    });
    expect(Number(row?.p)).toBeCloseTo(pinned.p, 10);
    expect(Number(row?.p_adjusted)).toBeCloseTo(pinned.p, 10);
    expect(Number(row?.ratio)).toBeCloseTo(pinned.ratio, 10);
    expect(Number(row?.ratio_low_95)).toBeCloseTo(pinned.low, 10);
    expect(Number(row?.ratio_high_95)).toBeCloseTo(pinned.high, 10);
  });

  it("downloads the evidence to exactly whom the permalink page opens", async () => {
    const { slug } = await (await as("alice")).compare.share({ scenarioIds, view: {} });
    const own = await download("alice", slug);
    expect(own.status).toBe(200);
    const text = await own.text();
    expect(csvRecords(text).map((r) => r.metric)).toContain("tcp.throughput");

    // Private until Alice publishes it: a 404 to a stranger and to the signed-out, as the page is.
    for (const who of ["bob", null] as const) {
      await expect((await as(who)).compare.permalink({ slug })).rejects.toMatchObject({ code: "NOT_FOUND" });
      const refused = await download(who, slug);
      expect(refused.status, `${who ?? "signed out"}`).toBe(404);
      const body = await refused.text();
      for (const secret of ["Cilium Overlay", "kube-proxy iptables", "welch-log"]) expect(body).not.toContain(secret);
    }
    expect((await download("alice", "no-such-link")).status).toBe(404);

    await (await as("alice")).compare.publish({ slug, published: true });
    for (const who of ["bob", null] as const) {
      const opened = await download(who, slug);
      expect(opened.status, `${who ?? "signed out"}`).toBe(200);
      expect(await opened.text()).toBe(text);
    }
  });
});
