import { isScaleParam, scaleParams } from "@cnibench/schema";
import { formatNumber } from "./format.ts";
import { type Reading, readAt, sortedPoints } from "./series.ts";
import type { Better, Point, Qualifier, Series, SeriesRef } from "./types.ts";

/**
 * Crossover detection (issue 6): where one line overtakes another, e.g. Cilium's short-connection
 * RPS overtaking kube-proxy iptables as the Service count grows.
 *
 * Rules:
 * - Both lines are read on the union of their sampled x values inside the range they share, by
 *   linear interpolation between neighbouring samples. Nothing is extrapolated: outside the common
 *   range there is no crossover.
 * - A crossover is a change of sign of (a − b) between two steps. Its x is where the two
 *   interpolated segments meet. Equal values at a step (a tie) are a crossover only when the sign
 *   differs on the two sides of the tie; touching and parting on the same side is not. When the
 *   lines coincide over several steps and then cross, the crossover is placed where they first meet
 *   and `tie` gives the stretch.
 * - Approximate and bounded figures never decide a crossover on their own: when a sampled point the
 *   bracketing segment rests on carries a qualifier, the crossing is not reported as a crossover but
 *   listed in `undecided`, with the bracket and the qualified points, so a view can say "may overtake
 *   between 10,000 and 20,000" rather than invent a number.
 * - "Overtakes" follows the metric's better-direction: with "higher" the line that ends above wins,
 *   with "lower" the one that ends below. With "none" there is no winner; `overtaker` is then the
 *   line that ends above, and the sentence says "rises above".
 * - Only along a scale (issue 26): when the caller names the param x is (`along`) and the schema's
 *   params vocabulary calls it a category (streams, percentile, message size…), nothing is read
 *   between its values and no crossover is found; a sentence is only ever said along a scale.
 */

/** One grid step either side of a crossing, with each line's value there (keyed by series id). */
export type CrossoverStep = {
  x: number;
  values: Record<string, number>;
  /** Ids of the lines whose value at this x is interpolated rather than sampled. */
  interpolated: string[];
};

export type Crossover = {
  x: number;
  /** The common value of both lines at x. */
  value: number;
  overtaker: SeriesRef;
  overtaken: SeriesRef;
  better: Better;
  /** The last step before and the first step after the crossing. */
  from: CrossoverStep;
  to: CrossoverStep;
  /** Present when the lines are level over a stretch of steps before they part the other way. */
  tie?: { from: number; to: number };
};

export type QualifiedPoint = { seriesId: string; x: number; qualifier: Qualifier };

/** A change of sign that rests on approximate or bounded figures: not decidable. */
export type UndecidedCrossing = {
  /** The line that would overtake and the one it would overtake, were the figures exact. */
  overtaker: SeriesRef;
  overtaken: SeriesRef;
  better: Better;
  from: CrossoverStep;
  to: CrossoverStep;
  qualified: QualifiedPoint[];
};

export type PairCrossovers = {
  a: SeriesRef;
  b: SeriesRef;
  /** The x range both lines cover; null when they share none. */
  range: { from: number; to: number } | null;
  crossovers: Crossover[];
  undecided: UndecidedCrossing[];
};

export type CrossoverResult = {
  crossovers: Crossover[];
  undecided: UndecidedCrossing[];
  pairs: PairCrossovers[];
  /** The param named as x when it is a category: then nothing above is found. */
  category?: string;
};

export type CrossoverOptions = {
  /**
   * The param x is, e.g. "services". A category (`isScaleParam` false) yields no crossover; left out,
   * the caller vouches that x is a scale (the guide's lines along Services).
   */
  along?: string;
};

/** Whether `along` names a category, along which no line overtakes another. */
const alongCategory = (options: CrossoverOptions): boolean =>
  options.along !== undefined && !isScaleParam(options.along);

type Step = { x: number; a: Reading; b: Reading; sign: -1 | 0 | 1 };

/**
 * Relative tolerance for calling two interpolated values equal: interpolation at a shared step may
 * leave a rounding residue (1e-12 of the magnitude) that must not count as a crossing.
 */
const tieTolerance = 1e-9;

function signOf(a: number, b: number): -1 | 0 | 1 {
  const d = a - b;
  if (Math.abs(d) <= tieTolerance * Math.max(Math.abs(a), Math.abs(b))) return 0;
  return d > 0 ? 1 : -1;
}

const ref = (s: Series): SeriesRef => ({ id: s.id, label: s.label });

/** Crossovers between two lines. */
export function crossoversBetween(
  a: Series,
  b: Series,
  better: Better,
  options: CrossoverOptions = {},
): PairCrossovers {
  if (a.id === b.id) throw new RangeError(`two series share the id "${a.id}"`);
  if (alongCategory(options)) return { a: ref(a), b: ref(b), range: null, crossovers: [], undecided: [] };
  return crossingsOfSorted(a, sortedPoints(a), b, sortedPoints(b), better);
}

/** The sorted x values of both lines inside [from, to], each once: a merge of two sorted lists. */
function gridOf(pa: readonly Point[], pb: readonly Point[], from: number, to: number): number[] {
  const grid: number[] = [];
  let i = 0;
  let j = 0;
  while (i < pa.length || j < pb.length) {
    const xa = i < pa.length ? pa[i]!.x : Number.POSITIVE_INFINITY;
    const xb = j < pb.length ? pb[j]!.x : Number.POSITIVE_INFINITY;
    const x = Math.min(xa, xb);
    if (xa === x) i++;
    if (xb === x) j++;
    if (x > to) break;
    if (x >= from) grid.push(x);
  }
  return grid;
}

function crossingsOfSorted(a: Series, pa: Point[], b: Series, pb: Point[], better: Better): PairCrossovers {
  const result: PairCrossovers = { a: ref(a), b: ref(b), range: null, crossovers: [], undecided: [] };
  const firstA = pa[0];
  const firstB = pb[0];
  if (!firstA || !firstB) return result;
  const from = Math.max(firstA.x, firstB.x);
  const to = Math.min(pa.at(-1)!.x, pb.at(-1)!.x);
  if (from > to) return result;
  result.range = { from, to };

  const steps: Step[] = gridOf(pa, pb, from, to).map((x) => {
    const ra = readAt(pa, x)!;
    const rb = readAt(pb, x)!;
    return { x, a: ra, b: rb, sign: signOf(ra.value, rb.value) };
  });

  const toStep = (s: Step): CrossoverStep => ({
    x: s.x,
    values: { [a.id]: s.a.value, [b.id]: s.b.value },
    interpolated: [...(s.a.sampled ? [] : [a.id]), ...(s.b.sampled ? [] : [b.id])],
  });

  let last: number | undefined; // index of the last step where the lines differ
  for (const [i, step] of steps.entries()) {
    if (step.sign === 0) continue;
    const prevIndex = last;
    last = i;
    if (prevIndex === undefined) continue;
    const prev = steps[prevIndex]!;
    if (prev.sign === step.sign) continue;

    const aWins = better === "lower" ? step.sign < 0 : step.sign > 0;
    const overtaker = ref(aWins ? a : b);
    const overtaken = ref(aWins ? b : a);

    const qualified = qualifiedBetween(a.id, pa, prev, step, "a").concat(qualifiedBetween(b.id, pb, prev, step, "b"));
    if (qualified.length > 0) {
      result.undecided.push({ overtaker, overtaken, better, from: toStep(prev), to: toStep(step), qualified });
      continue;
    }

    let x: number;
    let value: number;
    let tie: Crossover["tie"];
    if (i === prevIndex + 1) {
      // Between adjacent grid steps both lines are straight, so the meeting point is exact.
      const d0 = prev.a.value - prev.b.value;
      const d1 = step.a.value - step.b.value;
      const share = d0 / (d0 - d1);
      x = prev.x + share * (step.x - prev.x);
      value = prev.a.value + share * (step.a.value - prev.a.value);
    } else {
      const firstTie = steps[prevIndex + 1]!;
      x = firstTie.x;
      value = firstTie.a.value;
      tie = { from: firstTie.x, to: steps[i - 1]!.x };
    }
    result.crossovers.push({
      x,
      value,
      overtaker,
      overtaken,
      better,
      from: toStep(prev),
      to: toStep(step),
      ...(tie ? { tie } : {}),
    });
  }
  return result;
}

/** The qualified samples that one line's values between two steps rest on. */
function qualifiedBetween(
  seriesId: string,
  points: readonly Point[],
  from: Step,
  to: Step,
  side: "a" | "b",
): QualifiedPoint[] {
  const support = new Set<Point>([...from[side].support, ...to[side].support]);
  for (const p of points) if (p.x >= from.x && p.x <= to.x) support.add(p);
  return [...support]
    .filter((p) => p.qualifier)
    .sort((p, q) => p.x - q.x)
    .map((p) => ({ seriesId, x: p.x, qualifier: p.qualifier! }));
}

/** Crossovers between every pair of lines, sorted by x; none along a category. */
export function findCrossovers(
  series: readonly Series[],
  better: Better,
  options: CrossoverOptions = {},
): CrossoverResult {
  const ids = new Set<string>();
  for (const s of series) {
    if (ids.has(s.id)) throw new RangeError(`two series share the id "${s.id}"`);
    ids.add(s.id);
  }
  if (alongCategory(options)) return { crossovers: [], undecided: [], pairs: [], category: options.along! };
  // Each line sorted once, not once per pair: 50 lines make 1,225 pairs.
  const sorted = series.length > 1 ? series.map(sortedPoints) : [];
  const pairs: PairCrossovers[] = [];
  for (let i = 0; i < series.length; i++) {
    for (let j = i + 1; j < series.length; j++) {
      pairs.push(crossingsOfSorted(series[i]!, sorted[i]!, series[j]!, sorted[j]!, better));
    }
  }
  return {
    crossovers: pairs.flatMap((p) => p.crossovers).sort((c, d) => c.x - d.x),
    undecided: pairs.flatMap((p) => p.undecided).sort((c, d) => c.from.x - d.from.x),
    pairs,
  };
}

export type CrossoverWording = {
  /** The param x is, e.g. "services". It must be a scale: a crossing along a category is never said. */
  along: string;
  /** What x counts, in the plural; the params vocabulary's words ("Services") by default. */
  xLabel?: string;
  /** Significant digits of the crossing x; 4 by default, since x is interpolated between steps. */
  significantDigits?: number;
};

/** The axis' words, refusing a category: no "overtakes at ≈1.72 streams", whoever asks. */
function axisWords(wording: CrossoverWording): string {
  if (!isScaleParam(wording.along)) {
    throw new RangeError(`"${wording.along}" is a category, not a scale: no crossover is said along it`);
  }
  return wording.xLabel ?? scaleParams[wording.along];
}

const verb = (better: Better, modal: boolean) =>
  better === "none" ? (modal ? "may rise above" : "rises above") : modal ? "may overtake" : "overtakes";

/**
 * Where along a scale a crossing falls, in words: scales count things (Services, pods, connections,
 * target QPS), so a crossing interpolated between measured steps is said in whole ones ("≈5,556
 * Services", not "≈5,555.6"), with at most `significantDigits` digits.
 */
export const crossingAt = (x: number, significantDigits = 4): string => formatNumber(Math.round(x), significantDigits);

/** "Cilium Overlay overtakes kube-proxy iptables at ≈19,650 Services". */
export function formatCrossover(c: Crossover, wording: CrossoverWording): string {
  const xLabel = axisWords(wording);
  const x = crossingAt(c.x, wording.significantDigits);
  const at = c.tie ? `at ${x} ${xLabel}` : `at ≈${x} ${xLabel}`;
  return `${c.overtaker.label} ${verb(c.better, false)} ${c.overtaken.label} ${at}`;
}

/** "Cilium Overlay may overtake kube-proxy iptables between 10,000 and 20,000 Services (approximate or bounded figures)". */
export function formatUndecidedCrossing(c: UndecidedCrossing, wording: CrossoverWording): string {
  const xLabel = axisWords(wording);
  const digits = wording.significantDigits ?? 6;
  return (
    `${c.overtaker.label} ${verb(c.better, true)} ${c.overtaken.label} between ` +
    `${formatNumber(c.from.x, digits)} and ${formatNumber(c.to.x, digits)} ${xLabel} ` +
    "(approximate or bounded figures)"
  );
}

export type CrossoverSummary = {
  /**
   * At most `limit` crossings in order of x, the most relevant ones (those of the `first` lines, then
   * the earliest), and one closing "…and N more crossovers" when some are left out.
   */
  sentences: string[];
  /** The same for the undecided crossings. */
  undecided: string[];
  /** Every crossing, then every undecided one, each in order of x: the details behind the summary. */
  all: string[];
};

export type SummaryOptions = {
  /** The most crossings said of each kind; 3 by default. One over the limit is said rather than counted. */
  limit?: number;
  /** Ids of the lines a reader compares against (the baseline's): their crossings are said first. */
  first?: ReadonlySet<string>;
};

/**
 * A readable summary of many lines' crossings (issue 26): 23 lines may cross a hundred times, and a
 * hundred sentences say nothing. The crossings of the `first` lines are chosen before the others, the
 * earliest before the later; the chosen ones are said in order of x, and the rest counted.
 */
export function summariseCrossovers(
  result: CrossoverResult,
  wording: CrossoverWording,
  options: SummaryOptions = {},
): CrossoverSummary {
  if (result.crossovers.length === 0 && result.undecided.length === 0) return { sentences: [], undecided: [], all: [] };
  const limit = options.limit ?? 3;
  const first = options.first ?? new Set<string>();
  const involvesFirst = (c: { overtaker: SeriesRef; overtaken: SeriesRef }) =>
    first.has(c.overtaker.id) || first.has(c.overtaken.id);
  const xOf = (c: Crossover | UndecidedCrossing) => ("x" in c ? c.x : c.from.x);
  const choose = <C extends Crossover | UndecidedCrossing>(all: readonly C[]): C[] => {
    if (all.length <= limit + 1) return [...all];
    const ranked = [...all].sort((c, d) => Number(involvesFirst(d)) - Number(involvesFirst(c)) || xOf(c) - xOf(d));
    return ranked.slice(0, limit).sort((c, d) => xOf(c) - xOf(d));
  };
  const more = (left: number, what: string) => (left > 0 ? [`…and ${formatNumber(left)} more ${what}`] : []);
  const decided = choose(result.crossovers);
  const undecided = choose(result.undecided);
  return {
    sentences: [
      ...decided.map((c) => formatCrossover(c, wording)),
      ...more(result.crossovers.length - decided.length, "crossovers between these lines"),
    ],
    undecided: [
      ...undecided.map((c) => formatUndecidedCrossing(c, wording)),
      ...more(result.undecided.length - undecided.length, "possible crossings on approximate or bounded figures"),
    ],
    all: [
      ...result.crossovers.map((c) => formatCrossover(c, wording)),
      ...result.undecided.map((c) => formatUndecidedCrossing(c, wording)),
    ],
  };
}
