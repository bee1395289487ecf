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
    expect(short?.cells[1]?.why).toMatch(/±5 % noise band/);
  });

  it("calls differences inside the noise band within noise", () => {
    // TKE pod-to-pod throughput at 8 streams: 10.43 vs 10.77 Gbit/s, +3.3 %.
    const tput = row("tcp.throughput", { path: "pod-pod", streams: 8 });
    expect(tput?.cells[1]?.verdict).toBe("within-noise");
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

describe("runs in a comparison", () => {
  it("gives each side its summary and names the runs when it falls back to the noise band", () => {
    const rows = compareRows(tke.scenarios, tke.figures);
    const short = rows.find((r) => r.metric === "http.rps" && r.params.services === 30000);
    expect(short?.cells.map((c) => c.figure?.summary.n)).toEqual([1, 1]);
    expect(short?.cells[1]?.why).toMatch(/^1 vs 1 run, fewer than 3 on a side: compared with a ±5 % noise band/);
  });

  it("uses Welch's t-test, and says no noise band, when both sides have 3 runs", () => {
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
    expect(short?.cells[1]?.why).toMatch(/^Welch's t-test on 3 vs 3 runs/);
  });
});
