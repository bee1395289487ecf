// No tRPC procedure shows a private workspace's rows to someone who is not its member, nor lets them
// write into it. The test enumerates the router: a procedure added without a case here fails it.
import {
  accessFor,
  createDb,
  createPermalink,
  createWorkspace,
  type Db,
  ensureDefaultWorkspace,
  ingestBundle,
  recordSignIn,
  setMember,
} from "@cnibench/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../../../test-support/database.ts";
import { tkeServiceScale } from "../../../../test-support/ingest.ts";
import { appRouter, createCaller } from "./root";

const { overlay, iptables } = tkeServiceScale();
// Words that only the private workspace's rows contain: any of them in an answer is a leak.
const secretBundle = {
  ...overlay,
  cluster: { ...(overlay.cluster as object), name: "zz-secret-cluster" },
  cni: { ...(overlay.cni as object), label: "ZZ Secret CNI" },
  source: { title: "ZZ secret source", url: "https://secret.example/" },
};

type Ids = { secretScenario: string; secretBundle: string; publicScenario: string; secretSlug: string };

/** For every procedure, inputs that aim at the private workspace. */
const attempts: Record<string, (ids: Ids) => unknown[]> = {
  "scenarios.explore": () => [{}, { source: ["ZZ secret source"] }],
  "scenarios.byId": (ids) => [{ id: ids.secretScenario }],
  "charts.crossover": (ids) => [
    { filters: {}, metric: "http.rps", x: "services", where: { connection: "short" }, y: "absolute" },
    {
      filters: {},
      scenarioIds: [ids.secretScenario],
      metric: "http.rps",
      x: "services",
      where: {},
      y: "absolute",
    },
  ],
  "charts.bars": (ids) => [
    { filters: {}, view: "throughput", percentile: "p99" },
    { filters: {}, scenarioIds: [ids.secretScenario], view: "latency", percentile: "p50" },
  ],
  "compare.view": (ids) => [{ scenarioIds: [ids.publicScenario, ids.secretScenario] }],
  "compare.share": (ids) => [{ scenarioIds: [ids.publicScenario, ids.secretScenario], view: {} }],
  "compare.permalink": (ids) => [{ slug: ids.secretSlug }],
  "compare.publish": (ids) => [{ slug: ids.secretSlug, published: true }],
  "guide.recommend": () => [{ cloud: null, sku: null, services: 30000, connections: "short", needs: [] }],
  "workspaces.list": () => [undefined],
  "workspaces.bySlug": () => [{ slug: "secret-team" }],
  "workspaces.create": () => [{ slug: "secret-team", name: "Take over", visibility: "public" }],
  "workspaces.setVisibility": () => [{ slug: "secret-team", visibility: "public" }],
  "workspaces.setMember": () => [{ slug: "secret-team", email: "stranger@example.test", role: "owner" }],
  "workspaces.removeMember": () => [{ slug: "secret-team", userId: "anyone" }],
  "workspaces.createToken": () => [{ slug: "secret-team", name: "mine" }],
  "workspaces.revokeToken": () => [{ slug: "secret-team", name: "ci" }],
  "workspaces.deleteBundle": (ids) => [{ bundleId: ids.secretBundle }],
  "workspaces.upload": () => [{ slug: "secret-team", filename: "x.json", text: JSON.stringify(iptables) }],
};

describe("access: every tRPC procedure, as a stranger and signed out", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let ids: Ids;
  let ownerId: string;
  let strangerId: string;
  let secretWorkspaceId: string;
  const secrets: string[] = [];

  const writes = async () =>
    Promise.all([
      db.bundle.count({ where: { workspaceId: secretWorkspaceId } }),
      db.apiToken.count({ where: { workspaceId: secretWorkspaceId, revokedAt: null } }),
      db.membership.count({ where: { workspaceId: secretWorkspaceId } }),
      db.workspace.count({ where: { id: secretWorkspaceId, visibility: "private" } }),
      db.permalink.count({ where: { published: true } }),
    ]);

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    const open = await ensureDefaultWorkspace(db);
    const owner = await recordSignIn(db, { issuer: "t", subject: "owner", email: "owner@example.test", name: "O" });
    const stranger = await recordSignIn(db, { issuer: "t", subject: "s", email: "stranger@example.test", name: "S" });
    ownerId = owner.id;
    strangerId = stranger.id;
    const secret = await createWorkspace(db, owner.id, {
      slug: "secret-team",
      name: "ZZ Secret team",
      visibility: "private",
    });
    secretWorkspaceId = secret.id;
    await db.apiToken.create({ data: { workspaceId: secret.id, name: "ci", tokenHash: "zz-secret-hash" } });
    const pub = await ingestBundle(db, { workspaceId: open.id, tokenId: null, text: JSON.stringify(iptables) });
    const priv = await ingestBundle(db, { workspaceId: secret.id, tokenId: null, text: JSON.stringify(secretBundle) });
    if (!pub.ok || !priv.ok) throw new Error("fixtures did not ingest");
    const link = await createPermalink(db, await accessFor(db, owner.id), {
      scenarioIds: [pub.stored.scenarioId, priv.stored.scenarioId],
      view: {},
    });
    ids = {
      secretScenario: priv.stored.scenarioId,
      secretBundle: priv.stored.id,
      publicScenario: pub.stored.scenarioId,
      secretSlug: link?.slug ?? "",
    };
    secrets.push(ids.secretScenario, ids.secretBundle, secret.id, "zz-secret", "ZZ Secret", "ZZ secret");
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  const callAs = async (userId: string | null, path: string, input: unknown) => {
    const caller = createCaller({ db, access: await accessFor(db, userId) });
    const procedure = path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], caller);
    return (procedure as (input: unknown) => Promise<unknown>)(input);
  };

  it("has a case for every procedure of the router", () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(procedures.length).toBeGreaterThan(10);
    expect(Object.keys(attempts).sort()).toEqual(procedures);
  });

  it("shows the private rows to a member (so the leak check below can see them)", async () => {
    const explore = await callAs(ownerId, "scenarios.explore", {});
    expect(JSON.stringify(explore)).toContain("ZZ Secret CNI");
    const viewer = await recordSignIn(db, { issuer: "t", subject: "v", email: "viewer@example.test", name: "V" });
    await setMember(db, secretWorkspaceId, "viewer@example.test", "viewer");
    expect(JSON.stringify(await callAs(viewer.id, "scenarios.byId", { id: ids.secretScenario }))).toContain(
      "zz-secret-cluster",
    );
  });

  for (const [who, user] of [
    ["signed out", () => null],
    ["a signed-in stranger", () => strangerId],
  ] as const) {
    it(`returns no private row and writes nothing, ${who}`, async () => {
      const before = await writes();
      for (const path of Object.keys(appRouter._def.procedures)) {
        for (const input of attempts[path]?.(ids) ?? []) {
          let answer: unknown;
          try {
            answer = await callAs(user(), path, input);
          } catch (error) {
            const code = (error as { code?: string }).code;
            // CONFLICT: a slug is taken (workspace names are global); nothing of it is shown.
            expect(
              ["NOT_FOUND", "FORBIDDEN", "UNAUTHORIZED", "CONFLICT"],
              `${path} ${JSON.stringify(input)}`,
            ).toContain(code);
            continue;
          }
          // An id the caller sent may come back as "unknown" (as any made-up id would): not a leak.
          const sent = JSON.stringify(input) ?? "";
          const text = secrets
            .filter((x) => sent.includes(x))
            .reduce((t, x) => t.replaceAll(x, ""), JSON.stringify(answer) ?? "");
          for (const secret of secrets) expect(text, `${path} answered with "${secret}"`).not.toContain(secret);
        }
      }
      expect(await writes()).toEqual(before);
    });
  }
});
