// Upload tokens write into their own workspace only, and reads of a private workspace need its token.
import { createToken } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { startIngest } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;
let teamId: string;
let teamToken: string;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startIngest(database.url);
  const team = await api.db.workspace.create({ data: { slug: "team-b", name: "Team B", visibility: "private" } });
  teamId = team.id;
  teamToken = (await createToken(api.db, team.id, "ci")).token;
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

const post = (path: string, token: string, body: unknown) =>
  fetch(`${api.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const bundle = (version: string) => ({ ...exampleBundle(), collector: { name: "t", version } });
const bundlesIn = (workspaceId: string) => api.db.bundle.count({ where: { workspaceId } });

describe("workspaces in the ingest API", () => {
  it("refuses a token of workspace A that names workspace B, and writes nothing there", async () => {
    const before = await bundlesIn(teamId);
    for (const path of ["/v1/bundles?workspace=team-b", "/v1/import?workspace=team-b"]) {
      const res = await post(path, api.token, bundle("a-into-b"));
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ error: "wrong_workspace" });
    }
    const back = await post("/v1/bundles?workspace=public", teamToken, bundle("b-into-public"));
    expect(back.status).toBe(403);
    expect(await bundlesIn(teamId)).toBe(before);
  });

  it("stores a workspace token's upload in its workspace, readable with that token only", async () => {
    const res = await post("/v1/bundles?workspace=team-b", teamToken, bundle("b-own"));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect((await api.db.bundle.findUniqueOrThrow({ where: { id } })).workspaceId).toBe(teamId);

    const read = (token?: string) =>
      fetch(`${api.base}/v1/bundles/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect((await read()).status).toBe(404);
    expect((await read(api.token)).status).toBe(404);
    expect((await read(teamToken)).status).toBe(200);
    const listed = async (token?: string) => {
      const r = await fetch(`${api.base}/v1/bundles`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      return ((await r.json()) as { items: { id: string }[] }).items.map((b) => b.id);
    };
    expect(await listed()).not.toContain(id);
    expect(await listed(teamToken)).toContain(id);
  });
});
