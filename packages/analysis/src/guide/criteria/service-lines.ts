// The lines the Service-scale criterion reads: short-connection RPS against the Service count, one
// per scenario of a testbed, read at any count (measured, interpolated or extrapolated).
import { formatCount } from "@cnibench/format";
import { type Crossover, type CrossoverResult, findCrossovers } from "../../crossover.ts";
import { paramsKeyWithout } from "../../params-key.ts";
import { readAt, sortedPoints } from "../../series.ts";
import type { Point, Series } from "../../types.ts";
import type { Testbed } from "../figures.ts";
import type { Datapath, DatapathOption } from "../options.ts";
import type { GuideFigure, GuideScenario } from "../types.ts";
import { addTo, type GuideContext, keptIn, servicesOf } from "./shared.ts";

export type Line = {
  scenario: GuideScenario;
  datapath: Datapath | undefined;
  series: Series;
  figs: Map<number, GuideFigure>;
};

// A testbed's lines and their crossings depend on its scenarios and their RPS figures, not on the
// answers: kept under its first scenario object with every scenario and figure object they were drawn
// from (a server hands out the same objects for scenarios an upload did not touch), so an answer after
// an upload redraws only the touched testbed's lines. An entry goes with its first scenario object.
const keptLines = new WeakMap<GuideScenario, { drawnFrom: readonly object[]; lines: Line[] }>();
const keptCrossings = new WeakMap<readonly Line[], CrossoverResult>();

export function testbedLines(ctx: GuideContext, t: Testbed): Line[] {
  const kept = keptLines.get(t.scenarios[0]!);
  if (kept && drawnFromThese(ctx, t, kept.drawnFrom)) return kept.lines;
  const lines = scaleLines(ctx, t);
  const drawnFrom = t.scenarios.flatMap((s) => [s, ...ctx.figuresOf(s.id, "http.rps")]);
  keptLines.set(t.scenarios[0]!, { drawnFrom, lines });
  return lines;
}

// Compared in place: every answer asks about every testbed, and copying each one's scenarios and RPS
// figures into a new list to compare was a twentieth of the ranking on the bench store.
function drawnFromThese(ctx: GuideContext, t: Testbed, drawnFrom: readonly object[]): boolean {
  let i = 0;
  for (const s of t.scenarios) {
    if (drawnFrom[i++] !== s) return false;
    for (const f of ctx.figuresOf(s.id, "http.rps")) if (drawnFrom[i++] !== f) return false;
  }
  return i === drawnFrom.length;
}

export function crossingsOf(lines: readonly Line[]): CrossoverResult {
  return keptIn(keptCrossings, lines, () =>
    // With the metric, a crossing counts only where the order is decided on both sides (issue 40).
    findCrossovers(
      lines.map((l) => l.series),
      "higher",
      { along: "services", metric: "http.rps" },
    ),
  );
}

/** The short-connection RPS lines of a testbed: one per scenario, for the params most of them share. */
function scaleLines(ctx: GuideContext, t: Testbed): Line[] {
  const groups = new Map<string, Map<string, GuideFigure[]>>();
  for (const s of t.scenarios) {
    for (const f of ctx.figuresOf(s.id, "http.rps")) {
      if (f.params.connection !== "short" || typeof f.params.services !== "number") continue;
      const key = paramsKeyWithout(f.params, "services");
      const byScenario = groups.get(key) ?? new Map<string, GuideFigure[]>();
      addTo(byScenario, s.id, f);
      groups.set(key, byScenario);
    }
  }
  const usable = [...groups.values()]
    .map((byScenario) => [...byScenario.entries()].filter(([, figs]) => figs.length >= 2))
    .sort((a, b) => b.length - a.length);
  return (usable[0] ?? []).map(([id, figs]) => {
    const scenario = ctx.scenario(id)!;
    const points: Point[] = figs.map((f) => ({
      x: servicesOf(f),
      value: f.value,
      qualifier: f.qualifier ?? null,
      ...(f.samples && f.samples.length > 1 ? { samples: f.samples } : {}),
    }));
    return {
      scenario,
      datapath: ctx.datapathOf(id),
      series: { id, label: scenario.label, points: sortedPoints({ id, label: scenario.label, points }) },
      figs: new Map(figs.map((f) => [servicesOf(f), f])),
    };
  });
}

export type Reading = { value: number; extrapolated: boolean; support: GuideFigure[]; how: string };

/** A line's value at x: measured, interpolated between steps, or extrapolated past the last one. */
export function lineValueAt(
  points: readonly Point[],
  x: number,
): { value: number; extrapolated: boolean; support: Point[] } {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) throw new RangeError("an empty line has no value");
  if (x < first.x) return { value: first.value, extrapolated: false, support: [first] };
  if (x <= last.x) {
    const r = readAt(points, x)!;
    return { value: r.value, extrapolated: false, support: r.support };
  }
  const prev = points.at(-2);
  if (!prev) return { value: last.value, extrapolated: true, support: [last] };
  const slope = (last.value - prev.value) / (last.x - prev.x);
  // A rate cannot fall below zero, however steep the last step.
  return { value: Math.max(0, last.value + slope * (x - last.x)), extrapolated: true, support: [prev, last] };
}

/** A line's value at x, without the words: what comparisons of many lines need. */
export const valueAt = (line: Line, x: number) => lineValueAt(line.series.points, x).value;

/** A line's value at x with the figures it rests on, and how it was read, in words. */
export function readLine(line: Line, x: number): Reading {
  const points = line.series.points;
  const r = lineValueAt(points, x);
  const support = r.support.map((p) => line.figs.get(p.x)!);
  const first = points[0]!;
  const last = points.at(-1)!;
  let how: string;
  if (r.extrapolated) {
    const prev = points.at(-2) ?? last;
    how = `extrapolated linearly from the steps at ${formatCount(prev.x)} and ${formatCount(last.x)} Services, past the measured range`;
  } else if (x < first.x) {
    how = `read at ${formatCount(first.x)} Services, the smallest count measured`;
  } else if (r.support.length === 1) {
    how = "measured";
  } else {
    how = `interpolated between ${formatCount(r.support[0]!.x)} and ${formatCount(r.support[1]!.x)} Services`;
  }
  return { value: r.value, extrapolated: r.extrapolated, support, how };
}

/** The figures of a line between two x values, plus the nearest samples outside when an end is interpolated. */
function bracket(line: Line, from: number, to: number): GuideFigure[] {
  const xs = line.series.points.map((p) => p.x);
  const inside = xs.filter((x) => x >= from && x <= to);
  const below = xs.filter((x) => x < from).at(-1);
  const above = xs.find((x) => x > to);
  const picked = [...(xs.includes(from) || below === undefined ? [] : [below]), ...inside];
  if (!xs.includes(to) && above !== undefined) picked.push(above);
  return picked.map((x) => line.figs.get(x)!);
}

/** The figures two lines' crossing between `from` and `to` rests on: both lines there. */
export function crossingFigures(
  lines: readonly Line[],
  crossing: Pick<Crossover, "overtaker" | "overtaken" | "from" | "to">,
): GuideFigure[] {
  const a = lines.find((l) => l.series.id === crossing.overtaker.id)!;
  const b = lines.find((l) => l.series.id === crossing.overtaken.id)!;
  return [...bracket(a, crossing.from.x, crossing.to.x), ...bracket(b, crossing.from.x, crossing.to.x)];
}

/**
 * The CNI whose own program serves a datapath's Services: an eBPF replacement's or a CNI's own proxy
 * (kube-router's IPVS one); Azure CNI powered by Cilium runs Cilium's. Null where kube-proxy, shared by
 * every CNI that runs it, does. Cilium's eBPF line stood in for Calico's eBPF dataplane, another
 * program, and ranked it on TKE's finding.
 */
export function proxyCni(d: Pick<Datapath, "proxy" | "cni">): string | null {
  if (d.proxy !== "ebpf" && d.proxy !== "cni-proxy") return null;
  return d.cni === "azure-cni-cilium" ? "cilium" : d.cni;
}

/**
 * The line an option is read on: its own best at n, else (not for an unknown Service proxy) one of a
 * scenario whose Service proxy is the same program, and routing when there is one; `borrowed` says which.
 */
export function lineForOption(
  option: DatapathOption,
  lines: readonly Line[],
  n: number,
): { line: Line; borrowed: boolean } | undefined {
  const ids = new Set(option.scenarios.map((s) => s.id));
  const own = lines.filter((l) => ids.has(l.scenario.id));
  if (own.length > 0) {
    const best = own.reduce((a, l) => (valueAt(l, n) > valueAt(a, n) ? l : a));
    return { line: best, borrowed: false };
  }
  // An unknown proxy could be any program. A CNI's own is its code: proxyCni keeps it to that CNI.
  if (option.proxy === "unknown") return undefined;
  const same = (d: Datapath | undefined): d is Datapath =>
    d?.proxy === option.proxy && proxyCni(d) === proxyCni(option);
  const similar =
    lines.find((l) => same(l.datapath) && l.datapath.routing === option.routing) ?? lines.find((l) => same(l.datapath));
  return similar ? { line: similar, borrowed: true } : undefined;
}
