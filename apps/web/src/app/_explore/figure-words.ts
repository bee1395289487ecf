import { formatParams, formatValue, qualifierWords, spreadWords } from "@cnibench/format";
import type { z } from "zod";
import type { keyFigureSchema } from "~/server/routers/scenarios.types";

/** A scenario's headline figure as the explorer's read model gives it (scenarios.explore). */
export type KeyFigure = Omit<z.output<typeof keyFigureSchema>, "bundleId">;

/** A headline figure in the words its table cell shows: formatted on the server, so the browser gets words, not the figure. */
export type FigureWords = {
  /** The median of its latest campaign's runs: "9.41 Gbit/s". */
  value: string;
  /** How many runs its latest campaign holds (1 for a single run). */
  n: number;
  /** What hovering tells: the spread (min–max, CV) and which params it was measured with. */
  title: string;
};

export function figureWords(figure: KeyFigure): FigureWords {
  const d = figure.summary.distribution;
  const shown = d ? { ...figure, value: d.median } : figure;
  const title = [
    d ? spreadWords(d, figure.unit) : null,
    formatParams(figure.params),
    figure.qualifier ? qualifierWords[figure.qualifier] : null,
  ]
    .filter(Boolean)
    .join("; ");
  return { value: formatValue(shown), n: figure.summary.n, title };
}
