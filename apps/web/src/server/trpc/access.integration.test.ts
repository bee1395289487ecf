// The access matrix of the web app's tRPC procedures: every procedure × every kind of actor × every
// state of a victim's private data (a permalink unpublished, then published, after newer uploads, after
// deletions). Nobody reads a private row they may not read, nobody writes where their role does not
// allow, and every write is allowed exactly to the roles the README's Security table names. The test
// enumerates the router: a procedure added without a case here fails it.
import {
  accessFor,
  createDb,
  createPermalink,
  createToken,
  createWebhook,
  createWorkspace,
  type Db,
  deleteBundle,
  ensureDefaultWorkspace,
  ingestBundle,
  invite,
  recordSignIn,
  setMember,
  setPermalinkPublished,
} from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { tkeServiceScale } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter, createCaller } from "./root";
import { type WriteLimitError, writeLimits } from "./trpc";

const { overlay, iptables } = tkeServiceScale();
const withCluster = (bundle: object, cluster: object) => ({
  ...bundle,
  cluster: { ...((bundle as { cluster: object }).cluster ?? {}), ...cluster },
});

// Words only the victim's private rows hold. Pinned ones a published permalink may show to anyone;
// the rest never leave the victim's readers.
const pinnedSecrets = ["zz-pinned-cluster", "ZZ Pinned CNI", "ZZ pinned source"];
// "ZZ Renamed CNI" renames the victim's scenario after its permalink was published: the permalink
// keeps the pinned name (issue 43: its embed, CSV, badge and tRPC showed the new one signed out).
const neverSecrets = [
  "zz-newer-cluster",
  "ZZ newer source",
  "ZZ Renamed CNI",
  "ZZ Victim team",
  "victim-team",
  "zz-token",
  "zz-hook",
];
const victimPinned = withCluster(
  { ...overlay, cni: { ...(overlay.cni as object), label: "ZZ Pinned CNI" }, source: { title: "ZZ pinned source" } },
  { name: "zz-pinned-cluster", region: "zz-region" },
);
const victimNewer = withCluster(
  {
    ...victimPinned,
    cni: { ...(overlay.cni as object), label: "ZZ Renamed CNI" },
    source: { title: "ZZ newer source" },
    runAt: "2026-10-01T00:00:00Z",
  },
  { name: "zz-newer-cluster", region: "zz-region" },
);

const actors = ["signed out", "stranger", "viewer", "member", "owner", "other team's owner"] as const;
type Actor = (typeof actors)[number];
type Role = "viewer" | "member" | "owner";
const roleOf: Record<Actor, Role | null> = {
  "signed out": null,
  stranger: null,
  viewer: "viewer",
  member: "member",
  owner: "owner",
  "other team's owner": null,
};
const rank = (role: Role | null) => (role ? ["viewer", "member", "owner"].indexOf(role) : -1);
const states = ["unpublished", "published", "after newer uploads", "after deletions"] as const;

type Ids = {
  publicScenario: string;
  victimScenario: string;
  victimBundle: string;
  /** Pins a public scenario and the victim's: its owner publishes it in state "published". */
  victimLink: string;
  /** Pins the viewer's own private scenario and the victim's: only the viewer agreed to publish it. */
  viewerLink: string;
};

/** Read procedures: inputs that aim at the victim's data. */
const reads: Record<string, (ids: Ids) => unknown[]> = {
  "scenarios.explore": () => [{}, { source: ["ZZ pinned source"], columns: ["tcpPod1", "shortRps", "rpsUnstated"] }],
  "scenarios.byId": (ids) => [{ id: ids.victimScenario }, { id: ids.victimScenario, history: "all" }],
  "scenarios.history": (ids) =>
    [ids.victimScenario, ids.publicScenario].map((scenarioId) => ({
      scenarioId,
      metric: "http.rps",
      params: { connection: "short", concurrency: 64, target: "service", services: 0 },
    })),
  "charts.crossover": (ids) => [
    { filters: {}, metric: "http.rps", x: "services", where: { connection: "short" }, y: "absolute" },
    { filters: {}, scenarioIds: [ids.victimScenario], metric: "http.rps", x: "services", where: {}, y: "absolute" },
  ],
  "charts.testbeds": (ids) => [{ filters: {} }, { filters: {}, scenarioIds: [ids.victimScenario] }],
  "charts.bars": (ids) => [
    { filters: {}, view: "throughput", percentile: "p99" },
    { filters: {}, scenarioIds: [ids.victimScenario], view: "latency", percentile: "p50" },
  ],
  "compare.view": (ids) => [{ scenarioIds: [ids.publicScenario, ids.victimScenario] }],
  "compare.permalink": (ids) => [{ slug: ids.victimLink }, { slug: ids.viewerLink }],
  "guide.recommend": () => [{ cloud: null, sku: null, services: 30000, connections: "short", needs: [] }],
  "workspaces.list": () => [undefined],
  // The signed-in user's own invitations: the victim's throwaway ones go to addresses no actor holds.
  "workspaces.invitations": () => [undefined],
  "workspaces.bySlug": () => [{ slug: "victim-team" }],
  // Owners only (a viewer or member is FORBIDDEN): checked apart below.
  "webhooks.list": () => [{ slug: "victim-team" }],
  "webhooks.deliveries": () => [{ slug: "victim-team" }, { slug: "victim-team", webhookId: "x", limit: 5 }],
};

/**
 * Write procedures: the least role on the victim's workspace that may call it ("signed in": any
 * signed-in user; "the invitee": only the holder of the invited address, none of the actors), and a
 * fresh input aimed at the victim's workspace for each call.
 */
type WriteCase = {
  needs: Role | "signed in" | "the invitee";
  input: (ids: Ids, n: number) => Promise<unknown> | unknown;
};
let fixtures: {
  db: Db;
  victimId: string;
  ownerId: string;
  userIds: Record<Actor, string | null>;
  throwawayBundle: () => Promise<string>;
  throwawayCampaign: () => Promise<{ scenarioId: string; campaign: string }>;
  throwawayMember: () => Promise<string>;
  /** An invitation into the victim's workspace for an address none of the actors holds. */
  throwawayInvitation: () => Promise<{ id: string; email: string }>;
  throwawayLink: () => Promise<string>;
  throwawayWebhook: () => Promise<string>;
};
const writes: Record<string, WriteCase> = {
  "workspaces.create": {
    needs: "signed in",
    input: (_, n) => ({ slug: `new-${n}`, name: "New", visibility: "private" }),
  },
  "workspaces.setVisibility": { needs: "owner", input: () => ({ slug: "victim-team", visibility: "private" }) },
  "workspaces.invite": {
    needs: "owner",
    input: (_, n) => ({ slug: "victim-team", email: `invitee-${n}@example.test`, role: "member" }),
  },
  "workspaces.withdrawInvitation": {
    needs: "owner",
    input: async () => ({ slug: "victim-team", email: (await fixtures.throwawayInvitation()).email }),
  },
  "workspaces.acceptInvitation": {
    needs: "the invitee",
    input: async () => ({ id: (await fixtures.throwawayInvitation()).id }),
  },
  "workspaces.declineInvitation": {
    needs: "the invitee",
    input: async () => ({ id: (await fixtures.throwawayInvitation()).id }),
  },
  "workspaces.setRole": {
    needs: "owner",
    input: async () => ({ slug: "victim-team", userId: await fixtures.throwawayMember(), role: "viewer" }),
  },
  "workspaces.removeMember": {
    needs: "owner",
    input: async () => ({ slug: "victim-team", userId: await fixtures.throwawayMember() }),
  },
  "workspaces.createToken": { needs: "member", input: (_, n) => ({ slug: "victim-team", name: `t-${n}` }) },
  "workspaces.revokeToken": {
    needs: "owner",
    input: async (_, n) => {
      await createToken(fixtures.db, fixtures.victimId, `revocable-${n}`, fixtures.ownerId);
      return { slug: "victim-team", name: `revocable-${n}` };
    },
  },
  "workspaces.deleteBundle": { needs: "owner", input: async () => ({ bundleId: await fixtures.throwawayBundle() }) },
  "workspaces.deleteCampaign": { needs: "owner", input: () => fixtures.throwawayCampaign() },
  "workspaces.upload": {
    needs: "member",
    input: (_, n) => ({
      slug: "victim-team",
      filename: "x.json",
      text: JSON.stringify(withCluster(iptables, { name: `upload-${n}`, region: `upload-${n}` })),
    }),
  },
  // Sharing needs sign-in and a reader of every scenario shared.
  "compare.share": { needs: "viewer", input: (ids) => ({ scenarioIds: [ids.publicScenario, ids.victimScenario] }) },
  "compare.publish": { needs: "owner", input: async () => ({ slug: await fixtures.throwawayLink(), published: true }) },
  "compare.revoke": { needs: "owner", input: async () => ({ slug: await fixtures.throwawayLink() }) },
  "webhooks.create": {
    needs: "owner",
    input: (_, n) => ({
      slug: "victim-team",
      url: `https://hooks.example.test/new-${n}`,
      format: "json",
      events: ["change-point"],
    }),
  },
  "webhooks.pause": {
    needs: "owner",
    input: async () => ({ slug: "victim-team", id: await fixtures.throwawayWebhook(), paused: true }),
  },
  "webhooks.delete": {
    needs: "owner",
    input: async () => ({ slug: "victim-team", id: await fixtures.throwawayWebhook() }),
  },
};

/** The default webhook policy: public addresses only (packages/db webhook-targets.ts). */
const publicOnly = { allow: [], ownPorts: [] };

describe("access matrix: every tRPC procedure × every actor × every state", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let ids: Ids;
  let victimId: string;
  const userIds = {} as Record<Actor, string | null>;
  let counter = 0;

  const callAs = async (actor: Actor, path: string, input: unknown) => {
    const caller = createCaller({ db, access: await accessFor(db, userIds[actor]) });
    const procedure = path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], caller);
    return (procedure as (input: unknown) => Promise<unknown>)(input);
  };

  /** What a change to the victim's workspace would move. */
  const victimState = async () =>
    JSON.stringify(
      await Promise.all([
        db.bundle.findMany({ where: { workspaceId: victimId }, select: { id: true }, orderBy: { id: "asc" } }),
        db.apiToken.findMany({ where: { workspaceId: victimId }, select: { name: true, revokedAt: true } }),
        db.membership.findMany({
          where: { workspaceId: victimId },
          select: { userId: true, role: true },
          orderBy: { userId: "asc" },
        }),
        db.invitation.findMany({
          where: { workspaceId: victimId },
          select: { email: true, role: true, declinedAt: true },
          orderBy: { email: "asc" },
        }),
        db.workspace.findUnique({ where: { id: victimId }, select: { visibility: true, name: true } }),
        db.permalink.findMany({ select: { slug: true, approvals: true }, orderBy: { slug: "asc" } }),
        db.webhook.findMany({ where: { workspaceId: victimId }, select: { id: true }, orderBy: { id: "asc" } }),
      ]),
    );

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    const open = await ensureDefaultWorkspace(db);
    const signIn = async (subject: string) =>
      (await recordSignIn(db, { issuer: "t", subject, email: `${subject}@example.test`, name: subject })).id;
    // The first to sign in becomes the administrator (owner of the public workspace): not an actor here.
    await signIn("admin");
    userIds["signed out"] = null;
    for (const actor of ["stranger", "viewer", "member", "owner"] as const) userIds[actor] = await signIn(actor);
    userIds["other team's owner"] = await signIn("other");
    const ownerId = userIds.owner as string;
    const victim = await createWorkspace(db, ownerId, {
      slug: "victim-team",
      name: "ZZ Victim team",
      visibility: "private",
    });
    victimId = victim.id;
    await setMember(db, victimId, "viewer@example.test", "viewer");
    await setMember(db, victimId, "member@example.test", "member");
    await createToken(db, victimId, "zz-token", userIds.member);
    await createWebhook(
      db,
      {
        workspaceId: victimId,
        url: "https://hooks.example.test/zz-hook",
        format: "slack",
        events: ["campaign-worse", "change-point"],
      },
      publicOnly,
    );
    const other = await createWorkspace(db, userIds["other team's owner"] as string, {
      slug: "other-team",
      name: "Other team",
      visibility: "private",
    });
    const viewerOwn = await createWorkspace(db, userIds.viewer as string, {
      slug: "viewer-team",
      name: "Viewer's team",
      visibility: "private",
    });
    const store = async (bundle: object, workspaceId: string) => {
      const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(bundle) });
      if (!outcome.ok) throw new Error("a fixture did not ingest");
      return outcome.stored;
    };
    const pub = await store(iptables, open.id);
    await store(withCluster(iptables, { name: "other-1", region: "other" }), other.id);
    const viewers = await store(withCluster(iptables, { name: "viewer-1", region: "viewer" }), viewerOwn.id);
    const pinned = await store(victimPinned, victimId);
    const victimLink = await createPermalink(db, await accessFor(db, ownerId), {
      scenarioIds: [pub.scenarioId, pinned.scenarioId],
      view: {},
    });
    const viewerLink = await createPermalink(db, await accessFor(db, userIds.viewer), {
      scenarioIds: [viewers.scenarioId, pinned.scenarioId],
      view: {},
    });
    ids = {
      publicScenario: pub.scenarioId,
      victimScenario: pinned.scenarioId,
      victimBundle: pinned.id,
      victimLink: victimLink?.slug ?? "",
      viewerLink: viewerLink?.slug ?? "",
    };
    fixtures = {
      db,
      victimId,
      ownerId,
      userIds,
      throwawayBundle: async () =>
        (await store(withCluster(iptables, { name: "throwaway", region: `throwaway-${++counter}` }), victimId)).id,
      throwawayCampaign: async () => {
        const campaign = `zz-campaign-${++counter}`;
        const bundle = { ...withCluster(iptables, { name: "throwaway", region: `throwaway-${counter}` }), campaign };
        return { scenarioId: (await store(bundle, victimId)).scenarioId, campaign };
      },
      throwawayMember: async () => {
        const id = await signIn(`throwaway-${++counter}`);
        await setMember(db, victimId, `throwaway-${counter}@example.test`, "member");
        return id;
      },
      throwawayInvitation: async () => {
        const email = `throwaway-invitee-${++counter}@example.test`;
        await invite(db, { workspaceId: victimId, email, role: "member", invitedById: ownerId });
        const { id } = await db.invitation.findUniqueOrThrow({
          where: { workspaceId_email: { workspaceId: victimId, email } },
          select: { id: true },
        });
        return { id, email };
      },
      throwawayWebhook: async () =>
        (
          await createWebhook(
            db,
            {
              workspaceId: victimId,
              url: `https://hooks.example.test/throwaway-${++counter}`,
              format: "json",
              events: ["change-point"],
            },
            publicOnly,
          )
        ).id,
      throwawayLink: async () =>
        (
          await createPermalink(db, await accessFor(db, ownerId), {
            scenarioIds: [ids.publicScenario, ids.victimScenario],
            view: {},
          })
        )?.slug ?? "",
    };
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("has a case for every procedure of the router", () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(procedures.length).toBeGreaterThan(15);
    expect([...Object.keys(reads), ...Object.keys(writes)].sort()).toEqual(procedures);
  });

  describe.each(states)("state: %s", (state) => {
    beforeAll(async () => {
      if (state === "published") {
        expect(await setPermalinkPublished(db, await accessFor(db, userIds.owner), ids.victimLink, true)).toBe(true);
        expect(await setPermalinkPublished(db, await accessFor(db, userIds.viewer), ids.viewerLink, true)).toBe(true);
      }
      if (state === "after newer uploads") {
        const outcome = await ingestBundle(db, {
          workspaceId: victimId,
          tokenId: null,
          text: JSON.stringify(victimNewer),
        });
        expect(outcome.ok).toBe(true);
      }
      if (state === "after deletions") expect(await deleteBundle(db, ids.victimBundle)).not.toBeNull();
    });

    it.each(actors)("reads as %s: private rows only to the workspace's readers", async (actor) => {
      const reader = rank(roleOf[actor]) >= 0;
      const before = await victimState();
      for (const [path, inputs] of Object.entries(reads)) {
        for (const input of inputs(ids)) {
          let answer: unknown;
          try {
            answer = await callAs(actor, path, input);
          } catch (error) {
            expect(["NOT_FOUND", "FORBIDDEN"], `${actor}: ${path} ${JSON.stringify(input)}`).toContain(
              (error as { code?: string }).code,
            );
            continue;
          }
          if (reader) continue;
          // An id the caller sent may come back as "unknown" (as any made-up id would): not a leak.
          const sent = JSON.stringify(input) ?? "";
          const text = [...pinnedSecrets, ...neverSecrets]
            .filter((x) => sent.includes(x))
            .reduce((t, x) => t.replaceAll(x, ""), JSON.stringify(answer) ?? "");
          // The one thing a non-reader may see: the pinned bundles of the permalink the owner published.
          const published = state !== "unpublished" && path === "compare.permalink" && sent.includes(ids.victimLink);
          for (const secret of [...neverSecrets, ...(published ? [] : pinnedSecrets)]) {
            expect(text, `${actor}: ${path} ${sent} answered with "${secret}"`).not.toContain(secret);
          }
        }
      }
      expect(await victimState()).toBe(before);
    });

    it("opens the victim's published permalink to anyone, and the viewer's half-agreed one to no stranger", async () => {
      for (const actor of ["signed out", "stranger", "other team's owner"] as const) {
        const victimLink = callAs(actor, "compare.permalink", { slug: ids.victimLink });
        if (state === "unpublished") await expect(victimLink).rejects.toMatchObject({ code: "NOT_FOUND" });
        else await expect(victimLink).resolves.toMatchObject({ pinnedOnly: true, newer: [] });
        await expect(callAs(actor, "compare.permalink", { slug: ids.viewerLink })).rejects.toMatchObject({
          code: "NOT_FOUND",
        });
      }
    });

    it.each(actors)("writes as %s: exactly what the role allows", async (actor) => {
      for (const [path, spec] of Object.entries(writes)) {
        const allowed =
          spec.needs === "the invitee"
            ? false
            : spec.needs === "signed in"
              ? userIds[actor] !== null
              : userIds[actor] !== null && rank(roleOf[actor]) >= rank(spec.needs);
        // Throwaway fixtures first: a refused write must then leave everything as it was.
        const input = await spec.input(ids, ++counter);
        const before = await victimState();
        const answer = callAs(actor, path, input);
        if (allowed) {
          await expect(answer, `${actor}: ${path}`).resolves.toBeDefined();
        } else {
          await expect(answer, `${actor}: ${path}`).rejects.toMatchObject({
            code: expect.stringMatching(/^(NOT_FOUND|FORBIDDEN|UNAUTHORIZED)$/),
          });
          // A refused write leaves the victim's workspace as it was.
          expect(await victimState(), `${actor}: ${path} changed the victim's workspace`).toBe(before);
        }
      }
    });
  });

  it("names no private workspace in the refusals a stranger gets", async () => {
    for (const path of [
      "workspaces.deleteBundle",
      "workspaces.deleteCampaign",
      "workspaces.bySlug",
      "workspaces.acceptInvitation",
      "workspaces.declineInvitation",
      "compare.permalink",
    ]) {
      const input =
        path === "workspaces.deleteBundle"
          ? { bundleId: await fixtures.throwawayBundle() }
          : path === "workspaces.deleteCampaign"
            ? await fixtures.throwawayCampaign()
            : path === "workspaces.bySlug"
              ? { slug: "victim-team" }
              : path.endsWith("Invitation")
                ? { id: (await fixtures.throwawayInvitation()).id }
                : { slug: ids.viewerLink };
      const error = await callAs("stranger", path, input).catch((e: Error) => e);
      expect(error, path).toMatchObject({ code: "NOT_FOUND" });
      const message = (error as Error).message;
      // The slug too, where the stranger did not send it.
      const named = JSON.stringify(input).includes("victim-team") ? [] : ["victim-team"];
      for (const secret of ["ZZ Victim team", "viewer-team", "Viewer's team", ...named]) {
        expect(message, path).not.toContain(secret);
      }
    }
  });

  it("lists webhooks and their deliveries to owners only, and never their secrets", async () => {
    const secret = (await db.webhook.findFirstOrThrow({ where: { workspaceId: victimId }, select: { secret: true } }))
      .secret;
    for (const actor of actors) {
      for (const path of ["webhooks.list", "webhooks.deliveries"]) {
        const answer = callAs(actor, path, { slug: "victim-team" });
        if (actor === "owner") {
          const text = JSON.stringify(await answer);
          expect(text).not.toContain(secret);
          if (path === "webhooks.list") expect(text).toContain("zz-hook");
        } else {
          await expect(answer, `${actor}: ${path}`).rejects.toMatchObject({
            code: expect.stringMatching(/^(NOT_FOUND|FORBIDDEN)$/),
          });
        }
      }
    }
    const created = (await callAs("owner", "webhooks.create", {
      slug: "victim-team",
      url: "https://hooks.example.test/hook",
      format: "json",
      events: ["campaign-worse"],
    })) as { secret: string };
    expect(created.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await callAs("owner", "webhooks.list", { slug: "victim-team" }))).not.toContain(
      created.secret,
    );
    // Not a public address: refused unless the operator allows it (CNIBENCH_WEBHOOK_ALLOW).
    const refused = ["http://10.0.0.5:8080/hook", "http://localhost:3000/", "http://169.254.169.254/latest"];
    for (const url of [
      "file:///etc/passwd",
      "javascript:alert(1)",
      "ftp://example.test/x",
      "https://u:p@x.test/",
      ...refused,
    ]) {
      await expect(
        callAs("owner", "webhooks.create", { slug: "victim-team", url, format: "json", events: ["change-point"] }),
        url,
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
  });

  it("keeps the last owner, and revokes a member's tokens when they leave or become a viewer", async () => {
    const slug = "victim-team";
    await expect(
      callAs("owner", "workspaces.setRole", { slug, userId: userIds.owner, role: "member" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    // Someone who is not a member joins by invitation only, never by a role given to them.
    await expect(
      callAs("owner", "workspaces.setRole", { slug, userId: userIds.stranger, role: "viewer" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const memberId = userIds.member as string;
    await createToken(db, victimId, "member-ci", memberId);
    const live = () => db.apiToken.count({ where: { workspaceId: victimId, createdById: memberId, revokedAt: null } });
    expect(await live()).toBeGreaterThan(0);
    await callAs("owner", "workspaces.setRole", { slug, userId: memberId, role: "viewer" });
    expect(await live()).toBe(0);
    await callAs("owner", "workspaces.setRole", { slug, userId: memberId, role: "member" });
    await createToken(db, victimId, "member-ci-2", memberId);
    await callAs("owner", "workspaces.removeMember", { slug, userId: memberId });
    expect(await live()).toBe(0);
  });

  it("makes a member only of an invitee who accepts; the owner sees the address, invited, until then", async () => {
    const slug = "victim-team";
    const signIn = async (subject: string) =>
      (await recordSignIn(db, { issuer: "t", subject, email: `${subject}@example.test`, name: `ZZ ${subject}` })).id;
    const joiner = await signIn("joiner");
    const decliner = await signIn("decliner");
    const as = async (userId: string, path: string, input?: unknown) => {
      const caller = createCaller({ db, access: await accessFor(db, userId) });
      const procedure = path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], caller);
      return (procedure as (input: unknown) => Promise<unknown>)(input);
    };
    // A known address, an unknown one and a mixed-case one: the same answer, and nobody joins.
    for (const email of ["joiner@example.test", "nobody-yet@example.test", "Decliner@Example.test"]) {
      expect(await callAs("owner", "workspaces.invite", { slug, email, role: "member" })).toEqual({
        slug,
        role: "member",
        status: "invited",
      });
    }
    for (const userId of [joiner, decliner]) {
      await expect(as(userId, "workspaces.bySlug", { slug })).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect(JSON.stringify(await as(userId, "workspaces.list"))).not.toContain(slug);
    }
    const ownerView = async () => (await callAs("owner", "workspaces.bySlug", { slug })) as Record<string, unknown>;
    const shown = await ownerView();
    expect((shown.invitations as { email: string }[]).map((i) => i.email)).toEqual(
      expect.arrayContaining(["joiner@example.test", "nobody-yet@example.test", "decliner@example.test"]),
    );
    // Nothing of the invitees' accounts: not their ids nor their names.
    for (const secret of [joiner, decliner, "ZZ joiner", "ZZ decliner"]) {
      expect(JSON.stringify(shown)).not.toContain(secret);
    }

    // Each invitee sees theirs: the workspace, the role, who invited them. Nobody else can answer it.
    const [waiting] = (await as(joiner, "workspaces.invitations")) as { id: string; workspace: { name: string } }[];
    expect(waiting).toMatchObject({ role: "member", workspace: { slug, name: "ZZ Victim team" } });
    expect(waiting).toMatchObject({ invitedBy: "owner@example.test" });
    for (const actor of ["stranger", "owner", "other team's owner"] as const) {
      await expect(callAs(actor, "workspaces.acceptInvitation", { id: waiting!.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    }
    await expect(as(decliner, "workspaces.acceptInvitation", { id: waiting!.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await as(joiner, "workspaces.acceptInvitation", { id: waiting!.id })).toEqual({ slug });
    expect(await as(joiner, "workspaces.bySlug", { slug })).toMatchObject({ role: "member" });
    expect(await as(joiner, "workspaces.invitations")).toEqual([]);

    // Declining: out of the invitee's list, never a member, and still "invited" to the owners.
    const [declined] = (await as(decliner, "workspaces.invitations")) as { id: string }[];
    expect(await as(decliner, "workspaces.declineInvitation", { id: declined!.id })).toEqual({ id: declined!.id });
    expect(await as(decliner, "workspaces.invitations")).toEqual([]);
    await expect(as(decliner, "workspaces.acceptInvitation", { id: declined!.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(as(decliner, "workspaces.bySlug", { slug })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The matrix above left throwaway invitations: only these three addresses are this test's.
    const mine = async () =>
      ((await ownerView()).invitations as { email: string }[])
        .map((i) => i.email)
        .filter((e) => /^(joiner|decliner|nobody-yet)@/.test(e))
        .sort();
    expect(await mine()).toEqual(["decliner@example.test", "nobody-yet@example.test"]);
    const after = await ownerView();
    expect((after.members as { id: string; role: string }[]).find((m) => m.id === joiner)?.role).toBe("member");

    // Withdrawn: gone for both sides.
    await callAs("owner", "workspaces.withdrawInvitation", { slug, email: "nobody-yet@example.test" });
    await expect(
      callAs("owner", "workspaces.withdrawInvitation", { slug, email: "nobody-yet@example.test" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await mine()).toEqual(["decliner@example.test"]);
  });
});

describe("bounds on what a caller may send and how often", () => {
  const tooLong = "x".repeat(100_000);

  it("every string, array and record of every procedure's input has a bound", () => {
    const unbounded: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (typeof schema !== "object" || schema === null) return;
      const s = schema as Record<string, unknown>;
      if (s.type === "string" && s.maxLength === undefined && s.enum === undefined && s.const === undefined)
        unbounded.push(`${at}: string`);
      if (s.type === "array" && s.maxItems === undefined) unbounded.push(`${at}: array`);
      if (s.type === "object" && typeof s.additionalProperties === "object") {
        const names = s.propertyNames as { maxLength?: number; enum?: unknown[] } | undefined;
        if (names?.maxLength === undefined && names?.enum === undefined) unbounded.push(`${at}: record keys`);
      }
      for (const [key, child] of Object.entries(s)) {
        if (!Array.isArray(child)) walk(child, `${at}.${key}`);
        else for (const [i, c] of child.entries()) walk(c, `${at}.${key}[${i}]`);
      }
    };
    for (const [path, procedure] of Object.entries(appRouter._def.procedures)) {
      const inputs = (procedure as unknown as { _def: { inputs: z.ZodType[] } })._def.inputs;
      for (const input of inputs) walk(z.toJSONSchema(input, { io: "input", unrepresentable: "any" }), path);
    }
    expect(unbounded).toEqual([]);
  });

  it("refuses oversized inputs before any work", async () => {
    const fresh = await freshDatabase();
    const db = createDb(fresh.url);
    try {
      const user = await recordSignIn(db, { issuer: "t", subject: "big", email: "big@example.test", name: "big" });
      const caller = createCaller({ db, access: await accessFor(db, user.id) });
      const manyKeys = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 1]));
      await expect(caller.compare.share({ scenarioIds: ["a", "b"], view: manyKeys })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      await expect(caller.compare.share({ scenarioIds: ["a", "b"], view: { big: tooLong } })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      await expect(
        caller.charts.crossover({ filters: {}, metric: "http.rps", x: "services", where: manyKeys, y: "absolute" }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(
        caller.scenarios.history({ scenarioId: "a", metric: "http.rps", params: manyKeys }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      expect(await db.permalink.count()).toBe(0);
    } finally {
      await db.$disconnect();
      await fresh.drop();
    }
  });

  it("limits writes per user and per client address", async () => {
    const fresh = await freshDatabase();
    const db = createDb(fresh.url);
    try {
      const limits = writeLimits(3);
      const users = await Promise.all(
        ["r1", "r2", "r3", "r4"].map((s) =>
          recordSignIn(db, { issuer: "t", subject: s, email: `${s}@example.test`, name: s }),
        ),
      );
      const callerFor = async (userId: string, address: string) =>
        createCaller({ db, access: await accessFor(db, userId), client: { address }, limits });
      const create = async (userId: string, address: string, n: number) =>
        (await callerFor(userId, address)).workspaces.create({
          slug: `rate-${userId.slice(-6)}-${n}`,
          name: "r",
          visibility: "private",
        });
      // One user, three addresses: the fourth change is refused whatever the address.
      for (let n = 0; n < 3; n++) await create(users[0]!.id, `198.51.100.${n}`, n);
      await expect(create(users[0]!.id, "198.51.100.9", 9)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
      // One address, fresh users: the address's budget (twice a user's) runs out too.
      await create(users[1]!.id, "203.0.113.1", 1);
      await create(users[1]!.id, "203.0.113.1", 2);
      await create(users[1]!.id, "203.0.113.1", 3);
      await create(users[2]!.id, "203.0.113.1", 1);
      await create(users[2]!.id, "203.0.113.1", 2);
      await create(users[2]!.id, "203.0.113.1", 3);
      // A fourth user, fresh budget, same address: refused by the address alone.
      await expect(create(users[3]!.id, "203.0.113.1", 1)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
      expect(await db.workspace.count({ where: { slug: { startsWith: "rate-" } } })).toBe(9);
    } finally {
      await db.$disconnect();
      await fresh.drop();
    }
  });

  it("limits writes across replicas: two servers' pools on one database spend one budget", async () => {
    const fresh = await freshDatabase();
    // Two web processes, each with its own database client.
    const replicas = [createDb(fresh.url), createDb(fresh.url)];
    try {
      const limits = writeLimits(3);
      const user = await recordSignIn(replicas[0]!, {
        issuer: "t",
        subject: "rr",
        email: "rr@example.test",
        name: "rr",
      });
      const create = async (n: number) => {
        const db = replicas[n % 2]!;
        const caller = createCaller({
          db,
          access: await accessFor(db, user.id),
          client: { address: "192.0.2.7" },
          limits,
        });
        return caller.workspaces.create({ slug: `replica-${n}`, name: "r", visibility: "private" });
      };
      for (let n = 0; n < 3; n++) await create(n);
      // In-process counters allowed 3 on each replica.
      const refusal = await create(3).catch((e: unknown) => e);
      expect(refusal).toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringContaining("by this user") });
      const wait = (refusal as WriteLimitError).retryAfterSeconds;
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      await expect(create(4)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
      expect(await replicas[0]!.workspace.count({ where: { slug: { startsWith: "replica-" } } })).toBe(3);
    } finally {
      await Promise.all(replicas.map((db) => db.$disconnect()));
      await fresh.drop();
    }
  });
});
