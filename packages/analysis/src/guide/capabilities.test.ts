import { describe, expect, it } from "vitest";
import raw from "../../data/capabilities.json";
import {
  capabilityKeys,
  capabilityMatrix,
  capabilityValues,
  parseCapabilityMatrix,
  resolveCapability,
} from "./capabilities.ts";

const clone = () => JSON.parse(JSON.stringify(raw)) as typeof raw;

describe("the capability matrix (data/capabilities.json)", () => {
  it("has a version and every cell of every option, each with a value and an https source", () => {
    expect(capabilityMatrix.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(capabilityMatrix.options).toHaveLength(22);
    let cells = 0;
    for (const option of capabilityMatrix.options) {
      expect(Object.keys(option.cells).sort()).toEqual([...capabilityKeys].sort());
      for (const key of capabilityKeys) {
        const cell = option.cells[key];
        expect(new URL(cell.source).protocol, `${option.id}.${key}`).toBe("https:");
        const ok = (capabilityValues as readonly string[]).includes(cell.value) || /^>=\d/.test(cell.value);
        expect(ok, `${option.id}.${key} = ${cell.value}`).toBe(true);
        cells++;
      }
    }
    expect(cells).toBe(330);
  });

  it("rejects a cell without a source, with an unknown value, or a missing capability", () => {
    const noSource = clone();
    (noSource.options[3]!.cells.l7_http_policy as { source?: string }).source = undefined;
    expect(() => parseCapabilityMatrix(noSource)).toThrow(/cilium-native-kpr\.l7_http_policy has no https source/);

    const http = clone();
    http.options[0]!.cells.bbr.source = "http://example.com/plain";
    expect(() => parseCapabilityMatrix(http)).toThrow(/kube-proxy-iptables\.bbr has no https source/);

    const value = clone();
    value.options[0]!.cells.bbr.value = "maybe";
    expect(() => parseCapabilityMatrix(value)).toThrow(/kube-proxy-iptables\.bbr has value "maybe"/);

    const missing = clone();
    delete (missing.options[1]!.cells as Partial<(typeof missing.options)[1]["cells"]>).multi_cluster;
    expect(() => parseCapabilityMatrix(missing)).toThrow(/kube-proxy-ipvs\.multi_cluster is missing/);

    const unversioned = clone() as Partial<typeof raw>;
    delete unversioned.version;
    expect(() => parseCapabilityMatrix(unversioned)).toThrow(/version is missing/);
  });
});

describe("resolveCapability", () => {
  const m = capabilityMatrix;
  const tkeIptables = [["kube-proxy-iptables"], ["tke-vpc-cni"]];

  it("lets the Service proxy decide what it does and the CNI the rest", () => {
    const kpr = resolveCapability(m, tkeIptables, "kube_proxy_replacement");
    expect([kpr.value, kpr.cells.map((c) => c.optionId)]).toEqual(["no", ["kube-proxy-iptables"]]);
    // kube-proxy says n.a. for policy: the CNI's row answers.
    const np = resolveCapability(m, tkeIptables, "k8s_networkpolicy");
    expect([np.value, np.cells.map((c) => c.optionId)]).toEqual(["yes", ["tke-vpc-cni"]]);
    expect(np.cells[0]!.source).toMatch(/^https:\/\//);
    const l7 = resolveCapability(m, tkeIptables, "l7_http_policy");
    expect(l7.value).toBe("unknown");
  });

  it("keeps kube-proxy's answer for a Cilium overlay that still runs kube-proxy", () => {
    const layers = [["kube-proxy-iptables"], ["cilium-overlay"]];
    expect(resolveCapability(m, layers, "kube_proxy_replacement").value).toBe("no");
    expect(resolveCapability(m, layers, "l7_http_policy").value).toBe("yes");
    // kube-proxy's "unknown" minimum kernel gives way to Cilium's stated one.
    expect(resolveCapability(m, layers, "min_kernel").value).toBe(">=5.10");
  });

  it("says partial, and why, when alternative rows of one layer disagree", () => {
    const azure = [["azure-cni-cilium-overlay", "azure-cni-cilium-vnet"]];
    const routable = resolveCapability(m, azure, "pod_ip_vpc_routable");
    expect(routable.value).toBe("partial");
    expect(routable.note).toMatch(/depends on the mode: .*overlay\) no, .*VNet \/ pod subnet\) yes/);
    expect(resolveCapability(m, azure, "k8s_networkpolicy").value).toBe("yes");
  });

  it("is unknown without rows", () => {
    expect(resolveCapability(m, [], "bbr")).toEqual({ key: "bbr", value: "unknown", cells: [] });
  });
});
