/**
 * A corpus of hostile inputs for the ingest API, built in code so nothing large is committed: deep
 * nesting, oversized bodies and fields, number literals JSON cannot or can barely hold, duplicate
 * keys, invalid UTF-8, unicode trickery, markup and SQL fragments, archive bombs, path traversal and
 * too many archive entries. Every case names its endpoint and the answer it must get;
 * apps/ingest-api/src/nasty.integration.test.ts sends them all, and the web app's upload procedure
 * gets the same answers (apps/web/src/server/routers/upload.integration.test.ts). Bodies are built on demand
 * (the archive bombs take a moment) by ./archives.ts, deterministically: the same case always sends
 * the same bytes.
 */

import { defaultArchiveLimits } from "@cnibench/importers";
import { gzipSync, strToU8, zipSync } from "fflate";
import {
  concat,
  gzipOfZeros,
  gzipOfZerosOneMember,
  MiB,
  noise,
  paxRecord,
  tar,
  tarHeader,
  zipOfZeros,
} from "./archives.ts";
import { environmentQuery, exampleBundle, iperf3Fixture } from "./fixtures.ts";

const { maxEntries } = defaultArchiveLimits;

export type NastyCase = {
  /** Unique, used as the test's name. */
  name: string;
  /** What makes it nasty and why the expected answer is right. */
  why: string;
  method: "POST" | "GET";
  /** Path (and query) of the request. */
  endpoint: `/v1/bundles${string}` | `/v1/import${string}`;
  headers?: Record<string, string>;
  body?: () => Uint8Array;
  expect: {
    status: number;
    /** The `error` of a 4xx body. */
    error?: string;
    /** Words the answer must contain somewhere (in its message or an issue's): the check that failed. */
    says?: string;
    /** A path (dotted, as in "issues.0.path") of the answer and the value it must hold there. */
    answer?: Record<string, unknown>;
    /**
     * Accepted uploads: paths of `GET /v1/bundles/:id` (of the first stored bundle) and the values
     * they must hold, i.e. what was sent, byte for byte, read back from PostgreSQL.
     */
    echo?: Record<string, unknown>;
  };
};

// Strings an attacker would try. They must be stored and served back as data, never interpreted.
export const markup = {
  script: "<script>alert(1)</script>",
  img: "<img src=x onerror=alert(1)>",
  svg: '"><svg onload=alert(1)>',
} as const;
export const sql = {
  dropTable: `'); DROP TABLE "Bundle";--`,
  orTrue: "%' OR 1=1 --",
  deleteAll: `'; DELETE FROM "Measurement"; --`,
} as const;
export const unicode = {
  emoji: "🏳️‍🌈 cluster 🚀👩🏽‍💻",
  rightToLeft: "שלום مرحبا \u202Eexe.txt\u202C",
  combining: "Z̴̡̙͊a̷̰̓l̶̢̓g̸̱̈́o̵̥͝ n̈o᷊de",
  zeroWidth: "zero\u200Bwidth\u200C\u200Djoiner\uFEFFbom\u2060",
  astral: "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠜎𠜱",
} as const;

const encode = (text: string) => strToU8(text);

/** The example bundle of README's curl command, with a collector version naming the case (own content hash). */
export function exampleFor(caseName: string): Record<string, unknown> & { results: Record<string, unknown>[] } {
  return { ...exampleBundle(), collector: { name: "nasty-corpus", version: caseName } };
}

/** JSON text of a value, with `"@@"` markers replaced by raw JSON text (literals JSON.stringify cannot write). */
function jsonWith(value: unknown, ...raw: string[]): string {
  let text = JSON.stringify(value);
  for (const r of raw) text = text.replace('"@@"', () => r);
  return text;
}

const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

const json = { "content-type": "application/json" };
const octets = { "content-type": "application/octet-stream" };
const zip = { "content-type": "application/zip" };
const gzip = { "content-type": "application/gzip" };
const tarType = { "content-type": "application/x-tar" };

/** Upload of a bundle: the example bundle changed by `patch`, as JSON text with optional raw literals. */
function bundleCase(
  name: string,
  why: string,
  expect: NastyCase["expect"],
  build: (bundle: ReturnType<typeof exampleFor>) => string | Uint8Array,
): NastyCase {
  return {
    name,
    why,
    method: "POST",
    endpoint: "/v1/bundles",
    headers: json,
    body: () => {
      const text = build(exampleFor(name));
      return typeof text === "string" ? encode(text) : text;
    },
    expect,
  };
}

/** Upload of files to POST /v1/import, with the lab's environment in the query unless another is given. */
function importCase(
  name: string,
  why: string,
  request: { headers: Record<string, string>; body: () => Uint8Array; query?: string },
  expect: NastyCase["expect"],
): NastyCase {
  return {
    name,
    why,
    method: "POST",
    endpoint: `/v1/import?${request.query ?? environmentQuery({})}`,
    headers: request.headers,
    body: request.body,
    expect,
  };
}

/** A gzip archive with one byte of its 8-byte trailer (CRC-32 at 0, ISIZE at 4) changed by `delta`. */
function withTrailer(gz: Uint8Array, at: number, delta: number): Uint8Array {
  const out = gz.slice();
  const i = out.length - 8 + at;
  out[i] = (out[i]! + delta) & 0xff;
  return out;
}

const refused = (status: number, error: string, answer?: Record<string, unknown>) => ({ status, error, answer });

const passwd = "../../etc/passwd";

const traversalNames = [passwd, "/etc/passwd", "C:\\x"];

export const nastyCases: NastyCase[] = [
  // --- Nesting -------------------------------------------------------------------------------
  bundleCase(
    "100,000 nested arrays",
    "JSON.parse copes with the depth; the contract refuses a document that is not an object",
    refused(422, "invalid_bundle", { "issues.0.path": "" }),
    () => nestedArrays(100_000),
  ),
  bundleCase(
    "params nesting 100,000 objects deep",
    "params hold scalars only; the validator must not recurse to death first",
    refused(422, "invalid_bundle", { "issues.0.path": "results[0].params.x" }),
    (b) => jsonWith({ ...b, results: [{ ...b.results[0], params: { x: "@@" } }] }, nestedObjects(100_000)),
  ),
  bundleCase(
    "an unknown top-level field nesting 100,000 arrays deep",
    "unknown top-level fields are kept, and hashing the canonical JSON recursed once per level: a stack overflow and a 500",
    refused(422, "invalid_bundle", { "issues.0.message": "nests deeper than 100 levels" }),
    (b) => jsonWith({ ...b, deep: "@@" }, nestedArrays(100_000)),
  ),
  bundleCase(
    "an unknown field of source nesting 5,000 objects deep",
    "source keeps unknown fields too; 5,000 levels already overflowed the hash's recursion (a 500)",
    refused(422, "invalid_bundle", { "issues.0.message": "nests deeper than 100 levels" }),
    (b) => jsonWith({ ...b, source: { ...(b.source as object), extra: "@@" } }, nestedObjects(5_000)),
  ),
  bundleCase(
    "an unknown field nesting 50 levels deep",
    "reasonable nesting in a kept field is stored as it came",
    { status: 201, echo: { [["bundle.deep", ...Array(50).fill("a")].join(".")]: 1 } },
    (b) => jsonWith({ ...b, deep: "@@" }, nestedObjects(50)),
  ),

  // --- Size --------------------------------------------------------------------------------
  bundleCase(
    "a 10 MB string",
    "above the 5 MiB default body limit (CNIBENCH_MAX_BUNDLE_BYTES): refused before parsing",
    refused(413, "payload_too_large"),
    (b) => JSON.stringify({ ...b, cni: { ...(b.cni as object), label: "x".repeat(10_000_000) } }),
  ),
  bundleCase(
    "a 4 MB label",
    "within the body limit, but cni.label is at most 200 characters",
    refused(422, "invalid_bundle", { "issues.0.path": "cni.label" }),
    (b) => JSON.stringify({ ...b, cni: { ...(b.cni as object), label: "x".repeat(4_000_000) } }),
  ),
  bundleCase(
    "5,000 results",
    "a large but valid bundle is stored whole in one statement",
    { status: 201, answer: { measurementCount: 5000 } },
    (b) =>
      JSON.stringify({
        ...b,
        results: Array.from({ length: 5000 }, (_, i) => ({
          metric: "http.rps",
          unit: "req/s",
          value: i + 0.5,
          params: { services: i },
        })),
      }),
  ),

  // --- Numbers -------------------------------------------------------------------------------
  ...["NaN", "Infinity", "-Infinity"].map((literal) =>
    bundleCase(`a ${literal} literal`, "not JSON: a 400 saying where", refused(400, "malformed_json"), (b) =>
      jsonWith({ ...b, results: [{ ...b.results[0], value: "@@" }] }, literal),
    ),
  ),
  bundleCase(
    "1e400 as a value",
    "JSON.parse reads 1e400 as Infinity, which no figure may be",
    refused(422, "invalid_bundle", { "issues.0.path": "results[0].value" }),
    (b) => jsonWith({ ...b, results: [{ ...b.results[0], value: "@@" }] }, "1e400"),
  ),
  bundleCase(
    "1e400 in an unknown top-level field",
    "unknown fields are kept unchecked, but the canonical JSON of the content hash cannot hold Infinity (was a 500; found by fuzz.integration.test.ts)",
    refused(422, "invalid_bundle", { "issues.0.path": "extra" }),
    (b) => jsonWith({ ...b, extra: "@@" }, "1e400"),
  ),
  bundleCase(
    "-1e400 among the samples",
    "-Infinity in samples",
    refused(422, "invalid_bundle", { "issues.0.path": "results[0].samples[1]" }),
    (b) => jsonWith({ ...b, results: [{ ...b.results[0], samples: "@@" }] }, "[1,-1e400]"),
  ),
  bundleCase(
    "1e308 Tbit/s",
    "finite as sent, but the conversion to the catalogue's Gbit/s overflows to Infinity (was a 500: NULL into a NOT NULL float8)",
    refused(422, "invalid_bundle", { "issues.0.path": "results[0].value" }),
    (b) => JSON.stringify({ ...b, results: [{ metric: "tcp.throughput", unit: "Tbit/s", value: 1e308 }] }),
  ),
  bundleCase(
    "a summary's mean of 1e308 Tbit/s",
    "summary statistics convert with the unit: an overflow would reach the insert as null beside its n (a CHECK violation, a 500)",
    refused(422, "invalid_bundle", { "issues.0.path": "results[0].summary.mean" }),
    (b) =>
      JSON.stringify({
        ...b,
        results: [
          { metric: "tcp.throughput", unit: "Tbit/s", value: 1, summary: { mean: 1e308, sd: 1, n: 3, of: "runs" } },
        ],
      }),
  ),
  bundleCase(
    "-0 and 1e-400",
    "-0 is a number, 1e-400 underflows to 0: both are figures",
    { status: 201, answer: { measurementCount: 2 }, echo: { "measurements.1.publishedValue": 0 } },
    (b) =>
      jsonWith(
        {
          ...b,
          results: [
            { ...b.results[0], value: "@@" },
            { ...b.results[1], value: "@@" },
          ],
        },
        "-0",
        "1e-400",
      ),
  ),
  bundleCase(
    "integers beyond 2^53 in params and samples",
    "kept as the nearest double, like every JSON reader does; the raw text is kept verbatim",
    {
      status: 201,
      echo: {
        "measurements.0.params.services": JSON.parse("18446744073709551616"),
        "measurements.0.samples.0": JSON.parse("123456789012345678901234567890"),
        "bundle.results.0.samples.1": JSON.parse("9007199254740993"),
      },
    },
    (b) =>
      jsonWith(
        { ...b, results: [{ ...b.results[0], params: { services: "@@" }, samples: ["@@", "@@"] }] },
        "18446744073709551616",
        "123456789012345678901234567890",
        "9007199254740993",
      ),
  ),
  bundleCase(
    "an integer value beyond 2^53",
    "valid, but the measurement insert cannot serialise integers from 2^53 to 1e21 (was a 500): refused, saying so",
    refused(422, "invalid_bundle", { "issues.0.path": "results[0].value" }),
    (b) => jsonWith({ ...b, results: [{ ...b.results[0], value: "@@" }] }, "9007199254740993"),
  ),

  // --- Keys, encodings, unicode ------------------------------------------------------------------
  bundleCase(
    "duplicate keys",
    "JSON.parse keeps the last value of a repeated key; the stored bundle says the same",
    { status: 201, echo: { "bundle.cni.label": "second", clusterName: "second-name" } },
    (b) =>
      jsonWith(
        { ...b, cluster: "@@", cni: "@@" },
        JSON.stringify(b.cluster).replace("{", '{"name":"first-name",').replace(/}$/, ',"name":"second-name"}'),
        JSON.stringify(b.cni).replace("{", '{"label":"first",').replace(/}$/, ',"label":"second"}'),
      ),
  ),
  bundleCase(
    "invalid UTF-8 inside a string",
    "bytes that are not UTF-8 (a lone continuation byte, an overlong form, an encoded surrogate, 0xFF) become U+FFFD",
    {
      status: 201,
      echo: {
        "bundle.cni.label": new TextDecoder().decode(
          new Uint8Array([0x61, 0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, 0x62]),
        ),
      },
    },
    (b) => {
      const [before, after] = JSON.stringify({ ...b, cni: { ...(b.cni as object), label: "@@" } }).split("@@");
      return concat([
        encode(before!),
        new Uint8Array([0x61, 0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, 0x62]),
        encode(after!),
      ]);
    },
  ),
  bundleCase(
    "invalid UTF-8 between the tokens",
    "outside a string the replacement character is not JSON",
    refused(400, "malformed_json"),
    (b) => concat([encode(JSON.stringify(b).slice(0, -1)), new Uint8Array([0x2c, 0xff, 0xfe]), encode("}")]),
  ),
  bundleCase(
    "unicode names",
    "emoji with ZWJ sequences, right-to-left text with an override, combining marks, zero-width characters and astral planes are names like any other",
    {
      status: 201,
      echo: {
        clusterName: unicode.emoji,
        sourceTitle: unicode.combining,
        "bundle.cni.label": unicode.rightToLeft,
        "measurements.0.params.note": unicode.zeroWidth,
        [`measurements.0.params.${unicode.astral}`]: unicode.astral,
      },
    },
    (b) =>
      JSON.stringify({
        ...b,
        source: { ...(b.source as object), title: unicode.combining },
        cluster: { ...(b.cluster as object), name: unicode.emoji },
        cni: { ...(b.cni as object), label: unicode.rightToLeft },
        results: [{ ...b.results[0], params: { note: unicode.zeroWidth, [unicode.astral]: unicode.astral } }],
      }),
  ),
  bundleCase(
    "markup and SQL in labels, names, titles and params",
    "stored as data and served back byte for byte; the tables are still there afterwards",
    {
      status: 201,
      echo: {
        clusterName: markup.img,
        sourceTitle: sql.dropTable,
        "bundle.cni.label": markup.script,
        'bundle.cni.settings.\'; DELETE FROM "Measurement"; --': markup.svg,
        "measurements.0.params.note": sql.orTrue,
        [`measurements.0.params.${markup.script}`]: sql.dropTable,
      },
    },
    (b) =>
      JSON.stringify({
        ...b,
        source: { ...(b.source as object), title: sql.dropTable },
        cluster: { ...(b.cluster as object), name: markup.img },
        cni: { ...(b.cni as object), label: markup.script, settings: { [sql.deleteAll]: markup.svg } },
        results: [{ ...b.results[0], params: { note: sql.orTrue, [markup.script]: sql.dropTable } }],
      }),
  ),
  bundleCase(
    "markup and SQL as vocabulary slugs",
    "an unknown provider or CNI is accepted with a warning that quotes it: as text",
    { status: 201, echo: { "bundle.cluster.provider": sql.orTrue, "bundle.cni.name": markup.script } },
    (b) =>
      JSON.stringify({
        ...b,
        cluster: { ...(b.cluster as object), provider: sql.orTrue },
        cni: { ...(b.cni as object), name: markup.script },
      }),
  ),
  bundleCase(
    "U+0000 in cluster.name",
    'valid JSON ("\\u0000") the contract accepted, but PostgreSQL text cannot hold it (was a 500)',
    refused(422, "invalid_bundle", { "issues.0.path": "cluster.name" }),
    (b) => JSON.stringify({ ...b, cluster: { ...(b.cluster as object), name: "tke\u0000c" } }),
  ),
  bundleCase(
    "U+0000 in a params key",
    "jsonb cannot hold it either (was a 500)",
    refused(422, "invalid_bundle", { "issues.0.path": 'results[0].params["a\\u0000b"]' }),
    (b) => JSON.stringify({ ...b, results: [{ ...b.results[0], params: { "a\u0000b": 1 } }] }),
  ),
  bundleCase(
    "an unpaired surrogate in a params value",
    '"\\ud800" is valid JSON text but not Unicode; jsonb refuses it (was a 500)',
    refused(422, "invalid_bundle", { "issues.0.path": "results[0].params.note" }),
    (b) => jsonWith({ ...b, results: [{ ...b.results[0], params: { note: "@@" } }] }, '"a\\ud800b"'),
  ),
  bundleCase(
    "runAt in year 0",
    "a valid ISO date, but PostgreSQL has no year 0 (was a 500)",
    refused(422, "invalid_bundle", { "issues.0.path": "runAt" }),
    (b) => JSON.stringify({ ...b, runAt: "0000-01-01" }),
  ),

  // --- Not a bundle, or not JSON -------------------------------------------------------------------
  bundleCase("null", "JSON, but not an object", refused(422, "invalid_bundle"), () => "null"),
  bundleCase("a JSON string", "JSON, but not an object", refused(422, "invalid_bundle"), () => '"cnibench/bundle@1"'),
  bundleCase("whitespace only", "no JSON at all", refused(400, "malformed_json"), () => " \n\t "),
  ...[
    ["text/plain", "cnibench"],
    ["application/x-www-form-urlencoded", "schema=cnibench%2Fbundle%401"],
    ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="f"\r\n\r\n{}\r\n--x--\r\n'],
    ["text/html", markup.script],
  ].map(
    ([type, body]): NastyCase => ({
      name: `Content-Type ${type!.split(";")[0]}`,
      why: "only application/json is a bundle",
      method: "POST",
      endpoint: "/v1/bundles",
      headers: { "content-type": type! },
      body: () => encode(body!),
      expect: refused(415, "unsupported_media_type"),
    }),
  ),

  // --- Reads with hostile parameters -----------------------------------------------------------------
  ...[
    ["scenario", sql.dropTable],
    ["metric", sql.orTrue],
  ].map(
    ([key, value]): NastyCase => ({
      name: `GET /v1/bundles?${key}=<SQL>`,
      why: "query parameters are bound, not spliced into SQL: nothing matches",
      method: "GET",
      endpoint: `/v1/bundles?${new URLSearchParams({ [key!]: value! })}`,
      expect: { status: 200, answer: { total: 0 } },
    }),
  ),
  {
    name: "GET /v1/bundles/<SQL>",
    why: "an id is a value, not SQL",
    method: "GET",
    endpoint: `/v1/bundles/${encodeURIComponent(sql.dropTable)}`,
    expect: refused(404, "not_found"),
  },

  // --- Archives: bombs ---------------------------------------------------------------------------
  importCase(
    "zip bomb: 64 entries of 8 MiB of zeros",
    "512 MiB unpacked from ~520 KiB, beyond CNIBENCH_IMPORT_MAX_UNPACKED_BYTES (100 MiB): refused from the declared sizes, before inflating",
    { headers: zip, body: () => zipOfZeros(64) },
    refused(413, "archive_too_large"),
  ),
  importCase(
    "zip bomb whose headers understate the sizes",
    "the entries claim 16 bytes each: inflating stops as soon as one passes that, refusing the archive (it used to inflate all 512 MiB, seconds of CPU, and keep 16 bytes)",
    { headers: zip, body: () => zipOfZeros(64, 16) },
    refused(422, "import_failed"),
  ),
  importCase(
    "gzip bomb: 256 MiB of zeros",
    "gzip declares nothing reliable: the unpacked bytes are counted while inflating",
    { headers: gzip, body: () => gzipOfZeros(32) },
    refused(413, "archive_too_large"),
  ),
  importCase(
    "gzip bomb in one member: 512 MiB of zeros",
    "one deflate stream of 3.4 MB: it used to be inflated whole (512 MiB in memory at once) before the budget looked",
    { headers: gzip, body: () => gzipOfZerosOneMember(512 * MiB) },
    refused(413, "archive_too_large"),
  ),
  importCase(
    "tar.gz bomb: one entry of 256 MiB of zeros",
    "the tar inside the gzip is never held whole: counting stops it",
    {
      headers: gzip,
      body: () =>
        concat([
          gzipSync(tarHeader({ name: "results/iperf3.json", size: `${(256 * MiB).toString(8).padStart(11, "0")}\0` })),
          gzipOfZeros(32),
        ]),
    },
    refused(413, "archive_too_large"),
  ),

  // --- Archives: names that leave the archive -------------------------------------------------------
  ...traversalNames.map((name) =>
    importCase(
      `zip entry named ${name}`,
      "an entry pointing outside the archive refuses the archive",
      { headers: zip, body: () => zipSync({ "results/iperf3.json": iperf3Fixture(), [name]: encode("root:x:0:0") }) },
      refused(422, "import_failed"),
    ),
  ),
  ...traversalNames.map((name) =>
    importCase(
      `tar.gz entry named ${name}`,
      "an entry pointing outside the archive refuses the archive",
      {
        headers: gzip,
        body: () =>
          gzipSync(
            tar([
              { name: "results/iperf3.json", bytes: iperf3Fixture() },
              { name, bytes: encode("root:x:0:0") },
            ]),
          ),
      },
      refused(422, "import_failed"),
    ),
  ),
  importCase(
    "tar entry escaping through the ustar prefix field",
    'prefix "../.." joined to an innocent name',
    {
      headers: tarType,
      body: () => tar([{ name: "etc/passwd", prefix: "../..", bytes: encode("root:x:0:0") }]),
    },
    refused(422, "import_failed"),
  ),
  importCase(
    "tar entry escaping through a pax path header",
    "the pax header's path wins over the entry's own name",
    {
      headers: tarType,
      body: () =>
        tar([
          { name: "PaxHeader", type: "x", bytes: encode(paxRecord("path", passwd)) },
          { name: "innocent.json", bytes: iperf3Fixture() },
        ]),
    },
    refused(422, "import_failed"),
  ),
  importCase(
    "tar entry with a negative size",
    "a size field of -512 (checksum correct) must not walk the reader backwards forever",
    {
      headers: tarType,
      body: () => tar([{ name: "a.json", type: "g", size: "-1000\0" }]),
    },
    refused(422, "import_failed"),
  ),

  // --- Archives: too many entries -----------------------------------------------------------------
  importCase(
    `zip of ${maxEntries + 1} entries`,
    `one more than CNIBENCH_IMPORT_MAX_ENTRIES (${maxEntries})`,
    {
      headers: zip,
      body: () =>
        zipSync(Object.fromEntries(Array.from({ length: maxEntries + 1 }, (_, i) => [`r/${i}.txt`, encode("x")]))),
    },
    refused(422, "too_many_entries"),
  ),
  importCase(
    `tar.gz of ${maxEntries + 1} entries`,
    `one more than CNIBENCH_IMPORT_MAX_ENTRIES (${maxEntries})`,
    {
      headers: gzip,
      body: () =>
        gzipSync(tar(Array.from({ length: maxEntries + 1 }, (_, i) => ({ name: `r/${i}.txt`, bytes: encode("x") })))),
    },
    refused(422, "too_many_entries"),
  ),
  importCase(
    "an archive inside an archive",
    "nested archives are not expanded (no bomb by recursion): nothing to import",
    {
      headers: zip,
      body: () => zipSync({ "inner.tar.gz": gzipSync(tar([{ name: "iperf3.json", bytes: iperf3Fixture() }])) }),
    },
    refused(422, "nothing_to_import"),
  ),
  importCase(
    "a truncated tar.gz",
    "corrupt archives are the uploader's problem: 422, not 500",
    {
      headers: gzip,
      body: () => {
        const whole = gzipSync(tar([{ name: "results/iperf3.json", bytes: iperf3Fixture() }]));
        return whole.subarray(0, whole.length - 40);
      },
    },
    refused(422, "import_failed"),
  ),
  importCase(
    "a tar.gz whose gzip trailer has a wrong CRC-32",
    "RFC 1952's CRC-32 of the data: fflate's streaming Gunzip never checks it, and the archive was imported (201)",
    {
      headers: gzip,
      body: () => withTrailer(gzipSync(tar([{ name: "results/iperf3.json", bytes: iperf3Fixture() }])), 0, 1),
    },
    { ...refused(422, "import_failed"), says: "fails its CRC-32 check" },
  ),
  importCase(
    "a .gz whose gzip trailer has a wrong length (ISIZE)",
    "RFC 1952's ISIZE, the data's length mod 2^32: unchecked, the file was imported (200)",
    {
      headers: gzip,
      query: environmentQuery({ filename: "iperf3.json.gz" }),
      body: () => withTrailer(gzipSync(iperf3Fixture()), 4, 1),
    },
    { ...refused(422, "import_failed"), says: "fails its length check" },
  ),
  {
    name: "a .gz of two gzip members",
    why: "RFC 1952 allows members one after another (gzip a >> f.gz; gzip b >> f.gz): each trailer checks its own member",
    method: "POST",
    endpoint: "/v1/import?format=bundle&filename=bundle.json.gz",
    headers: gzip,
    body: () => {
      const file = encode(JSON.stringify(exampleFor("gzip-two-members")));
      const half = Math.floor(file.length / 2);
      return concat([gzipSync(file.subarray(0, half)), gzipSync(file.subarray(half))]);
    },
    expect: { status: 201 },
  },
  importCase(
    "64 KiB of noise",
    "bytes of no format",
    { headers: octets, body: () => noise(64 * 1024) },
    refused(422, "nothing_to_import"),
  ),

  // --- Imports: hostile environment values ------------------------------------------------------------
  importCase(
    "import with markup and SQL in label, cluster, source title and params",
    "environment values are data: stored and served back byte for byte",
    {
      headers: octets,
      body: iperf3Fixture,
      query: environmentQuery({
        label: markup.script,
        cluster: markup.img,
        sourceTitle: sql.dropTable,
        param: [`note=${sql.orTrue}`, `path=${markup.svg}`],
        setting: [`${sql.deleteAll}=${markup.script}`],
      }),
    },
    {
      status: 201,
      echo: {
        clusterName: markup.img,
        sourceTitle: sql.dropTable,
        "bundle.cni.label": markup.script,
        [`bundle.cni.settings.${sql.deleteAll}`]: markup.script,
        "measurements.0.params.note": sql.orTrue,
        "measurements.0.params.path": markup.svg,
      },
    },
  ),
  importCase(
    "import with unicode names",
    "percent-encoded UTF-8 in query parameters arrives as sent",
    {
      headers: octets,
      body: iperf3Fixture,
      query: environmentQuery({
        label: unicode.rightToLeft,
        cluster: unicode.emoji,
        sourceTitle: unicode.combining,
        param: [`note=${unicode.zeroWidth}`],
      }),
    },
    {
      status: 201,
      echo: {
        clusterName: unicode.emoji,
        sourceTitle: unicode.combining,
        "bundle.cni.label": unicode.rightToLeft,
        "measurements.0.params.note": unicode.zeroWidth,
      },
    },
  ),
  importCase(
    "import with U+0000 in the cluster name",
    "%00 decodes to U+0000, which PostgreSQL cannot store (was a 500); refused with every query value's",
    { headers: octets, body: iperf3Fixture, query: environmentQuery({ cluster: "lab\u0000x" }) },
    refused(400, "bad_request", { "issues.0.path": "query.cluster" }),
  ),
  {
    name: "import of a bundle file nesting 100,000 arrays deep",
    why: "format=bundle takes the document as it is: the nesting is refused before it is serialised (was a 500)",
    method: "POST",
    endpoint: "/v1/import?format=bundle",
    headers: json,
    body: () => encode(jsonWith({ ...exampleFor("import-deep"), deep: "@@" }, nestedArrays(100_000))),
    expect: refused(422, "import_failed"),
  },
  importCase(
    "import with a path-traversal file name",
    "?filename= names the file in reports only: its directories are dropped",
    { headers: octets, body: iperf3Fixture, query: environmentQuery({ filename: passwd, label: "traversal-name" }) },
    { status: 201, answer: { "files.0.file": "passwd" } },
  ),
  importCase(
    "import as multipart/form-data",
    "a form upload is not the file: 415 with a hint",
    {
      headers: { "content-type": "multipart/form-data; boundary=x" },
      body: () => encode('--x\r\nContent-Disposition: form-data; name="f"; filename="a.json"\r\n\r\n{}\r\n--x--\r\n'),
    },
    refused(415, "unsupported_media_type"),
  ),
];

/** Reads a dotted path ("measurements.0.params.note") of a JSON answer; keys may contain dots only as the last step. */
export function atPath(value: unknown, dotted: string): unknown {
  let current = value;
  const parts = dotted.split(".");
  for (let i = 0; i < parts.length; i++) {
    if (typeof current !== "object" || current === null) return undefined;
    const record = current as Record<string, unknown>;
    // Keys with dots in them ("'; DELETE FROM …" has none, but markup might): try the rest joined first.
    const rest = parts.slice(i).join(".");
    if (rest in record) return record[rest];
    current = record[parts[i]!];
  }
  return current;
}

// --- Hostile values for every path, query and input field (the enumerated no-5xx tests) ----------

/**
 * Path segments and query values as they go on the wire (already %-escaped): U+0000, its over-long
 * form, a lone surrogate's UTF-8 form (CESU-8), bytes that are no UTF-8 at all, broken escapes, a
 * traversal, and an over-long value (8,000 characters, under Node's 16 KiB header limit).
 */
export const hostileUrlValues: readonly string[] = [
  "x%00",
  "%00",
  "%C0%80", // over-long U+0000
  "%ED%A0%80", // U+D800 encoded as if it were a character
  "%ED%B0%80x", // U+DC00
  "%FF%FE",
  "%E2%82", // a truncated 3-byte sequence
  "%",
  "%zz",
  "..%2F..%2Fetc%2Fpasswd",
  "%uD800",
  "x".repeat(8_000),
];

/** Strings for JSON inputs: what JSON text can carry but no id, slug or label can. */
export const hostileTextValues: readonly string[] = ["x\u0000", "\u0000", "\ud800", "a\udc00b", "x".repeat(10_000)];

/** The parts of a JSON Schema the enumerated tests read (OpenAPI's components, zod's toJSONSchema). */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
};

/**
 * Documents valid for `schema` but for one string (a value, or a key of a map) replaced by `hostile`,
 * one document per such place, each with the place's dotted name; plus, when the schema is a string,
 * the hostile value itself. `resolve` follows "$ref"s (OpenAPI's "#/components/schemas/…").
 */
export function hostileDocuments(
  schema: JsonSchema,
  hostile: string,
  resolve: (ref: string) => JsonSchema = () => ({}),
): { field: string; document: unknown }[] {
  const deref = (s: JsonSchema): JsonSchema => (s.$ref ? deref(resolve(s.$ref)) : s);
  const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

  const sample = (raw: JsonSchema, depth = 0): unknown => {
    const s = deref(raw);
    if (depth > 8) return null;
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    if (s.default !== undefined) return s.default;
    const branch = s.anyOf?.[0] ?? s.oneOf?.[0] ?? s.allOf?.[0];
    if (branch) return sample(branch, depth + 1);
    switch (typeOf(s)) {
      case "object":
        return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v, depth + 1)]));
      case "array":
        if (s.prefixItems) return s.prefixItems.map((item) => sample(item, depth + 1));
        return s.items ? [sample(s.items, depth + 1)] : [];
      case "string":
        return "x".repeat(Math.max(1, s.minLength ?? 1));
      case "number":
      case "integer":
        return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      case "boolean":
        return true;
      case "null":
        return null;
      default:
        return "x";
    }
  };

  const variants = (raw: JsonSchema, at: string, depth = 0): { field: string; document: unknown }[] => {
    const s = deref(raw);
    if (depth > 8 || s.const !== undefined) return [];
    const branches = s.anyOf ?? s.oneOf ?? s.allOf;
    if (branches) return branches.flatMap((b) => variants(b, at, depth + 1));
    const type = typeOf(s);
    if (s.enum) return s.enum.some((e) => typeof e === "string") ? [{ field: at, document: hostile }] : [];
    if (type === "string" || type === undefined) return [{ field: at, document: hostile }];
    if (type === "array") {
      const items = s.prefixItems ?? (s.items ? [s.items] : []);
      return items.flatMap((item, i) =>
        variants(item, `${at}[${i}]`, depth + 1).map((v) => {
          const document = items.map((other) => sample(other, depth + 1));
          document[i] = v.document;
          return { field: v.field, document };
        }),
      );
    }
    if (type !== "object") return [];
    const base = sample(s, depth) as Record<string, unknown>;
    const out = Object.entries(s.properties ?? {}).flatMap(([key, property]) =>
      variants(property, at ? `${at}.${key}` : key, depth + 1).map((v) => ({
        field: v.field,
        document: { ...base, [key]: v.document },
      })),
    );
    // A map (record) takes any key: a hostile one too.
    if (typeof s.additionalProperties === "object") {
      out.push({ field: `${at || "input"}[key]`, document: { ...base, [hostile]: sample(s.additionalProperties) } });
    }
    return out;
  };

  return variants(schema, "");
}

/** Words of PostgreSQL's, Prisma's or a stack trace's that must never reach a client. */
export const driverWords = /invalid byte sequence|prisma|postgres|0x00|\bat \w+ \(/i;

type Procedure = { _def: { type: "query" | "mutation" | "subscription"; inputs: unknown[] } };

/**
 * Every tRPC procedure of a router (its `_def.procedures`) with each hostile string in each string
 * field of its input, one field at a time (and as the whole input), from its input's JSON Schema
 * (`toJsonSchema`: zod's z.toJSONSchema, which the caller has; this package does not depend on zod).
 */
export function procedureProbes(
  router: { _def: { procedures: object } },
  toJsonSchema: (input: unknown) => JsonSchema,
): { path: string; type: string; field: string; input: unknown }[] {
  return Object.entries(router._def.procedures as Record<string, Procedure>).flatMap(([path, procedure]) => {
    const schemas = procedure._def.inputs.map(toJsonSchema);
    // Inputs chained with .input() merge: their properties side by side.
    const schema: JsonSchema =
      schemas.length === 1
        ? schemas[0]!
        : { type: "object", properties: Object.assign({}, ...schemas.map((s) => s.properties ?? {})) };
    return hostileTextValues.flatMap((hostile) =>
      [
        { field: "input", input: hostile as unknown },
        ...hostileDocuments(schema, hostile).map(({ field, document }) => ({ field, input: document })),
      ].map((probe) => ({ path, type: procedure._def.type, ...probe })),
    );
  });
}
