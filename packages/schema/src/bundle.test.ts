import { eksCiliumTuned, eksVpcCni, tkeCiliumOverlay, tkeIptables } from "@cnibench/test-support/seed-bundles";
import { describe, expect, it } from "vitest";
import { BUNDLE_SCHEMA, type BundleInput, bundleSchema } from "./bundle.ts";
import { type BundleIssue, parseBundle } from "./index.ts";

function issuesOf(input: unknown): BundleIssue[] {
  const result = parseBundle(input);
  if (result.ok) throw new Error("expected the bundle to be rejected");
  return result.issues;
}

function pathsOf(input: unknown): string[] {
  return issuesOf(input).map((issue) => issue.path);
}

function expectAccepted(input: unknown) {
  const result = parseBundle(input);
  if (!result.ok) expect(result.issues).toEqual([]);
  expect(result.ok).toBe(true);
}

/** The smallest valid bundle, from the TKE overlay cluster. */
function minimal(): BundleInput {
  return {
    schema: BUNDLE_SCHEMA,
    cluster: { name: "Cluster C", provider: "tke" },
    node: { sku: "SA5.LARGE8", kernel: "6.6.117-45.11.2" },
    cni: { name: "cilium", mode: "overlay-vxlan" },
    results: [{ metric: "tcp.throughput", value: 10.77, unit: "Gbps" }],
  };
}

function withResult(result: Record<string, unknown>): unknown {
  return { ...minimal(), results: [result] };
}

describe("bundle contract: accepted bundles", () => {
  it.each([
    ["TKE Cilium overlay", tkeCiliumOverlay()],
    ["TKE iptables", tkeIptables()],
    ["EKS VPC CNI", eksVpcCni()],
    ["EKS Cilium tuned", eksCiliumTuned()],
    ["minimal", minimal()],
  ])("accepts the %s bundle", (_name, bundle) => {
    expectAccepted(bundle);
    expect(bundleSchema.safeParse(bundle).success).toBe(true);
  });

  it('accepts "unknown" for every required identity string', () => {
    expectAccepted({
      schema: BUNDLE_SCHEMA,
      cluster: { name: "unknown", provider: "unknown" },
      node: { sku: "unknown", kernel: "unknown" },
      cni: { name: "unknown", mode: "unknown" },
      results: [{ metric: "http.rps", value: 13080, unit: "req/s" }],
    });
  });

  it("accepts dates and date-times with an offset for runAt and publishedAt", () => {
    for (const runAt of ["2026-02-09T22:23:39Z", "2026-02-09T22:23:39.5+08:00", "2026-02-09"]) {
      expectAccepted({ ...minimal(), runAt, source: { publishedAt: runAt } });
    }
  });

  it("accepts nullable node facts and extra fields in nested objects", () => {
    expectAccepted({
      ...minimal(),
      node: { sku: "SA5.LARGE8", kernel: "6.6.117-45.11.2", vcpus: null, memoryGiB: null, nicGbps: null, tier: "L500" },
      cluster: { name: "c", provider: "tke", nodeCount: null, tier: "L500" },
    });
  });
});

describe("bundle contract: the bundle's own warnings", () => {
  it("keeps an importer's warnings first among the bundle's warnings, path and message as sent", () => {
    const sent = [
      { path: "", message: "missing run: sts, iperf3 could not connect" },
      { path: "node.kernel", message: "node.kernel: you passed 6.1, the files say 5.15.0-94-generic" },
    ];
    const parsed = parseBundle({ ...minimal(), cni: { name: "not-a-cni", mode: "native" }, warnings: sent });
    if (!parsed.ok) throw new Error("refused");
    expect(parsed.warnings.slice(0, 2)).toEqual(sent);
    expect(parsed.warnings[2]?.path).toBe("cni.name");
    expect(parsed.bundle.extra).toEqual({});
  });

  it("refuses a warning that is not {path, message}", () => {
    const parsed = parseBundle({ ...minimal(), warnings: [{ path: "", text: "x" }] });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((i) => i.path)).toEqual(["warnings[0].message"]);
  });
});

describe("bundle contract: required fields", () => {
  it.each([
    ["schema", (b: Record<string, unknown>) => delete b.schema],
    ["cluster", (b: Record<string, unknown>) => delete b.cluster],
    ["cluster.name", (b: Record<string, Record<string, unknown>>) => delete b.cluster?.name],
    ["cluster.provider", (b: Record<string, Record<string, unknown>>) => delete b.cluster?.provider],
    ["node.sku", (b: Record<string, Record<string, unknown>>) => delete b.node?.sku],
    ["node.kernel", (b: Record<string, Record<string, unknown>>) => delete b.node?.kernel],
    ["cni.name", (b: Record<string, Record<string, unknown>>) => delete b.cni?.name],
    ["cni.mode", (b: Record<string, Record<string, unknown>>) => delete b.cni?.mode],
    ["results", (b: Record<string, unknown>) => delete b.results],
    ["results[0].metric", (b: { results: Record<string, unknown>[] }) => delete b.results[0]?.metric],
    ["results[0].value", (b: { results: Record<string, unknown>[] }) => delete b.results[0]?.value],
    ["results[0].unit", (b: { results: Record<string, unknown>[] }) => delete b.results[0]?.unit],
    // biome-ignore lint/suspicious/noExplicitAny: each row removes a different field
  ] as [string, (b: any) => void][])("rejects a bundle without %s, naming the path", (path, remove) => {
    const bundle = minimal();
    remove(bundle);
    const issues = issuesOf(bundle);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe(path);
    expect(issues[0]?.message).toMatch(/^required/);
  });

  it("rejects empty results, a wrong schema tag and blank identity strings", () => {
    expect(issuesOf({ ...minimal(), results: [] })).toEqual([
      { path: "results", message: "a bundle needs at least one result" },
    ]);
    expect(pathsOf({ ...minimal(), schema: "cnibench/bundle@2" })).toEqual(["schema"]);
    expect(pathsOf({ ...minimal(), cluster: { name: "  ", provider: "tke" } })).toEqual(["cluster.name"]);
  });

  it("rejects something that is not an object at the root", () => {
    expect(issuesOf("hello")).toEqual([{ path: "", message: "a bundle must be a JSON object" }]);
    expect(pathsOf([])).toEqual([""]);
    expect(pathsOf(null)).toEqual([""]);
  });

  it("rejects non-finite and non-numeric values", () => {
    expect(pathsOf(withResult({ metric: "http.rps", value: Number.POSITIVE_INFINITY, unit: "req/s" }))).toEqual([
      "results[0].value",
    ]);
    expect(pathsOf(withResult({ metric: "http.rps", value: "13080", unit: "req/s" }))).toEqual(["results[0].value"]);
    expect(pathsOf(withResult({ metric: "http.rps", value: 1, unit: "req/s", samples: [1, Number.NaN] }))).toEqual([
      "results[0].samples[1]",
    ]);
  });

  it("rejects bad dates, local times and non-http source URLs", () => {
    expect(pathsOf({ ...minimal(), runAt: "2026-02-09T22:23:39" })).toEqual(["runAt"]);
    expect(pathsOf({ ...minimal(), runAt: "last tuesday" })).toEqual(["runAt"]);
    expect(pathsOf({ ...minimal(), source: { publishedAt: "2026-13-01" } })).toEqual(["source.publishedAt"]);
    expect(pathsOf({ ...minimal(), source: { url: "javascript:alert(1)" } })).toEqual(["source.url"]);
  });

  it("enforces length limits", () => {
    expect(pathsOf({ ...minimal(), cluster: { name: "n".repeat(501), provider: "tke" } })).toEqual(["cluster.name"]);
    expect(pathsOf({ ...minimal(), collector: { name: "c", command: "x".repeat(10_001) } })).toEqual([
      "collector.command",
    ]);
    const tooMany = Array.from({ length: 100_001 }, () => ({ metric: "http.rps", value: 1, unit: "req/s" }));
    expect(pathsOf({ ...minimal(), results: tooMany })).toEqual(["results"]);
  });
});

describe("bundle contract: per-result rules", () => {
  it.each(["approx", "at-most", "at-least"])("accepts qualifier %s", (qualifier) => {
    // AKS GA scale test: Cilium agent CPU "not exceeding 100 milli cores", memory "around 500 MiB"
    expectAccepted(withResult({ metric: "cpu.usage", value: 100, unit: "milli cores", qualifier }));
  });

  it('accepts a "range" with low ≤ value ≤ high (EKS "CPU: 4-6m")', () => {
    expectAccepted(withResult({ metric: "cpu.usage", value: 5, low: 4, high: 6, unit: "m", qualifier: "range" }));
    expectAccepted(withResult({ metric: "cpu.usage", value: 4, low: 4, high: 4, unit: "m", qualifier: "range" }));
  });

  it('requires low and high with "range"', () => {
    expect(issuesOf(withResult({ metric: "cpu.usage", value: 5, unit: "m", qualifier: "range" }))).toEqual([
      { path: "results[0].low", message: 'low is required when qualifier is "range"' },
      { path: "results[0].high", message: 'high is required when qualifier is "range"' },
    ]);
  });

  it("rejects low above high, a value outside the range, and bounds without range", () => {
    expect(
      pathsOf(withResult({ metric: "cpu.usage", value: 5, low: 6, high: 4, unit: "m", qualifier: "range" })),
    ).toEqual(["results[0].low"]);
    expect(
      pathsOf(withResult({ metric: "cpu.usage", value: 9, low: 4, high: 6, unit: "m", qualifier: "range" })),
    ).toEqual(["results[0].value"]);
    expect(
      pathsOf(withResult({ metric: "cpu.usage", value: 5, low: 4, high: 6, unit: "m", qualifier: "approx" })),
    ).toEqual(["results[0].low", "results[0].high"]);
  });

  it("rejects an unknown qualifier or aggregate", () => {
    expect(pathsOf(withResult({ metric: "http.rps", value: 1, unit: "req/s", qualifier: "about" }))).toEqual([
      "results[0].qualifier",
    ]);
    expect(pathsOf(withResult({ metric: "http.rps", value: 1, unit: "req/s", aggregate: "p99" }))).toEqual([
      "results[0].aggregate",
    ]);
  });

  it.each(["single", "median", "mean", "min", "max"])("accepts aggregate %s", (aggregate) => {
    expectAccepted(withResult({ metric: "tcp.throughput", value: 12.41, unit: "Gbps", aggregate, samples: [12.41] }));
  });

  it("requires metrics outside the catalogue to be named x. and to declare better", () => {
    expect(issuesOf(withResult({ metric: "dns.qps", value: 1, unit: "req/s", better: "higher" }))).toEqual([
      {
        path: "results[0].metric",
        message: 'metric "dns.qps" is not in the catalogue; name a metric outside it "x.<name>"',
      },
    ]);
    expect(issuesOf(withResult({ metric: "x.dns.qps", value: 1, unit: "req/s" }))).toEqual([
      {
        path: "results[0].better",
        message: 'metric "x.dns.qps" is outside the catalogue, so it must declare better ("higher", "lower" or "none")',
      },
    ]);
    expect(pathsOf(withResult({ metric: "x.", value: 1, unit: "req/s", better: "higher" }))).toEqual([
      "results[0].metric",
    ]);
  });

  it("lets x. metrics use any non-empty unit", () => {
    expectAccepted(withResult({ metric: "x.hubble.flows", value: 3, unit: "flows per node", better: "none" }));
    expect(pathsOf(withResult({ metric: "x.hubble.flows", value: 3, unit: "", better: "none" }))).toEqual([
      "results[0].unit",
    ]);
  });

  it("requires a catalogue metric's unit to convert to the catalogue unit", () => {
    expect(issuesOf(withResult({ metric: "tcp.rr.latency", value: 118, unit: "Gbps" }))).toEqual([
      {
        path: "results[0].unit",
        message: 'metric "tcp.rr.latency" is measured in µs; unit "Gbps" cannot be converted to it',
      },
    ]);
    expect(pathsOf(withResult({ metric: "memory.usage", value: 1, unit: "bananas" }))).toEqual(["results[0].unit"]);
  });

  it("rejects a better that contradicts the catalogue", () => {
    expect(pathsOf(withResult({ metric: "tcp.rr.latency", value: 118, unit: "µs", better: "higher" }))).toEqual([
      "results[0].better",
    ]);
    expectAccepted(withResult({ metric: "tcp.rr.latency", value: 118, unit: "µs", better: "lower" }));
  });

  it("rejects params that are not flat strings, numbers or booleans", () => {
    expect(
      pathsOf(withResult({ metric: "http.rps", value: 1, unit: "req/s", params: { "target.kind": { a: 1 } } })),
    ).toEqual(['results[0].params["target.kind"]']);
  });
});

describe("bundle contract: physically impossible figures", () => {
  it("refuses a negative catalogue figure in value, low, high and samples, each where it is", () => {
    expect(issuesOf(withResult({ metric: "tcp.throughput", value: -5, unit: "Gbps" }))).toEqual([
      { path: "results[0].value", message: "TCP throughput cannot be negative (-5 Gbps)" },
    ]);
    // EKS "CPU: 4-6m" with its bounds mistyped.
    expect(
      issuesOf(withResult({ metric: "cpu.usage", value: 5, low: -4, high: 6, unit: "m", qualifier: "range" })),
    ).toEqual([{ path: "results[0].low", message: "CPU usage cannot be negative (-4 m)" }]);
    expect(
      pathsOf(withResult({ metric: "cpu.usage", value: -5, low: -6, high: -4, unit: "m", qualifier: "range" })),
    ).toEqual(["results[0].value", "results[0].low", "results[0].high"]);
    // TKE's TCP_RR p99 of 118 µs with a round of -3.
    expect(pathsOf(withResult({ metric: "tcp.rr.latency", value: 118, unit: "µs", samples: [118, -3] }))).toEqual([
      "results[0].samples[1]",
    ]);
  });

  it("refuses a UDP loss above 100 % and accepts 0 and 100", () => {
    expect(issuesOf(withResult({ metric: "udp.loss", value: 140, unit: "%" }))).toEqual([
      { path: "results[0].value", message: "UDP packet loss cannot exceed 100 % (140 %)" },
    ]);
    expectAccepted(withResult({ metric: "udp.loss", value: 100, unit: "%", samples: [0, 100] }));
  });

  it("refuses a negative x. figure whose unit is a throughput, duration or size, by the unit's dimension", () => {
    const bundle = eksVpcCni();
    bundle.results[3] = { metric: "x.tcp.throughput.sent", value: -5, unit: "Gbit/s", better: "higher" };
    expect(issuesOf(bundle)).toEqual([
      { path: "results[3].value", message: "a throughput cannot be negative (-5 Gbit/s)" },
    ]);
    expect(issuesOf(withResult({ metric: "x.sync.wait", value: -2, unit: "ms", better: "lower" }))).toEqual([
      { path: "results[0].value", message: "a duration cannot be negative (-2 ms)" },
    ]);
    expect(issuesOf(withResult({ metric: "x.conntrack.size", value: -1, unit: "MiB", better: "lower" }))).toEqual([
      { path: "results[0].value", message: "a size cannot be negative (-1 MiB)" },
    ]);
  });

  it("lets x. percentages, counts and unknown units be negative: they may be deltas", () => {
    expectAccepted(withResult({ metric: "x.hubble.overhead", value: -0.3, unit: "%", better: "lower" }));
    expectAccepted(withResult({ metric: "x.iptables.rules.delta", value: -20, unit: "rules", better: "none" }));
    expectAccepted(withResult({ metric: "x.score", value: -1, unit: "points", better: "higher" }));
  });
});

describe("bundle contract: one parse reports every violation", () => {
  it("reports all issues with their paths", () => {
    const bundle = {
      schema: BUNDLE_SCHEMA,
      cluster: { provider: "tke" },
      node: { sku: "SA5.LARGE8", vcpus: -4 },
      cni: { name: "cilium", mode: "overlay-vxlan", settings: { "bpf.hostLegacyRouting": [false] } },
      runAt: "yesterday",
      results: [
        { metric: "tcp.throughput", value: 10.77, unit: "Gbps" },
        { metric: "tcp.throughput", value: 10.77, unit: "ms" },
        { metric: "rps", value: 13080, unit: "req/s" },
        { metric: "x.hubble.overhead", value: -0.3, unit: "%" },
        { metric: "cpu.usage", value: "4-6", unit: "m", qualifier: "range" },
        { metric: "http.rps", value: 1, unit: "req/s", aggregate: "p50" },
        { metric: "pod.rtt", value: -4894, unit: "us" },
      ],
    };
    expect(pathsOf(bundle).sort()).toEqual(
      [
        "runAt",
        "cluster.name",
        "node.vcpus",
        "node.kernel",
        'cni.settings["bpf.hostLegacyRouting"]',
        "results[1].unit",
        "results[2].metric",
        "results[3].better",
        "results[4].value",
        "results[4].low",
        "results[4].high",
        "results[5].aggregate",
        "results[6].value",
      ].sort(),
    );
  });
});
