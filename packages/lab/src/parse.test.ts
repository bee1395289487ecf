import { describe, expect, it } from "vitest";
import { parseCounts, parseIperf3Gbps, parseWrk, percentile } from "./parse.ts";

// wrk 4.1.0's report, as printed by `wrk -t2 -c16 -d2s --latency -H 'Connection: close'` in the lab.
const wrkShort = `Running 2s test @ http://198.19.0.100:80/
  2 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.64ms    1.02ms  21.63ms   83.41%
    Req/Sec     2.45k   210.33     2.83k    72.50%
  Latency Distribution
     50%    2.36ms
     75%    2.90ms
     90%    3.74ms
     99%  650.00us
  9781 requests in 2.00s, 0.85MB read
  Socket errors: connect 0, read 3, write 0, timeout 1
  Non-2xx or 3xx responses: 2
Requests/sec:   4887.41
Transfer/sec:    436.87KB
`;

describe("parseWrk", () => {
  it("reads the rate, the latency distribution in ms and the errors", () => {
    const r = parseWrk(wrkShort);
    expect(r.requestsPerSecond).toBe(4887.41);
    expect(r.requests).toBe(9781);
    expect(r.latencyMs).toEqual({ "50": 2.36, "75": 2.9, "90": 3.74, "99": 0.65 });
    expect(r.socketErrors).toEqual({ connect: 0, read: 3, write: 0, timeout: 1 });
    expect(r.non2xx).toBe(2);
  });
  it("refuses a report without a result", () => {
    expect(() => parseWrk("unable to connect to 198.19.0.1:80 Connection refused")).toThrow(/no result/);
  });
});

describe("parseIperf3Gbps", () => {
  it("takes the receiver's rate", () => {
    const json = JSON.stringify({
      end: { sum_sent: { bits_per_second: 2e10 }, sum_received: { bits_per_second: 1.25e10 } },
    });
    expect(parseIperf3Gbps(json)).toBe(12.5);
    expect(() => parseIperf3Gbps(JSON.stringify({ error: "unable to connect to server" }))).toThrow(/unable/);
  });
});

describe("statistics", () => {
  it("interpolates percentiles like numpy.percentile (linear)", () => {
    // numpy.percentile([1, 2, 3, 4, 10], [50, 90, 99]) → [3.0, 7.6, 9.76]
    const values = [10, 1, 3, 2, 4];
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 90)).toBeCloseTo(7.6, 10);
    expect(percentile(values, 99)).toBeCloseTo(9.76, 10);
  });
});

describe("parseCounts", () => {
  it("reads lists with k, sorted and without duplicates", () => {
    expect(parseCounts("10k, 0,1000,5k,1000")).toEqual([0, 1000, 5000, 10000]);
    expect(() => parseCounts("0,ten")).toThrow(/not a Service count/);
    expect(() => parseCounts("1.5")).toThrow(/whole number/);
  });
});
