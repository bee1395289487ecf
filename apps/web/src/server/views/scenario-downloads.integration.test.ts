// A scenario's answer carries each run once, without what its row and bundle say (scenario, metric,
// params, source); its downloads still give every run whole: the JSON with `current` and each run's
// metric, params and source written out, the CSV one line per run with its campaign marked.
import { accessFor, createDb, type Db, ensureDefaultWorkspace, ingestBundle } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as csvRoute } from "../../app/scenarios/[id]/figures.csv/route";
import { GET as jsonRoute } from "../../app/scenarios/[id]/figures.json/route";
import { createCaller } from "../trpc/root";

// The routes run as in the app, with an anonymous visitor's caller (see explore-csv.integration.test.ts).
const visitor = vi.hoisted(() => ({ caller: undefined as unknown }));
vi.mock("server-only", () => ({}));
vi.mock("~/server/views/downloads", () => import("./downloads"));
vi.mock("~/trpc/server", () => ({ api: async () => visitor.caller }));

/** One TCP throughput run of the example bundle's scenario, in a campaign, from a source of its own. */
const run = (runAt: string, campaign: string, title: string, value: number) =>
  JSON.stringify({
    ...exampleBundle(),
    runAt,
    campaign,
    source: { title },
    results: [{ metric: "tcp.throughput", unit: "Gbit/s", value, params: { path: "pod-pod", streams: 1 } }],
  });

describe("a scenario's runs in its answer and its downloads", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let scenarioId = "";
  const params = { path: "pod-pod", streams: 1 };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    const { id: workspaceId } = await ensureDefaultWorkspace(db);
    for (const text of [
      run("2026-01-01T00:00:00Z", "january", "January", 9.0),
      run("2026-02-01T00:00:00Z", "february", "February", 9.4),
      run("2026-02-02T00:00:00Z", "february", "February", 9.6),
    ]) {
      const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text });
      if (!outcome.ok) throw new Error(JSON.stringify(outcome));
      scenarioId = outcome.stored.scenarioId;
    }
    visitor.caller = createCaller({ db, access: await accessFor(db, null) });
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  const rowOf = (view: { groups: { metric: string; rows: unknown[] }[] }) =>
    view.groups.find((g) => g.metric === "tcp.throughput")?.rows[0] as Record<string, unknown> & {
      runs: Record<string, unknown>[];
      history: Record<string, unknown>[];
    };

  it("answers each run once, the newest first, without its row's or bundle's fields", async () => {
    const caller = visitor.caller as ReturnType<typeof createCaller>;
    const row = rowOf(await caller.scenarios.byId({ id: scenarioId }));
    expect("current" in row).toBe(false);
    expect(row.runs.map((r) => r.value)).toEqual([9.6, 9.4]);
    expect(row.history.map((r) => r.value)).toEqual([9.0]);
    for (const key of ["scenarioId", "metric", "params", "paramsKey", "sourceTitle", "sourceUrl"]) {
      expect(row.runs.some((r) => key in r)).toBe(false);
    }
  });

  it("gives every run whole in figures.json, and the newest as `current`", async () => {
    const res = await jsonRoute(new Request("http://web.example/"), { params: Promise.resolve({ id: scenarioId }) });
    const row = rowOf(await res.json());
    const whole = (value: number, title: string, campaign: string) =>
      expect.objectContaining({
        scenarioId,
        metric: "tcp.throughput",
        params,
        paramsKey: '{"path":"pod-pod","streams":1}',
        value,
        unit: "Gbit/s",
        sourceTitle: title,
        sourceUrl: null,
        campaign,
      });
    expect(row.current).toEqual(row.runs[0]);
    expect(row.runs).toEqual([whole(9.6, "February", "february"), whole(9.4, "February", "february")]);
    expect(row.history).toEqual([whole(9.0, "January", "january")]);
  });

  it("writes one CSV line per run, the latest campaign's marked", async () => {
    const res = await csvRoute(new Request("http://web.example/"), { params: Promise.resolve({ id: scenarioId }) });
    const lines = (await res.text()).trim().split(/\r?\n/);
    const header = lines[0]?.split(",") ?? [];
    const cells = lines.slice(1).map((l) => l.match(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)?.map((c) => c.replace(/,$/, "")));
    const column = (name: string) => cells.map((c) => c?.[header.indexOf(name)]);
    expect(column("value")).toEqual(["9.6", "9.4", "9"]);
    expect(column("latest_campaign")).toEqual(["yes", "yes", "no"]);
    expect(column("metric")).toEqual(["tcp.throughput", "tcp.throughput", "tcp.throughput"]);
    expect(column("params")).toEqual(Array(3).fill('"{""path"":""pod-pod"",""streams"":1}"'));
    expect(column("source_title")).toEqual(["February", "February", "January"]);
  });
});
