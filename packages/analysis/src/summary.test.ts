import { describe, expect, it } from "vitest";
import {
  countVerdicts,
  formatComparisonSummary,
  formatVerdictSummary,
  type JudgedFigure,
  judgedPercent,
  judgedPercentBasis,
  summariseComparison,
} from "./summary.ts";
import type { Params } from "./types.ts";
import { compareFigures, type Verdict } from "./verdict.ts";

describe("verdict summary", () => {
  it("counts verdicts and says them in words", () => {
    const list: Verdict[] = [
      ...Array<Verdict>(9).fill("better"),
      ...Array<Verdict>(6).fill("worse"),
      ...Array<Verdict>(14).fill("equivalent"),
    ];
    const counts = countVerdicts(list);
    expect(counts).toEqual({
      better: 9,
      worse: 6,
      equivalent: 14,
      "small-but-real": 0,
      inconclusive: 0,
      "not-comparable": 0,
      missing: 0,
    });
    expect(formatVerdictSummary("Cilium Overlay", "kube-proxy iptables", counts)).toBe(
      "Cilium Overlay vs kube-proxy iptables: 9 better, 6 worse, 14 equivalent",
    );
  });

  it("accepts verdict results and mentions not comparable and missing only when present", () => {
    const counts = countVerdicts([{ verdict: "not-comparable" }, { verdict: "missing" }, { verdict: "missing" }]);
    expect(formatVerdictSummary("B", "A", counts)).toBe(
      "B vs A: 0 better, 0 worse, 0 equivalent, 1 not comparable, 2 missing",
    );
  });
});

describe("a compare summary an engineer can act on (issue 40)", () => {
  // The node memory of InfraBuilder's bundles is read during each of 9 tests (idle and 8 traffic
  // tests) on the client and the server: 18 figures of 2 facts.
  const tests: Params[] = [
    { test: "idle" },
    ...["pod-pod", "service"].flatMap((path) =>
      ["tcp", "udp"].flatMap((protocol) => [1, 8].map((streams) => ({ path, protocol, streams }))),
    ),
  ].slice(0, 9);
  const memory = (verdict: Verdict, percent: number): JudgedFigure[] =>
    tests.flatMap((t) =>
      ["client", "server"].map((role) => ({
        metric: "memory.usage",
        params: { component: "node", ...t, role },
        verdict,
        percent,
      })),
    );
  const tcp = (streams: number, verdict: Verdict, percent: number): JudgedFigure => ({
    metric: "tcp.throughput",
    params: { path: "pod-pod", streams },
    verdict,
    percent,
  });

  it("counts one node-level fact once per node and role, not once per test (cilium-nokproxy vs cilium)", () => {
    const figures = [...memory("worse", 20), tcp(1, "equivalent", 0.4), tcp(8, "equivalent", -1.2)];
    expect(figures.filter((f) => f.verdict === "worse")).toHaveLength(18); // what the old line counted
    const s = summariseComparison(figures);
    expect(s.effects).toEqual([]);
    expect(s.families.map((f) => [f.label, f.counts.worse, f.counts.equivalent])).toEqual([
      ["TCP throughput", 0, 2],
      ["Memory usage, per node and role", 2, 0],
    ]);
    expect(formatComparisonSummary("cilium-nokproxy", "cilium", s)).toBe(
      "cilium-nokproxy vs cilium: no decided change on a primary figure. By family: TCP throughput 2 equivalent; " +
        "Memory usage, per node and role 2 worse.",
    );
  });

  it("puts the decided primary effects first, largest first (kubeovn vs cilium)", () => {
    // 18 memory figures better (2 facts), UDP loss worse +35 %, single-stream TCP halved, 8 streams
    // within the margin, UDP 8-stream throughput +12 % better, idle CPU worse on both roles.
    const figures: JudgedFigure[] = [
      ...memory("better", -15),
      tcp(8, "equivalent", 1.9),
      { metric: "udp.throughput", params: { path: "pod-pod", streams: 8 }, verdict: "better", percent: 12.04 },
      { metric: "udp.loss", params: { path: "pod-pod", streams: 8 }, verdict: "worse", percent: 35.2 },
      tcp(1, "worse", -50.13),
      ...["client", "server"].map((role) => ({
        metric: "cpu.usage",
        params: { component: "node", test: "idle", role },
        verdict: "worse" as Verdict,
        percent: 80,
      })),
      { metric: "x.tcp.retransmits", params: { path: "pod-pod", streams: 1 }, verdict: "worse", percent: 900 },
    ];
    const s = summariseComparison(figures);
    // |−50.13| > |35.2| > |12.04|; idle CPU (+80 %) and retransmits (+900 %) are not primary figures.
    expect(s.effects.map((e) => [e.metric, e.percent])).toEqual([
      ["tcp.throughput", -50.13],
      ["udp.loss", 35.2],
      ["udp.throughput", 12.04],
    ]);
    expect(formatComparisonSummary("kubeovn", "cilium", s, { limit: 2 })).toBe(
      "kubeovn vs cilium: TCP throughput · path pod-pod · streams 1 −50.1 %, worse; " +
        "UDP packet loss · path pod-pod · streams 8 +35.2 %, worse; and 1 more decided. By family: " +
        "TCP throughput 1 worse, 1 equivalent; UDP throughput 1 better; UDP packet loss 1 worse; tool-specific figures (x.…) 1 worse; " +
        "CPU usage at idle, per node and role 2 worse; Memory usage, per node and role 2 better.",
    );
  });

  it("counts apart the resource costs of tests that moved more traffic (antrea-noencap vs antrea-ipsec)", () => {
    // InfraBuilder's 25 setups: noencap's CPU is worse in 3 tests that moved far more traffic (8-stream
    // service TCP +722.3 %) and in 1 that did not; a plain "4 worse" reads as a cost per Gbit/s it is not.
    const cpu = (path: string, streams: number, percent: number, more: number | null): JudgedFigure => ({
      metric: "cpu.usage",
      params: { component: "node", path, protocol: "tcp", streams, role: "client" },
      verdict: "worse",
      percent,
      caveat: more === null ? null : { text: `while moving ${more} % more traffic`, kind: "more traffic" },
    });
    const figures = [
      cpu("service", 8, 110, 722.3),
      cpu("pod-pod", 8, 95, 690),
      cpu("pod-pod", 1, 40, 120),
      cpu("service", 1, 12, null),
    ];
    const s = summariseComparison(figures);
    expect(s.families[0]).toMatchObject({
      counts: { worse: 4 },
      caveated: { worse: { kind: "more traffic", count: 3 } },
    });
    expect(formatComparisonSummary("antrea-noencap", "antrea-ipsec", s)).toBe(
      "antrea-noencap vs antrea-ipsec: no decided change on a primary figure. By family: " +
        "CPU usage 4 worse (3 while moving more traffic).",
    );
  });

  it("counts a node's CPU in a test once, however many ways it was read (cilium-wg vs cilium)", () => {
    // InfraBuilder's statexec: each test and role read as every mode, user + system, and each of
    // user, system and softirq, five readings of one fact; two tests × two roles are 4 facts, not 20.
    const readings = (verdictOf: (accounting: string) => Verdict) =>
      [1, 8].flatMap((streams) =>
        ["client", "server"].flatMap((role) =>
          [
            { accounting: "all-modes" },
            { accounting: "user+system" },
            ...["user", "system", "softirq"].map((mode) => ({ accounting: "mode", mode })),
          ].map(
            (a): JudgedFigure => ({
              metric: "cpu.usage",
              params: { component: "node", path: "pod-pod", protocol: "tcp", streams, role, ...a },
              verdict: verdictOf(a.accounting),
              percent: 120,
            }),
          ),
        ),
      );
    const agent: JudgedFigure = {
      metric: "cpu.usage",
      params: { component: "cilium-agent" },
      verdict: "worse",
      percent: 30,
    };
    const all = summariseComparison([...readings(() => "worse"), agent]);
    expect(all.families.map((f) => [f.label, f.counts.worse])).toEqual([["CPU usage", 5]]);
    // flannel's real runs have only bench.sh's user + system: compared on that, not "missing" four times.
    const partial = summariseComparison(readings((a) => (a === "user+system" ? "equivalent" : "missing")));
    expect(partial.families.map((f) => [f.counts.equivalent, f.counts.missing])).toEqual([[4, 0]]);
    expect(formatComparisonSummary("flannel", "cilium", partial)).toBe(
      "flannel vs cilium: no decided change on a primary figure. By family: CPU usage 4 equivalent.",
    );
  });

  it("gives a node-level fact the verdict most of its readings got", () => {
    // Client memory: 7 readings worse, 2 equivalent → worse; server: all equivalent.
    const figures = memory("equivalent", 3).map((f, i) =>
      f.params.role === "client" && i < 14 ? { ...f, verdict: "worse" as Verdict } : f,
    );
    const s = summariseComparison(figures);
    expect(s.families).toHaveLength(1);
    expect([s.families[0]!.counts.worse, s.families[0]!.counts.equivalent]).toEqual([1, 1]);
  });
});

describe("judgedPercent: the row's % is the effect the verdict judged", () => {
  it("takes the ratio of geometric means from runs, not the change of medians", () => {
    // Baseline runs 9.0, 10.0, 9.2 (median 9.2), candidate 9.6, 9.46, 9.0 (median 9.46): medians
    // +2.826 %; geometric means (9.0·10.0·9.2)^(1/3) = 9.39024 and (9.6·9.46·9.0)^(1/3) = 9.34979,
    // ratio 0.995692 → −0.431 % (python3: math.prod(runs) ** (1 / 3)).
    const r = compareFigures(
      { metric: "tcp.throughput", unit: "Gbit/s", value: 9.2, samples: [9.0, 10.0, 9.2] },
      { metric: "tcp.throughput", unit: "Gbit/s", value: 9.46, samples: [9.6, 9.46, 9.0] },
    );
    expect(r.delta?.percent).toBeCloseTo(2.826, 3);
    expect(judgedPercent(r)).toBeCloseTo(-0.4308, 3);
    expect(judgedPercentBasis(r)).toBe("ratio of the runs' geometric means");
  });

  it("takes the values' change from single runs", () => {
    const r = compareFigures(
      { metric: "tcp.throughput", unit: "Gbit/s", value: 10 },
      { metric: "tcp.throughput", unit: "Gbit/s", value: 12 },
    );
    expect(judgedPercent(r)).toBeCloseTo(20, 10);
    expect(judgedPercentBasis(r)).toBe("change of the values");
  });
});
