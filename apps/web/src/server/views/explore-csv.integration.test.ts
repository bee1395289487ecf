// The explorer's CSV (/explore.csv) downloads the table as the page shows it to its visitor: filtered,
// sorted over every page, each chosen column one metric at fixed params (a scenario without that exact
// test gets an empty cell, never a figure of other params), and another workspace's private scenarios
// only to its readers.
import { accessFor, createDb, type Db, ensureDefaultWorkspace, ingestBundle, recordSignIn } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as exploreCsv } from "../../app/explore.csv/route";
import { createCaller } from "../trpc/root";

// The route runs as in the app, with the tRPC caller of the visitor the test chooses. Vitest knows no
// tsconfig paths: the app's `~/` imports are pointed at the modules Next.js resolves them to.
const visitor = vi.hoisted(() => ({ caller: undefined as unknown }));
vi.mock("server-only", () => ({}));
vi.mock("~/server/views/downloads", () => import("./downloads"));
vi.mock("~/trpc/server", () => ({ api: async () => visitor.caller }));

type Throughput = { path: string; streams: number; runs: number[] };

/** A Cilium scenario of its own (its label and settings) with TCP throughput at the given params. */
const bundle = (label: string, settings: Record<string, string>, figures: Throughput[]) =>
  JSON.stringify({
    ...exampleBundle(),
    cni: { name: "cilium", version: "1.18.3", mode: "overlay-vxlan", kubeProxy: "ebpf", label, settings },
    results: figures.map(({ path, streams, runs }) => ({
      metric: "tcp.throughput",
      unit: "Gbit/s",
      value: [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)],
      ...(runs.length > 1 ? { aggregate: "median", samples: runs } : {}),
      params: { path, streams },
    })),
  });

/** The CSV's rows as records by header; cells may be quoted, with "" for a quote. */
function csvRecords(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') cell += text[++i];
    else if (ch === '"') quoted = !quoted;
    else if (quoted || (ch !== "," && ch !== "\n" && ch !== "\r")) cell += ch;
    else if (ch !== "\r") {
      row.push(cell);
      cell = "";
      if (ch === "\n") {
        rows.push(row);
        row = [];
      }
    }
  }
  const [header = [], ...body] = rows;
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
}

describe("the explorer's CSV", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let alice = "";
  const download = async (who: "alice" | null, search: string) => {
    visitor.caller = createCaller({ db, access: await accessFor(db, who === "alice" ? alice : null) });
    return exploreCsv(new Request(`http://web.example/explore.csv${search}`));
  };
  const records = async (who: "alice" | null, search: string) => {
    const res = await download(who, search);
    expect(res.status).toBe(200);
    return csvRecords(await res.text());
  };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    const { id: publicId } = await ensureDefaultWorkspace(db);
    const signIn = async (subject: string) =>
      (await recordSignIn(db, { issuer: "t", subject, email: `${subject}@example.test`, name: subject })).id;
    await signIn("admin");
    alice = await signIn("alice");
    const put = async (text: string) => {
      const outcome = await ingestBundle(db, { workspaceId: publicId, tokenId: null, text });
      if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    };
    // WireGuard: 1 and 8 streams pod-to-pod, and a faster 8-stream figure via the Service.
    await put(
      bundle("ZZ WireGuard", { encryption: "wireguard" }, [
        { path: "pod-pod", streams: 1, runs: [9.3, 9.4, 9.5] },
        { path: "pod-pod", streams: 8, runs: [9.5] },
        { path: "service", streams: 8, runs: [9.9] },
      ]),
    );
    // Plain: 8 streams pod-to-pod, and 1 stream only via the Service (12 Gbit/s, above everything).
    await put(
      bundle("ZZ Plain", {}, [
        { path: "pod-pod", streams: 8, runs: [8.0] },
        { path: "service", streams: 1, runs: [12.0] },
      ]),
    );
    const asAlice = async () => createCaller({ db, access: await accessFor(db, alice) });
    await (await asAlice()).workspaces.create({ slug: "lab", name: "Lab", visibility: "private" });
    await (await asAlice()).workspaces.upload({
      slug: "lab",
      filename: "bundle.json",
      text: bundle("ZZ Private lab", {}, [{ path: "pod-pod", streams: 1, runs: [5.0] }]),
    });
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("writes the chosen columns, sorted as the page sorts, one row per scenario", async () => {
    const res = await download(null, "?col=tcpPod1&col=tcpPod8&sort=tcpPod8&order=desc");
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="cnibench-explore.csv"');
    const text = await res.text();
    expect(text.split("\n")[0]).toBe(
      "id,name,provider,sku,kernel,kubernetes,cni,cni_version,mode,kube_proxy,settings,distinguishing," +
        "tcpPod1_value,tcpPod1_unit,tcpPod1_n,tcpPod8_value,tcpPod8_unit,tcpPod8_n",
    );
    const rows = csvRecords(text);
    expect(rows.map((r) => r.name)).toEqual(["ZZ WireGuard", "ZZ Plain"]);
    expect(rows[0]).toMatchObject({
      provider: "tke",
      cni: "cilium",
      mode: "overlay-vxlan",
      settings: '{"encryption":"wireguard"}',
      distinguishing: "WireGuard",
      tcpPod1_value: "9.4",
      tcpPod1_unit: "Gbit/s",
      tcpPod1_n: "3",
      tcpPod8_value: "9.5",
      tcpPod8_n: "1",
    });
    // Plain measured 1 stream via the Service only: its pod-to-pod 1-stream cell stays empty.
    expect(rows[1]).toMatchObject({ settings: "{}", distinguishing: "", tcpPod1_value: "", tcpPod8_value: "8" });
    expect(text).not.toContain("ZZ Private lab");
  });

  it("shows a workspace's private scenarios to its readers only, rows without the figure last", async () => {
    const rows = await records("alice", "?col=tcpPod8&sort=tcpPod8&order=asc");
    expect(rows.map((r) => [r.name, r.tcpPod8_value])).toEqual([
      ["ZZ Plain", "8"],
      ["ZZ WireGuard", "9.5"],
      ["ZZ Private lab", ""],
    ]);
  });

  it("reads filters and falls back to the default columns, as the page does", async () => {
    expect(await records(null, "?provider=eks")).toEqual([]);
    const res = await download(null, "?col=nope");
    const header = (await res.text()).split("\n")[0] ?? "";
    expect(header.split(",").filter((h) => h.endsWith("_value"))).toEqual([
      "tcpPod1_value",
      "tcpPod8_value",
      "udpLossPod1_value",
      "shortRps_value",
      "tcpRrP99_value",
    ]);
  });
});
