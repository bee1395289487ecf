// Lab results (`cnibench lab`: kube-proxy's rules rebuilt in network namespaces on one host's kernel,
// docs/lab.md) are evidence about a mechanism, not about a cloud: never an option, never in scope nor
// "measured on" a cloud. Where the options compared use a Service proxy the lab measured, the guide
// cites what the Service count did to that mode's short-connection rate on the lab's kernel.
import { formatCount, formatFigure, formatValue } from "@cnibench/format";
import { compareFigures, type VerdictResult } from "../verdict.ts";
import { reason, testbedsOf, tieWords, toEvidence } from "./figures.ts";
import type { GuideFigure, GuideScenario, Reason } from "./types.ts";

/** A scenario the lab measured (its bundles say so in provider and CNI name). */
export const isLab = (s: GuideScenario): boolean => s.provider === "lab" || s.cni.name === "kube-proxy-lab";

type ModeChange = { scenario: GuideScenario; ends: [GuideFigure, GuideFigure]; verdict: VerdictResult };

/** A lab mode's short-connection rate at its fewest and most Services, and the verdict between them. */
function modeChange(scenario: GuideScenario, figures: readonly GuideFigure[]): ModeChange | null {
  const steps = figures
    .filter((f) => f.metric === "http.rps" && f.params.connection === "short" && typeof f.params.services === "number")
    .sort((a, b) => Number(a.params.services) - Number(b.params.services));
  const first = steps[0];
  const last = steps.at(-1);
  if (!first || !last || first === last) return null;
  return { scenario, ends: [first, last], verdict: compareFigures(first, last) };
}

const between = ([a, b]: readonly GuideFigure[]) =>
  `between ${formatCount(Number(a?.params.services))} and ${formatCount(Number(b?.params.services))} Services`;

/**
 * "kube-proxy iptables' short-connection rate fell from 10,190 to 4,289 req/s between 0 and 5,000
 * Services": the runs' verdict between the two ends picks the verb, and a tie says which tie it is
 * ("held (…; equivalent within ±5 %)", "went from … (inconclusive at these runs)").
 */
function changeWords(c: ModeChange, said: string | null): string {
  const [a, b] = c.ends;
  const span = between(c.ends);
  const where = span === said ? "" : ` ${span}`;
  const mode = `kube-proxy ${c.scenario.cni.kubeProxy}`;
  const subject = `${mode}${mode.endsWith("s") ? "'" : "'s"} short-connection rate`;
  const { verdict } = c.verdict;
  if (verdict === "worse" || verdict === "better") {
    return `${subject} ${verdict === "worse" ? "fell" : "rose"} from ${formatValue(a)} to ${formatFigure(b)}${where}`;
  }
  const verb = verdict === "equivalent" ? "held" : "went";
  return `${subject} ${verb} from ${formatValue(a)} to ${formatFigure(b)}${where} (${tieWords(c.verdict)})`;
}

/**
 * Mechanism evidence for the Service proxies being compared: one sentence per lab machine (kernel and
 * CPU) that measured one of them, each mode's short-connection rate at its fewest and most Services.
 */
export function labFindings(
  lab: readonly GuideScenario[],
  figuresOf: (scenarioId: string) => readonly GuideFigure[],
  compared: ReadonlySet<string>,
): Reason[] {
  return testbedsOf(lab.filter((s) => compared.has(s.cni.kubeProxy))).flatMap((t) => {
    const byKernel = new Map<string, GuideScenario[]>();
    for (const s of t.scenarios) byKernel.set(s.kernel, [...(byKernel.get(s.kernel) ?? []), s]);
    return [...byKernel.entries()].flatMap(([kernel, scenarios]) => {
      const changes = scenarios
        .sort((a, b) => a.cni.kubeProxy.localeCompare(b.cni.kubeProxy))
        .flatMap((s) => modeChange(s, figuresOf(s.id)) ?? []);
      const [head, ...rest] = changes;
      if (!head) return [];
      const said = between(head.ends);
      const others = rest.map((c) => changeWords(c, said));
      const text = `Mechanism evidence from the lab, not a cloud measurement: on a lab kernel ${kernel}, ${changeWords(head, null)}${others.length > 0 ? `, while ${others.join(", ")}` : ""}.`;
      return [
        reason(
          "measured",
          "neutral",
          text,
          changes.flatMap((c) => c.ends.map((f) => toEvidence(f, c.scenario))),
        ),
      ];
    });
  });
}
