import { formatNumber } from "@cnibench/format";
import { isScaleParam, scaleParams } from "@cnibench/schema";
import { type Reading, readAt, sortedPoints } from "./series.ts";
import type { Better, Point, Qualifier, Series, SeriesRef } from "./types.ts";
import { compareFigures } from "./verdict.ts";

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
 * - Only where the order is decided (issue 40), when the caller names the metric: a crossing is a
 *   crossover only when, at some step measured on both lines on each side of it, the order of the two
 *   is decided — a better/worse verdict of one against the other (the compare page's, verdict.ts: on
 *   runs their effect, on a single run a gap beyond the metric's margin). A crossing between a decided
 *   difference and noise (0 Services: ×0.92, runs 7,427–10,729 against 9,731–9,922) is no crossover:
 *   it goes to `withinNoise`, said as what is known ("within noise at 0, nftables ahead from 10,000").
 *   A crossover keeps the steps that were noise next to it, so its sentence says them ("within 5 % at
 *   20,000, clearly ahead from 30,000"). Without a metric every crossing counts (the guide's lines).
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
  /** Where the order was decided on each side, and the noise between (only when a metric was named). */
  claim?: OrderAround;
};

/** A step measured on both lines where their order is not decided. */
export type NoiseStep = {
  x: number;
  /** "margin": single runs within the metric's margin; "noise": runs whose difference is not decided. */
  within: "margin" | "noise";
  marginPercent: number;
};

/** What is known of the order of two lines on each side of a crossing. */
export type OrderAround = {
  /** The last step before the crossing where the overtaken line is decidedly ahead; null when none. */
  decidedBefore: number | null;
  /** The first step after it where the overtaker is decidedly ahead; null when none. */
  decidedAfter: number | null;
  /** Undecided steps between decidedBefore (or the stretch's start) and the crossing, in order of x. */
  noiseBefore: NoiseStep[];
  /** Undecided steps between the crossing and decidedAfter (or the stretch's end). */
  noiseAfter: NoiseStep[];
};

/**
 * A crossing of the medians with no decided order on one side (or either): not a crossover. `x` is
 * where the medians meet, kept for the details, never marked on a chart.
 */
export type NoiseCrossing = {
  x: number;
  overtaker: SeriesRef;
  overtaken: SeriesRef;
  better: Better;
  from: CrossoverStep;
  to: CrossoverStep;
} & OrderAround;

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
  /** Crossings of the medians where the order is not decided on a side (only when a metric was named). */
  withinNoise: NoiseCrossing[];
};

export type CrossoverResult = {
  crossovers: Crossover[];
  undecided: UndecidedCrossing[];
  withinNoise: NoiseCrossing[];
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
  /**
   * The metric the lines measure (its margin and runs decide the order at each step); left out, every
   * crossing of the medians counts.
   */
  metric?: string;
  /** Margins δ in ± % by metric, overriding the catalogue's (a compare page's `margin=`). */
  margins?: Readonly<Record<string, number>>;
};

/** Whether `along` names a category, along which no line overtakes another. */
const alongCategory = (options: CrossoverOptions): boolean =>
  options.along !== undefined && !isScaleParam(options.along);

/**
 * The order of a and b at one step measured on both: 1 a decidedly above b, −1 below, 0 not decided
 * (with why); undefined when a line is only interpolated there (nothing was measured to judge).
 */
type Order = { sign: -1 | 0 | 1; within: NoiseStep["within"]; marginPercent: number };

/** `measured`: both lines were measured at x, so their order there can be judged (orderAt). */
type Step = { x: number; a: Reading; b: Reading; sign: -1 | 0 | 1; measured: boolean; order?: Order };

/**
 * The order of two measured points by the compare page's verdict, a judged against b. The verdict is
 * asked with better "higher" whatever the metric's direction, so "better" reads "above": the order of
 * the values, which the crossing is about.
 */
function orderOf(a: Point, b: Point, metric: string, margins?: Readonly<Record<string, number>>): Order {
  const figure = (p: Point) => ({
    metric,
    unit: "",
    value: p.value,
    qualifier: p.qualifier ?? null,
    low: p.low ?? null,
    high: p.high ?? null,
    ...(p.samples ? { samples: p.samples } : {}),
    better: "higher" as const,
  });
  const r = compareFigures(figure(b), figure(a), margins ? { margins } : {});
  const e = r.evidence;
  const marginPercent = "marginPercent" in e ? e.marginPercent : 0;
  const within = e.method === "noise-band" ? "margin" : "noise";
  return { sign: r.verdict === "better" ? 1 : r.verdict === "worse" ? -1 : 0, within, marginPercent };
}

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
  if (alongCategory(options))
    return { a: ref(a), b: ref(b), range: null, crossovers: [], undecided: [], withinNoise: [] };
  return crossingsOfSorted(a, sortedPoints(a), b, sortedPoints(b), better, options);
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

function crossingsOfSorted(
  a: Series,
  pa: Point[],
  b: Series,
  pb: Point[],
  better: Better,
  options: CrossoverOptions,
): PairCrossovers {
  const result: PairCrossovers = { a: ref(a), b: ref(b), range: null, crossovers: [], undecided: [], withinNoise: [] };
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
    const measured = ra.sampled && rb.sampled && options.metric !== undefined;
    return { x, a: ra, b: rb, sign: signOf(ra.value, rb.value), measured };
  });
  // Judged only where a crossing asks (orderAround): most pairs never cross, and each verdict is a
  // Welch test (16 lines' 840 steps were two thirds of the crossover view's time).
  const orderAt = (s: Step): Order | undefined => {
    if (s.measured) s.order ??= orderOf(s.a.support[0]!, s.b.support[0]!, options.metric!, options.margins);
    return s.order;
  };

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

    const claim = options.metric === undefined ? undefined : orderAround(steps, prevIndex, i, orderAt);
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
    if (claim && (claim.decidedBefore === null || claim.decidedAfter === null)) {
      result.withinNoise.push({ x, overtaker, overtaken, better, from: toStep(prev), to: toStep(step), ...claim });
      continue;
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
      ...(claim ? { claim } : {}),
    });
  }
  return result;
}

/**
 * The decided order nearest a crossing on each side, within the stretch where the medians keep the
 * side's sign (up to the previous and the next crossing), and the undecided steps between.
 */
function orderAround(
  steps: readonly Step[],
  before: number,
  after: number,
  orderAt: (s: Step) => Order | undefined,
): OrderAround {
  const signBefore = steps[before]!.sign;
  const signAfter = steps[after]!.sign;
  const noiseBefore: NoiseStep[] = [];
  let decidedBefore: number | null = null;
  for (let k = after - 1; k >= 0 && steps[k]!.sign !== signAfter; k--) {
    const s = steps[k]!;
    const order = orderAt(s);
    if (!order) continue;
    if (order.sign === signBefore) {
      decidedBefore = s.x;
      break;
    }
    noiseBefore.unshift({ x: s.x, within: order.within, marginPercent: order.marginPercent });
  }
  const noiseAfter: NoiseStep[] = [];
  let decidedAfter: number | null = null;
  for (let k = after; k < steps.length && steps[k]!.sign !== signBefore; k++) {
    const s = steps[k]!;
    const order = orderAt(s);
    if (!order) continue;
    if (order.sign === signAfter) {
      decidedAfter = s.x;
      break;
    }
    noiseAfter.push({ x: s.x, within: order.within, marginPercent: order.marginPercent });
  }
  return { decidedBefore, decidedAfter, noiseBefore, noiseAfter };
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
  if (alongCategory(options))
    return { crossovers: [], undecided: [], withinNoise: [], pairs: [], category: options.along! };
  // Each line sorted once, not once per pair: 50 lines make 1,225 pairs.
  const sorted = series.length > 1 ? series.map(sortedPoints) : [];
  const pairs: PairCrossovers[] = [];
  for (let i = 0; i < series.length; i++) {
    for (let j = i + 1; j < series.length; j++) {
      pairs.push(crossingsOfSorted(series[i]!, sorted[i]!, series[j]!, sorted[j]!, better, options));
    }
  }
  return {
    crossovers: pairs.flatMap((p) => p.crossovers).sort((c, d) => c.x - d.x),
    undecided: pairs.flatMap((p) => p.undecided).sort((c, d) => c.from.x - d.from.x),
    withinNoise: pairs.flatMap((p) => p.withinNoise).sort((c, d) => c.x - d.x),
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

/** "0 and 1,000": the steps of a stretch, in a sentence. */
function stepsWords(xs: readonly number[]): string {
  const words = xs.map((x) => formatNumber(x));
  return words.length <= 2 ? words.join(" and ") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** "within 5 % at 20,000" or "within noise at 0 and 1,000": undecided steps grouped by why. */
function noiseWords(steps: readonly NoiseStep[]): string[] {
  const byWhy = new Map<string, number[]>();
  for (const s of steps) {
    const why = s.within === "margin" ? `within ${formatNumber(s.marginPercent)} %` : "within noise";
    byWhy.set(why, [...(byWhy.get(why) ?? []), s.x]);
  }
  return [...byWhy].map(([why, xs]) => `${why} at ${stepsWords(xs)}`);
}

const aheadWord = (better: Better, ahead: boolean) =>
  better === "none" ? (ahead ? "above" : "below") : ahead ? "ahead" : "behind";

/**
 * "Cilium Overlay overtakes kube-proxy iptables at ≈19,650 Services". With the order judged (a metric
 * named), the interpolated point comes with what it rests on: "…, interpolated between 20,000 and
 * 30,000", or "…, interpolated; within 5 % at 20,000, clearly ahead from 30,000".
 */
export function formatCrossover(c: Crossover, wording: CrossoverWording): string {
  const xLabel = axisWords(wording);
  const x = crossingAt(c.x, wording.significantDigits);
  const at = c.tie ? `at ${x} ${xLabel}` : `at ≈${x} ${xLabel}`;
  const said = `${c.overtaker.label} ${verb(c.better, false)} ${c.overtaken.label} ${at}`;
  const claim = c.claim;
  if (!claim || claim.decidedBefore === null || claim.decidedAfter === null) return said;
  if (claim.noiseBefore.length === 0 && claim.noiseAfter.length === 0) {
    return `${said}, ${c.tie ? "level" : "interpolated"} between ${formatNumber(claim.decidedBefore)} and ${formatNumber(claim.decidedAfter)}`;
  }
  const parts = [c.tie ? "level" : "interpolated"];
  if (claim.noiseBefore.length > 0) {
    parts.push(
      [
        `clearly ${aheadWord(c.better, false)} up to ${formatNumber(claim.decidedBefore)}`,
        ...noiseWords(claim.noiseBefore),
      ].join(", "),
    );
  }
  parts.push(
    [
      ...noiseWords(claim.noiseAfter),
      `clearly ${aheadWord(c.better, true)} from ${formatNumber(claim.decidedAfter)}`,
    ].join(", "),
  );
  return `${said}, ${parts.join("; ")}`;
}

/**
 * What is known where the medians cross but the order is not decided on a side: "nftables and
 * iptables: within noise at 0 Services, nftables ahead from 10,000 on".
 */
export function formatNoiseCrossing(c: NoiseCrossing, wording: CrossoverWording): string {
  const xLabel = axisWords(wording);
  const before =
    c.decidedBefore !== null
      ? `${c.overtaken.label} ${aheadWord(c.better, true)} up to ${formatNumber(c.decidedBefore)} ${xLabel}`
      : c.noiseBefore.length > 0
        ? `${noiseWords(c.noiseBefore).join(", ")} ${xLabel}`
        : `not measured on both below ${formatNumber(c.to.x)} ${xLabel}`;
  const after =
    c.decidedAfter !== null
      ? `${c.overtaker.label} ${aheadWord(c.better, true)} from ${formatNumber(c.decidedAfter)} on`
      : c.noiseAfter.length > 0
        ? noiseWords(c.noiseAfter).join(", ")
        : `not measured on both from ${formatNumber(c.to.x)} on`;
  return `${c.overtaker.label} and ${c.overtaken.label}: ${before}, ${after}`;
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
  /** The same for the crossings of the medians within noise: what is known instead of a crossover. */
  withinNoise: string[];
  /** Every crossing, then every undecided one, then those within noise, each in order of x. */
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
  if (result.crossovers.length === 0 && result.undecided.length === 0 && result.withinNoise.length === 0)
    return { sentences: [], undecided: [], withinNoise: [], all: [] };
  const limit = options.limit ?? 3;
  const first = options.first ?? new Set<string>();
  const involvesFirst = (c: { overtaker: SeriesRef; overtaken: SeriesRef }) =>
    first.has(c.overtaker.id) || first.has(c.overtaken.id);
  const xOf = (c: Crossover | UndecidedCrossing | NoiseCrossing) => ("x" in c ? c.x : c.from.x);
  const choose = <C extends Crossover | UndecidedCrossing | NoiseCrossing>(all: readonly C[]): C[] => {
    if (all.length <= limit + 1) return [...all];
    const ranked = [...all].sort((c, d) => Number(involvesFirst(d)) - Number(involvesFirst(c)) || xOf(c) - xOf(d));
    return ranked.slice(0, limit).sort((c, d) => xOf(c) - xOf(d));
  };
  const more = (left: number, what: string) => (left > 0 ? [`…and ${formatNumber(left)} more ${what}`] : []);
  const decided = choose(result.crossovers);
  const undecided = choose(result.undecided);
  const withinNoise = choose(result.withinNoise);
  return {
    sentences: [
      ...decided.map((c) => formatCrossover(c, wording)),
      ...more(result.crossovers.length - decided.length, "crossovers between these lines"),
    ],
    undecided: [
      ...undecided.map((c) => formatUndecidedCrossing(c, wording)),
      ...more(result.undecided.length - undecided.length, "possible crossings on approximate or bounded figures"),
    ],
    withinNoise: [
      ...withinNoise.map((c) => formatNoiseCrossing(c, wording)),
      ...more(result.withinNoise.length - withinNoise.length, "crossings of the medians within noise"),
    ],
    all: [
      ...result.crossovers.map((c) => formatCrossover(c, wording)),
      ...result.undecided.map((c) => formatUndecidedCrossing(c, wording)),
      ...result.withinNoise.map((c) => formatNoiseCrossing(c, wording)),
    ],
  };
}
