// Throughput and UDP on InfraBuilder's 2024 tree (25 setups × 3 runs on one on-premises testbed), like
// with like and against bare metal. Expected figures are the medians of each setup's runs, computed
// here from the runs the fixture holds.
import { askGuide, infrabuilderGuideInput } from "@cnibench/test-support/guide-input";
import { median } from "simple-statistics";
import { describe, expect, it } from "vitest";

const ib = infrabuilderGuideInput();
const runsMedian = (label: string, metric: string, params: Record<string, string | number>) =>
  median([...ib.figureOf(label, metric, params).samples!]);
const percent = (v: number) => `${Math.round(v * 100)} %`;

const answer = askGuide(ib, { cloud: "on-prem", needs: ["udpHeavy"] });
const option = (id: string) => answer.options.find((o) => o.id === id)!;
const reasonOf = (id: string, start: string) => option(id).reasons.find((r) => r.text.startsWith(start))!;

describe("TCP throughput", () => {
  it("compares every datapath on each test two of them share, pod to pod, and reads it against bare metal", () => {
    const cited = answer.options.flatMap((o) =>
      o.reasons.filter((r) => r.text.startsWith("TCP throughput")).map((r) => r.evidence[0]!),
    );
    // One reason per option and test: 8 streams and 1 stream, each pod to pod.
    expect(cited).toHaveLength(answer.options.length * 2);
    expect(new Set(cited.map((e) => JSON.stringify([e.metric, e.params])))).toEqual(
      new Set([
        JSON.stringify(["tcp.throughput", { streams: 8, path: "pod-pod" }]),
        JSON.stringify(["tcp.throughput", { streams: 1, path: "pod-pod" }]),
      ]),
    );
    // cilium-custom (kube-proxy replacement, Hubble off) is a datapath of its own, against bare metal node to node.
    const custom = runsMedian("cilium-custom", "tcp.throughput", { streams: 8, path: "pod-pod" });
    const bare = runsMedian("baremetal", "tcp.throughput", { streams: 8, path: "node-node" });
    const r = reasonOf("cilium:overlay-vxlan:ebpf|Hubble off", "TCP throughput (pod to pod, 8 streams):");
    expect(r.text).toContain(`(cilium-custom), ${percent(custom / bare)} of bare metal's 39.59 Gbit/s`);
    expect(percent(custom / bare)).toBe("98 %");
    expect(r.evidence.map((e) => [e.scenarioLabel, e.value])).toEqual([
      ["cilium-custom", custom],
      ["baremetal", bare],
    ]);
  });

  it("sums it up in one sentence with the reference and four names, the unit and the reference said once", () => {
    const s = answer.summary.find((x) => x.text.startsWith("TCP throughput (pod to pod, 8 streams) on"))!;
    // 24 datapaths: the 25 setups less bare metal, each its own (no two share CNI, mode, proxy and variant).
    expect(answer.options).toHaveLength(24);
    expect(s.text).toContain("across 24 datapaths; bare metal moves 39.59 Gbit/s node to node.");
    expect(s.text).toMatch(/From the highest \(share of bare metal\): .* and 20 more\.$/);
    expect(s.rest?.count).toBe(20);
    const medians = ib.scenarios
      .filter((x) => x.label !== "baremetal")
      .map((x) => runsMedian(x.label, "tcp.throughput", { streams: 8, path: "pod-pod" }));
    const custom = runsMedian("cilium-custom", "tcp.throughput", { streams: 8, path: "pod-pod" });
    const bare = runsMedian("baremetal", "tcp.throughput", { streams: 8, path: "node-node" });
    const shown = (v: number) => Number(v.toPrecision(4));
    expect(s.text).toContain(`: ${shown(Math.min(...medians))} to ${shown(Math.max(...medians))} Gbit/s across`);
    expect(s.text).toContain(`cilium-custom ${shown(custom)} (${percent(custom / bare)}),`);
    expect(s.text.match(/Gbit\/s/g)).toHaveLength(2);
    expect(s.text.match(/bare metal/g)).toHaveLength(2);
  });

  it("never ranks the references: bare metal is the yardstick, not an option", () => {
    const bare = ib.scenarioByLabel("baremetal");
    expect(answer.options.some((o) => o.id.startsWith("none:"))).toBe(false);
    expect(answer.options.flatMap((o) => o.scenarios.map((s) => s.id))).not.toContain(bare.id);
    expect(answer.unmeasured.map((u) => u.id)).not.toContain("none");
  });
});

describe("UDP-heavy traffic", () => {
  it("compares UDP throughput received on one test, with its loss and sender's rate beside it", () => {
    const params = { streams: 8, path: "pod-pod" };
    const r = reasonOf("flannel:overlay-vxlan:iptables", "UDP throughput (pod to pod, 8 streams):");
    expect(r.evidence.map((e) => [e.metric, e.value])).toEqual([
      ["udp.throughput", runsMedian("flannel", "udp.throughput", params)],
      ["udp.loss", runsMedian("flannel", "udp.loss", params)],
      ["x.udp.throughput.sent", runsMedian("flannel", "x.udp.throughput.sent", params)],
      ["udp.throughput", runsMedian("baremetal", "udp.throughput", { ...params, path: "node-node" })],
    ]);
    // flannel's UDP runs at 8 streams: 36.55 Gbit/s received with 10.14 % lost, 40.59 Gbit/s sent.
    expect(r.text).toContain("36.55 Gbit/s received with 10.14 % loss (40.59 Gbit/s sent)");
  });

  it("compares UDP loss like with like, not each datapath's lowest over every test", () => {
    const losses = answer.options.flatMap((o) =>
      o.reasons.filter((r) => r.text.startsWith("UDP loss ")).map((r) => r.evidence[0]!),
    );
    expect(new Set(losses.map((e) => JSON.stringify(e.params)))).toEqual(new Set(['{"streams":8,"path":"pod-pod"}']));
    // The real antrea-ipsec runs lose most: 87.74 % at 8 streams, against 10.14 % for the setups derived from flannel.
    const summary = answer.summary.find((x) => x.text.startsWith("UDP loss (pod to pod, 8 streams) on"))!;
    const worst = runsMedian("antrea-ipsec", "udp.loss", { streams: 8, path: "pod-pod" });
    expect(summary.text).toContain(`10.14 to ${worst.toFixed(2)} %`);
    expect(summary.text).toContain("Bare metal loses 0.712 %.");
  });
});
