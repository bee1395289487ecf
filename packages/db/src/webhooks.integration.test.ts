// When a campaign is complete (issue 41), on a real PostgreSQL: the trigger on "Bundle" marks a
// campaign as any writer stores a bundle (ingestBundle: the API's and the web page's upload alike),
// only in a workspace with a live webhook; a campaign is claimed once closed after its last bundle or
// quiet for the period, once, and again only after a later bundle.
import { freshDatabase } from "@cnibench/test-support/database";
import { exampleBundle } from "@cnibench/test-support/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import {
  campaignJudged,
  campaignJudgingFailed,
  claimCompleteCampaigns,
  closeCampaign,
  createWebhook,
  forgetJudgedCampaigns,
  nextCampaignDueAt,
  setWebhookPaused,
} from "./webhooks.ts";
import { ensureDefaultWorkspace } from "./workspace.ts";

describe("campaigns waiting to be judged", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  let n = 0;
  const store = async (campaign: string) => {
    const text = JSON.stringify({ ...exampleBundle(), campaign, collector: { name: "t", version: String(++n) } });
    const stored = await ingestBundle(db, { workspaceId, tokenId: null, text });
    if (!stored.ok) throw new Error("did not store");
    return stored.stored;
  };
  const claim = (at: Date, quietMs = 60_000) =>
    claimCompleteCampaigns(db, { now: at, quietMs, limit: 10, leaseMs: 1_000 });

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
  });
  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  it("marks nothing in a workspace without a live webhook", async () => {
    await store("no-hook");
    const hook = await createWebhook(
      db,
      { workspaceId, url: "https://hooks.example.test/x", format: "json", events: ["campaign-worse"] },
      { allow: [], ownPorts: [] },
    );
    await setWebhookPaused(db, workspaceId, hook.id, true);
    await store("paused-hook");
    expect(await db.alertCampaign.count()).toBe(0);
    await setWebhookPaused(db, workspaceId, hook.id, false);
  });

  it("claims a campaign once closed after its last bundle, once; a later bundle opens it again", async () => {
    const { scenarioId } = await store("nightly-01");
    await store("nightly-01");
    expect(await db.alertCampaign.findMany({ select: { scenarioId: true, campaign: true } })).toEqual([
      { scenarioId, campaign: "nightly-01" },
    ]);
    // Not quiet yet, not closed: not complete.
    expect(await claim(new Date())).toEqual([]);
    expect(await closeCampaign(db, workspaceId, "nightly-01")).toBe(1);
    const [claimed] = await claim(new Date());
    expect(claimed).toMatchObject({ scenarioId, campaign: "nightly-01", workspaceId });
    // Held: another worker gets nothing.
    expect(await claim(new Date())).toEqual([]);
    await campaignJudged(db, claimed!);
    // Judged: nothing, even after the hold.
    expect(await claim(new Date(Date.now() + 5_000))).toEqual([]);
    // A late bundle: open again (its close came before it), complete once quiet.
    await new Promise((r) => setTimeout(r, 5));
    await store("nightly-01");
    expect(await claim(new Date(Date.now() + 5_000))).toEqual([]);
    expect(await claim(new Date(Date.now() + 61_000))).toMatchObject([{ campaign: "nightly-01" }]);
  });

  it("judges again a campaign that got a bundle while it was being judged", async () => {
    await store("nightly-03");
    await closeCampaign(db, workspaceId, "nightly-03");
    const [claimed] = await claim(new Date());
    expect(claimed).toMatchObject({ campaign: "nightly-03", version: 1 });
    // Stored while the worker judges version 1 (the bundle's transaction may even have begun before
    // the claim: versions, not times, tell what was judged).
    await store("nightly-03");
    await closeCampaign(db, workspaceId, "nightly-03");
    await campaignJudged(db, claimed!);
    const again = await claim(new Date(Date.now() + 5_000));
    expect(again).toMatchObject([{ campaign: "nightly-03", version: 2 }]);
    await campaignJudged(db, again[0]!);
  });

  it("lets a campaign whose judging failed be claimed again after the retry time, not the lease", async () => {
    await store("nightly-04");
    await closeCampaign(db, workspaceId, "nightly-04");
    const now = Date.now();
    const [claimed] = await claimCompleteCampaigns(db, {
      now: new Date(now),
      quietMs: 60_000,
      limit: 10,
      leaseMs: 300_000,
    });
    expect(claimed).toMatchObject({ campaign: "nightly-04" });
    // Held for the whole lease (5 minutes) had the worker died; failed, it is free again 5 s on.
    await campaignJudgingFailed(db, claimed!, new Date(now + 5_000));
    expect(await claim(new Date(now + 4_000))).toEqual([]);
    const again = await claim(new Date(now + 6_000));
    expect(again).toMatchObject([{ campaign: "nightly-04" }]);
    await campaignJudged(db, again[0]!);
  });

  it("claims a campaign once quiet for the period, and says when the next one is due", async () => {
    await store("nightly-02");
    const last = await db.alertCampaign.findFirstOrThrow({ where: { campaign: "nightly-02" } });
    const due = await nextCampaignDueAt(db, 60_000);
    // The earliest waiting campaign: nightly-02's last bundle plus the quiet period (or an earlier hold's end).
    expect(due!.getTime()).toBeLessThanOrEqual(last.lastBundleAt.getTime() + 60_000);
    expect(await claim(new Date(last.lastBundleAt.getTime() + 59_000))).toEqual([]);
    expect(await claim(new Date(last.lastBundleAt.getTime() + 60_000))).toMatchObject([{ campaign: "nightly-02" }]);
  });

  it("forgets campaigns judged at their latest version and quiet since the cutoff, and marks one again on a bundle", async () => {
    const judge = async (campaign: string) => {
      await closeCampaign(db, workspaceId, campaign);
      const claimed = (await claim(new Date())).find((c) => c.campaign === campaign);
      await campaignJudged(db, claimed!);
    };
    await store("old-judged");
    await judge("old-judged");
    await store("old-waiting");
    await store("old-judged-then-more");
    await judge("old-judged-then-more");
    await store("old-judged-then-more");
    await store("new-judged");
    await judge("new-judged");
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    // Their last bundles 40 days ago, all but the new one.
    await db.alertCampaign.updateMany({
      where: { campaign: { startsWith: "old-" } },
      data: { lastBundleAt: new Date(cutoff.getTime() - 10 * 86_400_000) },
    });
    const campaigns = async () =>
      (
        await db.alertCampaign.findMany({
          where: { campaign: { in: ["old-judged", "old-waiting", "old-judged-then-more", "new-judged"] } },
        })
      )
        .map((c) => `${c.campaign} v${c.version}`)
        .sort();
    expect(await forgetJudgedCampaigns(db, cutoff)).toBe(1);
    expect(await campaigns()).toEqual(["new-judged v1", "old-judged-then-more v2", "old-waiting v1"]);
    expect(await forgetJudgedCampaigns(db, cutoff)).toBe(0);
    // A bundle into the forgotten campaign marks it afresh, to be judged once complete.
    await store("old-judged");
    expect(await campaigns()).toContain("old-judged v1");
    await closeCampaign(db, workspaceId, "old-judged");
    expect((await claim(new Date())).map((c) => c.campaign).sort()).toEqual([
      "old-judged",
      "old-judged-then-more",
      "old-waiting",
    ]);
  });
});
