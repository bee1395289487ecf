import { describe, expect, it } from "vitest";
import { compareRows, compareSummaries, environmentDiff } from "./compare-data";
import { loadSeeds } from "./seed-figures";

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

  it("sums the verdicts in one line per candidate", () => {
    const [line] = compareSummaries(tke.scenarios, rows);
    const counts = (v: string) => rows.filter((r) => r.cells[1]?.verdict === v).length;
    expect(line).toContain(
      `Cilium Overlay vs kube-proxy iptables: ${counts("better")} better, ${counts("worse")} worse`,
    );
    expect(counts("better") + counts("worse")).toBeGreaterThan(0);
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

describe("a UDP throughput gain bought with loss", () => {
  it("is flagged with the candidate's loss, never a plain better", () => {
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
    const figures = [
      figure("eks-a", "udp.throughput", 5, "Gbit/s"),
      figure("eks-a", "udp.loss", 1, "%"),
      figure("eks-c", "udp.throughput", 6, "Gbit/s"),
      figure("eks-c", "udp.loss", 43.6, "%"),
    ];
    const rows = compareRows(eks.scenarios, figures);
    const udp = rows.find((r) => r.metric === "udp.throughput")!;
    expect(udp.cells[1]).toMatchObject({ verdict: "better", caveat: "with 43.6 % loss" });
    expect(rows.find((r) => r.metric === "udp.loss")!.cells[1]?.verdict).toBe("worse");
  });
});

describe("runs in a comparison", () => {
  it("gives each side its summary and names the runs when a side has a single run", () => {
    const rows = compareRows(tke.scenarios, tke.figures);
    const short = rows.find((r) => r.metric === "http.rps" && r.params.services === 30000);
    expect(short?.cells.map((c) => c.figure?.summary.n)).toEqual([1, 1]);
    expect(short?.cells[1]?.why).toMatch(
      /^single run on a side \(1 vs 1\): indicative, the change against the ±5 % margin/,
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
});
