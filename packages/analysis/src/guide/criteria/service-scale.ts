// Short-lived connections against the Service count: each datapath read at the expected count on
// the lines of service-lines.ts, the crossovers between them, and how other new-connection figures
// moved with the count.
import { formatComputed, formatCount, formatFigure, formatNumber, formatPercent, withUnit } from "@cnibench/format";
import { percentDelta } from "../../delta.ts";
import { cniWords } from "../../names.ts";
import { paramsKeyWithout } from "../../params-key.ts";
import type { Better, Figure } from "../../types.ts";
import { compareFigures, noClearDifference } from "../../verdict.ts";
import { handful, listWords, reason, scoreAgainstBest, type Testbed, tieWords, withRest } from "../figures.ts";
import type { DatapathOption } from "../options.ts";
import type { GuideFigure, Reason } from "../types.ts";
import {
  crossingFigures,
  crossingsOf,
  type Line,
  lineForOption,
  proxyCni,
  type Reading,
  readLine,
  testbedLines,
  valueAt,
} from "./service-lines.ts";
import {
  addTo,
  type CriterionResult,
  capitalise,
  caveat,
  changePercent,
  emptyCriterion,
  evidenceOf,
  finding,
  type GuideContext,
  levelTie,
  optionScenarios,
  scoreEffect,
  servicesOf,
  wordsOf,
} from "./shared.ts";

const proxyNames: Record<string, string> = {
  iptables: "kube-proxy iptables",
  ipvs: "kube-proxy IPVS",
  nftables: "kube-proxy nftables",
  ebpf: "eBPF kube-proxy replacement",
  "cni-proxy": "own",
};

/** "kube-proxy iptables", "Cilium's eBPF kube-proxy replacement", "kube-router's own". */
const proxyWords = (o: DatapathOption) => {
  const name = proxyNames[o.proxy] ?? "unknown";
  const cni = proxyCni(o);
  return cni ? `${cniWords(cni)}'s ${name}` : name;
};

/**
 * Short-lived connections at the expected Service count: every line read at that count (interpolated
 * between steps, or extrapolated past the last one and said so), the crossovers computed by
 * findCrossovers, and crossings past the measured range by linear extrapolation, labelled as such.
 * An option with no line of its own borrows the line of a scenario with the same Service proxy
 * (and routing, when there is one), since the Service lookup is what the count slows down; it says so.
 */
export function serviceScaleCriterion(ctx: GuideContext, weight: number): CriterionResult {
  const result = emptyCriterion("serviceScale", weight);
  const n = ctx.answers.services;
  const pick = (testbeds: readonly Testbed[]) =>
    testbeds
      .map((t) => ({ t, lines: testbedLines(ctx, t) }))
      .filter((x) => x.lines.length >= 2)
      .sort((a, b) => b.lines.length - a.lines.length)[0];
  const scoped = pick(ctx.scopedTestbeds);
  const chosen = scoped ?? pick(ctx.allTestbeds);
  if (!chosen) {
    result.caveats.push(
      caveat(
        "No short-connection measurements at several Service counts: the guide cannot say how the Service count affects these datapaths.",
      ),
    );
    return result;
  }
  const { t, lines } = chosen;
  if (!scoped) {
    result.caveats.push(
      caveat(
        `No short-connection Service-scale figures on ${ctx.answers.cloud ? "your cloud" : "the chosen scope"}: the crossover comes from ${t.label}, and each datapath is matched to a line there by its Service proxy.`,
      ),
    );
  }
  result.measured = true;
  const better: Better = "higher";
  const crossings = crossingsOf(lines);
  const unit = lines[0]!.figs.values().next().value!.unit;
  const maxMeasured = Math.min(...lines.map((l) => l.series.points.at(-1)!.x));

  // Crossovers inside the measured range.
  const crossoverReasons: { reason: Reason; overtaker: string; overtaken: string; x: number }[] = [];
  for (const c of crossings.crossovers) {
    const evidence = crossingFigures(lines, c).map((f) => evidenceOf(ctx, f));
    const text =
      `${c.overtaker.label} overtakes ${c.overtaken.label} at ≈${formatNumber(c.x, 5)} Services on ${t.label} ` +
      `(short-lived connections; interpolated between the measured ${formatCount(c.from.x)} and ${formatCount(c.to.x)})`;
    crossoverReasons.push({
      reason: finding(text, evidence),
      overtaker: c.overtaker.id,
      overtaken: c.overtaken.id,
      x: c.x,
    });
  }
  for (const u of crossings.undecided) {
    const evidence = crossingFigures(lines, u).map((f) => evidenceOf(ctx, f));
    result.caveats.push(
      caveat(
        `${u.overtaker.label} may overtake ${u.overtaken.label} between ${formatCount(u.from.x)} and ${formatCount(u.to.x)} Services on ${t.label}, but that rests on approximate or bounded figures, so no crossover is computed`,
        evidence,
      ),
    );
  }
  // Crossings past the measured range, when the expected count lies there.
  if (n > maxMeasured) {
    result.caveats.push(
      caveat(
        `The Service-scale measurements on ${t.label} stop at ${formatCount(maxMeasured)} Services: figures at ${formatCount(n)} are extrapolated in a straight line from the last two steps, not measured.`,
      ),
    );
    // Each line read once at both ends, not once per pair: a testbed can hold hundreds of lines.
    const atEnd = lines.map((l) => valueAt(l, maxMeasured));
    const atN = lines.map((l) => valueAt(l, n));
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const a = lines[i]!;
        const b = lines[j]!;
        const d0 = atEnd[i]! - atEnd[j]!;
        const d1 = atN[i]! - atN[j]!;
        if (d0 === 0 || d1 === 0 || Math.sign(d0) === Math.sign(d1)) continue;
        const x = maxMeasured + ((n - maxMeasured) * d0) / (d0 - d1);
        const [winner, loser] = d1 > 0 ? [a, b] : [b, a];
        const evidence = [...readLine(a, n).support, ...readLine(b, n).support].map((f) => evidenceOf(ctx, f));
        crossoverReasons.push({
          reason: reason(
            "extrapolated",
            "neutral",
            `Extrapolated, not measured: continuing the last measured steps in a straight line, ${winner.scenario.label} would overtake ${loser.scenario.label} at ≈${formatNumber(x, 5)} Services on ${t.label} (the measurements stop at ${formatCount(maxMeasured)})`,
            evidence,
          ),
          overtaker: winner.series.id,
          overtaken: loser.series.id,
          x,
        });
      }
    }
  }

  // Each option read at n.
  const readings = new Map<string, { line: Line; reading: Reading; borrowed: boolean }>();
  for (const option of ctx.options) {
    const found = lineForOption(option, lines, n);
    if (found) readings.set(option.id, { ...found, reading: readLine(found.line, n) });
  }
  // Score on the lines, so two options borrowing one line tie.
  const uniqueLines = [...new Map([...readings.values()].map((r) => [r.line.series.id, r])).values()];
  const lineFigure = (r: { reading: Reading }): Figure => ({
    metric: "http.rps",
    unit,
    value: r.reading.value,
    qualifier: r.reading.support.some((f) => f.qualifier) ? ("approx" as const) : null,
  });
  const { scored, level } = scoreAgainstBest(
    uniqueLines.map((r) => ({ item: r.line.series.id, figure: lineFigure(r) })),
    better,
  );
  if (!result.closest) {
    result.tests.push({
      key: `serviceScale ${n}`,
      what: `short-connection rate at ${formatCount(n)} Services`,
      testbed: t.label,
      byProxy: true,
      weight,
      better,
      entries: [...readings.entries()].map(([optionId, r]) => ({
        optionId,
        figure: lineFigure(r),
        evidence: r.reading.support.map((f) => evidenceOf(ctx, f)),
        ...(r.borrowed ? { standIn: true } : {}),
      })),
      ceiling: null,
    });
  }
  const scoreOf = new Map(scored.map((s) => [s.item, s]));
  result.level = level;
  result.levelWords = wordsOf(levelTie(scored));
  const countText = `${formatCount(n)} Services`;

  for (const option of ctx.options) {
    const r = readings.get(option.id);
    if (!r) {
      addTo(
        result.reasons,
        option.id,
        caveat(
          `Short-lived connections against the Service count: not measured for this datapath or for its Service proxy (${proxyWords(option)}).`,
        ),
      );
      continue;
    }
    const s = scoreOf.get(r.line.series.id)!;
    const base = r.line.series.points[0]!;
    const baseFigure = r.line.figs.get(base.x)!;
    const change = percentDelta(r.reading.value, base.value).percent;
    const changeText =
      change === null || base.x >= n
        ? ""
        : `, ${formatPercent(change)} from ${formatFigure(baseFigure)} at ${formatCount(base.x)} Services`;
    const rank = [...uniqueLines]
      .sort((x, y) => y.reading.value - x.reading.value)
      .findIndex((x) => x.line.series.id === r.line.series.id);
    const place =
      uniqueLines.length < 2
        ? ""
        : result.levelWords
          ? `; against the others: ${result.levelWords}`
          : rank === 0 || !s.versusBest
            ? "; the highest"
            : s.levelWithBest
              ? `; against the highest: ${tieWords(s.versusBest)}`
              : `; ${ordinal(rank + 1)} of ${uniqueLines.length}`;
    const who = r.borrowed
      ? `${r.line.scenario.label} on ${t.label}, standing in for this datapath (same Service proxy: ${proxyWords(option)})`
      : `${r.line.scenario.label} on ${t.label}`;
    const value = withUnit(formatComputed(r.reading.value), unit);
    const text = `Short-lived connections at ${countText}: ${r.reading.extrapolated ? "≈" : ""}${value} (${who}; ${r.reading.how}${changeText})${place}`;
    const evidence = [...new Set([baseFigure, ...r.reading.support])].map((f) => evidenceOf(ctx, f));
    const effect = scoreEffect(s.score, uniqueLines.length);
    addTo(
      result.reasons,
      option.id,
      reason(r.reading.extrapolated ? "extrapolated" : "measured", effect, text, evidence),
    );
    if (r.borrowed) {
      addTo(
        result.reasons,
        option.id,
        caveat(
          `This datapath has no Service-scale figures of its own: the line is ${r.line.scenario.label}'s on ${t.label}. The count slows the Service lookup, which both share, but check it on your setup.`,
        ),
      );
    }
    for (const c of crossoverReasons) {
      const id = r.line.series.id;
      if (c.overtaker !== id && c.overtaken !== id) continue;
      const past = n >= c.x;
      const ahead = c.overtaker === id ? past : !past;
      const tail = past ? `; at ${countText} you are past it` : `; at ${countText} you are below it`;
      addTo(result.reasons, option.id, {
        ...c.reason,
        text: `${c.reason.text}${tail}`,
        effect: ahead ? "for" : "against",
      });
    }
  }

  for (const option of ctx.options) {
    for (const r of newConnectionScaling(ctx, option)) addTo(result.reasons, option.id, r);
  }

  // Summary: the lines at n, best first, and the crossovers.
  const ordered = [...uniqueLines].sort((a, b) => b.reading.value - a.reading.value);
  const anyExtrapolated = ordered.some((r) => r.reading.extrapolated);
  const items = ordered.map((r) => `${r.line.scenario.label} ${withUnit(formatComputed(r.reading.value), unit)}`);
  // A handful of lines by name, the rest counted and linked.
  const listing = items.length > handful ? listWords(items) : items.join(", ");
  result.summary.push(
    withRest(
      reason(
        anyExtrapolated ? "extrapolated" : "measured",
        "neutral",
        `Short-lived connections at ${countText} on ${t.label}: ${listing}${anyExtrapolated ? ` (extrapolated past the measured ${formatCount(maxMeasured)} Services)` : ""}${result.levelWords ? ` — ${result.levelWords}` : ""}.`,
        [...new Set(ordered.flatMap((r) => r.reading.support))].map((f) => evidenceOf(ctx, f)),
      ),
      ordered.map((r) => r.line.scenario),
    ),
  );
  for (const c of crossoverReasons) result.summary.push(c.reason);
  if (crossoverReasons.length === 0 && crossings.undecided.length === 0) {
    result.summary.push(
      finding(
        `No line overtakes another between ${formatCount(lines.reduce((m, l) => Math.max(m, l.series.points[0]!.x), 0))} and ${formatCount(maxMeasured)} Services on ${t.label}.`,
      ),
    );
  }
  return result;
}

const newConnectionMetrics: Record<string, string> = {
  "http.latency": "short-connection HTTP latency",
  "conn.setup.latency": "connection setup latency",
  "tcp.crr.latency": "TCP_CRR latency",
};

/**
 * Other new-connection figures a scenario in scope measured at several Service counts (e.g. EKS's
 * Connection: close latency and connection setup at 4 and 1,000 Services): how they moved, as
 * information beside the crossover, which may come from another testbed.
 */
function newConnectionScaling(ctx: GuideContext, option: DatapathOption): Reason[] {
  const out: Reason[] = [];
  for (const t of ctx.scopedTestbeds) {
    for (const s of optionScenarios(option, t)) {
      // Read from the three metrics' lists, not from every figure of the scenario (a twentieth of the
      // ranking on the bench store), then put back in the order the scenario's figures come.
      const groups = new Map<string, GuideFigure[]>();
      for (const metric of Object.keys(newConnectionMetrics)) {
        for (const f of ctx.figuresOf(s.id, metric)) {
          if (typeof f.params.services !== "number") continue;
          if (f.metric === "http.latency" && f.params.connection !== "short") continue;
          addTo(groups, `${f.metric} ${paramsKeyWithout(f.params, "services")}`, f);
        }
      }
      const all = ctx.figuresOf(s.id);
      const inOrder = [...groups.values()].sort((a, b) => all.indexOf(a[0]!) - all.indexOf(b[0]!));
      for (const figs of inOrder) {
        if (figs.length < 2) continue;
        const sorted = [...figs].sort((a, b) => servicesOf(a) - servicesOf(b));
        const first = sorted[0]!;
        const last = sorted.at(-1)!;
        const d = changePercent(last.value, first.value);
        const verdict = compareFigures(first, last);
        const tie = noClearDifference(verdict.verdict) ? `, ${tieWords(verdict)}` : "";
        const stat = first.params.percentile ?? (first.params.stat === "avg" ? "average" : first.params.stat);
        out.push(
          finding(
            `${capitalise(`${stat ? `${String(stat)} ` : ""}${newConnectionMetrics[first.metric]}`)} went from ${formatFigure(first)} at ${formatCount(servicesOf(first))} to ${formatFigure(last)} at ${formatCount(servicesOf(last))} Services (${formatPercent(d)}${tie}; ${s.label} on ${t.label})`,
            [evidenceOf(ctx, first), evidenceOf(ctx, last)],
          ),
        );
      }
    }
  }
  return out;
}

function ordinal(n: number): string {
  return n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}
