// Which series a crowded chart draws first: the best few by the chart's own figure, the rest one
// click away ("Show all"). Pure, so the choice is tested without drawing.
import type { ChartSeries } from "./types";

/** Which way a metric is better; "none" (or unknown) ranks nothing and keeps the given order. */
export type Better = "higher" | "lower" | "none";

/** How many series a chart draws before "Show all": 8 are told apart at a glance, bars stay wide at 390 px. */
export const topCount = 8;

/**
 * Series ids best first by their score in the better direction. Ties, and every order when there is
 * no better direction, keep the given order; series without a score come last.
 */
export function rankByScore(
  ids: readonly string[],
  score: ReadonlyMap<string, number>,
  better: Better | undefined,
): string[] {
  if (better !== "higher" && better !== "lower") return [...ids];
  const sign = better === "higher" ? -1 : 1;
  const at = new Map(ids.map((id, i) => [id, i]));
  return [...ids].sort((a, b) => {
    const [sa, sb] = [score.get(a), score.get(b)];
    if (sa === undefined || sb === undefined) return sa === sb ? 0 : sa === undefined ? 1 : -1;
    return sign * (sa - sb) || (at.get(a) ?? 0) - (at.get(b) ?? 0);
  });
}

/**
 * Bars: a series' mean rank over the groups it has a bar in (1 = the best bar of its group), so a
 * chart of groups on different scales (1 stream and 8) counts each group once. Ranked "lower".
 */
export function barScores(
  data: readonly { values: Readonly<Record<string, { y: number } | null | undefined>> }[],
  better: Better | undefined,
): Map<string, number> {
  const sums = new Map<string, { total: number; count: number }>();
  if (better !== "higher" && better !== "lower") return new Map();
  for (const d of data) {
    const bars = Object.entries(d.values).flatMap(([id, v]) => (v ? [{ id, y: v.y }] : []));
    bars.sort((a, b) => (better === "higher" ? b.y - a.y : a.y - b.y));
    for (const [i, bar] of bars.entries()) {
      const s = sums.get(bar.id) ?? { total: 0, count: 0 };
      sums.set(bar.id, { total: s.total + i + 1, count: s.count + 1 });
    }
  }
  return new Map([...sums].map(([id, s]) => [id, s.total / s.count]));
}

/** Lines: a line's value at its largest x, where lines part most (e.g. at the most Services). */
export function lineScores(series: readonly ChartSeries[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of series) {
    const last = s.points.reduce<(typeof s.points)[number] | undefined>((m, p) => (m && m.x >= p.x ? m : p), undefined);
    if (last) out.set(s.id, last.y);
  }
  return out;
}

/** The series drawn unless hidden from the legend: all of them, or the first `count` ranked. */
export function inScope(ranked: readonly string[], all: boolean, count = topCount): Set<string> {
  return new Set(all ? ranked : ranked.slice(0, count));
}
