// The access matrix of the ingest API: every route × every kind of token a request can carry. Only a
// live token of the victim's workspace reads its bundles or writes into it, and only one an owner
// created deletes there (a member's is refused 403); a live read token reads there and is refused every
// write (403); a revoked token, the token of a member who left or became a viewer, a made-up token and
// another workspace's token are strangers, to whom the victim's metrics feed does not exist (404).
// The test enumerates the routes: one added without a case here fails it.
import {
  createDb,
  createToken,
  createWebhook,
  createWorkspace,
  type Db,
  ensureDefaultWorkspace,
  ingestBundle,
  recordSignIn,
  removeMember,
  revokeToken,
  setMember,
} from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle, iperf3Fixture } from "@cnibench/test-support/fixtures";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "./server.ts";

const tokenKinds = [
  "none",
  "made up",
  "another workspace's",
  "revoked",
  "of a member who left",
  "of a member made viewer",
  "live victim's",
  "live victim owner's",
  "live victim's read",
] as const;
type TokenKind = (typeof tokenKinds)[number];

type Ids = {
  victimBundle: string;
  n: number;
  doomed: () => Promise<{ bundleId: string; campaign: string }>;
  /** A webhook of the victim's, for a pause or delete to aim at. */
  hook: () => Promise<string>;
};
type Request = { path: string; init?: RequestInit };
/**
 * Per route: the request, and whether it reads or changes the victim's private data (then only its live
 * tokens may), or deletes there (then only its owner's).
 */
const routes: Record<
  string,
  {
    send: (ids: Ids) => Request | Promise<Request>;
    private: boolean;
    owner?: true;
    /** Needs an upload token: a read token is refused 403. */
    write?: true;
    /** A stranger is told the victim's workspace does not exist: 404. */
    hidden?: true;
    /** What a stranger's POST is answered (default 401 or 403): a read-only POST says "not found". */
    refused?: number[];
  }
> = {
  "GET /healthz": { send: () => ({ path: "/healthz" }), private: false },
  "GET /readyz": { send: () => ({ path: "/readyz" }), private: false },
  "GET /v1/schema": { send: () => ({ path: "/v1/schema" }), private: false },
  "GET /v1/openapi.json": { send: () => ({ path: "/v1/openapi.json" }), private: false },
  "GET /v1/bundles": { send: () => ({ path: "/v1/bundles?pageSize=500" }), private: true },
  "GET /v1/bundles/:id": { send: (ids) => ({ path: `/v1/bundles/${ids.victimBundle}` }), private: true },
  "POST /v1/bundles": {
    send: (ids) => ({
      path: "/v1/bundles?workspace=victim-team",
      init: {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...exampleBundle(), collector: { name: "matrix", version: String(ids.n) } }),
      },
    }),
    private: true,
    write: true,
  },
  "DELETE /v1/bundles/:id": {
    send: async (ids) => ({ path: `/v1/bundles/${(await ids.doomed()).bundleId}`, init: { method: "DELETE" } }),
    private: true,
    owner: true,
    write: true,
  },
  "DELETE /v1/campaigns/*": {
    send: async (ids) => ({
      path: `/v1/campaigns/${encodeURIComponent((await ids.doomed()).campaign)}`,
      init: { method: "DELETE" },
    }),
    private: true,
    owner: true,
    write: true,
  },
  "POST /v1/campaigns/close": {
    send: async (ids) => ({
      path: "/v1/campaigns/close",
      init: {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ campaign: (await ids.doomed()).campaign }),
      },
    }),
    private: true,
    write: true,
    // Another workspace's token is told the campaign does not exist.
    refused: [401, 404],
  },
  "GET /v1/webhooks": { send: () => ({ path: "/v1/webhooks" }), private: true, owner: true, write: true },
  "POST /v1/webhooks": {
    send: (ids) => ({
      path: "/v1/webhooks",
      init: {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          url: `https://hooks.example.test/m-${ids.n}`,
          format: "json",
          events: ["change-point"],
        }),
      },
    }),
    private: true,
    owner: true,
    write: true,
  },
  "PATCH /v1/webhooks/:id": {
    send: async (ids) => ({
      path: `/v1/webhooks/${await ids.hook()}`,
      init: {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ paused: true }),
      },
    }),
    private: true,
    owner: true,
    write: true,
  },
  "DELETE /v1/webhooks/:id": {
    send: async (ids) => ({ path: `/v1/webhooks/${await ids.hook()}`, init: { method: "DELETE" } }),
    private: true,
    owner: true,
    write: true,
  },
  "POST /v1/gate": {
    send: (ids) => ({
      path: "/v1/gate",
      init: {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          candidate: { bundleIds: [ids.victimBundle] },
          baseline: { bundleIds: [ids.victimBundle] },
        }),
      },
    }),
    private: true,
    write: true,
    // A live token of another workspace reads as if the victim's bundle did not exist.
    refused: [401, 404],
  },
  "POST /v1/import": {
    send: (ids) => ({
      path: `/v1/import?workspace=victim-team&cluster=c${ids.n}&provider=on-prem&sku=x&kernel=6.1&cni=cilium&mode=native`,
      init: { method: "POST", headers: { "content-type": "application/octet-stream" }, body: iperf3Fixture() },
    }),
    private: true,
    write: true,
  },
  "GET /v1/workspaces/:slug/metrics": {
    send: () => ({ path: "/v1/workspaces/victim-team/metrics" }),
    private: true,
    hidden: true,
  },
  "GET /v1/workspaces/:slug/figures.json": {
    send: () => ({ path: "/v1/workspaces/victim-team/figures.json" }),
    private: true,
    hidden: true,
  },
};

describe("ingest API access matrix: every route × every kind of token", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  let victimId: string;
  let victimBundle: string;
  const tokens = {} as Record<TokenKind, string | null>;
  const seen: string[] = [];

  beforeAll(async () => {
    database = await freshDatabase();
    db = createDb(database.url);
    const open = await ensureDefaultWorkspace(db);
    const signIn = async (s: string) =>
      (await recordSignIn(db, { issuer: "t", subject: s, email: `${s}@example.test`, name: s })).id;
    await signIn("admin");
    const owner = await signIn("owner");
    const leaver = await signIn("leaver");
    const demoted = await signIn("demoted");
    const member = await signIn("member");
    victimId = (await createWorkspace(db, owner, { slug: "victim-team", name: "ZZ Victim", visibility: "private" })).id;
    for (const who of ["leaver", "demoted", "member"]) await setMember(db, victimId, `${who}@example.test`, "member");
    tokens.none = null;
    tokens["made up"] = "cnb_madeupmadeupmadeupmadeupmadeupmadeupmadeup";
    tokens["another workspace's"] = (await createToken(db, open.id, "public-ci")).token;
    const revoked = await createToken(db, victimId, "revoked", member);
    await revokeToken(db, victimId, "revoked");
    tokens.revoked = revoked.token;
    tokens["of a member who left"] = (await createToken(db, victimId, "leaver-ci", leaver)).token;
    await removeMember(db, victimId, leaver);
    tokens["of a member made viewer"] = (await createToken(db, victimId, "demoted-ci", demoted)).token;
    await setMember(db, victimId, "demoted@example.test", "viewer");
    tokens["live victim's"] = (await createToken(db, victimId, "live-ci", member)).token;
    tokens["live victim owner's"] = (await createToken(db, victimId, "owner-ci", owner)).token;
    tokens["live victim's read"] = (await createToken(db, victimId, "grafana", member, "read")).token;

    const stored = await ingestBundle(db, {
      workspaceId: victimId,
      tokenId: null,
      text: JSON.stringify({
        ...exampleBundle(),
        cluster: { ...(exampleBundle().cluster as object), name: "zz-victim-cluster" },
      }),
    });
    if (!stored.ok) throw new Error("fixture did not ingest");
    victimBundle = stored.stored.id;

    app = buildServer({
      db,
      publicApiUrl: "http://api.example",
      publicWebUrl: "http://web.example",
      rateLimitPerMinute: 1_000_000,
      logLevel: "silent",
    });
    app.addHook("onRoute", (r) => {
      for (const method of [r.method].flat()) if (method !== "HEAD") seen.push(`${method} ${r.url}`);
    });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await db.$disconnect();
    await database.drop();
  });

  it("has a case for every route", () => {
    expect([...new Set(seen)].sort()).toEqual(Object.keys(routes).sort());
  });

  let n = 0;
  /** A bundle of the victim's, in a campaign of its own, for a delete to aim at. */
  const doomed = async () => {
    const campaign = `zz-doomed/${++n}`;
    const stored = await ingestBundle(db, {
      workspaceId: victimId,
      tokenId: null,
      // A run of its own: the same figures again would be the stored run, whatever the campaign.
      text: JSON.stringify({ ...exampleBundle(), campaign, collector: { name: "doomed", command: campaign } }),
    });
    if (!stored.ok) throw new Error("fixture did not ingest");
    return { bundleId: stored.stored.id, campaign };
  };

  const hook = async () =>
    (
      await createWebhook(
        db,
        { workspaceId: victimId, url: `https://hooks.example.test/h-${++n}`, format: "json", events: ["change-point"] },
        { allow: [], ownPorts: [] },
      )
    ).id;

  it.each(tokenKinds)("a request with %s token sees and changes the victim's data only when it may", async (kind) => {
    const live = kind === "live victim's" || kind === "live victim owner's" || kind === "live victim's read";
    const readOnly = kind === "live victim's read";
    for (const [route, spec] of Object.entries(routes)) {
      const { path, init } = await spec.send({ victimBundle, n: ++n, doomed, hook });
      const before = await db.bundle.count({ where: { workspaceId: victimId } });
      const headers = new Headers(init?.headers);
      if (tokens[kind]) headers.set("authorization", `Bearer ${tokens[kind]}`);
      const res = await fetch(`${base}${path}`, { ...init, headers });
      const text = await res.text();
      expect(res.status, `${kind}: ${route}`).toBeLessThan(500);
      if (readOnly && spec.write) {
        expect(res.status, `${kind}: ${route}`).toBe(403);
        expect(JSON.parse(text), `${kind}: ${route}`).toMatchObject({ error: "read_only_token" });
        expect(await db.bundle.count({ where: { workspaceId: victimId } }), `${kind}: ${route} wrote`).toBe(before);
        continue;
      }
      if (!spec.private || (live && (!spec.owner || kind === "live victim owner's"))) {
        expect(res.status, `${kind}: ${route} ${text.slice(0, 200)}`).toBeLessThan(300);
        continue;
      }
      expect(text, `${kind}: ${route}`).not.toContain("zz-victim-cluster");
      expect(text, `${kind}: ${route}`).not.toContain("ZZ Victim");
      expect(await db.bundle.count({ where: { workspaceId: victimId } }), `${kind}: ${route} wrote`).toBe(before);
      if (spec.hidden) expect(res.status, `${kind}: ${route}`).toBe(404);
      if (init?.method === "POST") expect(spec.refused ?? [401, 403], `${kind}: ${route}`).toContain(res.status);
      // A member's token learns nothing it could not read; another workspace's is told nothing exists.
      if (init?.method === "DELETE") {
        const expected = live ? 403 : kind === "another workspace's" ? 404 : 401;
        expect(res.status, `${kind}: ${route}`).toBe(expected);
      }
    }
  });
});
