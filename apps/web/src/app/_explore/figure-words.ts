import type { FigureSummary } from "@cnibench/db/read-models";
import { formatParams, formatValue, qualifierWords, spreadWords } from "@cnibench/format";
import type { Qualifier } from "@cnibench/schema";

/** A scenario's headline figure as the explorer's read model gives it. */
export type KeyFigure = {
  value: number;
  unit: string;
  qualifier: Qualifier | null;
  low: number | null;
  high: number | null;
  params: Record<string, string | number | boolean>;
  summary?: FigureSummary;
};

/** A headline figure in the words its table cell shows: formatted on the server, so the browser gets words, not the figure. */
export type FigureWords = {
  /** The median of its latest campaign's runs: "9.41 Gbit/s". */
  value: string;
  /** How many runs, when a campaign summarised it. */
  n: number | null;
  /** What hovering tells: the spread (min–max, CV) and which params it was measured with. */
  title: string;
};

export function figureWords(figure: KeyFigure): FigureWords {
  const d = figure.summary?.distribution ?? null;
  const shown = d ? { ...figure, value: d.median } : figure;
  const title = [
    d ? spreadWords(d, figure.unit) : null,
    formatParams(figure.params),
    figure.qualifier ? qualifierWords[figure.qualifier] : null,
  ]
    .filter(Boolean)
    .join("; ");
  return { value: formatValue(shown), n: figure.summary?.n ?? null, title };
}
