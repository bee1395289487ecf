// ingest-api's own metrics without a database: the request histogram fed by a real Fastify app, the
// metrics port's answers, and `promtool check metrics` (Prometheus 2.42) on the exposition.
import { spawnSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, describe, expect, it } from "vitest";
import { createAppMetrics, instrument, startMetricsServer } from "./app-metrics.ts";

const metrics = createAppMetrics(null);
const app = Fastify({ logger: false });
instrument(app, metrics);
app.get("/v1/bundles/:id", async (req, reply) =>
  (req.params as { id: string }).id === "missing" ? reply.status(404).send({}) : { ok: true },
);
const server = await startMetricsServer(metrics.registry, "127.0.0.1", 0);
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  server.close();
  await app.close();
});

describe("the request histogram", () => {
  it("counts each answer under its route pattern and status, in seconds", async () => {
    for (const id of ["a", "b", "missing"]) await app.inject(`/v1/bundles/${id}`);
    await app.inject("/no/such/route");
    const text = await (await fetch(`${base}/metrics`)).text();
    const family = parsePrometheusTextFormat(text).find((f) => f.name === "cnibench_http_request_duration_seconds")!;
    expect(family.type).toBe("HISTOGRAM");
    // The parser drops a histogram's labels and count: read the _count samples from the text.
    const count = (route: string, status: string) =>
      Number(
        new RegExp(
          `^cnibench_http_request_duration_seconds_count\\{method="GET",route="${route}",status_code="${status}"\\} (\\d+)$`,
          "m",
        ).exec(text)?.[1],
      );
    // 3 requests to the one route (2 answered 200, 1 answered 404), 1 to no route: 4 series-worth of counts.
    expect(count("/v1/bundles/:id", "200")).toBe(2);
    expect(count("/v1/bundles/:id", "404")).toBe(1);
    expect(count("unmatched", "404")).toBe(1);
    expect(text).not.toContain('route="/v1/bundles/a"');
    // prom-client's process metrics are there too.
    expect(text).toContain("process_cpu_seconds_total");
  });

  it("serves only GET /metrics on its port", async () => {
    const res = await fetch(`${base}/v1/bundles`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/Only GET \/metrics/);
    const ok = await fetch(`${base}/metrics`);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});

describe.skipIf(spawnSync("promtool", ["--version"]).status !== 0)(
  "promtool check metrics (skipped without promtool: apt-get install prometheus)",
  () => {
    it("accepts the app's metrics", async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const out = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
      expect(`${out.stdout}${out.stderr}`).toBe("");
      expect(out.status).toBe(0);
    });
  },
);
