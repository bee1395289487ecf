/**
 * vegeta reports. Inputs: the README's documented examples (real/vegeta, tsenart/vegeta @ cf581126
 * README.md "report -type=text" / "report -type=json", byte-for-byte) and one text report in the
 * layout lib/reporters.go prints today (synthetic/vegeta, written by make-synthetic.py; the README's
 * text example predates the "90" column). Expected figures read by hand from the files; the pace
 * (qps) by awk: rate × (requests − 1) / requests, e.g. awk 'BEGIN{print 101.01010672380401*99/100}' = 100.
 */
import { fixtureBytes, fixtureText, fixtureTree, labEnvironment } from "@cnibench/test-support/fixtures";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect.ts";
import { importFiles } from "../import.ts";
import { ImportError, type Result } from "../types.ts";
import { goDuration, parseVegeta } from "./vegeta.ts";

const by = (results: Result[], key: string, value: string) =>
  results.find((r) => r.metric === "http.latency" && r.params?.[key] === value);

describe("vegeta reports", () => {
  it("JSON (README): throughput at pace 100, latencies from nanoseconds, success 100 %", () => {
    const run = parseVegeta(fixtureText("real/vegeta/vegeta_report_json_from_readme.json"));
    expect(run.results[0]).toMatchObject({
      metric: "http.qps.achieved",
      value: 101.00012489812,
      unit: "req/s",
      params: { qps: 100 },
    });
    // "99th": 3530000 ns, "mean": 2371194 ns, "max": 3660505 ns
    expect(by(run.results, "percentile", "p99")).toMatchObject({ value: 0.00353, unit: "s", params: { qps: 100 } });
    expect(by(run.results, "stat", "avg")?.value).toBe(0.002371194);
    expect(by(run.results, "stat", "max")?.value).toBe(0.003660505);
    expect(run.results.find((r) => r.metric === "x.http.success")).toMatchObject({
      value: 100,
      unit: "%",
      better: "higher",
    });
    // 7 latencies + throughput + success
    expect(run.results).toHaveLength(9);
    expect(run.runAt).toBe("2015-09-19T14:45:50.645818631+02:00");
    expect(run.skipped).toEqual([]);
  });

  it("text (README): 535 failed requests named; pace 120 (awk: 120*1199/1200 = 119.9)", () => {
    const run = parseVegeta(fixtureText("real/vegeta/vegeta_report_text_from_readme.txt"));
    expect(run.results[0]).toMatchObject({ value: 65.87, params: { qps: 120 } });
    // "Latencies [min, mean, 50, 95, 99, max] 90.438129ms, 113.172398ms, 108.272568ms, 140.18235ms, 247.771566ms, 264.815246ms"
    expect(by(run.results, "percentile", "p50")?.value).toBeCloseTo(0.108272568, 12);
    expect(by(run.results, "percentile", "p95")?.value).toBeCloseTo(0.14018235, 12);
    expect(by(run.results, "percentile", "p90")).toBeUndefined();
    expect(run.results.find((r) => r.metric === "x.http.success")?.value).toBe(55.42);
    expect(run.skipped).toEqual(["535 requests failed (status code 0, 4xx or 5xx); the latencies include them"]);
  });

  it("text in today's layout (synthetic from lib/reporters.go): the 90th percentile too", () => {
    const run = parseVegeta(fixtureText("synthetic/vegeta/vegeta_report_text_synthetic_current_layout.txt"));
    // awk 'BEGIN{print 100.02*5999/6000}' = 100.003
    expect(run.results[0]).toMatchObject({ value: 99.98, params: { qps: 100 } });
    expect(by(run.results, "percentile", "p90")?.value).toBeCloseTo(0.005123, 12);
    expect(run.results).toHaveLength(9);
  });

  it("Go durations", () => {
    expect(goDuration("1m0s")).toBe(60);
    expect(goDuration("21.4ms")).toBeCloseTo(0.0214, 12);
    expect(goDuration("850µs")).toBeCloseTo(0.00085, 12);
    expect(goDuration("1h2m3.5s")).toBe(3723.5);
    expect(goDuration("12 parsecs")).toBeUndefined();
  });

  it("detected by content; a broken report says what is missing", () => {
    expect(detectFormat("r", fixtureText("real/vegeta/vegeta_report_text_from_readme.txt"))).toEqual({
      format: "vegeta",
    });
    expect(detectFormat("r", fixtureText("real/vegeta/vegeta_report_json_from_readme.json"))).toEqual({
      format: "vegeta",
    });
    expect(() => parseVegeta('{"latencies":{},"requests":"x","rate":1,"throughput":1}')).toThrow(
      "vegeta JSON: requests is missing or not a number",
    );
    expect(() =>
      parseVegeta("Requests      [total, rate, throughput]  0, 0.00, 0.00\nLatencies     [min]  0s\n"),
    ).toThrow(ImportError);
  });
});

// synthetic/vegeta/clients-synthetic (make-synthetic.py): one -rate=100 attack run at once from three
// machines (client-a/b/c, windows starting 0, 3 and 5 ms apart, 1,000 requests each over 9.99 s), and a
// later attack at the same pace (later-run, 20 s on). Expected figures by hand (python3):
// throughput 1000/9.992 + 1000/9.9925 + 990/9.9915 = 299.23934193181026 req/s; mean latency
// (2.1 + 2.4 + 2.0)/3 = 2.1667 ms (equal requests); success (100 + 100 + 99)/3 = 99.667 %.
describe("vegeta reports of one run's concurrent clients", () => {
  const { bundles, files } = importFiles(fixtureTree("synthetic/vegeta/clients-synthetic", "vegeta"), labEnvironment);
  const clients = bundles.find((b) => b.file.endsWith("}"))?.bundle.results ?? [];
  const figure = (metric: string, key?: string, value?: string) =>
    clients.find((r) => r.metric === metric && (key === undefined || r.params?.[key] === value));

  it("reads overlapping attacks of one folder and pace as one run; a later attack stays its own", () => {
    expect(files.map((f) => [f.file, f.bundles])).toEqual([
      ["vegeta/{client-a.json,client-b.json,client-c.json}", 1],
      ["vegeta/later-run.json", 1],
    ]);
    expect(bundles).toHaveLength(2);
  });

  it("sums throughput and pace, weighs the mean and success by requests, marks the clients", () => {
    expect(figure("http.qps.achieved")).toMatchObject({ params: { qps: 300 } });
    expect(figure("http.qps.achieved")?.value).toBeCloseTo(299.23934193181026, 9);
    expect(figure("http.qps.achieved")).not.toHaveProperty("samples");
    const mean = figure("http.latency", "stat", "avg");
    expect(mean?.value).toBeCloseTo(0.0021666666666666666, 12);
    expect(mean).toMatchObject({ samples: [0.0021, 0.0024, 0.002], samplesAre: "clients" });
    expect(figure("http.latency", "stat", "min")?.value).toBe(0.0008);
    expect(figure("http.latency", "stat", "max")?.value).toBe(0.0135);
    // p99s 6.4, 7.2, 5.9 ms: their median, said to be one.
    expect(figure("http.latency", "percentile", "p99")).toMatchObject({
      value: 0.0064,
      aggregate: "median",
      samplesAre: "clients",
    });
    expect(figure("x.http.success")?.value).toBeCloseTo(99.66666666666667, 9);
    expect(clients[0]).toMatchObject({ params: { qps: 300 } });
  });
});

describe("vegeta text reports of one folder at one pace", () => {
  it("are each a run, and the answer says how to send them as one run's clients", () => {
    const bytes = fixtureBytes("synthetic/vegeta/vegeta_report_text_synthetic_current_layout.txt");
    const { bundles, files } = importFiles(
      [
        { name: "run/client-1.txt", bytes },
        { name: "run/client-2.txt", bytes },
        { name: "other/report.txt", bytes },
      ],
      labEnvironment,
    );
    expect(bundles).toHaveLength(3);
    const notes = files.map((f) => [f.file, f.warnings?.some((w) => w.includes("-type=json")) ?? false]);
    expect(notes).toEqual([
      ["run/client-1.txt", true],
      ["run/client-2.txt", true],
      ["other/report.txt", false],
    ]);
  });
});
