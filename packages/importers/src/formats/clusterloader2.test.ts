/**
 * ClusterLoader2 PerfData files (real/clusterloader2: Azure telescope's CRI report files, kubernetes/
 * perf-tests' 2017 fixtures); expected figures read by hand from the JSON, dataItems[i].data.PercNN.
 */
import { fixtureText } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect.ts";
import { importFiles } from "../import.ts";
import { ImportError, type Result } from "../types.ts";
import { clusterLoaderName, parseClusterLoader } from "./clusterloader2.ts";

const telescope =
  "real/clusterloader2/telescope_PodStartupLatency_PodStartupLatency_resource-consumer_2025-05-03T17-16-07Z.json";
const find = (results: Result[], metric: string, params: Record<string, unknown>) =>
  results.filter((r) => r.metric === metric && Object.entries(params).every(([k, v]) => r.params?.[k] === v));

describe("ClusterLoader2 measurement files", () => {
  it("PodStartupLatency (telescope, real): pod_startup → pod.startup.latency, phases → x.pod.phase.latency", () => {
    const run = parseClusterLoader(fixtureText(telescope), telescope);
    // 5 dataItems × Perc50/90/99
    expect(run.results).toHaveLength(15);
    expect(find(run.results, "pod.startup.latency", {}).map((r) => [r.params?.percentile, r.value, r.unit])).toEqual([
      ["p50", 4078.342422, "ms"],
      ["p90", 4982.680287, "ms"],
      ["p99", 5980.228751, "ms"],
    ]);
    const [p99] = find(run.results, "x.pod.phase.latency", { phase: "run_to_watch", percentile: "p99" });
    expect(p99).toMatchObject({ value: 2120.43965, unit: "ms", better: "lower" });
    expect(p99?.params?.measurement).toBe("PodStartupLatency");
    // the file name's stamp, ':' written '-'
    expect(run.runAt).toBe("2025-05-03T17:16:07Z");
    expect(run.skipped).toEqual([]);
  });

  it("the Stateless/Stateful measurements keep their own name, so their figures stay apart", () => {
    const name =
      "real/clusterloader2/telescope_StatefulPodStartupLatency_PodStartupLatency_resource-consumer_2025-05-03T17-16-07Z.json";
    const run = parseClusterLoader(fixtureText(name), name);
    expect(new Set(run.results.map((r) => r.params?.measurement))).toEqual(new Set(["StatefulPodStartupLatency"]));
    expect(run.results.every((r) => r.value === 0)).toBe(true); // every Perc is 0 in that file
  });

  it("sent without its name (a raw POST body): imported, and the answer says how to send the name", () => {
    const run = parseClusterLoader(fixtureText(telescope), "upload");
    expect(run.results).toHaveLength(15);
    expect(run.results[0]?.params).not.toHaveProperty("measurement");
    expect(run.skipped).toEqual([expect.stringContaining("pass ?filename=")]);
  });

  it("APIResponsiveness (perf-tests fixture, real): verbs with resource; LIST is apiserver.list.latency", () => {
    const name = "real/clusterloader2/legacy_perftests_fixture_APIResponsiveness_testB_xy123c.json";
    const run = parseClusterLoader(fixtureText(name), name);
    expect(run.results).toHaveLength(6);
    expect(find(run.results, "x.apiserver.latency", { verb: "PATCH", resource: "nodes", percentile: "p99" })).toEqual([
      expect.objectContaining({ value: 14.187, unit: "ms" }),
    ]);
    const list = parseClusterLoader(
      JSON.stringify({
        version: "v1",
        dataItems: [
          { data: { Perc99: 14323 }, unit: "ms", labels: { Verb: "LIST", Resource: "pods", Scope: "cluster" } },
        ],
      }),
      "APIResponsivenessPrometheus_density_2023-06-25T15:25:39+08:00.json",
    );
    // the blog excerpt's LIST pods row (real/clusterloader2/chinese_blog_…_EXCERPT.txt)
    expect(list.results).toEqual([
      {
        metric: "apiserver.list.latency",
        value: 14323,
        unit: "ms",
        params: {
          measurement: "APIResponsivenessPrometheus",
          verb: "LIST",
          resource: "pods",
          scope: "cluster",
          percentile: "p99",
        },
      },
    ]);
    expect(list.runAt).toBe("2023-06-25T15:25:39+08:00");
  });

  it("legacy PodStartupLatency has Perc100: p100", () => {
    const name = "real/clusterloader2/legacy_perftests_fixture_PodStartupLatency_testA_xyz123.json";
    const run = parseClusterLoader(fixtureText(name), name);
    expect(find(run.results, "pod.startup.latency", { percentile: "p100" })[0]?.value).toBe(2079.704676);
  });

  it("non-percentile data keys are named, not imported; an empty file is refused", () => {
    const run = parseClusterLoader(
      JSON.stringify({ version: "v1", dataItems: [{ data: { Perc50: 1, Count: 7 }, unit: "s", labels: {} }] }),
      "NetworkProgrammingLatency_load_2024-01-01T00:00:00Z.json",
    );
    expect(run.results).toEqual([
      {
        metric: "x.cl2.network-programming-latency",
        value: 1,
        unit: "s",
        params: { measurement: "NetworkProgrammingLatency", percentile: "p50" },
        better: "lower",
      },
    ]);
    expect(run.skipped).toEqual(["dataItems[0].data.Count: not a PercNN percentile figure"]);
    expect(() => parseClusterLoader('{"version":"v1","dataItems":[]}')).toThrow(ImportError);
  });

  it("file names", () => {
    expect(
      clusterLoaderName("x/PodStartupLatency_SaturationPodStartupLatency_density_2023-06-21T18:01:47+08:00.json"),
    ).toEqual({
      measurement: "PodStartupLatency",
      runAt: "2023-06-21T18:01:47+08:00",
    });
    expect(clusterLoaderName("report.json")).toEqual({});
  });

  it("auto-detected and imported; it was 'JSON, but not a format cnibench imports'", () => {
    expect(detectFormat("a.json", fixtureText(telescope))).toEqual({ format: "clusterloader2" });
    const out = importFiles([{ name: telescope, bytes: new TextEncoder().encode(fixtureText(telescope)) }], {
      cluster: "lab",
      provider: "on-prem",
      sku: "x",
      kernel: "6.1",
      cni: "cilium",
      mode: "native",
    });
    expect(out.files[0]).toMatchObject({ format: "clusterloader2", status: "imported", bundles: 1 });
    expect(out.bundles[0]?.bundle.collector).toEqual({ name: "clusterloader2" });
  });
});
