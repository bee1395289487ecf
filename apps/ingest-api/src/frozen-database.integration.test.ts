// PostgreSQL frozen (SIGSTOP) or killed (SIGKILL) under a running ingest-api: uploads and /readyz
// answer 503 with Retry-After within the database timeout (never 500, never hanging for the whole
// outage), and the API recovers by itself once PostgreSQL is back.
import fs from "node:fs";
import type { EmbeddedPostgres } from "@cnibench/launcher";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { startIngest } from "@cnibench/test-support/ingest";
import {
  DB_TIMEOUT_MS,
  expectUnavailable,
  killPostmaster,
  ownPostgres,
  recovery,
  restartPostgres,
  whileFrozen,
} from "@cnibench/test-support/postgres-faults";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("PostgreSQL frozen or killed under the ingest API", () => {
  let dataDir: string;
  let port: number;
  let pg: EmbeddedPostgres;
  let api: Awaited<ReturnType<typeof startIngest>>;
  let n = 0;
  // Bounded, so that the old behaviour (waiting for the whole outage) fails instead of hanging.
  const upload = () =>
    fetch(`${api.base}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.token}`, "content-type": "application/json" },
      body: JSON.stringify({ ...exampleBundle(), collector: { name: "frozen-test", version: String(++n) } }),
      signal: AbortSignal.timeout(20_000),
    });
  const readyz = () => fetch(`${api.base}/readyz`, { signal: AbortSignal.timeout(20_000) });

  beforeAll(async () => {
    ({ dataDir, port, pg } = await ownPostgres("cnibench-frozen-"));
    api = await startIngest(pg.url, { dbTimeoutMs: DB_TIMEOUT_MS });
  });
  afterAll(async () => {
    await api?.close();
    await pg?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 within the timeout while PostgreSQL is frozen, then recovers when it continues", async () => {
    expect((await upload()).status).toBe(201);
    const figures = await whileFrozen(pg.dataDir, async () => {
      let body: unknown;
      const stored = await expectUnavailable("an upload", async () => {
        const res = await upload();
        body = await res.json();
        return res;
      });
      expect(body).toMatchObject({ error: "database_unavailable" });
      return { upload: stored, readyz: await expectUnavailable("/readyz", readyz) };
    });
    const recovered = await recovery(async () => (await upload()).status === 201);
    expect((await readyz()).status).toBe(200);
    console.log(
      `frozen: upload answered 503 in ${figures.upload} ms, /readyz in ${figures.readyz} ms; recovered ${recovered} ms after SIGCONT`,
    );
  }, 50_000);

  it("answers 503 at once while PostgreSQL is killed, then recovers once it is restarted", async () => {
    await killPostmaster(pg);
    const stored = await expectUnavailable("an upload", upload);
    const ready = await expectUnavailable("/readyz", readyz);

    pg = await restartPostgres(dataDir, port);
    const recovered = await recovery(async () => (await upload()).status === 201);
    expect((await readyz()).status).toBe(200);
    console.log(
      `killed: upload answered 503 in ${stored} ms, /readyz in ${ready} ms; recovered ${recovered} ms after the restart`,
    );
  }, 50_000);
});
