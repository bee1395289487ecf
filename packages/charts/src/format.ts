// How figures read on every page: units always shown, qualifiers as ≈ ≤ ≥ and a–b, tabular numbers.
import type { Qualifier } from "@cnibench/schema";
import type { Versus } from "./types";

type Shown = { value: number; unit: string; qualifier: Qualifier | null; low: number | null; high: number | null };

// Formatters are made once: a new Intl.NumberFormat per figure was a tenth of the explorer page's
// server time at 1,000 scenarios, and the same cells format again in the browser when they hydrate.
const grouped = new Intl.NumberFormat("en-US");
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 2 });
/** By fraction digits: 0 for |value| ≥ 1000 (every integer digit shown), else 4 significant digits. */
const byDigits = [0, 1, 2, 3].map(
  (digits) =>
    new Intl.NumberFormat("en-US", {
      maximumFractionDigits: digits,
      maximumSignificantDigits: digits === 0 ? undefined : 4,
    }),
);

/** 16003.7 → "16,004"; 9.42 → "9.42"; 0.0123 → "0.0123": precision that fits the magnitude. */
export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  return byDigits[abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3]!.format(value);
}

/** A count or a param's number as people read it: 20000 → "20,000". */
export const formatCount = (value: number): string => grouped.format(value);

/** One param as people read it: "services 20,000", "connection short". */
export const formatParam = (key: string, value: string | number | boolean | null): string =>
  `${key} ${typeof value === "number" ? formatCount(value) : String(value)}`;

const qualifierSign: Record<Exclude<Qualifier, "range">, string> = { approx: "≈", "at-most": "≤", "at-least": "≥" };

/** The number alone, with its qualifier: "≈1.5", "≤100", "4–6". */
export function formatValue(f: Omit<Shown, "unit">): string {
  if (f.qualifier === "range" && f.low !== null && f.high !== null) {
    return `${formatNumber(f.low)}–${formatNumber(f.high)}`;
  }
  const sign = f.qualifier && f.qualifier !== "range" ? qualifierSign[f.qualifier] : "";
  return `${sign}${formatNumber(f.value)}`;
}

/** With the unit: "≈1.5 s", "≤100 millicores", "13,080 req/s", "12 %". */
export function formatFigure(f: Shown): string {
  return `${formatValue(f)} ${f.unit}`;
}

/** What a point's runs say, for tooltips: "n=3 runs, min–max 9.1–9.6", "n=1 run"; empty when unknown. */
export function runsWords(p: { n?: number | null; whisker?: readonly [number, number] | null }): string {
  if (!p.n) return "";
  if (p.n === 1) return "n=1 run";
  const spread = p.whisker ? `, min–max ${formatNumber(p.whisker[0])}–${formatNumber(p.whisker[1])}` : "";
  return `n=${p.n} runs${spread}`;
}

/** A distribution in words: "median 9.41 of n=3 runs, min–max 9.3–9.52 Gbit/s, sd 0.11, CV 1.2 %". */
export function spreadWords(
  d: { n: number; median: number; min: number; max: number; sd: number | null; cv: number | null },
  unit: string,
): string {
  const parts = [
    `median ${formatNumber(d.median)} of n=${d.n} runs`,
    `min–max ${formatNumber(d.min)}–${formatNumber(d.max)} ${unit}`,
  ];
  if (d.sd !== null) parts.push(`sd ${formatNumber(d.sd)}`);
  if (d.cv !== null) parts.push(`CV ${(d.cv * 100).toFixed(1)} %`);
  return parts.join(", ");
}

/** Whether any point of a chart has a whisker to draw (its legend then says what whiskers are). */
export const anyWhisker = (points: Iterable<{ whisker?: readonly [number, number] | null } | undefined>): boolean => {
  for (const p of points) if (p?.whisker) return true;
  return false;
};

export const qualifierWords: Record<Qualifier, string> = {
  approx: "published as approximate",
  "at-most": "published as an upper bound",
  "at-least": "published as a lower bound",
  range: "published as a range",
};

/** Params as people read them: "connection short · concurrency 64 · services 20,000". */
export function formatParams(params: Record<string, string | number | boolean>): string {
  // Sorted by name: the database returns JSON keys in its own order, and rows must read alike.
  const parts = Object.entries(params)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => formatParam(k, v));
  return parts.length > 0 ? parts.join(" · ") : "—";
}

export function formatDate(d: Date | null): string {
  return d ? d.toISOString().slice(0, 10) : "—";
}

/** Axis ticks: 20000 → "20K", 1500000 → "1.5M", 0.25 → "0.25". */
export function compactNumber(value: number): string {
  return compact.format(value);
}

/**
 * Verdicts against a baseline as people read them, in the compare table and in chart tooltips: one
 * place, so the two say the same. The keys are @cnibench/analysis's verdicts, which the browser never
 * loads (its statistics stay on the server).
 */
export const verdictWords = {
  better: "better",
  worse: "worse",
  equivalent: "equivalent",
  "small-but-real": "small but real",
  inconclusive: "inconclusive",
  "not-comparable": "not comparable",
  missing: "—",
} as const;
export type VerdictName = keyof typeof verdictWords;

/** The verdict badge's colours; inconclusive is outlined, not filled: it says nothing either way. */
export const verdictStyle: Record<VerdictName, string> = {
  better: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  worse: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  equivalent: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  "small-but-real": "bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  inconclusive: "border border-dashed border-zinc-400 text-zinc-700 dark:text-zinc-300",
  "not-comparable": "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  missing: "text-zinc-400",
};

/** The badge's text: "better", or "equivalent · single run" when a side has one run (indicative). */
export const verdictLabel = (verdict: VerdictName, indicative: boolean): string =>
  `${verdictWords[verdict]}${indicative && verdict !== "missing" ? " · single run" : ""}`;

/** A change against the baseline as the compare table shows it: "+12.3 %", "-4.1 %". */
export const formatChange = (percent: number): string => `${percent > 0 ? "+" : ""}${formatNumber(percent)} %`;

/** A point against the baseline in one line, for screen readers and exports. */
export const versusWords = (v: Versus): string =>
  `vs ${v.baseline}: ${v.percent === null ? "" : `${formatChange(v.percent)} · `}${verdictLabel(v.verdict, v.indicative)} (${v.words})`;
