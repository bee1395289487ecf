/**
 * Property-based fuzzing of importFiles (fast-check). Whatever the bytes, for every format and
 * "auto": importFiles returns an outcome — ArchiveLimitError is the one documented throw — whose
 * reports add up, and every bundle in it passes the contract (as built, and after the JSON round
 * trip the API and the CLI put it through). Inputs: random strings, JSON values and bytes; real
 * fixtures mutated (slices cut, bytes flipped, values replaced by huge, negative and NaN-ish ones,
 * keys deleted); the TKE result directory mutated, loose and archived; hand-made tar and zip
 * archives with hostile names, types and size fields; hostile environments.
 *
 * FUZZ_RUNS sets the runs of each property (default 40; `npm run fuzz` runs 2000 with drawn seeds);
 * `npm test` replays a fixed seed (@cnibench/test-support/fuzz). A failure prints fast-check's seed
 * and path: FUZZ_SEED=<seed> FUZZ_PATH=<path> replays exactly that counterexample.
 * Bugs found here stay below as named regression tests.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parseBundle } from "@cnibench/schema";
import { concat, gzipOfZerosOneMember, tar, tarHeader, zipEntries, zipOfZeros } from "@cnibench/test-support/archives";
import { fixtureBytes, fixturesDir } from "@cnibench/test-support/fixtures";
import { fuzzBanner, fuzzTimeout, put, fuzzSettings as settings } from "@cnibench/test-support/fuzz";
import fc from "fast-check";
import { gunzipSync, gzipSync, strToU8 } from "fflate";
import { describe, expect, it, vi } from "vitest";
import { environmentFromJson, environmentFromStrings } from "./environment.ts";
import { importFiles } from "./import.ts";
import {
  ArchiveLimitError,
  type EnvironmentInput,
  type FormatChoice,
  formatNames,
  type ImportFile,
  type ImportOutcome,
} from "./types.ts";

console.info(fuzzBanner);

/**
 * Work the regressions below bound, counted rather than timed (a busy machine cannot fail a count):
 * the bytes fflate's streams inflate and the characters handed to the YAML parser.
 */
const work = vi.hoisted(() => ({ inflated: 0, yaml: 0 }));
vi.mock("fflate", async (importOriginal) => {
  const fflate = await importOriginal<typeof import("fflate")>();
  type Stream = { ondata: import("fflate").FlateStreamHandler };
  // biome-ignore lint/suspicious/noExplicitAny: TypeScript wants a mixin's constructor to take any[]
  const counted = <S extends new (...args: any[]) => Stream>(Base: S) =>
    class extends Base {
      // biome-ignore lint/suspicious/noExplicitAny: as above
      constructor(...args: any[]) {
        super(...args);
        const ondata = this.ondata;
        this.ondata = (chunk, final) => {
          work.inflated += chunk.length;
          ondata(chunk, final);
        };
      }
    };
  return { ...fflate, Gunzip: counted(fflate.Gunzip), Inflate: counted(fflate.Inflate) };
});
vi.mock("yaml", async (importOriginal) => {
  const yaml = await importOriginal<typeof import("yaml")>();
  const parse = (text: string, options?: Parameters<typeof yaml.parseDocument>[1]) => {
    work.yaml += text.length;
    return yaml.parse(text, options);
  };
  return { ...yaml, parse };
});

/** The process's own CPU milliseconds for `run`, the least of three: other processes add little to it. */
function cpuMilliseconds(run: () => void): number {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const before = process.cpuUsage();
    run();
    const { user, system } = process.cpuUsage(before);
    least = Math.min(least, (user + system) / 1000);
  }
  return least;
}

/**
 * The work of `run(size)` grows linearly with its input: 8 times the input may cost at most 24 times
 * the CPU time (linear work costs about 8 times, a quadratic step 64). JavaScript's regular
 * expressions count no steps, so this compares CPU time with itself rather than with a budget in
 * milliseconds, which a loaded machine missed while an idle one met it.
 */
function expectLinear(run: (size: number) => void, small: number, what: string) {
  run(small); // compiled and warm before either is measured
  const once = cpuMilliseconds(() => run(small));
  const eightfold = cpuMilliseconds(() => run(8 * small));
  // A floor of 1 ms: below it the clock's grain, not the work, makes the ratio.
  expect(eightfold / Math.max(once, 1), `${what}: CPU ms ${once.toFixed(1)} → ${eightfold.toFixed(1)}`).toBeLessThan(
    24,
  );
}
const timeout = fuzzTimeout(30_000, 250);

const formats: FormatChoice[] = ["auto", ...formatNames];
const environment: EnvironmentInput = {
  cluster: "fuzz",
  provider: "on-prem",
  sku: "r6i.2xlarge",
  kernel: "6.1.0",
  cni: "cilium",
  mode: "native",
};
// Small limits: nothing generated here should need more, and a runaway expansion stays cheap.
const limits = { maxEntries: 400, maxUnpackedBytes: 8 * 1024 * 1024 };

/**
 * The property itself: an outcome (or the documented limit error) whose bundles pass the contract.
 * With the clean environment above, a file may fail for what it says of its environment, but the
 * figures a parser reads must never be what breaks the contract (e.g. a "1e400" read as Infinity).
 */
function importChecked(files: ImportFile[], format: FormatChoice, env: EnvironmentInput = environment) {
  let outcome: ImportOutcome;
  try {
    outcome = importFiles(files, env, { format, limits });
  } catch (error) {
    if (error instanceof ArchiveLimitError) return undefined;
    throw error;
  }
  for (const b of outcome.bundles) {
    const parsed = parseBundle(b.bundle);
    expect(parsed.ok ? [] : parsed.issues, `${format} ${b.file}: the bundle breaks the contract`).toEqual([]);
    // What the API stores and the CLI uploads: the bundle as JSON text, parsed again.
    const again = parseBundle(JSON.parse(JSON.stringify(b.bundle)));
    expect(again.ok ? [] : again.issues, `${format} ${b.file}: the bundle breaks the contract as JSON`).toEqual([]);
  }
  expect(
    outcome.files.reduce((n, f) => n + f.bundles, 0),
    "reports count every bundle",
  ).toBe(outcome.bundles.length);
  for (const f of outcome.files) {
    expect(["imported", "skipped", "failed"]).toContain(f.status);
    if (f.status !== "imported")
      expect(typeof f.error === "string" && f.error !== "", `${f.file}: says why`).toBe(true);
    if (env === environment) {
      // A figure the file itself states as impossible (a negative rate) is refused, as from any upload.
      const figures = (f.issues ?? []).filter(
        (i) => i.path.startsWith("results") && !/cannot be negative|cannot exceed/.test(i.message),
      );
      expect(figures, `${format} ${f.file}: a parser built results that break the contract`).toEqual([]);
    }
  }
  return outcome;
}

const everyFormat = (files: ImportFile[], env?: EnvironmentInput) => {
  for (const format of formats) importChecked(files, format, env);
};

// ---------------------------------------------------------------------------------------------
// Fixtures

const tkeDir = "synthetic/tke-benchmark-results-synthetic";

function walk(relative: string): string[] {
  return readdirSync(path.join(fixturesDir, relative))
    .sort()
    .flatMap((name) => {
      const child = path.join(relative, name);
      return statSync(path.join(fixturesDir, child)).isDirectory() ? walk(child) : [child];
    });
}

/** Every real and synthetic tool output, plus one raw file of each kind of the TKE directory. */
const singleFixtures = [
  ...walk(".").filter((f) => /\.(json|txt|ya?ml|csv)$/.test(f) && !f.startsWith(`${tkeDir}/`)),
  ...[
    "benchmark-summary.json",
    "context.yaml",
    "throughput/pod2pod_single_r1.json",
    "rps/svc_c64_r1.json",
    "latency/tcp_rr_r1.txt",
    "service-scale/ka_at_5000svc_r1.json",
    "service-scale/lb_entries_at_5000svc.txt",
    "resources/bpf_map_memory.json",
    "resources/cilium_throughput.csv",
    "resources/cilium_agent_proc_status.txt",
  ].map((f) => `${tkeDir}/${f}`),
].map((relative) => ({ name: path.basename(relative), bytes: fixtureBytes(relative) }));

const iperf3 = singleFixtures.find((f) => f.name === "iperf3_tcp_1stream_k8s_pod_cloudpilot.json")!;

const tkeFiles: ImportFile[] = walk(tkeDir).map((relative) => ({
  name: `run/${path.relative(tkeDir, relative)}`,
  bytes: fixtureBytes(relative),
}));
const tkeTar = gunzipSync(fixtureBytes(`${tkeDir}.tar.gz`));

// ---------------------------------------------------------------------------------------------
// Mutations

/** Raw JSON text where JSON.stringify cannot write it (NaN, 1e400, -0…): a marker replaced after stringify. */
const RAW = "\u0001raw:";
const rawToken = fc
  .constantFrom("1e400", "-1e400", "NaN", "Infinity", "-Infinity", "-0", "1e-400", "18446744073709551616", "1E+2", "00")
  .map((t) => `${RAW}${t}`);
const nastyNumber = fc.constantFrom(
  1e308,
  -1e308,
  Number.MIN_VALUE,
  -0,
  0,
  -1,
  2 ** 53 + 2,
  1e21,
  1e-7,
  8.64e15, // beyond Date's range once read as epoch seconds
  -8.64e12,
  4294967296,
);
const nastyString = fc.constantFrom(
  "1e400",
  "-1e400",
  "NaN",
  "Infinity",
  "-0",
  "",
  " ",
  "N/A",
  "null",
  "0x10",
  "9007199254740993",
  "-1",
  "99999999999999999999999",
  "max",
  "1,000",
  "١٢٣",
  "unknown",
  "<script>alert(1)</script>",
  `'); DROP TABLE "Bundle";--`,
  "\u0000",
  "\ud800",
  "x".repeat(5000),
  "HTTP",
  "UDP",
  "Linux host 5.4.0 #1 SMP",
  "2026-02-30T25:00:00Z",
  "0000-01-01",
);
const nastyValue = fc.oneof(
  rawToken,
  nastyNumber,
  nastyString,
  fc.double(),
  fc.integer(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, false),
  fc.constant([]),
  fc.constant({}),
);

type JsonOp =
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "replaceKey"; key: number; value: unknown }
  | { kind: "delete"; key: number }
  | { kind: "insert"; at: number; key: string; value: unknown };

const jsonOp: fc.Arbitrary<JsonOp> = fc.oneof(
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: nastyValue }),
  // By key name: every "timesecs" or "bits_per_second" at once, whatever the size of the document.
  fc.record({ kind: fc.constant("replaceKey" as const), key: fc.nat(), value: nastyValue }),
  fc.record({ kind: fc.constant("delete" as const), key: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    key: fc.string({ maxLength: 12 }),
    value: nastyValue,
  }),
);

type Slot = { holder: Record<string, unknown> | unknown[]; key: string | number };

/** Every place in a JSON document a value sits (its parent and key), breadth first, at most 5,000. */
function slots(doc: unknown): Slot[] {
  const out: Slot[] = [];
  const queue: unknown[] = [doc];
  while (queue.length > 0 && out.length < 5000) {
    const value = queue.shift();
    if (typeof value !== "object" || value === null) continue;
    const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (const [key, child] of entries) {
      out.push({ holder: value as Slot["holder"], key });
      queue.push(child);
    }
  }
  return out;
}

function mutateJson(text: string, ops: JsonOp[]): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const op of ops) {
    const all = slots(doc);
    if (all.length === 0) break;
    // put copies: fast-check hands the same generated value to every run and shrink step.
    const set = (slot: Slot, value: unknown) => put(slot.holder, slot.key, value);
    if (op.kind === "replace") set(all[op.at % all.length]!, op.value);
    else if (op.kind === "replaceKey" || op.kind === "delete") {
      // Values are replaced where parsers read them, at the leaves; any key may go.
      const leaf = (s: Slot) => {
        const v = (s.holder as Record<string | number, unknown>)[s.key];
        return typeof v !== "object" || v === null;
      };
      const names = [
        ...new Set(all.flatMap((s) => (typeof s.key === "string" && (op.kind === "delete" || leaf(s)) ? [s.key] : []))),
      ].sort();
      if (names.length === 0) continue;
      const name = names[op.key % names.length];
      for (const slot of all) {
        if (slot.key !== name) continue;
        if (op.kind === "replaceKey") set(slot, op.value);
        else delete (slot.holder as Record<string, unknown>)[name];
      }
    } else {
      const slot = all[op.at % all.length]!;
      const target = (slot.holder as Record<string | number, unknown>)[slot.key];
      if (typeof target === "object" && target !== null && !Array.isArray(target)) put(target, op.key, op.value);
      else if (Array.isArray(target)) target.push(structuredClone(op.value));
    }
  }
  return JSON.stringify(doc).replace(/"\\u0001raw:([^"]*)"/g, "$1");
}

type ByteOp =
  | { kind: "cut"; at: number; length: number }
  | { kind: "truncate"; at: number }
  | { kind: "flip"; at: number; bit: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "number"; nth: number; text: string }
  | { kind: "line"; nth: number; twice: boolean };

const byteOp: fc.Arbitrary<ByteOp> = fc.oneof(
  fc.record({ kind: fc.constant("cut" as const), at: fc.nat(), length: fc.nat({ max: 200 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.oneof(
      nastyString,
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.constantFrom("\n", ",", "{", "]", '"'),
    ),
  }),
  fc.record({
    kind: fc.constant("number" as const),
    nth: fc.nat(),
    text: fc.constantFrom("1e400", "-1", "NaN", "-0", "99999999999999999999999", "0", "1e-400", "Infinity", "", "x"),
  }),
  fc.record({ kind: fc.constant("line" as const), nth: fc.nat(), twice: fc.boolean() }),
);

function mutateBytes(bytes: Uint8Array, ops: ByteOp[]): Uint8Array {
  let out = bytes;
  for (const op of ops) {
    const at = "at" in op ? op.at % (out.length + 1) : 0;
    if (op.kind === "cut") out = concat([out.subarray(0, at), out.subarray(at + op.length)]);
    else if (op.kind === "truncate") out = out.subarray(0, at);
    else if (op.kind === "flip") {
      if (out.length === 0) continue;
      out = out.slice();
      out[at % out.length]! ^= 1 << op.bit;
    } else if (op.kind === "insert") out = concat([out.subarray(0, at), strToU8(op.text), out.subarray(at)]);
    else {
      const text = new TextDecoder().decode(out);
      if (op.kind === "number") {
        const numbers = [...text.matchAll(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g)];
        if (numbers.length === 0) continue;
        const m = numbers[op.nth % numbers.length]!;
        out = strToU8(text.slice(0, m.index) + op.text + text.slice(m.index + m[0].length));
      } else {
        const lines = text.split("\n");
        const i = op.nth % lines.length;
        lines.splice(i, 1, ...(op.twice ? [lines[i]!, lines[i]!] : []));
        out = strToU8(lines.join("\n"));
      }
    }
  }
  return out;
}

/** A fixture's bytes, mutated structurally (JSON) and/or textually. */
const mutation = fc.record({
  json: fc.array(jsonOp, { maxLength: 4 }),
  bytes: fc.array(byteOp, { maxLength: 3 }),
});
type Mutation = { json: JsonOp[]; bytes: ByteOp[] };

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const structured = m.json.length > 0 ? mutateJson(new TextDecoder().decode(bytes), m.json) : undefined;
  return mutateBytes(structured === undefined ? bytes : strToU8(structured), m.bytes);
}

// ---------------------------------------------------------------------------------------------
// Inputs

const fileName = fc.oneof(
  fc.constantFrom(
    "upload",
    "result.json",
    "report.txt",
    "context.yaml",
    "benchmark-summary.json",
    "cnibench-environment.json",
    "results/scenario-a.json",
    "x.tar.gz",
  ),
  fc.string({ maxLength: 30 }),
);

const magic = fc.constantFrom(
  [],
  [0x1f, 0x8b],
  [0x1f, 0x8b, 0x08, 0x00],
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
  [0xef, 0xbb, 0xbf],
  [0x7b],
);

const tarEntry = fc.record(
  {
    name: fc.oneof(
      fc.constantFrom(
        "results/iperf3.json",
        "../x.json",
        "/abs.json",
        "C:\\x",
        "a\u0000b",
        "__MACOSX/._x",
        ".DS_Store",
        "./a/./b.json",
        "context.yaml",
        "benchmark-summary.json",
        "throughput/pod2pod_single_r1.json",
        "cnibench-environment.json",
      ),
      fc.string({ maxLength: 110 }),
    ),
    type: fc.constantFrom("0", "\u0000", "5", "L", "x", "g", "7", "1", "2", "K"),
    size: fc.oneof(
      fc.integer({ min: -5000, max: 5000 }).map((n) => `${n.toString(8)}\u0000`),
      fc.constantFrom("-1000\u0000", "77777777777\u0000", "NaN", " 1 ", "1e3", "\u0080"),
      fc.string({ maxLength: 12 }),
    ),
    lieAboutSize: fc.boolean(),
    prefix: fc.oneof(fc.constant(""), fc.constantFrom("..", "/", "a/b"), fc.string({ maxLength: 20 })),
    bytes: fc.oneof(
      fc.constantFrom(...singleFixtures.slice(0, 8).map((f) => f.bytes)),
      fc.uint8Array({ maxLength: 700 }),
      fc.string({ maxLength: 40 }).map((p) => strToU8(`${p.length + 20} path=${p}\n`)),
    ),
  },
  { requiredKeys: ["name", "type", "size", "lieAboutSize", "bytes"] },
);

type DirOp =
  | { kind: "drop"; at: number }
  | { kind: "mutate"; at: number; mutation: Mutation }
  | { kind: "add"; name: string; from: number; mutation: Mutation };

const roundFile = fc
  .tuple(
    fc.constantFrom(
      "throughput/pod2pod_single_r",
      "rps/svc_c64_r",
      "latency/tcp_rr_r",
      "latency/tcp_crr_r",
      "hubble/hubble_on.json#",
      "service-scale/ka_at_",
      "service-scale/rr_at_",
      "service-scale/lb_entries_at_",
    ),
    fc.oneof(fc.nat({ max: 40 }).map(String), fc.constantFrom("0", "007", "2147483648", "9".repeat(400))),
  )
  .map(([stem, n]) =>
    stem.endsWith("#")
      ? stem.slice(0, -1)
      : stem.startsWith("service-scale")
        ? `${stem}${n}svc${stem.includes("lb_") ? "" : "_r1"}.${stem.includes("ka_") ? "json" : "txt"}`
        : `${stem}${n}.${stem.startsWith("latency") ? "txt" : "json"}`,
  );

const dirOp: fc.Arbitrary<DirOp> = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("mutate" as const), at: fc.nat(), mutation }),
  fc.record({ kind: fc.constant("add" as const), name: roundFile, from: fc.nat(), mutation }),
);

function mutateDirectory(files: ImportFile[], ops: DirOp[]): ImportFile[] {
  const out = [...files];
  for (const op of ops) {
    if (op.kind === "drop") out.splice(op.at % out.length, 1);
    else if (op.kind === "mutate") {
      const i = op.at % out.length;
      out[i] = { name: out[i]!.name, bytes: mutate(out[i]!.bytes, op.mutation) };
    } else {
      out.push({ name: `run/${op.name}`, bytes: mutate(files[op.from % files.length]!.bytes, op.mutation) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Properties

describe("importFiles under fuzzing: an outcome, and only valid bundles", () => {
  it(
    "random strings, in every format",
    () => {
      fc.assert(
        fc.property(
          fileName,
          fc.oneof(fc.string({ unit: "binary", maxLength: 2000 }), fc.string({ maxLength: 400 })),
          (name, text) => everyFormat([{ name, bytes: strToU8(text) }]),
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "random JSON documents, in every format",
    () => {
      fc.assert(
        fc.property(fileName, fc.jsonValue({ maxDepth: 5, stringUnit: "binary" }), (name, doc) =>
          everyFormat([{ name, bytes: strToU8(JSON.stringify(doc) ?? "null") }]),
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "random bytes behind archive magic numbers, in every format",
    () => {
      fc.assert(
        fc.property(fileName, magic, fc.uint8Array({ maxLength: 4096 }), (name, head, tail) =>
          everyFormat([{ name, bytes: concat([new Uint8Array(head), tail]) }]),
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "real fixtures, mutated, in every format",
    () => {
      fc.assert(
        fc.property(fc.nat({ max: singleFixtures.length - 1 }), mutation, (i, m) => {
          const fixture = singleFixtures[i]!;
          everyFormat([{ name: fixture.name, bytes: mutate(fixture.bytes, m) }]);
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "every real fixture under the same mutation, detected (auto) and forced to a format",
    () => {
      // One mutation applied to all fixtures per run: a key like "timesecs" is hit wherever it occurs.
      fc.assert(
        fc.property(mutation, fc.constantFrom(...formats), (m, format) => {
          for (const fixture of singleFixtures) {
            const bytes = mutate(fixture.bytes, m);
            importChecked([{ name: fixture.name, bytes }], "auto");
            if (format !== "auto") importChecked([{ name: fixture.name, bytes }], format);
          }
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "the TKE result directory, mutated, loose or as a zip or a tar.gz",
    () => {
      fc.assert(
        fc.property(
          fc.array(dirOp, { minLength: 1, maxLength: 6 }),
          fc.constantFrom("loose", "zip", "tar.gz"),
          fc.constantFrom<FormatChoice>("auto", "tke", "iperf3"),
          (ops, packing, format) => {
            const files = mutateDirectory(tkeFiles, ops);
            const input =
              packing === "loose"
                ? files
                : packing === "zip"
                  ? [
                      {
                        name: "r.zip",
                        bytes: zipEntries(
                          files.map((f) => [f.name, f.bytes]),
                          0,
                        ),
                      },
                    ]
                  : [
                      {
                        name: "r.tar.gz",
                        bytes: gzipSync(tar(files.map((f) => ({ name: f.name, bytes: f.bytes }))), { level: 1 }),
                      },
                    ];
            importChecked(input, format);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "the TKE tar, its bytes flipped and cut, bare or gzipped",
    () => {
      fc.assert(
        fc.property(
          fc.array(byteOp, { minLength: 1, maxLength: 4 }),
          fc.boolean(),
          fc.constantFrom(...formats),
          (ops, gzip, format) => {
            const bytes = mutateBytes(tkeTar, ops);
            const file = { name: "r.tar", bytes: gzip ? gzipSync(bytes, { level: 1 }) : bytes };
            for (const f of new Set<FormatChoice>(["auto", "tke", format])) importChecked([file], f);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "hand-made tar archives: hostile names, types, prefixes and size fields",
    () => {
      fc.assert(
        fc.property(fc.array(tarEntry, { maxLength: 6 }), fc.boolean(), fc.nat(), (entries, gzip, cut) => {
          const blocks = entries.map((e) => {
            const header = tarHeader({ ...e, size: e.lieAboutSize ? e.size : undefined });
            const body = new Uint8Array(Math.ceil(e.bytes.length / 512) * 512);
            body.set(e.bytes);
            return concat([header, body]);
          });
          let bytes = concat([...blocks, new Uint8Array(1024)]);
          if (cut % 3 === 0) bytes = bytes.subarray(0, cut % (bytes.length + 1));
          everyFormat([{ name: "hand.tar", bytes: gzip ? gzipSync(bytes, { level: 1 }) : bytes }]);
        }),
        settings,
      );
    },
    timeout,
  );

  /**
   * Entries come as a dictionary (so names are distinct, "__proto__" included, as fast-check makes
   * them own keys) and go into the archive as a list of pairs: no object of the test's own can eat
   * a name before the importer sees it.
   */
  const zipProperty = (seen: (names: string[]) => void = () => {}) =>
    fc.property(
      fc.dictionary(
        tarEntry.map((e) => e.name),
        fc.oneof(
          fc.nat({ max: singleFixtures.length - 1 }).map((i) => singleFixtures[i]!.bytes),
          fc.uint8Array({ maxLength: 300 }),
        ),
        { maxKeys: 5 },
      ),
      fc.array(byteOp, { maxLength: 2 }),
      (entries, ops) => {
        const pairs = Object.entries(entries);
        seen(pairs.map(([name]) => name));
        everyFormat([{ name: "hand.zip", bytes: mutateBytes(zipEntries(pairs), ops) }]);
      },
    );

  it(
    "hand-made zip archives: hostile entry names, contents and flipped bytes",
    () => fc.assert(zipProperty(), settings),
    timeout,
  );

  it("an entry named __proto__ crashed the test's own zip builder (seed -31791305)", () => {
    // Replays the counterexample of issue 30: fflate's zipSync took the entries as an object.
    const names: string[][] = [];
    fc.assert(
      zipProperty((n) => names.push(n)),
      { seed: -31791305, path: "7:2:85:85:85:85:85:85", numRuns: 1 },
    );
    expect(names, "the replay still reaches an entry named __proto__").toContainEqual(["__proto__"]);
  });

  it(
    "hostile environments (query strings, header JSON, sidecar files) around real fixtures",
    () => {
      const text = fc.oneof(nastyString, fc.string({ unit: "binary", maxLength: 30 }));
      fc.assert(
        fc.property(
          fc.nat({ max: singleFixtures.length - 1 }),
          fc.dictionary(
            fc.constantFrom(
              "cluster",
              "provider",
              "sku",
              "kernel",
              "cni",
              "mode",
              "label",
              "region",
              "k8s",
              "os",
              "nodeCount",
              "vcpus",
              "sourceTitle",
              "sourceUrl",
              "kubeProxy",
            ),
            text,
          ),
          fc.array(fc.tuple(fc.constantFrom("param", "setting"), text, text), { maxLength: 3 }),
          fc.jsonValue({ maxDepth: 3 }),
          fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
          (i, scalars, pairs, header, sidecar) => {
            const query: Record<string, string[]> = { ...environment } as unknown as Record<string, string[]>;
            for (const [key, value] of Object.entries(scalars)) query[key] = [value];
            for (const [key, k, v] of pairs) query[key] = [...(query[key] ?? []), `${k}=${v}`];
            const fromQuery = environmentFromStrings(query).environment;
            const fromHeader = environmentFromJson(header).environment;
            const fixture = singleFixtures[i]!;
            const files = [
              { name: `dir/${fixture.name}`, bytes: fixture.bytes },
              ...(sidecar === undefined
                ? []
                : [{ name: "dir/cnibench-environment.json", bytes: strToU8(JSON.stringify(sidecar)) }]),
            ];
            everyFormat(files, { ...fromHeader, ...fromQuery });
          },
        ),
        settings,
      );
    },
    timeout,
  );
});

describe("importFiles in linear time", () => {
  // Pieces that make backtracking regular expressions go quadratic when repeated (runs of blank
  // lines, long lines of digits, markers without their closing part), behind headers that lead
  // detection into each parser. 32 KiB of them must cost at most about 8 times what 4 KiB cost; a
  // quadratic pattern took seconds on 64 KiB (and hours on a 5 MiB upload).
  const header = fc.constantFrom(
    "",
    "Generator : knb\n",
    "  generator: knb\n",
    '{"metadata": {"generator": "knb"},',
    "All done 5 calls (plus 0 warmup) 1.0 ms avg, 10.0 qps\n# target 50% 0.001\n",
    "MIGRATED TCP REQUEST/RESPONSE TEST\n",
    "Minimum Latency Microseconds,Throughput\n",
    "THROUGHPUT=1\n",
  );
  const piece = fc.constantFrom(
    "\n",
    " ",
    "\r\n",
    "\t",
    " \n",
    "1",
    "1.",
    " 1",
    ",",
    ":",
    "Ended after x",
    "All done 1 calls ",
    "fortio load",
    "$",
    "OMNI ",
    "-t ",
    "-d ",
    "Generator",
    "generator:",
    "Name",
    "VmRSS:",
    "a",
    "ab-",
    "@",
    ".",
    "[a, ",
    "a: 1\n",
    "- x\n",
  );
  it(
    "4 and 32 KiB of repeated pieces, in every format",
    () => {
      fc.assert(
        fc.property(
          header,
          fc.array(fc.tuple(piece, fc.nat({ max: 3 })), { minLength: 1, maxLength: 3 }),
          (head, parts) => {
            const unit = parts.map(([p, n]) => p.repeat(n + 1)).join("");
            const repeated = (size: number) => head + unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
            expectLinear(
              (size) => everyFormat([{ name: "repeated.txt", bytes: strToU8(repeated(size)) }]),
              4 * 1024,
              JSON.stringify(head + unit),
            );
          },
        ),
        { ...settings, numRuns: Math.max(10, Math.ceil(settings.numRuns / 4)) },
      );
    },
    // Seven imports in every format a run, about 1.4 s of CPU (the yaml package's share grows fastest).
    fuzzTimeout(60_000, 1_000),
  );

  it(
    "file patterns of the environment with many stars, against long names",
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom("*", "*a", "*a", "a", "b", "/", "."), { minLength: 1, maxLength: 30 }),
          fc.nat({ max: 200 }),
          (pattern, n) => {
            const env: EnvironmentInput = { ...environment, files: { [pattern.join("")]: { label: "matched" } } };
            expectLinear(
              (length) =>
                importChecked(
                  [{ name: `dir/${"a".repeat(length)}/${"a".repeat(length)}.json`, bytes: iperf3.bytes }],
                  "auto",
                  env,
                ),
              n + 1,
              pattern.join(""),
            );
          },
        ),
        settings,
      );
    },
    timeout,
  );
});

// ---------------------------------------------------------------------------------------------
// Regressions: what the fuzzing found, kept as it was found.

describe("regressions found by fuzzing", () => {
  const text = (name: string, content: string): ImportFile => ({ name, bytes: strToU8(content) });

  it("a tar header with a negative size field (checksum intact) looped for ever", () => {
    // Found by the hand-made tar property: size "-1000" (octal, -512) moved the reader back onto the
    // same header; a type "g" header is skipped without counting an entry, so nothing stopped it.
    const bytes = tar([{ name: "a.json", type: "g", size: "-1000\u0000" }]);
    const { files } = importChecked([{ name: "x.tar", bytes }], "auto")!;
    expect(files).toEqual([
      expect.objectContaining({ file: "x.tar", status: "failed", error: expect.stringMatching(/corrupt tar header/) }),
    ]);
  });

  it("an iperf3 timestamp beyond Date's range threw a RangeError out of importFiles", () => {
    // Found by the all-fixtures property: start.timestamp.timesecs = -8640000000000.001.
    const doc = JSON.parse(new TextDecoder().decode(iperf3.bytes));
    for (const timesecs of [-8640000000000.001, 8.64e15, 1e308, "99999999999999999999999"]) {
      doc.start.timestamp.timesecs = timesecs;
      const { bundles, files } = importChecked([text("iperf3.json", JSON.stringify(doc))], "auto")!;
      expect(bundles).toHaveLength(1);
      expect(bundles[0]!.bundle.runAt).toBeUndefined();
      expect(files[0]!.skippedParts).toEqual([expect.stringContaining("start.timestamp.timesecs")]);
    }
  });

  it('a numeral beyond double range ("1e400") was read as Infinity and failed the whole file', () => {
    // Found by the TKE directory property: a raw netperf file with one value replaced by 1e400.
    const keyval = new TextDecoder().decode(fixtureBytes("real/netperf/netperf_omni_keyval_example_from_manual.txt"));
    const { bundles, files } = importChecked(
      [text("rr.txt", keyval.replace("THROUGHPUT=59092.65", "THROUGHPUT=1e400\nP50_LATENCY=17"))],
      "auto",
    )!;
    expect(files[0]).toMatchObject({ status: "imported" });
    expect(bundles[0]!.bundle.results.map((r) => [r.metric, r.value])).toEqual([["tcp.rr.latency", 17]]);
  });

  it("runs of blank lines made the knb and fortio text patterns quadratic", () => {
    // Found by the linear-time property: 64 KiB of "\n" took 5.7 s (a 5 MiB upload: hours).
    for (const head of ["", "Generator : knb\n", "All done 5 calls 1.0 qps\n# target 50% 0.001\n"]) {
      const blank = (size: number) => {
        for (const format of ["auto", "knb", "fortio"] as const)
          importChecked([text("blank.txt", head + "\n".repeat(size))], format);
      };
      expectLinear(blank, 16 * 1024, JSON.stringify(head));
    }
  });

  it("a file pattern with many stars backtracked for seconds against a long name", () => {
    // Found by the file-pattern property: "*****a" against dir/<110 a>/<110 a>.json took 3.8 s.
    const files = { "*****a": { label: "never" }, "*a*a*a*a*a*a*a*a*a*a*a*a*.json": { label: "matched" } };
    const named = (length: number) =>
      importChecked([{ name: `dir/${"a".repeat(length)}/${"a".repeat(length)}.json`, bytes: iperf3.bytes }], "auto", {
        ...environment,
        files,
      })!;
    expectLinear(named, 110, "110 and 880 a's");
    expect(named(110).bundles[0]!.bundle.cni.label).toBe("matched");
  });

  it("a zip entry holding more than its header declares was inflated whole, then cut to the declared size", () => {
    // Found by the hostile corpus (@cnibench/test-support/hostile): 64 entries declaring 16 bytes, each 8 MiB
    // of zeros, took 3 s of CPU and imported as 16-byte files; a 5 MiB upload of them, half a minute.
    work.inflated = 0;
    const { files } = importChecked([{ name: "liar.zip", bytes: zipOfZeros(64, 16) }], "auto")!;
    // One 16 KiB slice inflates to 16 MiB at most (deflate's ≈1032:1); all 64 entries whole are 512 MiB.
    expect(work.inflated).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(files).toEqual([
      expect.objectContaining({ status: "failed", error: expect.stringMatching(/inflates beyond the 16 bytes/) }),
    ]);
  });

  it("a single-member gzip was inflated whole before the unpacked-size budget looked at it", () => {
    // Found by the nasty corpus: 3.4 MB inflating to 512 MiB held all of it in memory (1 GiB RSS,
    // 2.9 s) before ArchiveLimitError; in 16 KiB slices it stops a slice after the budget.
    const bomb = gzipOfZerosOneMember(512 * 1024 * 1024);
    work.inflated = 0;
    expect(() =>
      importFiles([{ name: "bomb.gz", bytes: bomb }], environment, { limits: { maxUnpackedBytes: 1024 * 1024 } }),
    ).toThrow(ArchiveLimitError);
    // The budget, and at most the one 16 KiB slice (≤ 16 MiB inflated) that passed it.
    expect(work.inflated).toBeLessThanOrEqual(17 * 1024 * 1024);
  });

  it("a MiB of YAML sent as knb blocked the parser for seconds", () => {
    // Found while checking the blank-lines regression: the yaml package takes 2.5 s per MiB of blank
    // lines and 10 s per MiB of "[a, " — all of it on the server's one thread. knb reports are KiB.
    for (const unit of ["\n", "[a, ", "a: 1\n"]) {
      work.yaml = 0;
      const { files } = importChecked([text("report.yaml", unit.repeat((1024 * 1024) / unit.length))], "knb")!;
      expect(work.yaml, "characters given to the YAML parser").toBe(0);
      expect(files[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/a knb report is a few KiB/) });
    }
  });
});
