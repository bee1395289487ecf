// The explorer's columns on the 25 setups of InfraBuilder's 2024 tree (3 real, 22 synthetic from
// flannel's runs, @cnibench/test-support/infrabuilder-setups), three runs each: every column holds one
// test, so no setup's 1-stream pod-to-pod figure is ranked against another's 8-stream Service figure.
import { importFiles } from "@cnibench/importers";
import { canonicalJson, convertValue, findMetric } from "@cnibench/schema";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { median } from "simple-statistics";
import { describe, expect, it } from "vitest";
import type { Params } from "../types.ts";
import { type ColumnKey, columnInfo, type HeadlineFigure, keyFigures } from "./key-figures.ts";

/** Each setup's current figures as packages/db reads them: per series the median of its three runs, in the catalogue's unit. */
function setupFigures(): Map<string, HeadlineFigure[]> {
  const { bundles } = importFiles(infrabuilderSetups(), infrabuilderEnvironment);
  const series = new Map<string, { setup: string; metric: string; params: Params; unit: string; runs: number[] }>();
  for (const { bundle } of bundles) {
    for (const r of bundle.results) {
      const unit = findMetric(r.metric)?.unit;
      if (!unit) continue;
      const params = (r.params ?? {}) as Params;
      const key = `${bundle.cni.label}\u0000${r.metric}\u0000${canonicalJson(params)}`;
      const s = series.get(key) ?? { setup: bundle.cni.label ?? "", metric: r.metric, params, unit, runs: [] };
      s.runs.push(convertValue(r.value, r.unit, unit));
      series.set(key, s);
    }
  }
  const out = new Map<string, HeadlineFigure[]>();
  for (const s of series.values()) {
    const f: HeadlineFigure = {
      metric: s.metric,
      params: s.params,
      value: median(s.runs),
      unit: s.unit,
      qualifier: null,
      low: null,
      high: null,
      bundleId: `${s.setup}-3`,
      samples: s.runs,
      n: s.runs.length,
      campaignBundleIds: [],
    };
    out.set(s.setup, [...(out.get(s.setup) ?? []), f]);
  }
  return out;
}

const tcpColumns: ColumnKey[] = ["tcpPod1", "tcpPod8", "tcpSvc1", "tcpSvc8", "tcpNode8"];

describe("columns on InfraBuilder's 25 setups", () => {
  const figures = setupFigures();
  const table = new Map([...figures].map(([setup, fs]) => [setup, keyFigures(fs, [...tcpColumns, "udpLossPod1"])]));

  it("reads 25 setups, each with TCP throughput at two paths and two stream counts", () => {
    expect(figures.size).toBe(25);
    const flannel = figures.get("flannel")?.filter((f) => f.metric === "tcp.throughput") ?? [];
    expect(flannel.map((f) => f.params)).toHaveLength(4);
  });

  it("never mixes streams or paths in a column", () => {
    for (const column of columnInfo(tcpColumns)) {
      const shown = [...table.values()].flatMap((row) => {
        const f = row[column.key];
        return f ? [f] : [];
      });
      for (const f of shown) expect(f.params).toEqual(column.params);
    }
    // 24 setups measured pod-to-pod throughput (all but the bare-metal reference); each shows at 1 and 8 streams.
    const count = (key: ColumnKey) => [...table.values()].filter((row) => row[key]).length;
    expect(count("tcpPod1")).toBe(24);
    expect(count("tcpPod8")).toBe(24);
    expect(count("tcpNode8")).toBe(1);
  });

  it("shows each setup's own figure at the column's params: the median of its three runs", () => {
    for (const [setup, row] of table) {
      for (const column of columnInfo(tcpColumns)) {
        const own = figures
          .get(setup)
          ?.find((f) => f.metric === column.metric && canonicalJson(f.params) === canonicalJson(column.params));
        expect(row[column.key]?.value, `${setup} ${column.key}`).toBe(own?.value);
        if (own) expect(row[column.key]?.n).toBe(3);
      }
    }
  });

  it("leaves a setup's cell empty where it lacks that test, never filling it from another", () => {
    // antrea-ipsec's three real runs hold no 1-stream Service figure (statexec recorded none), and the
    // bare-metal reference has no Service at all; every other setup has one.
    const lacking = [...figures].filter(
      ([, fs]) =>
        !fs.some((f) => f.metric === "tcp.throughput" && f.params.path === "service" && f.params.streams === 1),
    );
    expect(lacking.map(([setup]) => setup).sort()).toEqual(["antrea-ipsec", "baremetal"]);
    // antrea-ipsec has throughput at the three other tests, but its 1-stream Service cell stays empty.
    const ipsec = table.get("antrea-ipsec");
    expect([ipsec?.tcpPod1, ipsec?.tcpPod8, ipsec?.tcpSvc8].every(Boolean)).toBe(true);
    expect(ipsec?.tcpSvc1).toBeUndefined();
    // Flannel's 1-stream pod-to-pod throughput is about half its 8-stream one (19.6 against 39 Gbit/s
    // in flannel/1/all.results): a column taking "the best" would have shown the 8-stream figure.
    const flannel = table.get("flannel");
    expect(flannel?.tcpPod1?.value).toBeLessThan(0.6 * (flannel?.tcpPod8?.value ?? 0));
  });

  it("keeps the synthetic setups' factors within a column (cilium-wg is 0.29 × flannel at 8 streams)", () => {
    const ratio = (table.get("cilium-wg")?.tcpPod8?.value ?? 0) / (table.get("flannel")?.tcpPod8?.value ?? 1);
    expect(ratio).toBeCloseTo(0.29, 9);
  });

  it("gives UDP loss at one stream pod-to-pod only", () => {
    for (const row of table.values()) {
      if (row.udpLossPod1) expect(row.udpLossPod1.params).toEqual({ path: "pod-pod", streams: 1 });
    }
    expect([...table.values()].filter((row) => row.udpLossPod1)).toHaveLength(24);
  });
});
