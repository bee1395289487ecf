/**
 * The web app's upload (workspaces.upload, a bundle dropped on the workspace page) goes through the
 * same pipeline as POST /v1/bundles: every bundle case of the hostile-input corpus
 * (@cnibench/test-support/hostile) gets the answer the API gives — stored, or a BAD_REQUEST naming
 * the place, never an unexpected error — and a refusal writes nothing. A fast-check property does the same over
 * the example bundle with hostile values planted at random places.
 */
import { accessFor, createDb, createWorkspace, type Db, recordSignIn } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { fuzzBanner, fuzzTimeout, put, fuzzSettings as settings } from "@cnibench/test-support/fuzz";
import { exampleFor, nastyCases } from "@cnibench/test-support/hostile";
import { integrityProblems, rowCounts } from "@cnibench/test-support/ingest";
import { TRPCError } from "@trpc/server";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../trpc/root";

console.info(fuzzBanner);

let db: Db;
let drop: () => Promise<void>;
let upload: (text: string, filename?: string) => Promise<unknown>;

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  db = createDb(fresh.url);
  const user = await recordSignIn(db, { issuer: "t", subject: "u", email: "uploader@example.test", name: "U" });
  await createWorkspace(db, user.id, { slug: "uploads", name: "Uploads", visibility: "private" });
  const caller = createCaller({ db, access: await accessFor(db, user.id) });
  upload = (text, filename = "bundle.json") => caller.workspaces.upload({ slug: "uploads", filename, text });
});
afterAll(async () => {
  await db?.$disconnect();
  await drop?.();
});

/** The upload's answer: stored, or refused as BAD_REQUEST (anything else fails the test). */
async function send(text: string): Promise<{ stored: true } | { stored: false; message: string }> {
  try {
    await upload(text);
    return { stored: true };
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code, (error as TRPCError).message.slice(0, 500)).toBe("BAD_REQUEST");
    return { stored: false, message: (error as TRPCError).message };
  }
}

describe("workspaces.upload: the corpus of nasty bundles", () => {
  const cases = nastyCases.filter((c) => c.method === "POST" && c.endpoint.startsWith("/v1/bundles"));

  it("has the corpus's bundle cases", () => expect(cases.length).toBeGreaterThan(20));

  for (const c of cases) {
    const accepted = c.expect.status < 300;
    it(`${c.name} → ${accepted ? "stored" : "BAD_REQUEST"}`, async () => {
      const text = new TextDecoder().decode(c.body!());
      const before = await rowCounts(db);
      const answer = await send(text);
      const after = await rowCounts(db);
      // Over HTTP a 413 or 415 is refused before the body is read; here the same text is simply not a bundle.
      expect(answer.stored, `${c.why}\n${"message" in answer ? answer.message : ""}`).toBe(accepted);
      if (accepted) {
        expect(after.bundles).toBeGreaterThanOrEqual(before.bundles);
        return;
      }
      expect(after, "a refusal writes nothing").toEqual(before);
      // The place the API's 422 names first, and its words, are in the message too.
      const message = answer.stored ? "" : answer.message;
      for (const key of ["issues.0.path", "issues.0.message"]) {
        const said = c.expect.answer?.[key];
        if (typeof said === "string" && said !== "") expect(message).toContain(said);
      }
    });
  }

  it("leaves no partial write behind", async () => {
    expect(await integrityProblems(db)).toEqual([]);
  });
});

/** Values PostgreSQL cannot hold, or that break the contract, as raw JSON text. */
const hostile = fc.constantFrom(
  '"\\u0000"',
  '"a\\ud800b"',
  '"\\udc00"',
  "1e400",
  "-1e400",
  "9007199254740993",
  '"0000-01-01"',
  '"-000001-01-01T00:00:00Z"',
  `${'{"a":'.repeat(150)}1${"}".repeat(150)}`,
  `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
  '{"\\u0000":1}',
  "null",
  '"<script>alert(1)</script>"',
  "1e308",
);

/** A place of the example bundle: a field path, existing or new. */
const places = fc.constantFrom(
  ["cluster", "name"],
  ["cluster", "region"],
  ["node", "kernel"],
  ["node", "vcpus"],
  ["cni", "label"],
  ["cni", "settings", "x"],
  ["source", "title"],
  ["source", "extra"],
  ["runAt"],
  ["deep"],
  ["results", 0, "value"],
  ["results", 0, "low"],
  ["results", 0, "samples"],
  ["results", 0, "params", "services"],
  ["results", 0, "params", "\u0000"],
  ["collector", "version"],
);

it(
  "property: mutated bundles are stored or refused as BAD_REQUEST, never an unexpected error",
  async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(places, hostile), { minLength: 1, maxLength: 3 }), async (mutations) => {
        const bundle = exampleFor(`upload-fuzz-${n++}`) as Record<string, unknown>;
        const raws: string[] = [];
        for (const [path, raw] of mutations) {
          let holder = bundle as Record<string | number, unknown>;
          for (const key of path.slice(0, -1)) {
            if (typeof holder[key] !== "object" || holder[key] === null) put(holder, key, {});
            holder = holder[key] as Record<string | number, unknown>;
          }
          put(holder, path.at(-1)!, `@@${raws.length}@@`);
          raws.push(raw);
        }
        const text = raws.reduce((t, raw, i) => t.replace(`"@@${i}@@"`, () => raw), JSON.stringify(bundle));
        const before = await rowCounts(db);
        const answer = await send(text);
        if (!answer.stored) expect(await rowCounts(db), "a refusal writes nothing").toEqual(before);
      }),
      settings,
    );
    expect(await integrityProblems(db)).toEqual([]);
  },
  fuzzTimeout(120_000, 1_000),
);
