// Efficiency, derived and never stored: CPU per Gbit/s moved on InfraBuilder's tree, and memory per
// 1,000 Services on the TKE seed benchmark. Expected figures are worked out here from the raw runs
// (medians of three) and the fixture's factors, by hand: CPU per Gbit/s = (client + server node CPU in
// millicores) / throughput in Gbit/s: millicores per Gbit/s moved, the resources chart's unit.
import { formatNumber } from "@cnibench/format";
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { askGuide, infrabuilderGuideInput } from "@cnibench/test-support/guide-input";
import { median } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { guideMetrics } from "../rank.ts";

const ib = infrabuilderGuideInput();
const runsMedian = (label: string, metric: string, params: Record<string, string | number>) =>
  median([...ib.figureOf(label, metric, params).samples!]);
/** Both nodes' CPU in millicores, counted as `accounting` says, over the throughput of the 8-stream TCP test. */
const cpuPerGbit = (label: string, accounting = "all-modes", path = "pod-pod") => {
  const test = { streams: 8, path };
  const cpu = (role: string) =>
    runsMedian(label, "cpu.usage", { ...test, component: "node", protocol: "tcp", role, accounting });
  return (cpu("client") + cpu("server")) / runsMedian(label, "tcp.throughput", test);
};
const words = (v: number) => `${formatNumber(v, 3)} millicores per Gbit/s`;

describe("CPU per Gbit/s moved", () => {
  const answer = askGuide(ib, { cloud: "on-prem" });
  const reasonOf = (id: string) =>
    answer.options.find((o) => o.id === id)!.reasons.find((r) => r.text.startsWith("CPU per Gbit/s moved"))!;

  it("divides both nodes' whole CPU during the 8-stream TCP test by what that test moved", () => {
    // cilium, every CPU mode from its statexec samples: (1,900.4 + 2,607.8 millicores) / 38.51 Gbit/s
    // = 117 millicores per Gbit/s, where the collector's user + system gives (1,187.7 + 1,629.9) / 38.51 = 73.2.
    const whole = cpuPerGbit("cilium");
    expect(whole).toBeCloseTo((1900.3739 + 2607.80625) / 38.5099744971, 3);
    expect(cpuPerGbit("cilium", "user+system")).toBeCloseTo((1187.7337 + 1629.8789) / 38.5099744971, 3);
    const r = reasonOf("cilium:overlay-vxlan:iptables");
    expect(r.text).toContain(
      `every CPU mode: ${words(whole)} (cilium: 4.51 cores at 38.51 Gbit/s, client and server nodes)`,
    );
    // Bare metal's CPU is user + system only (a real run, no statexec samples here): not set beside it.
    expect(r.text).not.toContain("against bare metal");
    // Its evidence is raw figures only: the derived one is computed, never stored or fetched.
    expect(new Set(r.evidence.map((e) => e.metric))).toEqual(new Set(["tcp.throughput", "cpu.usage"]));
    expect(r.evidence.filter((e) => e.metric === "cpu.usage").every((e) => e.params.accounting === "all-modes")).toBe(
      true,
    );
    expect(guideMetrics).not.toContain("x.cpu.per.gbit");
  });

  it("says flannel's user + system figure and does not rank on it where the others count every mode", () => {
    // flannel's real runs hold bench.sh's summary only: (1,250.2 + 1,715.7) / 38.9 = 76.2 millicores per Gbit/s.
    const r = reasonOf("flannel:overlay-vxlan:iptables");
    expect(r.text).toContain(
      `user + system only; softirq and irq, where encryption and packet processing run, not counted: ${words(cpuPerGbit("flannel", "user+system"))}`,
    );
    expect(r.text).toContain("not ranked on, as the others count every CPU mode");
    expect(r.effect).toBe("neutral");
  });

  it("reads encrypted setups when encryption is asked for, and softirq is most of what WireGuard costs", () => {
    const encrypted = askGuide(ib, { cloud: "on-prem", needs: ["encryptionInTransit"] });
    const r = encrypted.options
      .find((o) => o.id === "cilium:overlay-vxlan:iptables|WireGuard")!
      .reasons.find((x) => x.text.startsWith("CPU per Gbit/s moved"))!;
    const wg = cpuPerGbit("cilium-wg");
    expect(r.text).toContain(`${words(wg)} (cilium-wg, with WireGuard:`);
    // WireGuard against plain Cilium: on user + system 7.2× the CPU per Gbit/s, on every mode 14.8× —
    // the collector's figure misses half of what encryption costs.
    const partial = cpuPerGbit("cilium-wg", "user+system") / cpuPerGbit("cilium", "user+system");
    const whole = wg / cpuPerGbit("cilium");
    expect(partial).toBeCloseTo(7.19, 1);
    expect(whole).toBeCloseTo(14.8, 1);
  });

  it("sums it up with four names, the most efficient first, on every CPU mode", () => {
    const s = answer.summary.find((x) => x.text.startsWith("CPU per Gbit/s moved (TCP, pod to pod, 8 streams)"))!;
    expect(s.text).toContain("both nodes' CPU (every CPU mode, softirq and irq included)");
    // 22 of the 24 datapaths: flannel and antrea-ipsec (real runs) have user + system only.
    expect(s.text).toContain("across 22 datapaths");
    expect(s.text).toMatch(/Most efficient first: cilium-custom .* and 18 more\.$/);
    // The range names its unit once, the list none; the range's low end is the first named's figure.
    const low = /over the throughput: ([\d.,]+) to [\d.,]+ millicores per Gbit\/s across/.exec(s.text)?.[1];
    expect(s.text).toContain(`first: cilium-custom ${low}, `);
    expect(s.text.match(/millicores per Gbit\/s/g)).toHaveLength(1);
    expect(answer.figuresRead.find((f) => f.what === "CPU per Gbit/s (8-stream TCP)")).toMatchObject({ options: 22 });
  });
});

describe("memory per 1,000 Services", () => {
  it("says it where a component's memory was measured at a Service count, as an upper bound from one count", () => {
    const demo = loadDemoData();
    const answer = askGuide(demo, { cloud: "tke", services: 30_000, connections: "short" });
    const s = answer.summary.find((x) => x.text.startsWith("Memory per 1,000 Services on TKE SA5.LARGE8"))!;
    // kube-proxy: 926 MiB on average at 30,000 Services → 926 / 30 = 30.87 MiB per 1,000, its memory with none included.
    expect(s.text).toContain(
      "kube-proxy at most 30.87 MiB per 1,000 Services (926 MiB at 30,000 Services, its memory with none included; kube-proxy iptables)",
    );
    // cilium-agent on TKE's Cilium Native: 1,111 MiB → 37.03 MiB per 1,000.
    expect(s.text).toContain("cilium-agent at most 37.03 MiB per 1,000 Services (1,111 MiB at 30,000 Services");
    expect(s.kind).toBe("measured");
    expect(s.effect).toBe("neutral");
  });
});
