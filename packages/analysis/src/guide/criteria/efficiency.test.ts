// Efficiency, derived and never stored: CPU per Gbit/s moved on InfraBuilder's tree, and memory per
// 1,000 Services on the TKE seed benchmark. Expected figures are worked out here from the raw runs
// (medians of three) and the fixture's factors, by hand: CPU per Gbit/s = (client + server node CPU in
// cores) / throughput in Gbit/s, i.e. CPU seconds per Gbit moved.
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { askGuide, infrabuilderGuideInput } from "@cnibench/test-support/guide-input";
import { syntheticSetups } from "@cnibench/test-support/infrabuilder-setups";
import { median } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { formatNumber } from "../../format.ts";
import { guideMetrics } from "../rank.ts";

const ib = infrabuilderGuideInput();
const runsMedian = (label: string, metric: string, params: Record<string, string | number>) =>
  median([...ib.figureOf(label, metric, params).samples!]);
const cpuPerGbit = (label: string, path = "pod-pod") => {
  const test = { streams: 8, path };
  const cpu = (role: string) => runsMedian(label, "cpu.usage", { ...test, component: "node", protocol: "tcp", role });
  return (cpu("client") + cpu("server")) / 1000 / runsMedian(label, "tcp.throughput", test);
};
const words = (v: number) => `${formatNumber(v, 3)} CPU s/Gbit`;

describe("CPU per Gbit/s moved", () => {
  const answer = askGuide(ib, { cloud: "on-prem" });
  const reasonOf = (id: string) =>
    answer.options.find((o) => o.id === id)!.reasons.find((r) => r.text.startsWith("CPU per Gbit/s moved"))!;

  it("divides both nodes' CPU during the 8-stream TCP test by what that test moved", () => {
    // flannel: (1,250.2 + 1,715.7 millicores) / 38.9 Gbit/s = 0.0762 CPU s/Gbit.
    const flannel = cpuPerGbit("flannel");
    expect(flannel).toBeCloseTo((1250.246 + 1715.662) / 1000 / 38.899, 3);
    const r = reasonOf("flannel:overlay-vxlan:iptables");
    expect(r.text).toContain(`${words(flannel)} (flannel: 2.97 cores at 38.9 Gbit/s, client and server nodes)`);
    // Against bare metal in the same test, node to node.
    expect(r.text).toContain(`against bare metal ${words(cpuPerGbit("baremetal", "node-node"))}`);
    // Its evidence is raw figures only: the derived one is computed, never stored or fetched.
    expect(new Set(r.evidence.map((e) => e.metric))).toEqual(new Set(["tcp.throughput", "cpu.usage"]));
    expect(guideMetrics).not.toContain("x.cpu.per.gbit");
  });

  it("reads encrypted setups when encryption is asked for: WireGuard costs 2.0/0.29 of flannel's CPU per Gbit/s", () => {
    const encrypted = askGuide(ib, { cloud: "on-prem", needs: ["encryptionInTransit"] });
    const r = encrypted.options
      .find((o) => o.id === "cilium:overlay-vxlan:iptables|WireGuard")!
      .reasons.find((x) => x.text.startsWith("CPU per Gbit/s moved"))!;
    const wg = cpuPerGbit("cilium-wg");
    // Every run scaled by the same factors: CPU ×2.0, throughput ×0.29 (syntheticSetups["cilium-wg"]).
    const { cpu, tcp } = syntheticSetups["cilium-wg"]!;
    expect(wg / cpuPerGbit("flannel")).toBeCloseTo(cpu / tcp, 9);
    expect(r.text).toContain(`${words(wg)} (cilium-wg, with WireGuard:`);
  });

  it("sums it up with four names, lowest first, and does not rank on CPU that does not say what it counts", () => {
    const s = answer.summary.find((x) => x.text.startsWith("CPU per Gbit/s moved (TCP, pod to pod, 8 streams)"))!;
    expect(s.text).toContain("both nodes' CPU (CPU accounting not stated, so softirq may be missing: not ranked on)");
    expect(s.text).toMatch(/Lowest first: .* and 20 more\.$/);
    expect(s.rest?.count).toBe(20);
    expect(answer.figuresRead.some((f) => f.what.startsWith("CPU per Gbit/s"))).toBe(false);
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
