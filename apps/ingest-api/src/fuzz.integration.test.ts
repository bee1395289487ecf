/**
 * Property-based fuzzing of the ingest API over real HTTP and a real PostgreSQL (fast-check): bad
 * input gets a 4xx with the error shape, never a 5xx, and writes nothing; good input is stored as
 * sent. POST /v1/bundles gets arbitrary JSON values, the example bundle mutated (fields removed,
 * wrong types, huge, NaN-like and negative numbers, unicode and markup, extra keys, thousands of
 * results) and arbitrary text under arbitrary content types; POST /v1/import arbitrary bytes, file
 * names, content types and environments. Afterwards PostgreSQL must hold no partial write.
 *
 * FUZZ_RUNS sets the runs of each property (default 40; `npm run fuzz` runs 2000 with drawn seeds);
 * `npm test` replays a fixed seed (@cnibench/test-support/fuzz). A failure prints fast-check's seed
 * and path: FUZZ_SEED=<seed> FUZZ_PATH=<path> replays exactly that counterexample.
 */

import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle, iperf3Fixture } from "@cnibench/test-support/fixtures";
import { fuzzBanner, fuzzTimeout, put, fuzzSettings as settings } from "@cnibench/test-support/fuzz";
import { markup, sql, unicode } from "@cnibench/test-support/hostile";
import { integrityProblems, rowCounts, startIngest } from "@cnibench/test-support/ingest";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

console.info(fuzzBanner);
const timeout = fuzzTimeout(120_000, 1_000);

type Json = Record<string, unknown>;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;

beforeAll(async () => {
  database = await freshDatabase();
  // Thousands of requests a minute from one token: the rate limit is not under test here.
  api = await startIngest(database.url, { rateLimitPerMinute: 1_000_000_000 });
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

const bundleStatuses = [200, 201, 400, 413, 415, 422];

/**
 * Sends one request and checks the answer: an allowed status, a JSON object, `error` and `message`
 * on a 4xx, and for a refusal no row written. Returns the status and the parsed answer.
 */
async function send(
  path: string,
  init: { headers: Record<string, string>; body: Uint8Array | string },
  allowed: number[],
): Promise<{ status: number; answer: Json }> {
  const before = await rowCounts(api.db);
  const res = await fetch(`${api.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.token}`, ...init.headers },
    body: typeof init.body === "string" ? init.body : Buffer.from(init.body),
  });
  const text = await res.text();
  expect(allowed, `status ${res.status}: ${text.slice(0, 500)}`).toContain(res.status);
  const answer = JSON.parse(text) as unknown;
  expect(typeof answer === "object" && answer !== null && !Array.isArray(answer), "a JSON object").toBe(true);
  const body = answer as Json;
  if (res.status >= 400) {
    expect(typeof body.error, text.slice(0, 300)).toBe("string");
    expect(typeof body.message, text.slice(0, 300)).toBe("string");
    expect(await rowCounts(api.db), "a refusal writes nothing").toEqual(before);
  }
  return { status: res.status, answer: body };
}

/** An accepted upload is stored as sent: GET gives back the same document and every result. */
async function expectStoredAsSent(answer: Json, sent: string): Promise<void> {
  const read = await fetch(`${api.base}/v1/bundles/${answer.id}`);
  expect(read.status).toBe(200);
  const stored = (await read.json()) as Json & { bundle: unknown; measurements: unknown[] };
  // Through JSON once more, as the answer went: -0 reads back as 0.
  const expected = JSON.parse(JSON.stringify(JSON.parse(sent))) as { results: unknown[] };
  expect(stored.bundle).toEqual(expected);
  expect(stored.measurements).toHaveLength(expected.results.length);
  expect(answer.measurementCount).toBe(expected.results.length);
}

async function postBundle(body: string | Uint8Array, contentType = "application/json") {
  return send("/v1/bundles", { headers: { "content-type": contentType }, body }, bundleStatuses);
}

// ---------------------------------------------------------------------------------------------
// Mutations of the example bundle

/** Raw JSON text where JSON.stringify cannot write it: a marker string replaced after stringify. */
const RAW = "\u0001raw:";
const rawNumber = fc
  .constantFrom(
    "1e400",
    "-1e400",
    "NaN",
    "Infinity",
    "-0",
    "1e-400",
    "18446744073709551616",
    "-9007199254740993",
    "1E2",
  )
  .map((t) => `${RAW}${t}`);
const nastyNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1e308, -1e308, Number.MIN_VALUE, 2 ** 31, 2 ** 53, 1e21, 0.1, 1_000_001),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const nastyString = fc.oneof(
  fc.constantFrom(
    ...Object.values(markup),
    ...Object.values(sql),
    ...Object.values(unicode),
    "",
    " ",
    "unknown",
    "NaN",
    "1e400",
    "-0",
    "\u0000",
    "a\ud800b",
    "x".repeat(1000),
    "2026-02-30",
    "0000-01-01",
    "9999-12-31T23:59:59+14:00",
    "https://example.com/<script>",
    "javascript:alert(1)",
  ),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);
const anyValue = fc.oneof(
  rawNumber,
  nastyNumber,
  nastyString,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, false, [], {}),
);
const nastyKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "",
    " ",
    "a.b",
    "$where",
    sql.orTrue,
    markup.script,
  ),
  fc.string({ maxLength: 12 }),
);

type Op =
  | { kind: "remove"; at: number }
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "extraKey"; at: number; key: string; value: unknown }
  | { kind: "manyResults"; count: number; distinct: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: anyValue }), weight: 5 },
  {
    arbitrary: fc.record({ kind: fc.constant("extraKey" as const), at: fc.nat(), key: nastyKey, value: anyValue }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("manyResults" as const),
      count: fc.integer({ min: 1000, max: 4000 }),
      distinct: fc.boolean(),
    }),
    weight: 1,
  },
);

type Slot = { holder: Json | unknown[]; key: string | number };

function slots(doc: unknown): Slot[] {
  const out: Slot[] = [];
  const queue: unknown[] = [doc];
  while (queue.length > 0) {
    const value = queue.shift();
    if (typeof value !== "object" || value === null) continue;
    for (const [key, child] of Array.isArray(value) ? [...value.entries()] : Object.entries(value)) {
      out.push({ holder: value as Slot["holder"], key });
      queue.push(child);
    }
  }
  return out;
}

/** The example bundle (made unique by `version`) changed by the operations, as JSON text. */
function mutatedBundle(version: string, ops: Op[]): string {
  const doc = { ...exampleBundle(), collector: { name: "fuzz", version } } as Json & { results: Json[] };
  for (const o of ops) {
    if (o.kind === "manyResults") {
      const template = doc.results?.[0] ?? { metric: "http.rps", unit: "req/s", value: 1 };
      put(
        doc,
        "results",
        Array.from({ length: o.count }, (_, i) => ({ ...template, ...(o.distinct ? { params: { i } } : {}) })),
      );
      continue;
    }
    const all = slots(doc);
    if (all.length === 0) continue;
    const slot = all[o.at % all.length]!;
    if (o.kind === "remove") {
      if (Array.isArray(slot.holder)) slot.holder.splice(slot.key as number, 1);
      else delete slot.holder[slot.key as string];
    } else if (o.kind === "replace") put(slot.holder, slot.key, o.value);
    else {
      const target = (slot.holder as Json)[slot.key as string];
      if (typeof target === "object" && target !== null && !Array.isArray(target)) put(target as Json, o.key, o.value);
      else put(doc, o.key, o.value);
    }
  }
  return JSON.stringify(doc).replace(/"\\u0001raw:([^"]*)"/g, "$1");
}

/** Header values fetch can send: printable ASCII. */
const headerText = (maxLength: number) =>
  fc.string({ unit: "binary-ascii", maxLength }).map((s) => s.replace(/[^\x20-\x7e]/g, "").trim());

const contentType = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=latin1",
    "application/json;charset=utf-16",
    "APPLICATION/JSON",
    "application/vnd.cnibench+json",
    "application/jsonx",
    "text/plain",
    "text/html; charset=utf-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "application/zip",
    "application/gzip",
    "application/x-tar",
    "application/yaml",
    "*/*",
  ),
  headerText(40),
);

// ---------------------------------------------------------------------------------------------
// Properties

describe("POST /v1/bundles under fuzzing: 4xx or stored as sent, never 5xx", () => {
  it(
    "arbitrary JSON values",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
          const text = JSON.stringify(value) ?? "null";
          const { status, answer } = await postBundle(text);
          if (status < 300) await expectStoredAsSent(answer, text);
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "the example bundle, mutated",
    async () => {
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(fc.uuid(), fc.array(op, { maxLength: 4 }), async (version, ops) => {
          const text = mutatedBundle(version, ops);
          const { status, answer } = await postBundle(text);
          if (status < 300) {
            accepted += 1;
            await expectStoredAsSent(answer, text);
          }
        }),
        // The unchanged bundle first: the property must reach the store, not only the validator.
        { ...settings, examples: [["00000000-0000-4000-8000-000000000000", []]] },
      );
      if (!process.env.FUZZ_PATH) expect(accepted).toBeGreaterThan(0);
    },
    timeout,
  );

  it(
    "arbitrary text and bytes under arbitrary content types",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ unit: "binary", maxLength: 2000 }),
            fc.uint8Array({ maxLength: 2000 }),
            fc.uuid().map((v) => mutatedBundle(v, [])),
          ),
          contentType,
          async (body, type) => {
            await postBundle(body, type);
          },
        ),
        settings,
      );
    },
    timeout,
  );
});

describe("POST /v1/import under fuzzing: never 5xx", () => {
  const importStatuses = [200, 201, 400, 413, 415, 422];
  const queryKey = fc.oneof(
    fc.constantFrom(
      "format",
      "filename",
      "setting",
      "param",
      "cluster",
      "provider",
      "sku",
      "kernel",
      "cni",
      "mode",
      "label",
      "nodeCount",
      "vcpus",
      "sourceUrl",
      "workspace",
      "__proto__",
    ),
    fc.string({ maxLength: 8 }),
  );
  const queryValue = fc.oneof(
    nastyString,
    fc.constantFrom(
      "auto",
      "bundle",
      "tke",
      "eks",
      "knb",
      "iperf3",
      "fortio",
      "netperf",
      "a=b",
      "=",
      "k=",
      "1e400",
      "-1",
    ),
  );
  // Described rather than built, so that a counterexample prints short: "iperf3", not its 10 KiB.
  const body = fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 4096 }),
    fc.string({ unit: "binary", minLength: 1, maxLength: 2000 }),
    fc.constant("iperf3 fixture" as const),
    fc.record({ bundle: fc.uuid(), ops: fc.array(op, { maxLength: 2 }) }),
  );
  const bytesOf = (b: Uint8Array | string | { bundle: string; ops: Op[] }) =>
    b instanceof Uint8Array
      ? b
      : b === "iperf3 fixture"
        ? iperf3Fixture()
        : new TextEncoder().encode(typeof b === "string" ? b : mutatedBundle(b.bundle, b.ops));

  it(
    "arbitrary bytes, file names, content types and environments",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          body,
          contentType,
          fc.array(fc.tuple(queryKey, queryValue), { maxLength: 8 }),
          fc.option(headerText(60), { nil: undefined }),
          fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
          async (described, type, query, disposition, environment) => {
            const params = new URLSearchParams();
            for (const [k, v] of query) params.append(k, v);
            // Header values must be printable ASCII: JSON with \u escapes for the rest.
            // (Cut at 4,000 characters: Node refuses headers above 16 KiB before any route runs.)
            const envHeader =
              environment === undefined
                ? undefined
                : JSON.stringify(environment)
                    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
                    .slice(0, 4000);
            const { status, answer } = await send(
              `/v1/import?${params}`,
              {
                headers: {
                  "content-type": type,
                  ...(disposition === undefined
                    ? {}
                    : { "content-disposition": `attachment; filename="${disposition}"` }),
                  ...(envHeader === undefined ? {} : { "x-cnibench-environment": envHeader }),
                },
                body: bytesOf(described),
              },
              // 403: ?workspace= naming a workspace other than the token's (README, "Uploading results").
              query.some(([k, v]) => k === "workspace" && v !== "public") ? [...importStatuses, 403] : importStatuses,
            );
            if (status < 300) expect(Array.isArray(answer.bundles) && answer.bundles.length > 0).toBe(true);
          },
        ),
        settings,
      );
    },
    timeout,
  );
});

describe("after the fuzzing", () => {
  it("no partial write: measurement and bundle counts match their rows", async () => {
    expect(await integrityProblems(api.db)).toEqual([]);
  });
});
