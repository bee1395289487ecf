import { describe, expect, it } from "vitest";
import { countVerdicts, formatVerdictSummary } from "./summary.ts";
import type { Verdict } from "./verdict.ts";

describe("verdict summary", () => {
  it("counts verdicts and says them in words", () => {
    const list: Verdict[] = [
      ...Array<Verdict>(9).fill("better"),
      ...Array<Verdict>(6).fill("worse"),
      ...Array<Verdict>(14).fill("equivalent"),
    ];
    const counts = countVerdicts(list);
    expect(counts).toEqual({
      better: 9,
      worse: 6,
      equivalent: 14,
      "small-but-real": 0,
      inconclusive: 0,
      "not-comparable": 0,
      missing: 0,
    });
    expect(formatVerdictSummary("Cilium Overlay", "kube-proxy iptables", counts)).toBe(
      "Cilium Overlay vs kube-proxy iptables: 9 better, 6 worse, 14 equivalent",
    );
  });

  it("accepts verdict results and mentions not comparable and missing only when present", () => {
    const counts = countVerdicts([{ verdict: "not-comparable" }, { verdict: "missing" }, { verdict: "missing" }]);
    expect(formatVerdictSummary("B", "A", counts)).toBe(
      "B vs A: 0 better, 0 worse, 0 equivalent, 1 not comparable, 2 missing",
    );
  });
});
