import { describe, expect, it } from "vitest";
import { seriesGroups, seriesOf } from "./history-params";

// Two metrics of a scenario, as its page groups its figures: throughput by streams, then RR latency.
const groups = [
  {
    metric: "tcp.throughput",
    label: "TCP throughput",
    unit: "Gbit/s",
    rows: [
      { params: { streams: 1, path: "pod-pod" }, runs: [{ campaign: "c1" }], history: [] },
      { params: { path: "pod-pod", streams: 8 }, runs: [{ campaign: "c1" }], history: [] },
    ],
  },
  { metric: "tcp.rr.latency", label: "TCP RR latency", unit: "µs", rows: [{ params: {}, runs: [], history: [] }] },
];

describe("seriesGroups", () => {
  it("lists each metric's series once, in the page's order, as [key, params in words] pairs", () => {
    expect(seriesGroups(seriesOf(groups))).toEqual([
      {
        label: "TCP throughput",
        options: [
          ['tcp.throughput|{"path":"pod-pod","streams":1}', "path pod-pod · streams 1"],
          ['tcp.throughput|{"path":"pod-pod","streams":8}', "path pod-pod · streams 8"],
        ],
      },
      { label: "TCP RR latency", options: [["tcp.rr.latency|{}", "no params"]] },
    ]);
  });
});
