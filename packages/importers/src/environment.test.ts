import { parseBundle } from "@cnibench/schema";
import { fixtureBytes, labEnvironment } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { environmentContradictions, resolveEnvironment } from "./environment.ts";
import { importFiles } from "./import.ts";

// What the TKE synthetic result directory's context.yaml states (cluster_type cilium-overlay).
const tkeContext = {
  cluster: "tke-c-synthetic",
  k8s: "v1.34.1-tke.5",
  os: "TencentOS Server 4",
  kernel: "6.6.117-45.11.2.tl4.x86_64",
  sku: "SA5.LARGE8",
  nodeCount: 3,
  cni: "cilium",
  mode: "overlay",
};

function contradictions(passed: Parameters<typeof resolveEnvironment>[2][number]) {
  return environmentContradictions(tkeContext, resolveEnvironment("run", tkeContext, [passed]));
}

describe("environment you pass that contradicts the files", () => {
  it("keeps your value and names both, with the field's bundle path", () => {
    expect(contradictions({ kernel: "6.1.0", nodeCount: 5, mode: "native" })).toEqual([
      {
        path: "cluster.nodeCount",
        message: "cluster.nodeCount: you passed 5, the files state 3; stored as you passed",
      },
      {
        path: "node.kernel",
        message: 'node.kernel: you passed "6.1.0", the files state "6.6.117-45.11.2.tl4.x86_64"; stored as you passed',
      },
      {
        path: "cni.mode",
        message: 'cni.mode: you passed "native", the files state "overlay"; stored as you passed',
      },
    ]);
  });

  it("says nothing when you pass the same fact in other words, fill a gap, or rename", () => {
    expect(
      contradictions({
        cni: "Cilium", // the vocabulary's cilium
        k8s: "1.34.1-tke.5", // the files' v1.34.1-tke.5
        sku: "sa5.large8",
        provider: "tke", // the files do not say
        cluster: "prod-guangzhou", // a name, not a fact
        label: "Cilium overlay",
      }),
    ).toEqual([]);
  });

  it("cuts a runaway value the files state, so the warning stays within the contract's 2,000 characters", () => {
    const derived = { kernel: "5".repeat(5000) };
    const [warning] = environmentContradictions(derived, resolveEnvironment("f", derived, [{ kernel: "6.1.0" }]));
    expect(warning?.message).toBe(
      `node.kernel: you passed "6.1.0", the files state "${"5".repeat(200)}…"; stored as you passed`,
    );
  });

  it("ignores what the files leave unknown", () => {
    const derived = { kernel: "unknown", k8s: "" };
    expect(
      environmentContradictions(derived, resolveEnvironment("f", derived, [{ kernel: "6.1.0", k8s: "1.31" }])),
    ).toEqual([]);
  });
});

describe("importFiles stores the contradictions with the bundle", () => {
  it("a raw iperf3 output run on kernel 5.4.104+, imported with --kernel 6.1.0", () => {
    const file = { name: "iperf3.json", bytes: fixtureBytes("real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json") };
    const { bundles, files } = importFiles([file], labEnvironment);
    const warning = {
      path: "node.kernel",
      // start.system_info: "Linux iperf3-clients-w5rnm 5.4.104+ …"
      message: 'node.kernel: you passed "6.1.0", the files state "5.4.104+"; stored as you passed',
    };
    expect(bundles[0]?.bundle.node.kernel).toBe("6.1.0");
    expect(bundles[0]?.bundle.warnings).toEqual([warning]);
    expect(bundles[0]?.warnings).toEqual([warning]);
    expect(files[0]?.warnings).toEqual([warning.message]);
    // The bundle's warnings travel with it: whatever stores it keeps them.
    const parsed = parseBundle(bundles[0]?.bundle);
    expect(parsed.ok && parsed.warnings).toEqual([warning]);
  });

  it("knb's discovered kernel and Kubernetes version: only what differs is named", () => {
    const file = { name: "knb.txt", bytes: fixtureBytes("real/knb/knb_text_output_example_calico_ipip.txt") };
    // "Discovered Kernel 5.4.0-66-generic", "Discovered k8s version v1.19.7"
    const { bundles } = importFiles([file], { ...labEnvironment, kernel: "5.4.0-66-generic", k8s: "v1.20.0" });
    expect(bundles[0]?.bundle.warnings).toEqual([
      {
        path: "cluster.kubernetesVersion",
        message: 'cluster.kubernetesVersion: you passed "v1.20.0", the files state "v1.19.7"; stored as you passed',
      },
    ]);
  });
});
