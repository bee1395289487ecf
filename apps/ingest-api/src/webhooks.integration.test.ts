// Alerts end to end (issue 27): twelve nightly campaigns of one testbed go in through the real ingest
// API (3 runs each, ≈ 9.4 Gbit/s with 2 % run noise; from night 9 a kernel upgrade, so another scenario
// of the same testbed, and 8 % less). A local HTTP server receives the workspace's webhooks: one alert
// of the change point at campaign 9, at most one "worse" alert (campaign 9 against 8), each signed
// with the webhook's secret; a receiver answering 500 twice then 200 gets its alert on the third try.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createDb,
  createToken,
  createWebhook,
  type Db,
  ensureDefaultWorkspace,
  listDeliveries,
  listWebhooks,
} from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { nightlyCampaigns } from "@cnibench/test-support/nightly";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readIngestEnv } from "./env.ts";
import { buildServer } from "./server.ts";

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

type Received = { path: string; headers: IncomingHttpHeaders; body: string; status: number };

describe("webhook alerts of a nightly series", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let workspaceId: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let flakyCalls = 0;
  const secrets: Record<string, string> = {};
  const uploadMs: number[] = [];

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
    token = (await createToken(db, workspaceId, "nightly-ci")).token;
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "";
        const status = path === "/flaky" && ++flakyCalls <= 2 ? 500 : 200;
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // Private and loopback addresses are allowed: a self-hosted cnibench posts inside its own network.
    const json = await createWebhook(db, {
      workspaceId,
      url: `${receiverUrl}/alerts`,
      format: "json",
      events: ["campaign-worse", "change-point"],
    });
    const flaky = await createWebhook(db, {
      workspaceId,
      url: `${receiverUrl}/flaky`,
      format: "slack",
      events: ["change-point"],
    });
    secrets["/alerts"] = json.secret;
    secrets["/flaky"] = flaky.secret;
    // The retry base delay comes from the ingest API's settings, shortened so retries take milliseconds.
    const env = readIngestEnv({ DATABASE_URL: fresh.url, CNIBENCH_WEBHOOK_RETRY_BASE_MS: "25" });
    app = buildServer({
      db,
      publicApiUrl: "http://api.example",
      publicWebUrl: "http://web.example",
      logLevel: "silent",
      webhooks: { retryBaseMs: env.CNIBENCH_WEBHOOK_RETRY_BASE_MS, pollMs: 200 },
    });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
    for (const n of nights) {
      for (const document of uploadsOf(n)) {
        const started = Date.now();
        const response = await fetch(`${base}/v1/bundles`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(document),
        });
        uploadMs.push(Date.now() - started);
        expect(response.status).toBe(201);
      }
    }
    // Every alert queued and every delivery delivered or failed for good (retries included).
    for (let waited = 0; waited < 20_000; waited += 50) {
      await app.alerts.settled();
      if ((await db.webhookDelivery.count({ where: { status: "pending" } })) === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await new Promise((r) => receiver?.close(r));
    await db?.$disconnect();
    await drop?.();
  });

  const verified = (r: Received) => {
    const expected = Buffer.from(`sha256=${createHmac("sha256", secrets[r.path]!).update(r.body).digest("hex")}`);
    const given = Buffer.from(String(r.headers["x-cnibench-signature"]));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  it("tells the JSON webhook of the change point at campaign 9 once, signed", () => {
    const alerts = received.filter((r) => r.path === "/alerts");
    expect(alerts.length).toBeGreaterThan(0);
    for (const r of alerts) {
      expect(verified(r), r.body).toBe(true);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["x-cnibench-event"]).toBe(JSON.parse(r.body).event);
    }
    const payloads = alerts.map((r) => JSON.parse(r.body));
    const changePoints = payloads.filter((p) => p.event === "change-point");
    expect(changePoints).toHaveLength(1);
    expect(changePoints[0]).toMatchObject({
      event: "change-point",
      workspace: { slug: "public" },
      metric,
      params,
      unit: "Gbit/s",
      scenario: { label: "Cilium native" },
      previous: { campaign: "nightly-08", campaigns: 8 },
      current: { campaign: "nightly-09" },
      verdict: "worse",
      changes: [{ key: "kernel", before: "6.1", after: "6.8" }],
    });
    expect(changePoints[0].changePercent).toBeLessThan(-5);
    expect(changePoints[0].changePercent).toBeGreaterThan(-11);
    expect(changePoints[0].link).toBe(`http://web.example/scenarios/${changePoints[0].current.scenarioId}`);
    // At most one "worse" alert for the series, and only for campaign 9 against campaign 8.
    const worse = payloads.filter((p) => p.event === "campaign-worse");
    expect(worse.length).toBeLessThanOrEqual(1);
    for (const p of worse) {
      expect(p).toMatchObject({ previous: { campaign: "nightly-08" }, current: { campaign: "nightly-09" } });
    }
    expect(payloads).toHaveLength(changePoints.length + worse.length);
  });

  it("retries a receiver that answers 500 twice, and records the delivery as delivered after 3 attempts", async () => {
    const flaky = received.filter((r) => r.path === "/flaky");
    expect(flaky.map((r) => r.status)).toEqual([500, 500, 200]);
    for (const r of flaky) expect(verified(r)).toBe(true);
    // The same body each time: the same signature, the same delivery id.
    expect(new Set(flaky.map((r) => r.body)).size).toBe(1);
    expect(new Set(flaky.map((r) => r.headers["x-cnibench-delivery"])).size).toBe(1);
    const slack = JSON.parse(flaky[0]!.body);
    expect(slack.text).toMatch(/^Change point in Public results: Cilium native: tcp\.throughput .* nightly-09/);
    expect(slack.blocks).toHaveLength(3);
    const hooks = await listWebhooks(db, workspaceId);
    const flakyHook = hooks.find((h) => h.url.endsWith("/flaky"));
    const log = await listDeliveries(db, workspaceId, { webhookId: flakyHook!.id });
    expect(log).toMatchObject([{ event: "change-point", status: "delivered", attempts: 3, lastError: null }]);
    expect(log[0]?.deliveredAt).toBeInstanceOf(Date);
    // Never a secret in what the web app lists.
    expect(JSON.stringify(hooks)).not.toContain(secrets["/flaky"]);
    expect(JSON.stringify(hooks)).not.toContain(secrets["/alerts"]);
  });

  it("answered every upload without waiting for a delivery", () => {
    expect(Math.max(...uploadMs)).toBeLessThan(2_000);
  });
});
