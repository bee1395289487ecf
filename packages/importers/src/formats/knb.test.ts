/**
 * knb's data file (`knb -o data`, .knbdata: a tar.gz of its raw outputs), the real one of
 * InfraBuilder's 2020 benchmark: one answer saying how to render it, not one refusal per entry.
 */
import { fixtureBytes } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { importFiles } from "../import.ts";
import { isKnbDataEntry, KNBDATA_HINT } from "./knb.ts";

const knbdata = fixtureBytes("real/knb/infrabuilder-2020-doc-flannel-run1.knbdata");

describe("knb .knbdata", () => {
  it.each(["auto", "knb"] as const)("format %s: one report that says `knb -fd <file> -o json`", (format) => {
    const out = importFiles([{ name: "run1.knbdata", bytes: knbdata }], {}, { format });
    expect(out.files).toEqual([
      { file: "run1.knbdata", format: "knb", status: "failed", bundles: 0, error: KNBDATA_HINT },
    ]);
    expect(KNBDATA_HINT).toContain("knb -fd <file> -o json");
  });

  it("recognised by its entries when renamed (e.g. run1.tar.gz)", () => {
    const out = importFiles([{ name: "run1.tar.gz", bytes: knbdata }], {});
    expect(out.files).toHaveLength(1);
    expect(out.files[0]).toMatchObject({ status: "failed", error: KNBDATA_HINT });
  });

  it("entry names", () => {
    expect(isKnbDataEntry("./knb-client-tcp-p2p-30619.bw")).toBe(true);
    expect(isKnbDataEntry("./knb-client-idle-30619-server.avg")).toBe(true);
    expect(isKnbDataEntry("results/run1/all.results")).toBe(false);
  });
});

describe("knb's run name", () => {
  it("InfraBuilder 2020's real run (metadata.name 'Ubuntu 18.04 - Kernel default - doc-flannel - Run 1'): OS, label, CNI; mode asked for", async () => {
    const { parseKnbDocument } = await import("./knb.ts");
    const { fixtureText } = await import("@cnibench/test-support/fixtures");
    const run = parseKnbDocument(fixtureText("real/knb/infrabuilder-2020-doc-flannel-run1.json"));
    expect(run.derived).toMatchObject({ os: "Ubuntu 18.04", label: "doc-flannel", cni: "flannel" });
    expect(run.derived).not.toHaveProperty("mode");
    // Imported without --cni: only the mode is missing, by name.
    const out = importFiles(
      [{ name: "run1.json", bytes: fixtureBytes("real/knb/infrabuilder-2020-doc-flannel-run1.json") }],
      { cluster: "ib-2020", provider: "on-prem", sku: "s03" },
    );
    expect(out.files[0]?.missing).toEqual([{ path: "cni.mode", input: "mode" }]);
  });

  it.each([
    ["calico-ipip - Run 2", { cni: "calico", mode: "ipip" }],
    ["cilium vxlan kube-router", { mode: "overlay-vxlan" }], // two CNIs: neither; the one mode stated
    ["knb-1290387", {}],
    ["Debian 11 - Kernel 5.10 - kube-router - Run 3", { os: "Debian 11", label: "kube-router", cni: "kube-router" }],
  ])("%s", async (name, expected) => {
    const { environmentFromRunName } = await import("./knb.ts");
    expect(environmentFromRunName(name)).toEqual(expected);
  });
});
