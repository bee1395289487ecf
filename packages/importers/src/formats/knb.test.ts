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
