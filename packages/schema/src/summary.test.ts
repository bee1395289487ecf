/**
 * result.summary (summary statistics when a tool publishes no samples) and result.samplesAre.
 * Figures: k8s-netperf's documented CSV row 1 (TCP_STREAM 873.606667 Mb/s, 95 % CI
 * 861.9391413991156–885.2741919342178, 3 samples); the Gbit/s values divided by 1000 by hand.
 */
import { tkeCiliumOverlay } from "@cnibench/test-support/seed-bundles";
import { describe, expect, it } from "vitest";
import { parseBundle } from "./normalise.ts";

const withResult = (result: Record<string, unknown>) => ({
  ...tkeCiliumOverlay(),
  results: [{ metric: "tcp.throughput", unit: "Mb/s", value: 873.606667, aggregate: "mean", ...result }],
});
const summary = { mean: 873.606667, ci95: [861.9391413991156, 885.2741919342178], n: 3, of: "runs" };

describe("result.summary and result.samplesAre", () => {
  it("are kept, converted to the catalogue unit like the value", () => {
    const parsed = parseBundle(withResult({ summary, samplesAre: "runs" }));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const [m] = parsed.bundle.measurements;
    expect(m?.unit).toBe("Gbit/s");
    expect(m?.summary?.mean).toBeCloseTo(0.873606667, 12);
    expect(m?.summary?.ci95?.[0]).toBeCloseTo(0.8619391413991156, 12);
    expect(m?.summary?.ci95?.[1]).toBeCloseTo(0.885274191934218, 12);
    expect(m?.summary).toMatchObject({ n: 3, of: "runs" });
    expect(m?.samplesAre).toBe("runs");
  });

  it("a figure without them has neither", () => {
    const parsed = parseBundle(withResult({}));
    expect(parsed.ok && parsed.bundle.measurements[0]).not.toHaveProperty("summary");
  });

  it.each([
    [
      { ...summary, ci95: [885.3, 861.9] },
      "results[0].summary",
      "ci95's low (885.3) must not be greater than its high (861.9)",
    ],
    [{ ...summary, mean: 900 }, "results[0].summary", "the mean (900) must lie within ci95"],
    [{ ...summary, n: 0 }, "results[0].summary.n", ""],
    [{ ...summary, of: "pods" }, "results[0].summary.of", ""],
    [{ ...summary, sd: -1 }, "results[0].summary.sd", ""],
    [{ ...summary, extra: 1 }, "results[0].summary", ""],
    [{ mean: -5, n: 3, of: "runs" }, "results[0].summary.mean", "TCP throughput cannot be negative (-5 Mb/s)"],
  ])("refuses %j at %s", (bad, path, message) => {
    const parsed = parseBundle(withResult({ summary: bad }));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it("samplesAre takes runs or clients only", () => {
    const parsed = parseBundle(withResult({ samples: [1, 2], samplesAre: "threads" }));
    expect(parsed.ok || parsed.issues.map((i) => i.path)).toEqual(["results[0].samplesAre"]);
  });
});
