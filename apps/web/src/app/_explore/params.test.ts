import { columnKeys, defaultColumns, maxColumns } from "@cnibench/analysis";
import { describe, expect, it } from "vitest";
import { toggleColumn } from "./columns";
import { exploreInput } from "./input";
import { exploreHref, loadExploreParams } from "./params";

const read = (search: string) => exploreInput(loadExploreParams(`https://cnibench.example/${search}`));
const choice = { catalogue: columnKeys, defaults: defaultColumns, max: maxColumns };

describe("the explorer's columns in the address", () => {
  it("asks for the default columns when the address names none", () => {
    expect(read("").input).toEqual({ columns: [...defaultColumns] });
    expect(exploreHref("/", { col: [] })).toBe("/");
  });

  it("reads col= once per column, known ones once each, in catalogue order", () => {
    const { input } = read("?col=tcpRrP99&col=tcpSvc8&col=nope&col=tcpSvc8&provider=on-prem");
    expect(input).toEqual({ provider: ["on-prem"], columns: ["tcpSvc8", "tcpRrP99"] });
    expect(read("?col=nope").input.columns).toEqual([...defaultColumns]);
  });

  it("writes the columns, filters, sort and page back into an address that reads the same", () => {
    const href = exploreHref("/", {
      provider: ["on-prem"],
      col: ["tcpPod8", "tcpSvc8"],
      sort: "tcpSvc8",
      order: "asc",
      page: 2,
    });
    expect(href).toBe("/?provider=on-prem&col=tcpPod8&col=tcpSvc8&sort=tcpSvc8&order=asc&page=2");
    expect(read(href.slice(1))).toMatchObject({
      input: { provider: ["on-prem"], columns: ["tcpPod8", "tcpSvc8"] },
      sort: "tcpSvc8",
      order: "asc",
    });
    // The CSV route reads the same address.
    expect(exploreHref("/explore.csv", { col: ["tcpPod1"], sort: "tcpPod1" })).toBe(
      "/explore.csv?col=tcpPod1&sort=tcpPod1",
    );
  });
});

describe("toggleColumn", () => {
  it("adds a column to the defaults, in catalogue order", () => {
    expect(toggleColumn(defaultColumns, "tcpSvc8", true, choice)).toEqual([
      "tcpPod1",
      "tcpPod8",
      "tcpSvc8",
      "udpLossPod1",
      "shortRps",
      "tcpRrP99",
    ]);
  });

  it("gives null (a short address) when the choice comes back to the default set", () => {
    const more = toggleColumn(defaultColumns, "tcpSvc8", true, choice) ?? [];
    expect(toggleColumn(more, "tcpSvc8", false, choice)).toBeNull();
  });

  it("keeps the last column, and adds none past the maximum", () => {
    expect(toggleColumn(["tcpSvc8"], "tcpSvc8", false, choice)).toEqual(["tcpSvc8"]);
    const full = columnKeys.slice(0, maxColumns);
    expect(toggleColumn(full, "memoryIdleServer", true, choice)).toEqual(full);
  });
});
