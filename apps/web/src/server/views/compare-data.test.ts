import { canonicalJson, toCsv } from "@cnibench/schema";
import { loadSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import {
  compareRows,
  compareSummaries,
  environmentDiff,
  evidenceTable,
  marginsInForce,
  withHistory,
} from "./compare-data";

const tke = loadSeeds({
  a: ["tke-a-iptables-main.json", "tke-a-iptables-service-scale.json"],
  c: ["tke-c-cilium-overlay-main.json", "tke-c-cilium-overlay-service-scale.json"],
});
const eks = loadSeeds({
  "eks-a": ["eks-a-vpc-cni-main.json"],
  "eks-c": ["eks-c-cilium-kube-proxy-less-main.json"],
});

describe("compareRows", () => {
  const rows = compareRows(tke.scenarios, tke.figures);
  const row = (metric: string, params: Record<string, unknown>) =>
    rows.find((r) => r.metric === metric && JSON.stringify(r.params) === JSON.stringify(params));

  it("aligns every figure either side has, with the baseline first", () => {
    const short = row("http.rps", { connection: "short", concurrency: 64, target: "service", services: 30000 });
    // iptables 9,057 vs overlay 12,879 req/s at 30,000 Services: +42.2 %, outside the ±5 % band.
    expect(short?.cells.map((c) => c.figure?.value)).toEqual([9057, 12879]);
    expect(short?.cells[1]?.delta?.percent).toBeCloseTo(42.2, 1);
    expect(short?.cells[1]?.verdict).toBe("better");
    expect(short?.cells[1]?.why).toMatch(/±5 % margin/);
    expect(short?.cells[1]?.indicative).toBe(true);
  });

  it("calls single-run differences inside the margin equivalent, as indicative", () => {
    // TKE pod-to-pod throughput at 8 streams: 10.43 vs 10.77 Gbit/s, +3.3 %.
    const tput = row("tcp.throughput", { path: "pod-pod", streams: 8 });
    expect(tput?.cells[1]?.verdict).toBe("equivalent");
    expect(tput?.cells[1]?.indicative).toBe(true);
  });

  it("keeps rows one side lacks, as missing", () => {
    const missing = rows.filter((r) => r.cells.some((c) => c.figure === null));
    for (const r of missing) expect(r.cells[1]?.verdict).toBe("missing");
  });

  it("says the largest decided primary effect first, then the verdicts per figure family", () => {
    const [line] = compareSummaries(tke.scenarios, rows);
    // The largest decided change: short-connection RPS at 0 Services, 14,193 against 31,365 req/s
    // (single runs): 14,193 / 31,365 − 1 = −54.75 % (by hand), worse.
    expect(line).toMatch(
      /^Cilium Overlay vs kube-proxy iptables: HTTP requests per second · concurrency 64 · connection short · services 0 · target service −54\.7 %, worse; /,
    );
    // Every verdict is still counted, per family.
    const counts = (metric: string, v: string) =>
      rows.filter((r) => r.metric === metric && r.cells[1]?.verdict === v).length;
    expect(counts("tcp.throughput", "equivalent")).toBe(5);
    expect(line).toContain("By family: TCP throughput 5 equivalent; ");
    expect(line).toContain(
      `HTTP requests per second ${counts("http.rps", "better")} better, ${counts("http.rps", "worse")} worse`,
    );
  });

  it("shows as the row's % the change the verdict judged", () => {
    for (const r of rows) {
      const c = r.cells[1]!;
      if (c.verdict === "missing" || !c.change) continue;
      // Single runs (the TKE seeds): the change of the values, i.e. the delta.
      expect(c.change.basis).toBe("change of the values");
      expect(c.change.percent).toBe(c.delta?.percent);
    }
  });
});

describe("environmentDiff", () => {
  it("finds TKE's clusters like-for-like: only the CNI configuration differs", () => {
    const diff = environmentDiff(tke.scenarios);
    expect(diff.confounders).toEqual([]);
    expect(diff.differing.map((d) => d.label)).toEqual(expect.arrayContaining(["CNI", "Mode", "kube-proxy"]));
  });

  it("names what is not like-for-like across clouds", () => {
    const diff = environmentDiff([tke.scenarios[0]!, eks.scenarios[0]!]);
    expect(diff.confounders).toEqual(expect.arrayContaining(["Cloud", "Instance type", "Kernel", "Kubernetes"]));
  });
});

// Made-up runs around 5 Gbit/s at 1 % loss (A) and 6 Gbit/s, +20 %, at 43.6 % loss (C, the issue's example).
const runs = (v: number) => [v * 0.99, v, v * 1.01];
const figure = (scenarioId: string, metric: string, value: number, unit: string) => ({
  ...eks.figures.find((f) => f.metric === "tcp.throughput")!,
  id: `${scenarioId}-${metric}`,
  scenarioId,
  metric,
  params: {},
  paramsKey: "{}",
  value,
  unit,
  better: metric === "udp.loss" ? ("lower" as const) : ("higher" as const),
  samples: runs(value),
  n: 3,
});
const udpFigures = [
  figure("eks-a", "udp.throughput", 5, "Gbit/s"),
  figure("eks-a", "udp.loss", 1, "%"),
  figure("eks-c", "udp.throughput", 6, "Gbit/s"),
  figure("eks-c", "udp.loss", 43.6, "%"),
];

describe("a UDP throughput gain bought with loss", () => {
  it("is flagged with the candidate's loss, never a plain better", () => {
    const rows = compareRows(eks.scenarios, udpFigures);
    const udp = rows.find((r) => r.metric === "udp.throughput")!;
    expect(udp.cells[1]).toMatchObject({ verdict: "better", caveat: { text: "with 43.6 % loss", kind: "loss" } });
    expect(rows.find((r) => r.metric === "udp.loss")!.cells[1]?.verdict).toBe("worse");
    // The summary's effect says it too, not a bare "+20.0 %, better".
    expect(compareSummaries(eks.scenarios, rows)[0]).toContain("UDP throughput +20 %, better, with 43.6 % loss");
  });
});

describe("a resource saving or cost of a test that moved other traffic", () => {
  // Made-up runs in the shape InfraBuilder's importer gives (node CPU during the pod-to-pod TCP test):
  // A moves 19.6 Gbit/s on 1.2 cores, C (encrypted) 6.5 Gbit/s on 0.8 cores — (6.5 − 19.6) / 19.6 = −66.8 %.
  const test = { path: "pod-pod", streams: 1 };
  const cpu = { component: "node", ...test, protocol: "tcp", role: "client" };
  const at = (f: ReturnType<typeof figure>, params: Record<string, string | number>) => ({
    ...f,
    params,
    paramsKey: canonicalJson(params),
    better: f.metric === "cpu.usage" ? ("lower" as const) : ("higher" as const),
  });
  const figures = [
    at(figure("eks-a", "tcp.throughput", 19.6, "Gbit/s"), test),
    at(figure("eks-a", "cpu.usage", 1.2, "cores"), cpu),
    at(figure("eks-c", "tcp.throughput", 6.5, "Gbit/s"), test),
    at(figure("eks-c", "cpu.usage", 0.8, "cores"), cpu),
  ];

  it("is flagged with the traffic it did not move, never a plain better", () => {
    const rows = compareRows(eks.scenarios, figures);
    expect(rows.find((r) => r.metric === "tcp.throughput")!.cells[1]?.verdict).toBe("worse");
    expect(rows.find((r) => r.metric === "cpu.usage")!.cells[1]).toMatchObject({
      verdict: "better",
      caveat: { text: "while moving 66.8 % less traffic", kind: "less traffic" },
    });
  });

  it("flags a cost of a test that moved more traffic, with the baseline swapped", () => {
    // C as the baseline: A's 1.2 cores against 0.8 are worse, for (19.6 − 6.5) / 6.5 = +201.5 % traffic.
    const rows = compareRows([...eks.scenarios].reverse(), figures);
    expect(rows.find((r) => r.metric === "tcp.throughput")!.cells[1]?.verdict).toBe("better");
    expect(rows.find((r) => r.metric === "cpu.usage")!.cells[1]).toMatchObject({
      verdict: "worse",
      caveat: { text: "while moving 201.5 % more traffic", kind: "more traffic" },
    });
    // The summary counts it apart: a plain "1 worse" read as a cost this test does not show.
    expect(compareSummaries([...eks.scenarios].reverse(), rows)[0]).toMatch(
      /By family: TCP throughput 1 better; CPU usage 1 worse \(1 while moving more traffic\)\.$/,
    );
  });

  it("is a plain saving when the traffic held", () => {
    const held = figures.map((f) =>
      f.scenarioId === "eks-c" && f.metric === "tcp.throughput" ? { ...f, value: 19.7, samples: runs(19.7) } : f,
    );
    expect(compareRows(eks.scenarios, held).find((r) => r.metric === "cpu.usage")!.cells[1]).toMatchObject({
      verdict: "better",
      caveat: null,
    });
  });
});

describe("runs in a comparison", () => {
  it("gives each side its summary and names the runs when a side has a single run", () => {
    const rows = compareRows(tke.scenarios, tke.figures);
    const short = rows.find((r) => r.metric === "http.rps" && r.params.services === 30000);
    expect(short?.cells.map((c) => c.figure?.summary.n)).toEqual([1, 1]);
    expect(short?.cells[1]?.why).toMatch(
      /^single value on a side \(1 vs 1\): indicative, the change against the ±5 % margin/,
    );
  });

  it("gives the ratio and its interval when both sides have 3 runs", () => {
    const withRuns = tke.figures.map((f) =>
      f.metric === "http.rps" && f.params.services === 30000 && f.params.connection === "short"
        ? { ...f, samples: [f.value * 0.99, f.value, f.value * 1.01], n: 3 }
        : f,
    );
    const rows = compareRows(tke.scenarios, withRuns);
    const short = rows.find(
      (r) => r.metric === "http.rps" && r.params.services === 30000 && r.params.connection === "short",
    );
    expect(short?.cells[1]?.figure?.summary.distribution?.n).toBe(3);
    // ±1 % runs around 9,057 and 12,879 req/s: ratio 12,879 / 9,057 = 1.422, far beyond ±5 %.
    expect(short?.cells[1]?.why).toMatch(
      /^3 vs 3 runs: ratio 1\.422, 95 % interval 1\.3\d\d–1\.4\d\d, margin ±5 %; Welch's t on log values/,
    );
    expect(short?.cells[1]?.verdict).toBe("better");
    expect(short?.cells[1]?.indicative).toBe(false);
  });

  it("pools a series' earlier campaigns into its noise, and says so", () => {
    // The runs and history of analysis/src/verdict.test.ts, scaled to iptables' 9,057 req/s: three
    // noisy runs a side are inconclusive alone (scipy Welch p 0.156); with the baseline's four earlier
    // steady campaigns the p-value is 0.0018 (numpy, by hand) and the +9.8 % is better.
    const isRps = (f: { metric: string; params: Record<string, unknown> }) =>
      f.metric === "http.rps" && f.params.services === 30000 && f.params.connection === "short";
    const scale = (values: number[]) => values.map((v) => (v * 9057) / 100);
    const [baseline, candidate] = tke.scenarios;
    const withRuns = tke.figures.map((f) => {
      if (!isRps(f)) return f;
      const samples = scale(f.scenarioId === baseline!.id ? [100, 108, 93] : [110, 112, 108]);
      return { ...f, value: samples[0]!, samples, n: 3 };
    });
    const target = withRuns.find((f) => isRps(f) && f.scenarioId === baseline!.id)!;
    const earlier = [
      [99, 101, 100],
      [102, 100, 101],
      [98, 99, 100.5],
      [101, 103, 100],
    ].map((runs) => ({
      scenarioId: baseline!.id,
      metric: "http.rps",
      paramsKey: canonicalJson(target.params),
      runs: scale(runs),
    }));
    const cell = (figures: typeof withRuns) => compareRows(tke.scenarios, figures).find((r) => isRps(r))?.cells[1];
    expect(cell(withRuns)?.verdict).toBe("inconclusive");
    const pooled = cell(withHistory(withRuns, earlier));
    expect(pooled?.verdict).toBe("better");
    expect(pooled?.evidence?.p).toBeCloseTo(0.0018071909090259018, 10);
    expect(pooled?.why).toContain("baseline noise from 12 earlier runs in 4 campaigns");
    expect(pooled?.evidence).toMatchObject({
      baselineNoise: "history: 12 runs in 4 campaigns",
      candidateNoise: "runs",
    });
    // A candidate with no history of its own keeps its runs' variance; other figures are untouched.
    expect(withHistory(withRuns, earlier).filter((f) => "history" in f)).toHaveLength(1);
    expect(candidate).toBeDefined();
  });
});

describe("margins δ for one comparison", () => {
  // TKE pod-to-pod throughput at 8 streams: 10.43 vs 10.77 Gbit/s, +3.26 %: within the catalogue's ±5 %.
  const tput = (margins?: Record<string, number>) =>
    compareRows(tke.scenarios, tke.figures, margins).find(
      (r) => r.metric === "tcp.throughput" && r.params.path === "pod-pod" && r.params.streams === 8,
    )?.cells[1];

  it("decide the verdicts over the catalogue's", () => {
    expect(tput()).toMatchObject({ verdict: "equivalent", evidence: { test: "single value", marginPercent: 5 } });
    const tight = tput({ "tcp.throughput": 3 });
    expect(tight).toMatchObject({ verdict: "better", evidence: { test: "single value", marginPercent: 3 } });
    expect(tight?.why).toMatch(/against the ±3 % margin \(\+3\.3 %\)$/);
  });

  it("are listed for every metric with a verdict, saying which differ from the catalogue's", () => {
    const rows = compareRows(tke.scenarios, tke.figures, { "tcp.throughput": 3 });
    // TKE's metrics in catalogue order; lb.entries and kube-services.chain are counts, with no verdict.
    // x.sync at 10 % is the fallback already, so it changes nothing and is not listed.
    expect(marginsInForce(rows, { "tcp.throughput": 3, "x.sync": 10, "x.dns.qps": 2 })).toEqual([
      { metric: "tcp.throughput", label: "TCP throughput", percent: 3, standard: 5, overridden: true },
      { metric: "http.rps", label: "HTTP requests per second", percent: 5, standard: 5, overridden: false },
      { metric: "http.latency", label: "HTTP latency", percent: 10, standard: 10, overridden: false },
      { metric: "tcp.rr.latency", label: "TCP request/response latency", percent: 10, standard: 10, overridden: false },
      {
        metric: "tcp.crr.latency",
        label: "TCP connect/request/response latency",
        percent: 10,
        standard: 10,
        overridden: false,
      },
      { metric: "x.dns.qps", label: "x.dns.qps", percent: 2, standard: 10, overridden: true },
    ]);
  });
});

describe("evidenceTable (the compare page's CSV)", () => {
  const labels = ["kube-proxy iptables", "Cilium Overlay"];
  const short = { connection: "short", concurrency: 64, target: "service", services: 30000 };
  const isShort = (r: { metric: string; params: Record<string, unknown> }) =>
    r.metric === "http.rps" && JSON.stringify(r.params) === JSON.stringify(short);

  it("has a row per figure and candidate, a single run's verdict from the margin alone", () => {
    const rows = compareRows(tke.scenarios, tke.figures);
    const [header, ...body] = evidenceTable(labels, rows);
    expect(body).toHaveLength(rows.length);
    const line = body.find((cells) => cells[0] === "http.rps" && cells[1] === JSON.stringify(short));
    // 9,057 vs 12,879 req/s, one run each (TKE's service-scale table): +42.2 % against ±5 %.
    expect(Object.fromEntries(header!.map((h, i) => [h, line?.[i]]))).toEqual({
      metric: "http.rps",
      params: JSON.stringify(short),
      unit: "req/s",
      baseline: "kube-proxy iptables",
      candidate: "Cilium Overlay",
      baseline_n: 1,
      candidate_n: 1,
      baseline_median: 9057,
      candidate_median: 12879,
      ratio: null,
      ratio_low_95: null,
      ratio_high_95: null,
      margin_percent: 5,
      test: "single value",
      p: null,
      p_adjusted: null,
      verdict: "better",
      runs_needed_per_side: null,
      detectable_percent: null,
      baseline_noise: null,
      candidate_noise: null,
      caveat: null,
    });
    expect(toCsv([header!, line!]).split("\n")[1]).toBe(
      'http.rps,"{""connection"":""short"",""concurrency"":64,""target"":""service"",""services"":30000}",req/s,kube-proxy iptables,Cilium Overlay,1,1,9057,12879,,,,5,single value,,,better,,,,,',
    );
  });

  it("gives the ratio, its interval and p when both sides have 3 runs", () => {
    // Runs at −1 %, 0, +1 % around 9,057 and 12,879 req/s. By hand: the log sd of each side is
    // 0.0100004, se = sqrt(2 × 0.0100004² / 3) = 0.0081653, Welch df = 4, t(0.975, 4) = 2.776445:
    // ratio 12,879 / 9,057 = 1.421994, interval exp(ln 1.421994 ∓ 0.022670) = 1.390119–1.454599;
    // scipy.stats.ttest_ind(equal_var=False) on the logs gives p = 1.73e-6, alone among runs so not
    // adjusted; detectable (2.776445 + t(0.8, 4) = 0.940965) × se → +3.08 %.
    const withRuns = tke.figures.map((f) =>
      isShort(f) ? { ...f, samples: [f.value * 0.99, f.value, f.value * 1.01], n: 3 } : f,
    );
    const rows = compareRows(tke.scenarios, withRuns);
    const [header, ...body] = evidenceTable(labels, rows);
    const line = body.find((cells) => cells[0] === "http.rps" && cells[1] === JSON.stringify(short))!;
    const cell = (name: string) => line[header!.indexOf(name)] as number;
    expect([cell("baseline_n"), cell("candidate_n"), cell("baseline_median"), cell("candidate_median")]).toEqual([
      3, 3, 9057, 12879,
    ]);
    expect(cell("ratio")).toBeCloseTo(1.421994, 6);
    expect(cell("ratio_low_95")).toBeCloseTo(1.390119, 5);
    expect(cell("ratio_high_95")).toBeCloseTo(1.454599, 5);
    expect(cell("p")).toBeCloseTo(1.73e-6, 8);
    expect(cell("p_adjusted")).toBe(cell("p"));
    expect(cell("detectable_percent")).toBeCloseTo(3.0819, 3);
    expect([cell("margin_percent"), cell("test"), cell("verdict"), cell("runs_needed_per_side")]).toEqual([
      5,
      "welch-log",
      "better",
      null,
    ]);
  });

  it("names the caveat of a UDP gain bought with loss and leaves a missing side empty", () => {
    // The UDP example above, with the candidate's loss left out: no caveat then, and a missing row.
    const rows = compareRows(eks.scenarios, udpFigures);
    const [header, ...body] = evidenceTable(["VPC CNI", "Cilium"], rows);
    const column = (name: string) => body.map((cells) => cells[header!.indexOf(name)]);
    expect(column("metric")).toEqual(["udp.throughput", "udp.loss"]);
    expect(column("verdict")).toEqual(["better", "worse"]);
    expect(column("caveat")).toEqual(["with 43.6 % loss", null]);
    const lossless = compareRows(eks.scenarios, udpFigures.slice(0, 3));
    const [, ...rest] = evidenceTable(["VPC CNI", "Cilium"], lossless);
    expect(rest.map((cells) => cells.slice(0, 9).concat(cells.slice(13, 14), cells.slice(16, 17)))).toEqual([
      ["udp.throughput", "{}", "Gbit/s", "VPC CNI", "Cilium", 3, 3, 5, 6, "welch-log", "better"],
      ["udp.loss", "{}", "%", "VPC CNI", "Cilium", 3, "", 1, "", undefined, "missing"],
    ]);
    expect(rest[0]![header!.indexOf("caveat")]).toBeNull();
  });
});

describe("compareRows with summary statistics and concurrent clients", () => {
  // k8s-netperf's documented result.csv, TCP_STREAM: 873.606667 Mb/s, 95 % CI 861.94–885.27, 3 samples
  // (as stored, in Gbit/s); against a mean of 960 Mb/s with the same sd (4.6968 Mb/s, recovered from the interval).
  const tput = (f: (typeof tke.figures)[number]) => f.metric === "tcp.throughput" && f.params.streams === 8;
  const latency = (f: (typeof tke.figures)[number]) => f.metric === "http.latency" && f.params.qps === 1000;
  const clients = Array.from({ length: 50 }, (_, i) => 0.99 + (i % 10) * 0.001);
  const figures = tke.figures.map((f) => {
    const baseline = f.scenarioId === tke.scenarios[0]?.id;
    if (tput(f)) {
      const summaryStatistics = baseline
        ? {
            mean: 0.873606667,
            ci95: [0.8619391413991156, 0.8852741919342177] as [number, number],
            n: 3,
            of: "runs" as const,
          }
        : { mean: 0.96, sd: 0.004696810974835271, n: 3, of: "runs" as const };
      return { ...f, value: summaryStatistics.mean, summaryStatistics };
    }
    if (latency(f)) {
      const samples = clients.map((v) => (baseline ? v : v * 1.2));
      return { ...f, samples, samplesAre: "clients" as const, n: 1 };
    }
    return f;
  });
  const rows = compareRows(tke.scenarios, figures);

  it("judges summaries by Welch's t from summary statistics and names the method", () => {
    const cell = rows.find((r) => r.metric === "tcp.throughput" && r.params.streams === 8)?.cells[1];
    expect(cell?.verdict).toBe("better");
    expect(cell?.evidence?.test).toBe("welch-summary");
    // scipy.stats.ttest_ind_from_stats(873.606667, 4.696810974835271, 3, 960, 4.696810974835271, 3, equal_var=False)
    expect(cell?.evidence?.p).toBeCloseTo(2.2991996577099524e-5, 9);
    expect(cell?.why).toContain("3 vs 3 runs");
    expect(cell?.why).toContain("Welch's t from summary statistics (baseline its 95 % CI, candidate its sd)");
    // The evidence CSV counts the published summaries' 3 runs a side, not 1 bundle.
    const csv = evidenceTable(["a", "c"], rows).find(
      (r) => r[0] === "tcp.throughput" && String(r[1]).includes('"streams":8'),
    );
    expect(csv?.slice(5, 7)).toEqual([3, 3]);
    expect(csv?.[13]).toBe("welch-summary");
  });

  it("counts 50 concurrent clients as one run: an indicative verdict, saying why", () => {
    const cell = rows.find((r) => r.metric === "http.latency" && r.params.qps === 1000)?.cells[1];
    expect(cell?.evidence?.test).toBe("single value");
    expect(cell?.indicative).toBe(true);
    expect(cell?.why).toContain("1 vs 1: the samples of a side are concurrent clients of one run");
  });
});
