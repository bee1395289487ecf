// Alerts end to end (issues 27, 41): twelve nightly campaigns of one testbed go in through the real
// ingest API back to back, each closed by its collector (POST /v1/campaigns/close) once its bundles
// are in (3 runs each, ≈ 9.4 Gbit/s with 2 % run noise; from night 9 a kernel upgrade, so another
// scenario of the same testbed, and 8 % less). A receiver on loopback (allowed by the test's
// allow-list: the default refuses loopback) gets the workspace's webhooks: one change-point alert,
// sent when night 11 is judged (the third campaign on the new level), and a "worse" alert exactly for
// the campaigns the gate API itself judges worse than their previous campaign; a receiver answering
// 500 twice then 200 gets its alert on the third try.
//
// This test used to fail now and then (issue 41). The cause, reproduced by calling the old
// enqueueAlerts for each bundle one or more uploads late: the worker read a series' history when it
// got to a batch of stored bundles, not as that batch left it, and took the batch's runs out of it to
// get the "before"; runs uploaded since stayed in both, so the change point at night 9 was already in
// the "before" and was called known: 1 alert with no lag, 0 with a lag of 1, 2 or 3 bundles. Now each
// campaign is judged once complete, on its history cut at it, whenever the worker gets to it.
import {
  createDb,
  createToken,
  createWebhook,
  type Db,
  ensureDefaultWorkspace,
  listDeliveries,
  listWebhooks,
} from "@cnibench/db";
import { slackPayloadSchema, webhookPayloadSchema } from "@cnibench/schema";
import { parseAllowList } from "@cnibench/settings/allow-list";
import { freshDatabase } from "@cnibench/test-support/database";
import { nightlyCampaigns } from "@cnibench/test-support/nightly";
import { type Received, startReceiver } from "@cnibench/test-support/receivers";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readIngestEnv } from "./env.ts";
import { buildServer } from "./server.ts";
import { verifySignature } from "./webhooks.ts";

// nightlyCampaigns (test-support): 12 nights of pod-to-pod TCP throughput, 8 % less from night 9 on kernel 6.8.
const nights = nightlyCampaigns();
const metric = "tcp.throughput";
const params = { path: "pod-pod", streams: 1 };

const bundle = (n: (typeof nights)[number], result: object, at: string) => ({
  schema: "cnibench/bundle@1",
  collector: { name: "iperf3", command: "iperf3 -c pod-b -t 30" },
  cluster: { name: "ci-nightly", provider: "aws", region: "eu-west-1", kubernetesVersion: "1.30", nodeCount: 3 },
  node: { sku: "m5.2xlarge", os: "Ubuntu 22.04", kernel: n.kernel },
  cni: { name: "cilium", version: "1.16.3", mode: "native-routing", kubeProxy: "ebpf", label: "Cilium native" },
  runAt: `2026-11-${String(n.night).padStart(2, "0")}T${at}Z`,
  campaign: n.campaign,
  results: [{ metric, unit: "Gbit/s", params, ...result }],
});
/** Odd nights as three bundles of one run (a CI job per run), even nights as one bundle with 3 samples. */
const uploadsOf = (n: (typeof nights)[number]) =>
  n.night % 2
    ? n.runs.map((value, k) => bundle(n, { value }, `02:0${k}:00`))
    : [bundle(n, { value: [...n.runs].sort()[1], aggregate: "median", samples: n.runs }, "02:00:00")];

describe("webhook alerts of a nightly series", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let workspaceId: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const secrets: Record<string, string> = {};
  const uploadMs: number[] = [];
  /** Each night's bundle ids, as the uploads answered them: what the gate is asked about. */
  const bundleIds = new Map<string, string[]>();
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    token = (await createToken(db, workspaceId, "nightly-ci")).token;
    receiver = await startReceiver((path, n) => (path === "/flaky" && n <= 2 ? 500 : 200));
    // Loopback is refused by default; the test's receivers are let in as an operator would an internal one.
    const policy = { allow: parseAllowList("127.0.0.1/32"), ownPorts: [] };
    const json = await createWebhook(
      db,
      { workspaceId, url: `${receiver.url}/alerts`, format: "json", events: ["campaign-worse", "change-point"] },
      policy,
    );
    const flaky = await createWebhook(
      db,
      { workspaceId, url: `${receiver.url}/flaky`, format: "slack", events: ["change-point"] },
      policy,
    );
    secrets["/alerts"] = json.secret;
    secrets["/flaky"] = flaky.secret;
    // The retry base delay comes from the ingest API's settings, shortened so retries take milliseconds.
    const env = readIngestEnv({ DATABASE_URL: fresh.url, CNIBENCH_WEBHOOK_RETRY_BASE_MS: "25" });
    app = buildServer({
      db,
      publicApiUrl: "http://api.example",
      publicWebUrl: "http://web.example",
      logLevel: "silent",
      // A long quiet period: only the collector's close completes a campaign here.
      webhooks: { retryBaseMs: env.CNIBENCH_WEBHOOK_RETRY_BASE_MS, pollMs: 200, quietMs: 3_600_000, policy },
    });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
    for (const n of nights) {
      for (const document of uploadsOf(n)) {
        const started = Date.now();
        const response = await post("/v1/bundles", document);
        uploadMs.push(Date.now() - started);
        expect(response.status).toBe(201);
        const { id } = (await response.json()) as { id: string };
        bundleIds.set(n.campaign, [...(bundleIds.get(n.campaign) ?? []), id]);
      }
      const closed = await post("/v1/campaigns/close", { campaign: n.campaign });
      expect(closed.status).toBe(202);
      expect(await closed.json()).toEqual({ campaign: n.campaign, scenarios: 1 });
    }
    // Every campaign judged, every delivery delivered or failed for good (retries included).
    for (let waited = 0; waited < 30_000; waited += 50) {
      await app.alerts.settled();
      const [pending, waiting] = await Promise.all([
        db.webhookDelivery.count({ where: { status: "pending" } }),
        db.alertCampaign.count({ where: { judgedAt: null } }),
      ]);
      if (pending === 0 && waiting === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const verified = (r: Received) =>
    verifySignature(
      secrets[r.path]!,
      { timestamp: String(r.headers["x-cnibench-timestamp"]), signature: String(r.headers["x-cnibench-signature"]) },
      r.body,
    );

  it("tells the JSON webhook of the change point at campaign 9 once, when night 11 is judged, signed", () => {
    const alerts = receiver.received.filter((r) => r.path === "/alerts");
    for (const r of alerts) {
      expect(verified(r), r.body).toBe(true);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["x-cnibench-event"]).toBe(JSON.parse(r.body).event);
    }
    const changePoints = alerts.map((r) => JSON.parse(r.body)).filter((p) => p.event === "change-point");
    expect(changePoints).toHaveLength(1);
    expect(changePoints[0]).toMatchObject({
      event: "change-point",
      workspace: { slug: "public" },
      scenario: { label: "Cilium native" },
      campaign: { campaign: "nightly-11", bundles: 3 },
      baseline: null,
      total: 1,
      figures: [
        {
          metric,
          params,
          unit: "Gbit/s",
          previous: { campaign: "nightly-08", campaigns: 8 },
          current: { campaign: "nightly-09", campaigns: 3 },
          verdict: "worse",
          changes: [{ key: "kernel", before: "6.1", after: "6.8" }],
        },
      ],
    });
    expect(changePoints[0].figures[0].changePercent).toBeLessThan(-5);
    expect(changePoints[0].figures[0].changePercent).toBeGreaterThan(-11);
    expect(changePoints[0].link).toBe(`http://web.example/scenarios/${changePoints[0].scenario.id}`);
  });

  it("tells exactly the campaigns the gate API judges worse than their previous one, each on all its runs", async () => {
    const worseByGate: string[] = [];
    for (const n of nights) {
      const response = await post("/v1/gate", {
        candidate: { bundleIds: bundleIds.get(n.campaign) },
        baseline: { previous: true },
      });
      if (response.status === 404) continue; // night 1: nothing before it
      expect(response.status).toBe(200);
      if (((await response.json()) as { outcome: string }).outcome === "worse") worseByGate.push(n.campaign);
    }
    const worse = receiver.received
      .filter((r) => r.path === "/alerts")
      .map((r) => JSON.parse(r.body))
      .filter((p) => p.event === "campaign-worse");
    expect(worseByGate.length).toBeGreaterThan(0);
    expect(worse.map((p) => p.campaign.campaign).sort()).toEqual(worseByGate.sort());
    for (const p of worse) {
      expect(p.figures[0].current.runs).toBe(3);
      expect(p.figures[0].previous.runs).toBe(3);
      expect(p.campaign.description).toContain(p.campaign.campaign);
    }
  });

  it("retries a receiver that answers 500 twice, and records the delivery as delivered after 3 attempts", async () => {
    const flaky = receiver.received.filter((r) => r.path === "/flaky");
    expect(flaky.map((r) => r.status)).toEqual([500, 500, 200]);
    for (const r of flaky) expect(verified(r)).toBe(true);
    // The same delivery each time.
    expect(new Set(flaky.map((r) => r.headers["x-cnibench-delivery"])).size).toBe(1);
    const slack = JSON.parse(flaky[0]!.body);
    expect(slack.text).toBe(
      "Change point in Public results: Cilium native: 1 figure with a change point, found with campaign nightly-11",
    );
    expect(slack.blocks[2].text.text).toMatch(
      /^• tcp\.throughput \(path pod-pod · streams 1\) −\d\.\d+ % \(change point at nightly-09 after 8 campaigns, worse\)/,
    );
    const hooks = await listWebhooks(db, workspaceId);
    const flakyHook = hooks.find((h) => h.url.endsWith("/flaky"));
    const log = await listDeliveries(db, workspaceId, { webhookId: flakyHook!.id });
    expect(log).toMatchObject([{ event: "change-point", status: "delivered", attempts: 3, lastError: null }]);
    expect(log[0]?.deliveredAt).toBeInstanceOf(Date);
    // Never a secret in what the web app lists.
    expect(JSON.stringify(hooks)).not.toContain(secrets["/flaky"]);
    expect(JSON.stringify(hooks)).not.toContain(secrets["/alerts"]);
  });

  it("refuses a signature whose timestamp is more than 5 minutes away (a replayed delivery)", () => {
    const r = receiver.received.find((x) => x.path === "/alerts")!;
    const headers = {
      timestamp: String(r.headers["x-cnibench-timestamp"]),
      signature: String(r.headers["x-cnibench-signature"]),
    };
    const sentAt = Number(headers.timestamp);
    expect(verifySignature(secrets["/alerts"]!, headers, r.body, sentAt + 299)).toBe(true);
    expect(verifySignature(secrets["/alerts"]!, headers, r.body, sentAt + 301)).toBe(false);
    expect(verifySignature(secrets["/alerts"]!, { ...headers, timestamp: String(sentAt + 1) }, r.body, sentAt)).toBe(
      false,
    );
  });

  it("sends bodies of the OpenAPI document's WebhookPayload and SlackPayload schemas", () => {
    expect(receiver.received.length).toBeGreaterThan(0);
    for (const r of receiver.received) {
      const schema = r.path === "/flaky" ? slackPayloadSchema.strict() : webhookPayloadSchema.strict();
      expect(schema.safeParse(JSON.parse(r.body)).error).toBeUndefined();
    }
  });

  it("answered every upload without waiting for a delivery", () => {
    expect(Math.max(...uploadMs)).toBeLessThan(2_000);
  });
});
