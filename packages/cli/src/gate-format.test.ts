import { describe, expect, it } from "vitest";
import { readBaseline, readMargins } from "./gate.ts";
import {
  type GateResult,
  type GateRow,
  gateExitCode,
  gateHeadline,
  junitXml,
  markdownCell,
  markdownSummary,
  xmlEscape,
} from "./gate-format.ts";

// Rows as POST /v1/gate words them: 9.453 → 8.77 Gbit/s is −7.228 % (8.7701 / 9.4534 − 1).
const worse: GateRow = {
  metric: "tcp.throughput",
  label: "TCP throughput",
  params: { streams: 1 },
  unit: "Gbit/s",
  baseline: { n: 3, median: 9.4534 },
  candidate: { n: 3, median: 8.7701 },
  changePercent: -7.228,
  verdict: "worse",
  indicative: false,
  why: "3 vs 3 runs: ratio 0.926, 95 % interval 0.895–0.959, margin ±5 %; Welch's t on log values, p = 8.6e-5",
  marginPercent: 5,
  gated: true,
  caveat: null,
  text: {
    params: "streams 1",
    baseline: "9.453 Gbit/s (n=3)",
    candidate: "8.77 Gbit/s (n=3)",
    change: "−7.228 %",
    verdict: "worse",
  },
};
const undecided: GateRow = {
  ...worse,
  metric: "http.latency",
  label: "HTTP latency",
  params: { percentile: "p99", path: "a|b <c>" },
  unit: "ms",
  verdict: "inconclusive",
  marginPercent: 10,
  why: "2 vs 2 runs: ratio 1.127 & more",
  text: { ...worse.text, params: "path a|b <c> · percentile p99", change: "+12.85 %", verdict: "inconclusive" },
};
const notDeciding: GateRow = {
  ...worse,
  metric: "x.tcp.throughput.sent",
  label: "x.tcp.throughput.sent",
  verdict: "worse",
  marginPercent: 10,
  gated: false,
};

const result = (rows: GateRow[], more: Partial<GateResult> = {}): GateResult => ({
  candidate: {
    description: 'campaign "nightly-09" of Cilium native routing (3 bundles, measured 2026-11-09)',
    bundleIds: ["c1", "c2", "c3"],
  },
  baseline: {
    description: 'previous campaign "nightly-08" of Cilium native routing (3 bundles, measured 2026-11-08)',
    bundleIds: ["b1", "b2", "b3"],
  },
  rows,
  metrics: null,
  unmeasured: [],
  compared: rows.filter((r) => r.verdict !== "missing").length,
  worse: rows.filter((r) => r.gated && r.verdict === "worse").length,
  inconclusive: rows.filter((r) => r.gated && r.verdict === "inconclusive").length,
  outcome: "pass",
  ...more,
});

describe("gateExitCode", () => {
  it("is 1 for a worse figure, whatever else; 2 for an undecided one unless allowed; else 0", () => {
    expect(gateExitCode({ worse: 1, inconclusive: 3 }, false)).toBe(1);
    expect(gateExitCode({ worse: 1, inconclusive: 0 }, true)).toBe(1);
    expect(gateExitCode({ worse: 0, inconclusive: 2 }, false)).toBe(2);
    expect(gateExitCode({ worse: 0, inconclusive: 2 }, true)).toBe(0);
    expect(gateExitCode({ worse: 0, inconclusive: 0 }, false)).toBe(0);
  });
});

describe("markdownSummary", () => {
  it("titles the outcome, says what was compared, and tables every figure with its evidence folded", () => {
    const text = markdownSummary(
      result([worse, undecided, notDeciding], { metrics: ["tcp.throughput", "http.latency"] }),
      {
        allowInconclusive: false,
      },
    );
    expect(text).toBe(
      [
        "### cnibench gate: ❌ worse",
        "",
        "1 figure worse beyond its margin: tcp.throughput (streams 1) −7.228 %",
        "",
        '- candidate: campaign "nightly-09" of Cilium native routing (3 bundles, measured 2026-11-09)',
        '- baseline: previous campaign "nightly-08" of Cilium native routing (3 bundles, measured 2026-11-08)',
        "- deciding metrics: `tcp.throughput`, `http.latency`",
        "",
        "| | metric | params | baseline | candidate | change | verdict |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        "| ❌ | TCP throughput `tcp.throughput` | streams 1 | 9.453 Gbit/s (n=3) | 8.77 Gbit/s (n=3) | −7.228 % | **worse** · margin ±5 % |",
        "| ⚠️ | HTTP latency `http.latency` | path a\\|b &lt;c&gt; · percentile p99 | 9.453 Gbit/s (n=3) | 8.77 Gbit/s (n=3) | +12.85 % | **inconclusive** · margin ±10 % |",
        "| · | x.tcp.throughput.sent `x.tcp.throughput.sent` | streams 1 | 9.453 Gbit/s (n=3) | 8.77 Gbit/s (n=3) | −7.228 % | worse · margin ±10 % |",
        "",
        "· not deciding: another metric, measured by one side only, or without a better direction.",
        "",
        "<details><summary>Evidence</summary>",
        "",
        "- `tcp.throughput (streams 1)`: 3 vs 3 runs: ratio 0.926, 95 % interval 0.895–0.959, margin ±5 %; Welch's t on log values, p = 8.6e-5",
        "- `http.latency (path a\\|b &lt;c&gt; · percentile p99)`: 2 vs 2 runs: ratio 1.127 &amp; more",
        "- `x.tcp.throughput.sent (streams 1)`: 3 vs 3 runs: ratio 0.926, 95 % interval 0.895–0.959, margin ±5 %; Welch's t on log values, p = 8.6e-5",
        "",
        "</details>",
        "",
      ].join("\n"),
    );
  });

  it("says a worse CPU row with the traffic its campaign moved besides", () => {
    // As POST /v1/gate words it: 0.8 → 1.2 cores while throughput went 6.5 → 19.6 Gbit/s (+201.5 %).
    const cpu: GateRow = {
      ...worse,
      metric: "cpu.usage",
      label: "CPU usage",
      caveat: "while moving 201.5 % more traffic",
      text: { ...worse.text, baseline: "0.8 cores (n=3)", candidate: "1.2 cores (n=3)", change: "+50 %" },
    };
    expect(markdownSummary(result([cpu]), { allowInconclusive: false })).toContain(
      "| +50 % | **worse** · while moving 201.5 % more traffic, margin ±5 % |",
    );
    expect(junitXml(result([cpu]))).toContain(
      'message="cpu.usage (streams 1) is worse: +50 % (0.8 cores (n=3) → 1.2 cores (n=3)), while moving 201.5 % more traffic, margin ±5 %"',
    );
  });

  it("says undecided, allowed or not, and why: inconclusive figures, unmeasured metrics, nothing compared", () => {
    const some = result([undecided], {
      unmeasured: ["udp.loss"],
      inconclusive: 2,
      metrics: ["http.latency", "udp.loss"],
    });
    expect(markdownSummary(some, { allowInconclusive: false })).toMatch(/^### cnibench gate: ⚠️ inconclusive\n/);
    expect(markdownSummary(some, { allowInconclusive: true })).toMatch(/^### cnibench gate: ✅ pass\n/);
    expect(gateHeadline(some, true)).toBe(
      "undecided (allowed): 1 figure inconclusive: http.latency (path a|b <c> · percentile p99); not measured by both: udp.loss",
    );
    const nothing = result([], {
      compared: 0,
      inconclusive: 1,
      baseline: { description: "none: No earlier campaign", bundleIds: [] },
    });
    expect(gateHeadline(nothing, false)).toBe("undecided: no figure measured by both sides");
    expect(markdownSummary(nothing, { allowInconclusive: false })).not.toContain("| --- |");
    expect(
      gateHeadline(
        result([{ ...worse, verdict: "equivalent", text: { ...worse.text, verdict: "equivalent" } }]),
        false,
      ),
    ).toBe("no figure worse beyond its margin (1 figure compared)");
  });

  it("keeps a cell on one line and out of HTML and the table's pipes", () => {
    expect(markdownCell("a|b\nc <script> & d")).toBe("a\\|b c &lt;script&gt; &amp; d");
  });
});

describe("junitXml", () => {
  it("has a test case per figure, a failure naming the metric and change for each deciding worse one", () => {
    const xml = junitXml(result([worse, undecided, notDeciding], { metrics: ["tcp.throughput", "http.latency"] }), {
      timestamp: new Date("2026-11-09T03:00:00Z"),
    });
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="cnibench gate" tests="3" failures="1" errors="0" skipped="1">',
        '  <testsuite name="cnibench gate" tests="3" failures="1" errors="0" skipped="1" timestamp="2026-11-09T03:00:00">',
        "    <properties>",
        '      <property name="candidate" value="campaign &quot;nightly-09&quot; of Cilium native routing (3 bundles, measured 2026-11-09)"/>',
        '      <property name="baseline" value="previous campaign &quot;nightly-08&quot; of Cilium native routing (3 bundles, measured 2026-11-08)"/>',
        '      <property name="outcome" value="pass"/>',
        '      <property name="metrics" value="tcp.throughput,http.latency"/>',
        "    </properties>",
        '    <testcase classname="cnibench.gate.tcp.throughput" name="tcp.throughput (streams 1)" time="0">',
        '      <failure type="worse" message="tcp.throughput (streams 1) is worse: −7.228 % (9.453 Gbit/s (n=3) → 8.77 Gbit/s (n=3)), margin ±5 %">3 vs 3 runs: ratio 0.926, 95 % interval 0.895–0.959, margin ±5 %; Welch&apos;s t on log values, p = 8.6e-5</failure>',
        "      <system-out>worse: 9.453 Gbit/s (n=3) → 8.77 Gbit/s (n=3), change −7.228 %, margin ±5 %\n3 vs 3 runs: ratio 0.926, 95 % interval 0.895–0.959, margin ±5 %; Welch&apos;s t on log values, p = 8.6e-5</system-out>",
        "    </testcase>",
        '    <testcase classname="cnibench.gate.http.latency" name="http.latency (path a|b &lt;c&gt; · percentile p99)" time="0">',
        '      <skipped message="http.latency (path a|b &lt;c&gt; · percentile p99) is inconclusive: +12.85 % (9.453 Gbit/s (n=3) → 8.77 Gbit/s (n=3)), margin ±10 %"/>',
        "      <system-out>inconclusive: 9.453 Gbit/s (n=3) → 8.77 Gbit/s (n=3), change +12.85 %, margin ±10 %\n2 vs 2 runs: ratio 1.127 &amp; more</system-out>",
        "    </testcase>",
        '    <testcase classname="cnibench.gate.x.tcp.throughput.sent" name="x.tcp.throughput.sent (streams 1)" time="0">',
        "      <system-out>worse (not deciding): 9.453 Gbit/s (n=3) → 8.77 Gbit/s (n=3), change −7.228 %, margin ±10 %\n3 vs 3 runs: ratio 0.926, 95 % interval 0.895–0.959, margin ±5 %; Welch&apos;s t on log values, p = 8.6e-5</system-out>",
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("skips a chosen metric measured by no figure of both sides, and a gate with nothing compared", () => {
    const unmeasured = junitXml(result([], { compared: 0, unmeasured: ["udp.loss"], inconclusive: 1 }));
    expect(unmeasured).toContain(
      '<testcase classname="cnibench.gate.udp.loss" name="udp.loss" time="0">\n      <skipped message="udp.loss: no figure measured by both the candidate and the baseline"/>',
    );
    const nothing = junitXml(
      result([], {
        compared: 0,
        inconclusive: 1,
        baseline: { description: "none: no <earlier> campaign", bundleIds: [] },
      }),
    );
    expect(nothing).toContain('tests="1" failures="0" errors="0" skipped="1"');
    expect(nothing).toContain('<skipped message="nothing compared: none: no &lt;earlier&gt; campaign"/>');
  });

  it("escapes the five entities and drops the characters XML 1.0 forbids", () => {
    expect(xmlEscape(`a<b>&"c'\u0001\u0008\td\n\ufffe`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;\td\n");
  });
});

describe("gate flags", () => {
  it("reads --baseline: previous by default, scenario:, permalink: (or its address), bundles:", () => {
    expect(readBaseline(undefined)).toEqual({ previous: true });
    expect(readBaseline("previous")).toEqual({ previous: true });
    expect(readBaseline("scenario:cabc123")).toEqual({ scenarioId: "cabc123" });
    expect(readBaseline("permalink:Ab3_x-9z")).toEqual({ permalink: "Ab3_x-9z" });
    expect(readBaseline("permalink:https://cnibench.example/d/Ab3_x-9z?tab=latency")).toEqual({
      permalink: "Ab3_x-9z",
    });
    expect(readBaseline("bundles:b1, b2,b3")).toEqual({ bundleIds: ["b1", "b2", "b3"] });
    for (const bad of ["latest", "scenario:", "bundles:,", "permalinks:x"])
      expect(readBaseline(bad)).toMatch(/^--baseline must be/);
  });

  it("reads --margin metric=percent, above 0 and at most 100", () => {
    expect(readMargins(["tcp.throughput=3", "http.latency=12.5%", "x.my=metric=7"])).toEqual({
      "tcp.throughput": 3,
      "http.latency": 12.5,
      "x.my=metric": 7,
    });
    expect(readMargins(undefined)).toEqual({});
    for (const bad of ["tcp.throughput", "=3", "tcp.throughput=0", "tcp.throughput=101", "tcp.throughput=x"]) {
      expect(readMargins([bad])).toMatch(/^--margin must be/);
    }
  });
});
