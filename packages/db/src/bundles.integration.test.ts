// storeBundles writes a batch of bundles in statements of up to 500 (bundles.ts): what a bundle stored
// alone would have done must hold for each bundle of a batch — the same content again is the first
// bundle, new scenarios are made, counts, latest run, sources and the last label given land on the
// scenario once, and the current figure is the latest run's. Expected values are counted from the
// inputs in the test, not read back from the statement.
import { readStorableBundle } from "@cnibench/schema";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StoreBundleInput, storeBundle, storeBundles } from "./bundles.ts";
import { createDb, type Db } from "./client.ts";
import { latestFigures } from "./measurements.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

describe("storeBundles in batches", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;

  /** A bundle of one TCP figure in the scenario its region names; `n` makes its content its own. */
  const input = (region: string, n: number, extra: { label?: string; title?: string; day?: number } = {}) => {
    const example = exampleBundle();
    const read = readStorableBundle({
      bundle: {
        ...example,
        cluster: { ...(example.cluster as object), region },
        cni: { ...(example.cni as object), ...(extra.label ? { label: extra.label } : {}) },
        source: { title: extra.title ?? "batch test" },
        runAt: `2026-10-01T00:00:00Z`.replace("01", String(extra.day ?? 1).padStart(2, "0")),
        results: [{ metric: "tcp.throughput", unit: "Gbit/s", value: 9 + n / 1000, params: { streams: 1 } }],
      },
    });
    if (!read.ok) throw new Error(JSON.stringify(read));
    const { raw, contentHash, bundle, warnings } = read;
    return { workspaceId, tokenId: null, raw, contentHash, bundle, warnings } satisfies StoreBundleInput;
  };
  const scenario = (id: string) =>
    db.scenario.findUniqueOrThrow({
      where: { id },
      select: { bundleCount: true, label: true, sources: true, lastRunAt: true },
    });

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

  it("stores 1,200 bundles over five statements into new and existing scenarios, repeats as the first", async () => {
    const before = await storeBundle(db, input("zz-old", 0, { title: "older" }));
    const inputs = Array.from({ length: 1_200 }, (_, n) =>
      input(n % 3 === 0 ? "zz-old" : `zz-new-${n % 3}`, n + 1, { day: 1 + (n % 28), title: n % 2 ? "odd" : "even" }),
    );
    // The same content twice (a label is not content), and the first bundle again.
    inputs.push(input("zz-new-1", 2, { label: "Renamed", day: 2, title: "odd" }));
    inputs.push(input("zz-old", 0, { title: "older" }));
    const stored = await storeBundles(db, inputs);

    expect(stored).toHaveLength(1_202);
    expect(stored.filter((s) => s.created)).toHaveLength(1_200);
    expect(stored[1_200]).toEqual({ ...stored[1]!, created: false });
    expect(stored[1_201]).toEqual({ ...before, created: false });
    const scenarios = new Map<string, number>();
    for (const s of stored.slice(0, 1_200)) scenarios.set(s.scenarioId, (scenarios.get(s.scenarioId) ?? 0) + 1);
    expect(scenarios.size).toBe(3);
    expect(scenarios.get(before.scenarioId)).toBe(400);

    const old = await scenario(before.scenarioId);
    expect(old.bundleCount).toBe(401);
    expect(old.sources).toEqual(["even", "odd", "older"]);
    expect(old.lastRunAt?.toISOString()).toBe("2026-10-28T00:00:00.000Z");
    expect((await scenario(stored[1]!.scenarioId)).label).toBe("Renamed");
    expect(await db.measurement.count()).toBe(1_201);

    // The current figure is a latest run's: one of the old scenario's bundles of day 28 (they tie).
    const [figure] = await latestFigures(db, { scenarios: [before.scenarioId], metrics: ["tcp.throughput"] });
    const day28 = inputs
      .slice(0, 1_200)
      .flatMap((_, n) => (n % 3 === 0 && 1 + (n % 28) === 28 ? [9 + (n + 1) / 1000] : []));
    expect(day28).toContain(figure?.value);
  });
  it("stores every field of every measurement of a batch as the bundle gives it", async () => {
    // Each kind of figure the columns carry: ranges (low and high) beside plain figures (NULL), no
    // samples, samples of every length, summaries with and without their spread, clients.
    const result = (i: number) => ({
      metric: i % 5 === 4 ? "tcp.rr.latency" : "tcp.throughput",
      unit: i % 5 === 4 ? "ms" : i % 2 ? "Mbit/s" : "Gbit/s",
      value: 100 + i / 8,
      params: { streams: i % 50, note: i % 7 ? "plain" : 'quote " and \\ back\\slash, {brace}' },
      ...(i % 6 === 1 ? { qualifier: "range", low: 90 + i / 8, high: 110 + i / 8 } : {}),
      ...(i % 6 === 2 ? { qualifier: "at-least" } : {}),
      ...(i % 4 === 0 ? {} : { samples: Array.from({ length: i % 4 === 1 ? 0 : (i % 9) + 1 }, (_, k) => 99 + k / 3) }),
      ...(i % 10 === 3 ? { summary: { mean: 100.5, sd: 2.25, ci95: [98, 103], n: 5, of: "runs" } } : {}),
      ...(i % 10 === 7 ? { summary: { mean: 101.5, n: 3, of: "clients" } } : {}),
      ...(i % 8 === 5 ? { samplesAre: "clients" } : {}),
    });
    const bundleOf = (region: string, results: ReturnType<typeof result>[]) => {
      const read = readStorableBundle({
        bundle: {
          ...exampleBundle(),
          cluster: { ...(exampleBundle().cluster as object), region },
          // Kept verbatim: quotes, backslashes, braces and characters beyond ASCII in the text.
          source: { title: 'Größe "quoted" \\ {brace} 中文 😀' },
          results,
        },
      });
      if (!read.ok) throw new Error(JSON.stringify(read));
      const { raw, contentHash, bundle, warnings } = read;
      return { workspaceId, tokenId: null, raw, contentHash, bundle, warnings } satisfies StoreBundleInput;
    };
    const inputs = [
      bundleOf(
        "zz-fields",
        Array.from({ length: 2_000 }, (_, i) => result(i)),
      ),
      bundleOf("zz-fields", [result(4), result(1)]),
      bundleOf("zz-fields-other", [result(0)]),
      bundleOf("zz-fields", [result(4), result(1)]),
    ];
    const stored = await storeBundles(db, inputs);
    expect(stored.map((s) => s.created)).toEqual([true, true, true, false]);
    expect(stored[3]!.id).toBe(stored[1]!.id);

    for (const [n, input] of inputs.slice(0, 3).entries()) {
      const { rows } = await db.readPool.query(
        `SELECT position, metric, params, "paramsKey", value, unit, low, high, samples, "publishedValue", "publishedUnit",
          qualifier::text, aggregate::text, better::text, "summaryMean", "summarySd", "summaryLow", "summaryHigh",
          "summaryN", "summaryOf"::text, "samplesAre"::text, campaign
        FROM "Measurement" WHERE "bundleId" = $1 ORDER BY position`,
        [stored[n]!.id],
      );
      const expected = input.bundle.measurements.map((m) => ({
        position: m.position,
        metric: m.metric,
        params: m.params,
        paramsKey: m.paramsKey,
        value: m.value,
        unit: m.unit,
        low: m.low,
        high: m.high,
        samples: m.samples,
        publishedValue: m.publishedValue,
        publishedUnit: m.publishedUnit,
        qualifier: m.qualifier,
        aggregate: m.aggregate,
        better: m.better,
        summaryMean: m.summary?.mean ?? null,
        summarySd: m.summary?.sd ?? null,
        summaryLow: m.summary?.ci95?.[0] ?? null,
        summaryHigh: m.summary?.ci95?.[1] ?? null,
        summaryN: m.summary?.n ?? null,
        summaryOf: m.summary?.of ?? null,
        samplesAre: m.samplesAre ?? null,
        campaign: stored[n]!.id,
      }));
      expect(rows).toEqual(expected);
      const bundle = await db.readPool.query(`SELECT raw FROM "Bundle" WHERE id = $1`, [stored[n]!.id]);
      expect(bundle.rows[0].raw).toBe(input.raw);
    }
    // The inputs hold every case at least once.
    const all = inputs[0]!.bundle.measurements;
    expect(all.some((m) => m.low !== null) && all.some((m) => m.low === null)).toBe(true);
    expect(all.some((m) => m.samples.length === 0) && all.some((m) => m.samples.length === 9)).toBe(true);
    expect(all.some((m) => m.summary?.sd === undefined && m.summary) && all.some((m) => m.summary?.ci95)).toBe(true);
  });

  it("splits a batch into statements of at most 4,000 measurements, in one transaction", async () => {
    const big = (n: number) => {
      const one = input("zz-big", n);
      const results = Array.from({ length: 1_500 }, (_, i) => ({
        metric: "tcp.throughput",
        unit: "Gbit/s",
        value: n + i / 1000,
        params: { streams: i },
      }));
      const read = readStorableBundle({ bundle: { ...JSON.parse(one.raw), results } });
      if (!read.ok) throw new Error(JSON.stringify(read));
      return { ...one, raw: read.raw, contentHash: read.contentHash, bundle: read.bundle };
    };
    const inputs = [big(1), big(2), big(3), big(1)];
    // Each store statement's measurements, read off its measurementCount column ($17): a transaction's
    // statements go through its pg.Client.
    const sizes: number[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      const c = config as { name?: string; values: unknown[] };
      if (c?.name === "cnibench-store-bundles") sizes.push((c.values[16] as number[]).reduce((a, b) => a + b, 0));
      return (original as (...args: unknown[]) => unknown).call(this, config, ...rest);
    } as typeof original;
    try {
      const stored = await storeBundles(db, inputs);
      expect(stored.map((s) => s.created)).toEqual([true, true, true, false]);
      expect(stored[3]).toEqual({ ...stored[0]!, created: false });
      expect(await db.measurement.count({ where: { bundleId: { in: stored.map((s) => s.id) } } })).toBe(4_500);
      expect((await scenario(stored[0]!.scenarioId)).bundleCount).toBe(3);
    } finally {
      pg.Client.prototype.query = original;
    }
    // 6,000 measurements given (the repeat's included): more than one statement, none above 4,000.
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4_000);
  });

  it("stores uploads arriving together in shared statements, each answered as if alone", async () => {
    const first = await storeBundle(db, input("zz-group-a", 0));
    await storeBundle(db, input("zz-group-b", 0));
    const statements: string[] = [];
    const query = db.readPool.query.bind(db.readPool);
    db.readPool.query = ((config: { name?: string }, ...rest: unknown[]) => {
      if (config?.name === "cnibench-store-bundles") statements.push(config.name);
      return (query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as typeof db.readPool.query;
    try {
      const inputs = Array.from({ length: 12 }, (_, n) => input(n % 2 ? "zz-group-a" : "zz-group-b", 100 + n));
      inputs.push(input("zz-group-a", 0)); // the first upload again
      inputs.push(input("zz-group-new", 1)); // a scenario not stored yet
      const stored = await Promise.all(inputs.map((i) => storeBundle(db, i)));

      // Fewer statements than uploads: the uploads that waited for a turn shared one.
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.length).toBeLessThan(inputs.length);
      expect(stored.slice(0, 12).every((s) => s.created)).toBe(true);
      expect(stored[12]).toEqual({ ...first, created: false });
      expect(stored[13]).toMatchObject({ created: true, measurementCount: 1 });
      const values = await db.measurement.findMany({
        where: { bundleId: { in: stored.map((s) => s.id) } },
        select: { value: true },
      });
      expect(values.map((v) => v.value).sort()).toEqual(
        [...Array.from({ length: 12 }, (_, n) => 9 + (100 + n) / 1000), 9, 9 + 1 / 1000].sort(),
      );

      // One upload its statement refuses (a token that does not exist) fails alone.
      const refused = { ...input("zz-group-b", 999), tokenId: "no-such-token" };
      const outcomes = await Promise.allSettled(
        [input("zz-group-a", 500), refused, input("zz-group-b", 501), input("zz-group-a", 502)].map((i) =>
          storeBundle(db, i),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
      expect(outcomes[1]).toMatchObject({ reason: { code: "23503" } });
    } finally {
      db.readPool.query = query;
    }
  });
});
