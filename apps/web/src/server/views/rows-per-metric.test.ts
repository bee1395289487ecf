import { loadSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { compareRows } from "./compare-data";
import { foldRows } from "./rows-per-metric";

const tke = loadSeeds({
  a: ["tke-a-iptables-main.json", "tke-a-iptables-service-scale.json"],
  c: ["tke-c-cilium-overlay-main.json", "tke-c-cilium-overlay-service-scale.json"],
});

describe("foldRows", () => {
  const rows = compareRows(tke.scenarios, tke.figures);
  const perMetric = (list: readonly { metric: string }[]) =>
    list.reduce((m, r) => m.set(r.metric, (m.get(r.metric) ?? 0) + 1), new Map<string, number>());

  it("keeps the first rows of each metric in order and counts the rest", () => {
    const all = perMetric(rows);
    const { shown, folded } = foldRows(rows, 2);
    for (const [metric, n] of perMetric(shown)) expect(n).toBe(Math.min(2, all.get(metric) ?? 0));
    expect(shown).toEqual(rows.filter((r) => shown.includes(r)));
    expect(folded.reduce((n, f) => n + f.more, 0)).toBe(rows.length - shown.length);
    const rps = folded.find((f) => f.metric === "http.rps");
    expect(rps?.label).toBe("HTTP requests per second");
    expect(rps?.more).toBe((all.get("http.rps") ?? 0) - 2);
  });

  it("folds nothing when every metric fits", () => {
    expect(foldRows(rows, Number.POSITIVE_INFINITY)).toEqual({ shown: rows, folded: [] });
  });
});
