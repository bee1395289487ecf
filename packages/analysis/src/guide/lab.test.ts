// Lab results in the guide: evidence about a mechanism on one kernel, never an option for a cloud nor
// "measured on" one. Figures are a real `cnibench lab` sweep (test-support's lab fixture: 0 and 5,000
// Services, three runs each, on the shared development VM) beside the five seed benchmarks.
import { loadDemoData } from "@cnibench/test-support/demo-data";
import { labSeeds } from "@cnibench/test-support/lab-figures";
import { describe, expect, it } from "vitest";
import { isLab, labFindings } from "./lab.ts";
import type { GuideAnswers } from "./questions.ts";
import { recommendDatapaths } from "./rank.ts";
import type { GuideFigure, GuideResult } from "./types.ts";

const demo = loadDemoData();
const lab = labSeeds();
const scenarios = [...demo.scenarios, ...lab.scenarios];
const figures: GuideFigure[] = [...demo.figures, ...lab.figures];
const labIds = lab.scenarios.map((s) => s.id);

function ask(answers: Partial<GuideAnswers>): GuideResult {
  return recommendDatapaths({
    answers: { cloud: null, sku: null, services: 5000, connections: "short", needs: [], ...answers },
    scenarios,
    figures,
  });
}

// The fixture's short-connection runs (req/s), medians by hand: iptables 0 Services 10,189.7 (of 9,750.07,
// 10,189.7, 12,280.5), 5,000 Services 7,468.38 (of 4,288.93, 7,468.38, 8,848.67); nftables 8,290.31 (of
// 6,453.72, 8,290.31, 8,848.5) and 5,908.45 (of 5,437.92, 5,908.45, 6,398.22). Welch's t-test on the logs
// (scipy.stats.ttest_ind, equal_var=False) gives p = 0.146 and p = 0.083: at three runs neither drop is
// clear, nor an equivalence within the 5 % margin, so both are inconclusive.
const iptablesWords =
  "kube-proxy iptables' short-connection rate went from 10,190 to 7,468 req/s between 0 and 5,000 Services (inconclusive at these runs)";
const nftablesWords =
  "kube-proxy nftables' short-connection rate went from 8,290 to 5,908 req/s (inconclusive at these runs)";
const lead = "Mechanism evidence from the lab, not a cloud measurement: on a lab kernel 6.18.44-fc-v657";

describe("lab results in the guide", () => {
  it("are never an option, in scope, or counted as measured on a cloud", () => {
    for (const answers of [{}, { cloud: "tke" }, { connections: "keepalive" as const }]) {
      const r = ask(answers);
      expect(r.scope.clouds).not.toContain("lab");
      expect(r.options.flatMap((o) => o.scenarios.map((s) => s.id)).filter((id) => labIds.includes(id))).toEqual([]);
      expect(r.options.flatMap((o) => o.clouds)).not.toContain("lab");
      expect(r.options.map((o) => o.label).filter((l) => /lab/i.test(l))).toEqual([]);
      const sentences = [...r.summary, ...r.caveats, ...r.options.flatMap((o) => o.reasons)].map((x) => x.text);
      expect(sentences.filter((t) => /measured on Lab|\bLab AMD EPYC\b/.test(t))).toEqual([]);
    }
    // The same answer as without the lab's scenarios, but for the mechanism sentence.
    const without = recommendDatapaths({
      answers: { cloud: null, sku: null, services: 5000, connections: "short", needs: [] },
      scenarios: demo.scenarios,
      figures: demo.figures,
    });
    const withLab = ask({});
    expect(withLab.options.map((o) => [o.id, o.rank, o.performance])).toEqual(
      without.options.map((o) => [o.id, o.rank, o.performance]),
    );
    expect(withLab.summary.filter((x) => !x.text.startsWith("Mechanism evidence")).map((x) => x.text)).toEqual(
      without.summary.map((x) => x.text),
    );
  });

  it("cites the lab's kube-proxy iptables curve where an iptables option is compared, with its figures", () => {
    const cited = ask({ cloud: "tke" }).summary.filter((x) => x.text.startsWith("Mechanism evidence"));
    // The seeds' options use kube-proxy iptables and eBPF, never nftables: only the iptables curve is cited.
    expect(cited.map((x) => x.text)).toEqual([`${lead}, ${iptablesWords}.`]);
    expect(cited[0]?.kind).toBe("measured");
    expect(cited[0]?.effect).toBe("neutral");
    expect(cited[0]?.evidence.map((e) => [e.scenarioId, e.params.services, e.value])).toEqual([
      ["lab-iptables", 0, 10189.7],
      ["lab-iptables", 5000, 7468.38],
    ]);
  });

  it("says nothing of it for keep-alive traffic, which the Service count does not slow", () => {
    expect(ask({ connections: "keepalive" }).summary.filter((x) => x.text.startsWith("Mechanism"))).toEqual([]);
  });

  it("words both modes when both are compared, and none when neither is", () => {
    const figuresOf = (id: string) => lab.figures.filter((f) => f.scenarioId === id);
    expect(labFindings(lab.scenarios, figuresOf, new Set(["iptables", "nftables"])).map((x) => x.text)).toEqual([
      `${lead}, ${iptablesWords}, while ${nftablesWords}.`,
    ]);
    expect(labFindings(lab.scenarios, figuresOf, new Set(["ebpf"]))).toEqual([]);
    expect(lab.scenarios.every(isLab)).toBe(true);
    expect(demo.scenarios.some(isLab)).toBe(false);
  });
});
