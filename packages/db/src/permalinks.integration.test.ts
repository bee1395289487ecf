import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../../test-support/database.ts";
import { tkeServiceScale } from "../../../test-support/ingest.ts";
import { createDb, type Db } from "./client.ts";
import { ingestBundle } from "./ingest.ts";
import { createPermalink, getPermalink } from "./permalinks.ts";
import { compareView } from "./views.ts";
import { DEFAULT_WORKSPACE, ensureDefaultWorkspace } from "./workspace.ts";

const { overlay, iptables } = tkeServiceScale();

describe("permalinks", () => {
  let db: Db;
  let drop: () => Promise<void>;
  let workspaceId: string;
  const put = async (bundle: object) => {
    const outcome = await ingestBundle(db, { workspaceId, tokenId: null, text: JSON.stringify(bundle) });
    if (!outcome.ok) throw new Error("bundle did not ingest");
    return outcome.stored;
  };

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = createDb(fresh.url);
    workspaceId = (await ensureDefaultWorkspace(db)).id;
  });
  afterAll(async () => {
    await db.$disconnect();
    await drop();
  });

  it("pins the bundles current when shared, and says what changed since", async () => {
    const a = await put(iptables);
    const c = await put(overlay);
    const link = await createPermalink(db, DEFAULT_WORKSPACE.slug, {
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
    const later = await getPermalink(db, DEFAULT_WORKSPACE.slug, link?.slug ?? "");
    expect(later?.newer).toEqual([{ bundleId: newer.id, scenarioId: c.scenarioId }]);
    expect(later?.missing).toEqual([]);

    // The pinned view still shows the first run's 14,193 req/s at 0 Services; the live view the new one.
    const pinned = await compareView(db, DEFAULT_WORKSPACE.slug, {
      scenarioIds: later?.scenarioIds ?? [],
      bundleIds: later?.pins.map((p) => p.bundleId),
    });
    const live = await compareView(db, DEFAULT_WORKSPACE.slug, { scenarioIds: later?.scenarioIds ?? [] });
    const at0 = (v: typeof live) =>
      v.figures.find((f) => f.scenarioId === c.scenarioId && f.params.services === 0)?.value;
    expect(at0(pinned)).toBe(14193);
    expect(at0(live)).toBe(15000);

    await db.bundle.delete({ where: { id: a.id } });
    const afterDelete = await getPermalink(db, DEFAULT_WORKSPACE.slug, link?.slug ?? "");
    expect(afterDelete?.missing.map((m) => [m.bundleId, m.label])).toEqual([
      [a.id, "Cilium Network Performance Benchmark — Service scale: short-connection RPS, Cilium Overlay column"],
    ]);
  });

  it("refuses unknown scenarios and finds no unknown slug", async () => {
    expect(await createPermalink(db, DEFAULT_WORKSPACE.slug, { scenarioIds: ["nope", "nada"], view: {} })).toBeNull();
    expect(await getPermalink(db, DEFAULT_WORKSPACE.slug, "missing1")).toBeNull();
  });
});
