// How numbers, figures, params and verdicts read for people, on every page and in every sentence the
// server writes: en-US digit groups, a Unicode minus, a space before every unit ("12.3 %", SI style),
// qualifiers as ≈ ≤ ≥ and a–b. The one place for these: the web server, the pages, the charts and the
// guide's sentences all import it. A package of its own that imports no value (types from
// @cnibench/schema only), so the browser loads it without the statistics libraries of analysis.
import type { Qualifier, Verdict } from "@cnibench/schema";

export type { Verdict };

// Formatters are made once: a new Intl.NumberFormat per figure was a tenth of the explorer page's
// server time at 1,000 scenarios, and most of the guide's with many lines to word.
const made: Record<string, Intl.NumberFormat> = {};
const formatter = (options: Intl.NumberFormatOptions): Intl.NumberFormat =>
  (made[JSON.stringify(options)] ??= new Intl.NumberFormat("en-US", options));

/** The sign as a Unicode minus, as typeset: "−29.1", not "-29.1". */
const minus = (text: string): string => text.replace("-", "−");

const whole = formatter({ maximumFractionDigits: 0 });
const fourDigits = formatter({ maximumSignificantDigits: 4 });

/**
 * A figure as every table and sentence shows it: every integer digit from 1,000 up, else four
 * significant digits (16003.7 → "16,004", 9.415 → "9.415", 0.01234 → "0.01234", −29.1 → "−29.1").
 * With `significantDigits`, that many: an interpolated crossing 19649.5 → "19,650" at 4.
 */
export function formatNumber(value: number, significantDigits?: number): string {
  const f =
    significantDigits !== undefined
      ? formatter({ maximumSignificantDigits: significantDigits })
      : Math.abs(value) >= 1000
        ? whole
        : fourDigits;
  return minus(f.format(value));
}

/**
 * A computed number (interpolated, extrapolated) with no more precision than it deserves: whole from
 * 100 up, else two decimals (12345.67 → "12,346", 9.4151 → "9.42").
 */
export function formatComputed(value: number): string {
  return minus((Math.abs(value) >= 100 ? whole : formatter({ maximumFractionDigits: 2 })).format(value));
}

/** A count or a param's number: 20000 → "20,000". */
export const formatCount = (value: number): string => formatter({}).format(value);

/** Axis ticks: 20000 → "20K", 1500000 → "1.5M", 0.25 → "0.25". */
export const formatCompact = (value: number): string =>
  formatter({ notation: "compact", maximumFractionDigits: 2 }).format(value);

/** A number with its unit after a space, "%" included (SI style): "13,080 req/s", "12.3 %". */
export const withUnit = (text: string, unit: string): string => (unit ? `${text} ${unit}` : text);

/**
 * A percentage with `fractionDigits` decimals, signed unless `signed` is false: −29.103 → "−29.1 %",
 * 2.231 → "+2.2 %", 86.115 → "86.1 %" unsigned.
 */
export function formatPercent(percent: number, fractionDigits = 1, signed = true): string {
  const f = formatter({
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
    signDisplay: signed ? "exceptZero" : "auto",
  });
  return withUnit(minus(f.format(percent)), "%");
}

const threeDigits = formatter({ maximumSignificantDigits: 3 });

/**
 * A change against a baseline, as the compare table, its summary and chart tooltips show it: three
 * significant digits, since a change of noisy figures is known to no more ("+12.3 %", "−0.721 %",
 * "+2,130 %"; a change that rounds to zero reads "0 %").
 */
export const formatChange = (percent: number): string => {
  const text = minus(threeDigits.format(percent));
  return withUnit(percent > 0 && text !== "0" ? `+${text}` : text === "−0" ? "0" : text, "%");
};

type Shown = { value: number; unit: string; qualifier?: Qualifier | null; low?: number | null; high?: number | null };

const qualifierSign: Record<Exclude<Qualifier, "range">, string> = { approx: "≈", "at-most": "≤", "at-least": "≥" };

/** The number alone, with its qualifier: "≈1.5", "≤100", "4–6". */
export function formatValue(f: Omit<Shown, "unit">): string {
  if (f.qualifier === "range" && (f.low != null || f.high != null)) {
    return `${formatNumber(f.low ?? f.value)}–${formatNumber(f.high ?? f.value)}`;
  }
  const sign = f.qualifier && f.qualifier !== "range" ? qualifierSign[f.qualifier] : "";
  return `${sign}${formatNumber(f.value)}`;
}

/** With the unit: "≈1.5 s", "≤100 millicores", "4–6 millicores", "13,080 req/s", "12 %". */
export const formatFigure = (f: Shown): string => withUnit(formatValue(f), f.unit);

export const qualifierWords: Record<Qualifier, string> = {
  approx: "published as approximate",
  "at-most": "published as an upper bound",
  "at-least": "published as a lower bound",
  range: "published as a range",
};

/** A distribution in words: "median 9.41 of n=3 runs, min–max 9.3–9.52 Gbit/s, sd 0.11, CV 1.2 %". */
export function spreadWords(
  d: { n: number; median: number; min: number; max: number; sd: number | null; cv: number | null },
  unit: string,
): string {
  const parts = [
    `median ${formatNumber(d.median)} of n=${d.n} runs`,
    withUnit(`min–max ${formatNumber(d.min)}–${formatNumber(d.max)}`, unit),
  ];
  if (d.sd !== null) parts.push(`sd ${formatNumber(d.sd)}`);
  if (d.cv !== null) parts.push(`CV ${formatPercent(d.cv * 100, 1, false)}`);
  return parts.join(", ");
}

/**
 * Summary statistics a tool published, as what they are: "mean 9.41 Gbit/s ± 0.12 (95 % CI, 3 runs,
 * k8s-netperf)"; with an sd "± 0.12 (sd, …)"; an interval not centred on the mean is given whole
 * ("95 % CI 9.3–9.6"). `by` names the tool.
 */
export function summaryStatisticsWords(
  s: { mean: number; sd?: number; ci95?: readonly [number, number]; n: number; of: "runs" | "clients" },
  unit: string,
  by?: string | null,
): string {
  const counted = `${formatCount(s.n)} ${s.of === "clients" ? (s.n === 1 ? "client" : "clients") : s.n === 1 ? "run" : "runs"}`;
  const mean = withUnit(`mean ${formatNumber(s.mean)}`, unit);
  const about = (what: string | null) => `(${[what, counted, by].filter(Boolean).join(", ")})`;
  if (s.ci95) {
    const [low, high] = s.ci95;
    const below = formatNumber(s.mean - low);
    if (below === formatNumber(high - s.mean)) return `${mean} ± ${below} ${about("95 % CI")}`;
    return `${mean}, 95 % CI ${formatNumber(low)}–${formatNumber(high)} ${about(null)}`;
  }
  if (s.sd !== undefined) return `${mean} ± ${formatNumber(s.sd)} ${about("sd")}`;
  return `${mean} ${about(null)}`;
}

// One collator, made once: localeCompare with options builds a new one per comparison, which made
// sorting a thousand figures take a tenth of a second.
/** How every list of words people read is sorted: "pods 2" before "pods 10". */
export const natural = new Intl.Collator("en", { numeric: true }).compare;

type ParamValue = string | number | boolean | null;

/** One param as people read it: "services 20,000", "connection short". */
export const formatParam = (key: string, value: ParamValue): string =>
  `${key} ${typeof value === "number" ? formatCount(value) : String(value)}`;

/**
 * Params as people read them, by name: "concurrency 64 · connection short · services 20,000" (the
 * order is the names', never the database's), less the `omit` keys a title or sentence already says;
 * `empty` (by default "—") when none is left.
 */
export function formatParams(
  params: Readonly<Record<string, ParamValue>>,
  options: { omit?: readonly string[]; empty?: string } = {},
): string {
  const parts = Object.entries(params)
    .filter(([k]) => !options.omit?.includes(k))
    .sort(([a], [b]) => natural(a, b))
    .map(([k, v]) => formatParam(k, v));
  return parts.length > 0 ? parts.join(" · ") : (options.empty ?? "—");
}

export function formatDate(d: Date | null): string {
  return d ? d.toISOString().slice(0, 10) : "—";
}

/** A ratio of two figures and its interval's ends: 1.0503 → "1.050". */
export const formatRatio = (ratio: number): string => ratio.toFixed(3);

/** Verdicts as people read them: the compare table's badges, chart tooltips, the summary's counts. */
export const verdictWords: Record<Verdict, string> = {
  better: "better",
  worse: "worse",
  equivalent: "equivalent",
  "small-but-real": "small but real",
  inconclusive: "inconclusive",
  "not-comparable": "not comparable",
  missing: "missing",
};

/** A verdict badge's text: "better", "equivalent · single value" when a side has one value (indicative: a single run, or a published median without its runs), "—" when missing. */
export const verdictLabel = (verdict: Verdict, indicative: boolean): string =>
  verdict === "missing" ? "—" : `${verdictWords[verdict]}${indicative ? " · single value" : ""}`;
