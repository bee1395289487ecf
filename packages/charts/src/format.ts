// What only charts say: a point's runs and verdict in a tooltip, the verdict badge's colours, how a
// bar is drawn for what its runs show.
// Numbers, figures, params and verdict words are @cnibench/format's, as on every page.
import { formatChange, formatNumber, type Verdict, verdictLabel } from "@cnibench/format";
import type { ChartPoint, Versus } from "./types";

/** What a point's runs say, for tooltips: "n=3 runs, min–max 9.1–9.6", "n=1 run"; empty when unknown. */
export function runsWords(p: { n?: number | null; whisker?: readonly [number, number] | null }): string {
  if (!p.n) return "";
  if (p.n === 1) return "n=1 run";
  const spread = p.whisker ? `, min–max ${formatNumber(p.whisker[0])}–${formatNumber(p.whisker[1])}` : "";
  return `n=${p.n} runs${spread}`;
}

/** Whether any point of a chart has a whisker to draw (its legend then says what whiskers are). */
export const anyWhisker = (points: Iterable<{ whisker?: readonly [number, number] | null } | undefined>): boolean => {
  for (const p of points) if (p?.whisker) return true;
  return false;
};

/** The verdict badge's colours; inconclusive is outlined, not filled: it says nothing either way. */
export const verdictStyle: Record<Verdict, string> = {
  better: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  worse: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  equivalent: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  "small-but-real": "bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  inconclusive: "border border-dashed border-zinc-400 text-zinc-700 dark:text-zinc-300",
  "not-comparable": "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  missing: "text-zinc-400",
};

/** A point against the baseline in one line, for screen readers and exports. */
export const versusWords = (v: Versus): string =>
  `vs ${v.baseline}: ${v.percent === null ? "" : `${formatChange(v.percent)} · `}${verdictLabel(v.verdict, v.indicative)} (${v.words})`;

/**
 * How a bar is drawn: "qualified" (pale, dashed outline) when approximate or bounded; on a chart whose
 * bars are changes against a pair (a setting's cost), "undecided" (hollow) when the runs do not show
 * the change: equivalent or inconclusive. A 1 % bar the runs cannot tell from noise must not read as a
 * cost.
 */
export type BarLook = "solid" | "qualified" | "undecided";

export function barLook(p: Pick<ChartPoint, "qualifier" | "versus"> | undefined, changes: boolean): BarLook {
  const verdict = p?.versus?.verdict;
  if (changes && (verdict === "equivalent" || verdict === "inconclusive")) return "undecided";
  return p?.qualifier ? "qualified" : "solid";
}

/** What the chart's key says of hollow bars, when it has any. */
export const undecidedKey = "hollow: the runs do not show the change (equivalent or inconclusive)";
