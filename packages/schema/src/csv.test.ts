import { describe, expect, it } from "vitest";
import { csvText, toCsv } from "./csv.ts";

describe("toCsv: no cell a spreadsheet runs as a formula", () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', "'=HYPERLINK"],
    ["+1+cmd|' /C calc'!A0", "'+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
  ])("neutralises %j", (text, start) => {
    expect(csvText(text).startsWith(start)).toBe(true);
    const csv = toCsv([[text]]);
    expect(csv.replace(/^"/, "").startsWith("'")).toBe(true);
  });

  it("leaves numbers and ordinary text alone", () => {
    expect(
      toCsv([
        ["label", "value", "text number", "when", "ok"],
        ["Cilium = fast", -3.5, "-3.5", new Date(0), true],
      ]),
    ).toBe("label,value,text number,when,ok\nCilium = fast,-3.5,-3.5,1970-01-01T00:00:00.000Z,true\n");
    expect(toCsv([[null, undefined, "", 1e21, "a,b", 'say "hi"']])).toBe(',,,1e+21,"a,b","say ""hi"""\n');
  });
});
