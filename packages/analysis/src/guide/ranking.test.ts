// The guide's ranking on hand-built tables of the shapes real benchmarks give (issue 39): a test every
// option saturates beside one that separates them, a dominated option, ties within the margin. The
// expected orders are worked out by hand in each case's comment; the effects and p-values by
// scipy (stats.ttest_ind on the logs, equal_var=False) and Python's math.
import { describe, expect, it } from "vitest";
import type { Figure } from "../types.ts";
import { comparePair, type RankTest, rankOptions, reasonLines, testStanding, topsAlone } from "./ranking.ts";

const tput = (samples: number[]): Figure => ({
  metric: "tcp.throughput",
  unit: "Gbit/s",
  value: [...samples].sort((a, b) => a - b)[1]!,
  samples,
});

const test = (what: string, figures: Record<string, Figure>, ceiling: RankTest["ceiling"] = null): RankTest => ({
  key: what,
  what,
  testbed: "On-premises bare-metal-40g",
  weight: 1,
  better: "higher",
  entries: Object.entries(figures).map(([optionId, figure]) => ({ optionId, figure, evidence: [] })),
  ceiling,
});

const lineRate = { value: 40, words: "the 40 Gbit/s line rate" };

// InfraBuilder's shape: on 8 streams every unencrypted setup fills the 40 Gbit/s NIC (B even reads a
// little higher than A); on one stream A is clearly ahead (25.4 against 22.6 Gbit/s, as in the article).
const eight = test(
  "8-stream TCP",
  { A: tput([39.1, 39.3, 39.2]), B: tput([39.5, 39.6, 39.4]), C: tput([39.0, 39.2, 39.4]) },
  lineRate,
);
const single = test("single-stream TCP", {
  A: tput([25.4, 25.1, 25.6]),
  B: tput([22.6, 22.9, 22.4]),
  C: tput([22.7, 22.5, 22.8]),
});
const names: Record<string, string> = { A: "Setup A", B: "Setup B", C: "Setup C", D: "Setup D" };
const subject = (id: string) => ({ label: names[id]!, features: 0, needsShort: null });
const byName = (a: string, b: string) => a.localeCompare(b);

describe("a test another option tops as well does not put one first", () => {
  // UDP loss, lower is better: A and B lose the same 10.1 % run for run, D 87 % (InfraBuilder's
  // shape: 22 setups at one loss, antrea-ipsec far above). The test separates D from the rest, and
  // puts neither A nor B first. On one stream A is ahead of B and C outright (the test above).
  const loss = (samples: number[]): Figure => ({ ...tput(samples), metric: "udp.loss", unit: "%" });
  const udpLoss: RankTest = {
    ...test("8-stream UDP loss", {
      A: loss([10.1, 10.2, 10.0]),
      B: loss([10.1, 10.2, 10.0]),
      D: loss([87.0, 88.1, 86.5]),
    }),
    better: "lower",
  };
  // CPU per Gbit/s, lower is better: A's 110 is the lowest, B's 111 within the 10 % margin of it, C
  // twice as costly (InfraBuilder's cilium-custom, calico-ebpf and an encrypted setup).
  const cpu = (samples: number[]): Figure => ({
    metric: "x.cpu.per.gbit",
    unit: "millicores per Gbit/s",
    value: [...samples].sort((a, b) => a - b)[1]!,
    samples,
    better: "lower",
  });
  const efficiency: RankTest = {
    ...test("CPU per Gbit/s", { A: cpu([110, 109, 112]), B: cpu([111, 110, 113]), C: cpu([230, 228, 233]) }),
    better: "lower",
  };

  it("tells the tests apart", () => {
    expect(testStanding(udpLoss).separates).toBe(true);
    // A and B share the top; every other option is ahead of D.
    expect(["A", "B", "D"].map((id) => topsAlone(udpLoss, id))).toEqual([false, false, false]);
    // A beats B and C outright on one stream; B is behind A.
    expect(["A", "B"].map((id) => topsAlone(single, id))).toEqual([true, false]);
    // At the line rate every option shares the top, whatever the runs say.
    expect(topsAlone(eight, "A")).toBe(false);
  });

  it("counts one level with it at a figure a little worse as sharing the top", () => {
    expect(testStanding(efficiency).separates).toBe(true);
    expect(comparePair(efficiency, "A", "B")?.winner).toBeNull();
    expect(comparePair(efficiency, "A", "C")?.winner).toBe("A");
    expect(topsAlone(efficiency, "A")).toBe(false);
  });
});

describe("a figure every option saturates does not rank them", () => {
  it("says so in words and finds no winner in any pair", () => {
    expect(testStanding(eight)).toEqual({ separates: false, words: "all 3 reach the 40 Gbit/s line rate" });
    // B's runs are the highest, but all three are within 5 % (tcp.throughput's margin) of 40 Gbit/s.
    expect(comparePair(eight, "B", "A")).toMatchObject({ winner: null, saturated: true });
  });

  it("ranks on the test that separates: A first, alone not beaten across the board", () => {
    // A beats B and C on one stream (−10.8 % and −10.6 %, p ≈ 0.0002) and ties them on eight: it
    // dominates both. B and C tie on both tests (22.6 against 22.7 Gbit/s is within ±5 %), so
    // neither dominates the other: both form tier 2.
    const r = rankOptions(["B", "C", "A"], [eight, single], () => 0, byName);
    expect(r.order[0]).toBe("A");
    expect([r.tier.get("A"), r.tier.get("B"), r.tier.get("C")]).toEqual([1, 2, 2]);
    expect(r.dominatedBy.get("B")).toBe("A");
    const lines = reasonLines(r, [eight, single], subject, () => 0);
    const second = r.order[1]!;
    // Geometric means: B 22.633 against A 25.366 → −10.8 %; C 22.666 → −10.6 %; both "−11 %" at two
    // digits; Welch p = 0.0002 (scipy), said "p < 0.001".
    expect(lines.get(second)!.text).toMatch(/^Behind Setup A: single-stream TCP −11 % \(p < 0\.001\)\.$/);
    expect(lines.get("A")!.text).toMatch(
      /^Not beaten across the board: .*; Setup [BC], next, trails it: single-stream TCP −11 %/,
    );
    // The third is not separated from the second by any figure, in the same tier: after it on the score
    // (22.6 and 22.7 Gbit/s against 25.4), and beaten across the board by A, as the second is.
    expect(lines.get(r.order[2]!)!.text).toMatch(
      /^Level with Setup [BC] on every figure both were measured in: listed after it as further from the best on the figures your answers weigh; beaten across the board by Setup A: single-stream TCP −11 %/,
    );
  });

  it("would rank on the saturated test alone if it separated, which it cannot without a ceiling either", () => {
    // Without its ceiling the 8-stream figures are still within tcp.throughput's ±5 % margin of each
    // other: the verdict cannot call any pair better, so the test still does not separate.
    const bare = { ...eight, ceiling: null };
    expect(testStanding(bare).separates).toBe(false);
    expect(testStanding(bare).words).toMatch(/^equivalent within ±5 %|^a small but real difference|^inconclusive/);
  });
});

describe("options no test ran both of", () => {
  // The guide's "any cloud" scope: A and B on bare metal, E only on an EKS node. E is beaten across
  // the board by nothing it shares a test with, so it is not "level" with what it was never measured beside.
  const eks = {
    ...test("single-stream TCP", { E: tput([12.1, 12.3, 12.2]) }),
    key: "single-stream TCP eks",
    testbed: "Amazon EKS m5.4xlarge",
  };
  const onPrem = test("single-stream TCP", { A: tput([25.4, 25.1, 25.6]), B: tput([22.6, 22.9, 22.4]) });
  const named = (id: string) => ({ label: id === "E" ? "Setup E" : names[id]!, features: 0, needsShort: null });

  it("says they were never measured beside each other, not that no figure separates them", () => {
    // Tier 1: A (beats B) and E (beaten by nothing); both score 1, A before E by name; B below A.
    const r = rankOptions(["E", "B", "A"], [onPrem, eks], () => 0, byName);
    expect(r.order).toEqual(["A", "E", "B"]);
    const lines = reasonLines(r, [onPrem, eks], named, () => 0);
    expect(lines.get("E")!.text).toBe("Not measured beside Setup A (no test ran both): listed after it by name.");
    // B sits below E, which it was never measured beside, in the tier below it: A beats B across the
    // board and not E.
    expect(lines.get("B")!.text).toMatch(
      /^Not measured beside Setup E \(no test ran both\); unlike it, beaten across the board by Setup A: single-stream TCP −11 %/,
    );
  });

  it("counts a test that does not separate them as measured beside each other", () => {
    // E and A both fill the line rate in a shared test that is not ranked on: "no figure separates" holds.
    const shared = test("8-stream TCP", { A: tput([39.5, 39.6, 39.4]), E: tput([39.4, 39.5, 39.6]) }, lineRate);
    const r = rankOptions(["E", "B", "A"], [onPrem, eks], () => 0, byName);
    const lines = reasonLines(r, [onPrem, eks], named, () => 0, [onPrem, eks, shared]);
    expect(lines.get("E")!.text).toBe("No figure separates it from Setup A: listed after it by name.");
  });
});

describe("dominated options and ties", () => {
  it("puts a dominated option in a later tier and names what beats it", () => {
    // D trails A on one stream (20.1 vs 25.4: −21 %) and sits below the line rate on eight (30 vs 39:
    // −23 %): A dominates D; B and C beat D on both too.
    const d8 = {
      ...eight,
      entries: [...eight.entries, { optionId: "D", figure: tput([30.1, 29.8, 30.3]), evidence: [] }],
    };
    const d1 = {
      ...single,
      entries: [...single.entries, { optionId: "D", figure: tput([20.1, 19.9, 20.3]), evidence: [] }],
    };
    expect(testStanding(d8)).toMatchObject({
      separates: true,
      words: "3 of 4 reach the 40 Gbit/s line rate and are not told apart by it",
    });
    const r = rankOptions(["A", "B", "C", "D"], [d8, d1], () => 0, byName);
    expect(r.order.at(-1)).toBe("D");
    expect(r.tier.get("D")).toBe(3);
    const lines = reasonLines(r, [d8, d1], subject, () => 0);
    // Against C directly above it, the larger effect first: 8-stream (≈ −23 %) before single-stream (≈ −11 %).
    expect(lines.get("D")!.text).toMatch(
      /^Behind Setup [BC]: 8-stream TCP −2\d % \(p [<=] [\d.]+\) and single-stream TCP −1\d %/,
    );
  });

  it("names what puts an option a tier below one it is level with, not the leader that beats both", () => {
    // InfraBuilder's shape on one stream: kube-router (R) level with Flannel (F) just above it, both
    // beaten by the leader (A); a datapath level with Flannel (K) beats kube-router outright. Ratios of
    // geometric means (numpy): R/K 0.9337 (−6.6 %), K/F 1.0319, R/F 0.9635: the last two within the ±5 %
    // margin, so level; scipy's Welch test on the logs, K against R: p = 0.0017.
    const one = test("single-stream TCP", {
      A: tput([25.4, 25.1, 25.6]),
      K: tput([22.6, 22.9, 22.4]),
      F: tput([21.9, 22.1, 21.8]),
      R: tput([21.1, 21.3, 21.0]),
    });
    const r = rankOptions(["R", "F", "K", "A"], [one], () => 0, byName);
    expect(r.order).toEqual(["A", "K", "F", "R"]);
    expect(["A", "K", "F", "R"].map((id) => r.tier.get(id))).toEqual([1, 2, 2, 3]);
    expect(r.dominatedBy.get("R")).toBe("A");
    const named = (id: string) => ({ label: `Setup ${id}`, features: 0, needsShort: null });
    const lines = reasonLines(r, [one], named, () => 0);
    // The leader beats F as well: naming it would not say why R comes after F. K does, and not F.
    expect(lines.get("R")!.text).toBe(
      "Level with Setup F on every figure both were measured in; unlike it, beaten across the board by Setup K: single-stream TCP −6.6 % (p = 0.0017).",
    );
  });

  it("leaves single runs within the margin level, and orders them by the tie-break, saying so", () => {
    // 10.0 against 10.3 Gbit/s on a single run each: 3 % is inside the ±5 % band, an indicative tie.
    const t = test("single-stream TCP", {
      A: { metric: "tcp.throughput", unit: "Gbit/s", value: 10.3 },
      B: { metric: "tcp.throughput", unit: "Gbit/s", value: 10.0 },
    });
    expect(testStanding(t)).toEqual({ separates: false, words: "equivalent within ±5 % on a single value" });
    const r = rankOptions(["B", "A"], [t], () => 0, byName);
    expect(r.tier.get("A")).toBe(1);
    expect(r.tier.get("B")).toBe(1);
  });

  it("judges a pair alike whichever comes first: a single run's band is a share of its baseline", () => {
    // 10.0 against 9.51 Gbit/s: +5.15 % over 9.51, beyond the ±5 % band; −4.9 % under 10.0, within it.
    // Judged one way only, A "beat" B in the ranking while B's line found nothing A won.
    const t = test("single-stream TCP", {
      A: { metric: "tcp.throughput", unit: "Gbit/s", value: 10.0 },
      B: { metric: "tcp.throughput", unit: "Gbit/s", value: 9.51 },
    });
    expect(comparePair(t, "A", "B")?.winner).toBeNull();
    expect(comparePair(t, "B", "A")?.winner).toBeNull();
    const r = rankOptions(["B", "A"], [t], () => 0, byName);
    expect([r.tier.get("A"), r.tier.get("B")]).toEqual([1, 1]);
    expect(r.dominatedBy.has("B")).toBe(false);
  });

  it("orders by the needs first: an option missing a need comes after, said so", () => {
    const r = rankOptions(["A", "B"], [single], (id) => (id === "A" ? 1 : 0), byName);
    expect(r.order).toEqual(["B", "A"]);
    const lines = reasonLines(
      r,
      [single],
      (id) => ({ ...subject(id), needsShort: id === "A" ? "misses Encryption in transit" : null }),
      (id) => (id === "A" ? 1 : 0),
    );
    expect(lines.get("A")).toEqual({
      text: "Below Setup B on your needs: it misses Encryption in transit.",
      evidence: [],
      // The needs, not a figure, put it there: the card's badge says CAPABILITY, not MEASURED.
      kind: "capability",
    });
  });
});

describe("an option missing the traffic's own test", () => {
  // Short connections at 1,000 Services, higher is better: A 29,500 and B 14,000 req/s (TKE's
  // kube-proxy iptables and Cilium lines, steady runs); C ran no short-connection test. On one stream
  // C's 30 Gbit/s is ahead of both. Without the traffic rule C beats both across the board on
  // throughput alone and comes first; with it, A then B (A beats B on both tests), C after them.
  const rps = (samples: number[]): Figure => ({ ...tput(samples), metric: "http.rps", unit: "req/s" });
  const shortRate: RankTest = {
    ...test("short-connection rate at 1,000 Services", {
      A: rps([29_400, 29_500, 29_600]),
      B: rps([13_900, 14_000, 14_100]),
    }),
    traffic: true,
  };
  const oneStream = test("single-stream TCP", {
    A: tput([25.4, 25.1, 25.6]),
    B: tput([22.6, 22.9, 22.4]),
    C: tput([30.1, 30.0, 30.3]),
  });

  it("comes after every option read there, and its line says why", () => {
    const ranking = rankOptions(["A", "B", "C"], [shortRate, oneStream], () => 0, byName);
    expect(ranking.order).toEqual(["A", "B", "C"]);
    expect(ranking.measured).toEqual(new Set(["A", "B"]));
    const lines = reasonLines(ranking, [shortRate, oneStream], subject, () => 0);
    expect(lines.get("C")!.text).toBe(
      "Not measured for your traffic (short-connection rate at 1,000 Services): listed after those that were.",
    );
  });

  it("is never named as what beats another across the board", () => {
    // A and B ran the same runs in both tests: level, not beaten. C, missing the traffic's test, is
    // ahead of both on one stream; it placed nothing, so B's line must not say C beats it.
    const same = { ...shortRate, entries: ["A", "B"].map((optionId) => ({ ...shortRate.entries[0]!, optionId })) };
    const level = test("single-stream TCP", {
      A: tput([25.4, 25.1, 25.6]),
      B: tput([25.4, 25.1, 25.6]),
      C: tput([30.1, 30.0, 30.3]),
    });
    const ranking = rankOptions(["A", "B", "C"], [same, level], () => 0, byName);
    expect(ranking.order).toEqual(["A", "B", "C"]);
    const lines = reasonLines(ranking, [same, level], subject, () => 0);
    expect(lines.get("B")!.text).toBe("No figure separates it from Setup A: listed after it by name.");
  });

  it("is ranked with the rest when no option was read in a traffic test", () => {
    const ranking = rankOptions(["A", "B", "C"], [{ ...shortRate, traffic: false }, oneStream], () => 0, byName);
    // C beats both on one stream and loses no test: not beaten, first by score.
    expect(ranking.order[0]).toBe("C");
  });
});
