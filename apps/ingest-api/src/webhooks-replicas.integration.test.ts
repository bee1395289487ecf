// Alerts with two ingest-api processes on one database (issue 44): both alert workers claim from the
// same queue, and still every alert is delivered exactly once, each webhook has one delivery in
// flight at a time across both, and a delivery claimed by a worker that died is sent by the other once
// its hold ends. The receiver answers after 15 ms, so the workers' posts overlap; two of its eight
// webhooks answer 500 to their first request, so retries go to whichever worker claims them.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { claimDueDeliveries, createDb, createWebhook, type Db, ensureDefaultWorkspace } from "@cnibench/db";
import { parseAllowList } from "@cnibench/settings/allow-list";
import { freshDatabase } from "@cnibench/test-support/database";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildServer } from "./server.ts";

const WEBHOOKS = 8;
const PER_WEBHOOK = 25;

type Post = { path: string; delivery: string; status: number; at: number };
const posts: Post[] = [];
/** Most posts any one webhook had open at once. */
let mostAtOnce = 0;
const open = new Map<string, number>();

let setup: Db;
let drop: () => Promise<void>;
let replicas: FastifyInstance[] = [];
let receiver: ReturnType<typeof createServer>;
let deadClaim: { id: string; webhookId: string; at: number; leaseMs: number };
const paths = new Map<string, string>();

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  setup = createDb(fresh.url);
  const failedOnce = new Set<string>();
  receiver = createServer((req, res) => {
    const path = req.url ?? "";
    open.set(path, (open.get(path) ?? 0) + 1);
    mostAtOnce = Math.max(mostAtOnce, open.get(path)!);
    req.resume();
    req.on("end", () =>
      setTimeout(() => {
        const flaky = (path === "/h1" || path === "/h2") && !failedOnce.has(path);
        if (flaky) failedOnce.add(path);
        const status = flaky ? 500 : 200;
        posts.push({ path, delivery: String(req.headers["x-cnibench-delivery"]), status, at: Date.now() });
        open.set(path, open.get(path)! - 1);
        res.writeHead(status).end();
      }, 15),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const policy = { allow: parseAllowList("127.0.0.1/32"), ownPorts: [] };
  const workspaceId = (await ensureDefaultWorkspace(setup)).id;
  for (let h = 0; h < WEBHOOKS; h++) {
    const { id } = await createWebhook(
      setup,
      { workspaceId, url: `${url}/h${h}`, format: "json", events: ["change-point"] },
      policy,
    );
    paths.set(id, `/h${h}`);
    await setup.webhookDelivery.createMany({
      data: Array.from({ length: PER_WEBHOOK }, (_, n) => ({
        webhookId: id,
        event: "change_point" as const,
        dedupKey: `test ${h} ${n}`,
        payload: { test: `alert ${n} of webhook ${h}` },
        nextAttemptAt: new Date(Date.now() - 60_000 + n),
      })),
    });
  }
  // A worker that claims one delivery and dies before posting it: its webhook stays held until then.
  const leaseMs = 1_500;
  const [claimed] = await claimDueDeliveries(setup, { now: new Date(), limit: 1, leaseMs });
  deadClaim = { id: claimed!.id, webhookId: claimed!.webhookId, at: Date.now(), leaseMs };

  // Two processes' worth: each its own pool and alert worker; both start claiming at once.
  replicas = [1, 2].map(() =>
    buildServer({
      db: createDb(fresh.url),
      publicApiUrl: "http://api.example",
      publicWebUrl: "http://web.example",
      logLevel: "silent",
      webhooks: { retryBaseMs: 20, pollMs: 100, quietMs: 3_600_000, policy },
    }),
  );
  await Promise.all(replicas.map((r) => r.ready()));
  for (let waited = 0; waited < 60_000; waited += 50) {
    await Promise.all(replicas.map((r) => r.alerts.settled()));
    if ((await setup.webhookDelivery.count({ where: { status: { not: "delivered" } } })) === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  await new Promise((resolve) => receiver?.close(resolve));
  await setup?.$disconnect();
  await drop?.();
});

it("delivers every alert exactly once", async () => {
  const rows = await setup.webhookDelivery.findMany({ select: { id: true, status: true, attempts: true } });
  expect(rows).toHaveLength(WEBHOOKS * PER_WEBHOOK);
  expect(rows.filter((r) => r.status !== "delivered")).toEqual([]);
  const delivered = new Map<string, number>();
  for (const p of posts.filter((p) => p.status === 200))
    delivered.set(p.delivery, (delivered.get(p.delivery) ?? 0) + 1);
  expect(delivered.size).toBe(WEBHOOKS * PER_WEBHOOK);
  expect([...delivered.values()].filter((n) => n !== 1)).toEqual([]);
  // The two first tries answered 500, and nothing else was posted.
  expect(posts.filter((p) => p.status === 500)).toHaveLength(2);
  expect(posts).toHaveLength(WEBHOOKS * PER_WEBHOOK + 2);
  expect(rows.reduce((sum, r) => sum + r.attempts, 0)).toBe(WEBHOOKS * PER_WEBHOOK + 2);
});

it("keeps one delivery in flight per webhook across both workers", () => {
  // Each worker's own bound allowed one per webhook per process: two at once here.
  expect(mostAtOnce).toBe(1);
});

it("sends a dead worker's delivery once its hold ends, and holds its webhook till then", () => {
  const path = paths.get(deadClaim.webhookId)!;
  const toHeld = posts.filter((p) => p.path === path);
  expect(toHeld).toHaveLength(PER_WEBHOOK);
  expect(Math.min(...toHeld.map((p) => p.at))).toBeGreaterThanOrEqual(deadClaim.at + deadClaim.leaseMs - 50);
  expect(toHeld.filter((p) => p.delivery === deadClaim.id)).toHaveLength(1);
});
