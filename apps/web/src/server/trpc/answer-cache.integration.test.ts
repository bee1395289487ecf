// Kept answers (answer-cache.ts) are reused only while nothing the visitor may read changed: every upload,
// deletion and new workspace in the readable set asks again.
import { createDb, type Db, deleteBundle, ensureDefaultWorkspace, ingestBundle } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { recommend } from "../routers/guide";
import { guideInputSchema, guideOutputSchema } from "../routers/guide.types";
import { keptAnswer } from "./answer-cache";
import { createCaller } from "./root";
import { createCallerFactory, createTRPCRouter, keptUntilChange, publicProcedure } from "./trpc";

const { overlay, iptables } = tkeServiceScale();

describe("answers kept until the data changes", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  let computed = 0;
  const ask = (input: unknown, readable = [workspaceId]) =>
    keptAnswer(db, readable, { name: "test", input }, async () => ({ answer: ++computed }));
  const upload = async (bundle: object) => {
    const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(bundle) });
    if (!outcome.ok) throw new Error("a seed bundle did not ingest");
    return outcome.stored;
  };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    await upload(overlay);
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("answers the same question from memory, another question afresh", async () => {
    const first = await ask({ a: 1 });
    expect(await ask({ a: 1 })).toBe(first);
    expect(await ask({ a: 2 })).not.toBe(first);
    expect(computed).toBe(2);
  });

  it("asks again after an upload and after a deletion", async () => {
    const before = await ask({ b: 1 });
    const stored = await upload(iptables);
    const afterUpload = await ask({ b: 1 });
    expect(afterUpload.answer).toBeGreaterThan(before.answer);
    expect(await ask({ b: 1 })).toBe(afterUpload);
    await deleteBundle(db, stored.id);
    // Its scenario went with it: the data is as before the upload, but the answer kept for it was
    // replaced by the one after the upload, not kept beside it, so the question is asked again.
    const afterDeletion = await ask({ b: 1 });
    expect(afterDeletion).not.toBe(before);
    expect(afterDeletion.answer).toBeGreaterThan(afterUpload.answer);
    expect(await ask({ b: 1 })).toBe(afterDeletion);
    // A rerun into an existing scenario, then its deletion: that scenario's revision moves both times.
    const rerun = await upload({ ...overlay, runAt: "2026-11-20T00:00:00Z" });
    const afterRerun = await ask({ b: 1 });
    expect(afterRerun.answer).toBeGreaterThan(afterDeletion.answer);
    await deleteBundle(db, rerun.id);
    expect((await ask({ b: 1 })).answer).toBeGreaterThan(afterRerun.answer);
  });

  it("keeps answers apart by the workspaces the visitor may read", async () => {
    const other = await db.workspace.create({ data: { slug: "kept-other", name: "Other" } });
    const mine = await ask({ c: 1 });
    const both = await ask({ c: 1 }, [other.id, workspaceId]);
    expect(both).not.toBe(mine);
    expect(await ask({ c: 1 }, [workspaceId, other.id])).toBe(both);
  });

  it("keeps a procedure's answer by its path and input, never a refusal", async () => {
    let answered = 0;
    const answer = publicProcedure
      .input(z.object({ n: z.number() }))
      .use(keptUntilChange)
      .output(z.object({ n: z.number(), answered: z.number() }))
      .query(({ input }) => {
        answered += 1;
        if (input.n < 0) throw new TRPCError({ code: "NOT_FOUND", message: "no such n" });
        // Not in the output schema: the kept answer is the parsed one, without it.
        return { n: input.n, answered, dropped: true };
      });
    const router = createTRPCRouter({ one: answer, other: answer });
    const caller = createCallerFactory(router)({ db, access: { userId: null, readable: [workspaceId], roles: {} } });
    const first = await caller.one({ n: 1 });
    const again = await caller.one({ n: 1 });
    expect(first).toEqual({ n: 1, answered: 1 });
    expect(answered).toBe(1);
    // Every caller gets the one kept answer, as the output schema parsed it once.
    expect(again).toBe(first);
    // Another procedure with the same input, and the same procedure with another input, are asked.
    expect((await caller.other({ n: 1 })).answered).toBe(2);
    expect((await caller.one({ n: 2 })).answered).toBe(3);
    await expect(caller.one({ n: -1 })).rejects.toThrow("no such n");
    await expect(caller.one({ n: -1 })).rejects.toThrow("no such n");
    expect(answered).toBe(5);
  });

  it("keeps the guide's ranked answer, not only its figures, until an upload", async () => {
    const asked = { cloud: null, sku: null, services: 30_000, connections: "short" as const, needs: [] };
    const guide = () =>
      createCaller({ db, access: { userId: null, readable: [workspaceId], roles: {} } }).guide.recommend(asked);
    // What a fresh ranking of the store's figures answers, as the procedure's output schema hands it out.
    const ranked = async () =>
      JSON.stringify(guideOutputSchema.parse(await recommend(db, [workspaceId], guideInputSchema.parse(asked))));
    const first = await guide();
    // Not ranked again: the very object of the first answer, byte for byte a fresh ranking's.
    expect(await guide()).toBe(first);
    expect(JSON.stringify(first)).toBe(await ranked());

    // kube-proxy iptables' Service steps (9,057 requests/s at 30,000 Services): ranked again, cited.
    await upload({ ...iptables, runAt: "2026-06-01T00:00:00Z" });
    const after = await guide();
    expect(after).not.toBe(first);
    expect(JSON.stringify(after)).toBe(await ranked());
    expect(JSON.stringify(after)).toContain('"value":9057');
    expect(JSON.stringify(first)).not.toContain('"value":9057');
    expect(await guide()).toBe(after);
  });
});
