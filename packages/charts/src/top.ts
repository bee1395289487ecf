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
 * Bars: a series' mean place over every group of the chart, fairly (issue 40). In a group of n bars the
 * best is at 0 and the worst at 1; a group with one bar tells nothing and is skipped; a group a series
 * has no bar in counts as the middle (0.5), so no series wins for being absent: a cloud setup best of
 * the 2 bars in a group of its own no longer outranks setups measured in every group. Ranked "lower".
 */
export function barScores(
  data: readonly { values: Readonly<Record<string, { y: number } | null | undefined>> }[],
  better: Better | undefined,
): Map<string, number> {
  if (better !== "higher" && better !== "lower") return new Map();
  const places = new Map<string, number[]>();
  const groups = data
    .map((d) => Object.entries(d.values).flatMap(([id, v]) => (v ? [{ id, y: v.y }] : [])))
    .filter((bars) => bars.length > 1);
  for (const bars of groups) {
    bars.sort((a, b) => (better === "higher" ? b.y - a.y : a.y - b.y));
    for (const [i, bar] of bars.entries()) places.set(bar.id, [...(places.get(bar.id) ?? []), i / (bars.length - 1)]);
  }
  return new Map(
    [...places].map(([id, own]) => [
      id,
      (own.reduce((s, p) => s + p, 0) + (groups.length - own.length) * 0.5) / groups.length,
    ]),
  );
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

/**
 * How many of the drawn series are the worst: the best alone hide the contrast a chart is often about
 * (the encrypted setups of a throughput chart, issue 40), so the top keeps the two worst in view.
 */
export const worstCount = 2;

/**
 * The series drawn unless hidden from the legend: all of them, or of the ranked ones the best
 * `count − worstCount` and the `worstCount` worst.
 */
export function inScope(ranked: readonly string[], all: boolean, count = topCount): Set<string> {
  if (all || ranked.length <= count) return new Set(ranked);
  const worst = Math.min(worstCount, Math.max(0, count - 1));
  return new Set([...ranked.slice(0, count - worst), ...ranked.slice(ranked.length - worst)]);
}

/** "The 6 best and the 2 worst of 24 by mean rank; not drawn: a, b, c, d, e, f and 10 more". */
export function scopeWords(
  ranked: readonly string[],
  shown: ReadonlySet<string>,
  labelOf: (id: string) => string,
  by?: string,
): string {
  const hidden = ranked.filter((id) => !shown.has(id));
  const worst = Math.min(worstCount, shown.size);
  const names = hidden.slice(0, 6).map(labelOf);
  const more = hidden.length - names.length;
  return (
    `The ${shown.size - worst} best and the ${worst} worst of ${ranked.length}${by ? ` by ${by}` : ""}; ` +
    `not drawn: ${names.join(", ")}${more > 0 ? ` and ${more} more` : ""} (the CSV has all).`
  );
}
