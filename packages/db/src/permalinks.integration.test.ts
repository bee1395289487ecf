import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Access, accessFor, createWorkspace, removeMember, setMember } from "./access.ts";
import { deleteBundle } from "./bundles.ts";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import {
  createPermalink,
  getPermalink,
  listWorkspacePermalinks,
  revokePermalink,
  setPermalinkPublished,
} from "./permalinks.ts";
import { recordSignIn } from "./users.ts";
import { compareView } from "./views.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

const { overlay, iptables } = tkeServiceScale();

describe("permalinks", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  let anonymous: Access;
  const put = async (bundle: object, into = workspaceId) => {
    const outcome = await ingestBundle(db, { workspaceId: into, tokenId: null, text: JSON.stringify(bundle) });
    if (!outcome.ok) throw new Error("bundle did not ingest");
    return outcome.stored;
  };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    anonymous = await accessFor(db, null);
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("pins the bundles current when shared, and says what changed since", async () => {
    const a = await put(iptables);
    const c = await put(overlay);
    const link = await createPermalink(db, anonymous, {
      scenarioIds: [a.scenarioId, c.scenarioId],
      view: {},
    });
    expect(link?.slug).toMatch(/^[\w-]{8}$/);
    expect(link?.pins.map((p) => p.bundleId).sort()).toEqual([a.id, c.id].sort());

    const newer = await put({
      ...overlay,
      runAt: "2026-03-01T00:00:00Z",
      results: [{ ...overlay.results[0], value: 15000 }],
    });
    const later = await getPermalink(db, anonymous, link?.slug ?? "");
    expect(later?.newer).toEqual([{ bundleId: newer.id, scenarioId: c.scenarioId }]);
    expect(later?.missing).toEqual([]);

    // The pinned view still shows the first run's 14,193 req/s at 0 Services; the live view the new one.
    const pinned = await compareView(db, [workspaceId], {
      scenarioIds: later?.scenarioIds ?? [],
      bundleIds: later?.pins.map((p) => p.bundleId),
    });
    const live = await compareView(db, [workspaceId], { scenarioIds: later?.scenarioIds ?? [] });
    const at0 = (v: typeof live) =>
      v.figures.find((f) => f.scenarioId === c.scenarioId && f.params.services === 0)?.value;
    expect(at0(pinned)).toBe(14193);
    expect(at0(live)).toBe(15000);

    expect(await deleteBundle(db, a.id)).toEqual({ scenarioId: a.scenarioId, scenarioDeleted: true });
    expect(await db.measurement.count({ where: { bundleId: a.id } })).toBe(0);
    const afterDelete = await getPermalink(db, anonymous, link?.slug ?? "");
    expect(afterDelete?.missing.map((m) => [m.bundleId, m.label])).toEqual([
      [a.id, "Cilium Network Performance Benchmark — Service scale: short-connection RPS, Cilium Overlay column"],
    ]);
  });

  it("keeps a private workspace's permalink to its readers until an owner publishes it, then shows only its pins", async () => {
    const owner = await recordSignIn(db, { issuer: "t", subject: "owner", email: "o@example.test", name: "o" });
    const stranger = await recordSignIn(db, { issuer: "t", subject: "s", email: "s@example.test", name: "s" });
    const team = await createWorkspace(db, owner.id, { slug: "team-p", name: "Team", visibility: "private" });
    const ownerAccess = await accessFor(db, owner.id);
    const strangerAccess = await accessFor(db, stranger.id);
    const preProd = { ...overlay, cluster: { ...(overlay.cluster as object), name: "pre-prod" } };
    const mine = await put(preProd, team.id);
    const open = await put({ ...iptables, runAt: "2026-05-01T00:00:00Z" });
    // A stranger cannot pin a private scenario; its owner can, beside a public one.
    expect(await createPermalink(db, strangerAccess, { scenarioIds: [mine.scenarioId], view: {} })).toBeNull();
    const link = await createPermalink(db, ownerAccess, { scenarioIds: [open.scenarioId, mine.scenarioId], view: {} });
    const slug = link?.slug ?? "";
    expect((await getPermalink(db, ownerAccess, slug))?.canPublish).toBe(true);
    expect(await getPermalink(db, strangerAccess, slug)).toBeNull();
    expect(await getPermalink(db, anonymous, slug)).toBeNull();
    expect(await setPermalinkPublished(db, strangerAccess, slug, true)).toBe(false);

    expect(await setPermalinkPublished(db, ownerAccess, slug, true)).toBe(true);
    await put({ ...preProd, runAt: "2026-06-01T00:00:00Z" }, team.id);
    const seen = await getPermalink(db, anonymous, slug);
    expect(seen?.pinnedOnly).toBe(true);
    expect(seen?.canPublish).toBe(false);
    expect(seen?.newer).toEqual([]); // the later private upload is not revealed
    expect(seen?.pins.map((p) => p.bundleId).sort()).toEqual(link?.pins.map((p) => p.bundleId).sort());
  });

  it("publishes a link pinning two teams' private data only when an owner of each agrees", async () => {
    // Issue 21: Alice, only a viewer of Bob's private workspace, shared her scenario beside his and
    // published it alone; a signed-out visitor then read Bob's labels and figures.
    const alice = await recordSignIn(db, { issuer: "t", subject: "alice", email: "alice@example.test", name: "A" });
    const bob = await recordSignIn(db, { issuer: "t", subject: "bob", email: "bob@example.test", name: "B" });
    const aliceTeam = await createWorkspace(db, alice.id, {
      slug: "alice-team",
      name: "Alice's",
      visibility: "private",
    });
    const bobTeam = await createWorkspace(db, bob.id, { slug: "bob-team", name: "Bob's", visibility: "private" });
    await setMember(db, bobTeam.id, "alice@example.test", "viewer");
    const hers = await put({ ...overlay, cluster: { ...(overlay.cluster as object), name: "alice-1" } }, aliceTeam.id);
    const his = await put({ ...iptables, cluster: { ...(iptables.cluster as object), name: "bob-1" } }, bobTeam.id);
    const aliceAccess = await accessFor(db, alice.id);
    const bobAccess = await accessFor(db, bob.id);
    const link = await createPermalink(db, aliceAccess, { scenarioIds: [hers.scenarioId, his.scenarioId], view: {} });
    const slug = link?.slug ?? "";

    // Alice agrees for her workspace: still private, and Bob's part is not hers to publish.
    expect(await setPermalinkPublished(db, aliceAccess, slug, true)).toBe(true);
    expect(await getPermalink(db, anonymous, slug)).toBeNull();
    expect((await getPermalink(db, aliceAccess, slug))?.approvals).toEqual([
      { slug: "alice-team", name: "Alice's", agreed: true },
      { slug: "bob-team", name: "Bob's", agreed: false },
    ]);
    // Bob cannot open it (he does not read Alice's workspace), but he lists it and may agree or delete.
    expect(await getPermalink(db, bobAccess, slug)).toBeNull();
    expect((await listWorkspacePermalinks(db, bobTeam.id)).map((l) => [l.slug, l.published, l.approved])).toEqual([
      [slug, false, false],
    ]);
    expect(await setPermalinkPublished(db, bobAccess, slug, true)).toBe(true);
    const open = await getPermalink(db, anonymous, slug);
    expect(open?.pinnedOnly).toBe(true);
    expect(open?.approvals).toEqual([]); // workspaces are not named to strangers

    // Either owner withdraws: private again. Removing Alice from Bob's team changes nothing of that.
    expect(await setPermalinkPublished(db, bobAccess, slug, false)).toBe(true);
    expect(await getPermalink(db, anonymous, slug)).toBeNull();
    await removeMember(db, bobTeam.id, alice.id);
    expect(await setPermalinkPublished(db, await accessFor(db, alice.id), slug, true)).toBe(true);
    expect(await getPermalink(db, anonymous, slug)).toBeNull();

    // Deleting every pinned bundle does not make the link public either.
    expect(await deleteBundle(db, his.id)).not.toBeNull();
    expect(await deleteBundle(db, hers.id)).not.toBeNull();
    expect(await getPermalink(db, anonymous, slug)).toBeNull();
    expect(await getPermalink(db, await accessFor(db, null), slug)).toBeNull();

    // Bob deletes it for good; a stranger could not have.
    const stranger = await accessFor(
      db,
      (await recordSignIn(db, { issuer: "t", subject: "x", email: null, name: "X" })).id,
    );
    expect(await revokePermalink(db, stranger, slug)).toBe(false);
    expect(await revokePermalink(db, bobAccess, slug)).toBe(true);
    expect(await db.permalink.count({ where: { slug } })).toBe(0);
  });

  it("tells nothing of uploads made after the pins: counts, dates and sources are the pinned ones", async () => {
    // A scenario of its own (the region is part of its identity), so other tests leave it alone.
    const cluster = { ...(overlay.cluster as object), region: "zz-after-pins" };
    const first = await put({ ...overlay, cluster, source: { title: "Pinned source" }, runAt: "2026-03-01T00:00:00Z" });
    const link = await createPermalink(db, anonymous, { scenarioIds: [first.scenarioId], view: {} });
    await put({ ...overlay, cluster, source: { title: "ZZ later source" }, runAt: "2026-09-01T00:00:00Z" });
    const pinned = await compareView(db, [workspaceId], {
      scenarioIds: [first.scenarioId],
      bundleIds: link?.pins.map((p) => p.bundleId),
    });
    const [scenario] = pinned.scenarios;
    expect(scenario?.bundleCount).toBe(1);
    expect(scenario?.sources).toEqual(["Pinned source"]);
    expect(scenario?.lastRunAt?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("recounts a scenario when one of its bundles is deleted, and keeps the other's figures", async () => {
    const first = await put({ ...overlay, cluster: { ...(overlay.cluster as object), name: "recount" } });
    const second = await put({
      ...overlay,
      cluster: { ...(overlay.cluster as object), name: "recount" },
      runAt: "2026-07-01T00:00:00Z",
      source: { title: "Second run" },
    });
    expect(second.scenarioId).toBe(first.scenarioId);
    const stats = () =>
      db.scenario.findUniqueOrThrow({
        where: { id: first.scenarioId },
        select: { bundleCount: true, lastRunAt: true, sources: true },
      });
    expect((await stats()).bundleCount).toBeGreaterThanOrEqual(2);
    const before = await stats();
    expect(await deleteBundle(db, second.id)).toEqual({ scenarioId: first.scenarioId, scenarioDeleted: false });
    const after = await stats();
    expect(after.bundleCount).toBe(before.bundleCount - 1);
    expect(after.sources).not.toContain("Second run");
    expect(after.lastRunAt?.getTime()).toBeLessThan(new Date("2026-07-01T00:00:00Z").getTime());
    expect(await deleteBundle(db, second.id)).toBeNull();
  });

  it("refuses unknown scenarios and finds no unknown slug", async () => {
    expect(await createPermalink(db, anonymous, { scenarioIds: ["nope", "nada"], view: {} })).toBeNull();
    expect(await getPermalink(db, anonymous, "missing1")).toBeNull();
  });
});
