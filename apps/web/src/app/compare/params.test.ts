import { describe, expect, it } from "vitest";
import { compareHref, loadCompareParams, marginItems, readMargins } from "./params";

describe("margins in the compare address", () => {
  it("reads metric:percent items for catalogue metrics with a winner and x. metrics", () => {
    const { margin } = loadCompareParams("?s=a&s=b&margin=tcp.throughput:3&margin=http.latency:15&margin=x.sync:2.5");
    expect(readMargins(margin)).toEqual({
      margins: { "tcp.throughput": 3, "http.latency": 15, "x.sync": 2.5 },
      ignored: [],
    });
  });

  it("leaves out and names what is not a margin, and takes the last of a metric given twice", () => {
    const items = [
      "tcp.throughput:0", // not above 0
      "tcp.throughput:100.5", // above 100
      "http.rps:-3",
      "http.rps:3%",
      "http.rps:0x10", // Number() would read 16
      "http.rps:",
      "iptables.rules:5", // a count: no verdict, so no margin
      "tcp.Throughput:5", // not in the catalogue, not x.
      "udp.loss",
      "x.a:b:7", // an x. metric's name may hold a colon
      "udp.loss:100",
      "udp.loss:20",
    ];
    expect(readMargins(items)).toEqual({
      margins: { "x.a:b": 7, "udp.loss": 20 },
      ignored: items.slice(0, 9),
    });
  });

  it("keeps at most 100 margins", () => {
    const items = Array.from({ length: 101 }, (_, i) => `x.m${i}:5`);
    const { margins, ignored } = readMargins(items);
    expect(Object.keys(margins)).toHaveLength(100);
    expect(ignored).toEqual(["x.m100:5"]);
  });

  it("writes margins back into links that read the same", () => {
    const href = compareHref("/compare", {
      s: ["a", "b"],
      margin: marginItems({ "tcp.throughput": 3, "x.sync": 2.5 }),
    });
    expect(href).toBe("/compare?s=a&s=b&margin=tcp.throughput:3&margin=x.sync:2.5");
    expect(readMargins(loadCompareParams(href.slice("/compare".length)).margin).margins).toEqual({
      "tcp.throughput": 3,
      "x.sync": 2.5,
    });
  });
});
