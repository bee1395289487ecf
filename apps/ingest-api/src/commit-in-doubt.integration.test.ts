// The one 503 that may have written (issue 43): PostgreSQL freezes after it has received an upload's
// COMMIT; the API gives up after CNIBENCH_DB_TIMEOUT_MS and answers 503, and once PostgreSQL
// continues the transaction commits. The answer must not say "nothing was stored": it says the
// outcome is unknown (stored: "unknown"), and sending the same upload again answers 200 with the id.
import fs from "node:fs";
import type { EmbeddedPostgres } from "@cnibench/launcher";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { startIngest } from "@cnibench/test-support/ingest";
import { DB_TIMEOUT_MS, ownPostgres, recovery, whileFrozen } from "@cnibench/test-support/postgres-faults";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("PostgreSQL frozen while it commits an upload", () => {
  let dataDir: string;
  let server: EmbeddedPostgres;
  let api: Awaited<ReturnType<typeof startIngest>>;
  const query = pg.Client.prototype.query;
  let freezeAtCommit = false;

  beforeAll(async () => {
    ({ dataDir, pg: server } = await ownPostgres("cnibench-commit-"));
    api = await startIngest(server.url, { dbTimeoutMs: DB_TIMEOUT_MS });
    // The freeze must fall between COMMIT being sent and its answer: the whole server stopped until
    // the client's query timeout has given up on it.
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (!freezeAtCommit || args[0] !== "COMMIT") return (query as (...a: unknown[]) => unknown).apply(this, args);
      freezeAtCommit = false;
      // Stopped first, then sent: COMMIT waits in the socket until the server continues.
      return whileFrozen(dataDir, () => (query as (...a: unknown[]) => Promise<unknown>).apply(this, args));
    } as typeof query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await api?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 saying the upload may have been stored; the same upload again finds it", async () => {
    const body = JSON.stringify({ ...exampleBundle(), collector: { name: "commit-in-doubt", version: "1" } });
    const upload = () =>
      fetch(`${api.base}/v1/bundles`, {
        method: "POST",
        headers: { authorization: `Bearer ${api.token}`, "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(30_000),
      });
    const before = await api.db.bundle.count();
    freezeAtCommit = true;
    const res = await upload();
    const answer = (await res.json()) as { error: string; message: string; stored?: string };
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(answer).toMatchObject({ error: "database_unavailable", stored: "unknown" });
    expect(answer.message).toContain("may have been stored");
    expect(answer.message).not.toContain("nothing was stored");

    // PostgreSQL continued: the COMMIT it had received went through.
    await recovery(async () => (await api.db.bundle.count()) === before + 1);
    const again = await upload();
    expect(again.status).toBe(200);
    expect(await api.db.bundle.count()).toBe(before + 1);
  });
});
