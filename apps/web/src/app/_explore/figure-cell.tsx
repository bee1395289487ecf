import type { FigureSummary } from "@cnibench/db/read-models";
import { formatParams, formatValue, qualifierWords, spreadWords } from "@cnibench/format";
import type { Qualifier } from "@cnibench/schema";

type Props = {
  figure?: {
    value: number;
    unit: string;
    qualifier: Qualifier | null;
    low: number | null;
    high: number | null;
    params: Record<string, string | number | boolean>;
    summary?: FigureSummary;
  };
};

/**
 * A headline figure in a table cell: the median of its latest campaign's runs with their number
 * ("9.41 Gbit/s · n=3"); hovering tells the spread (min–max, CV) and which params it was measured with.
 */
export function FigureCell({ figure }: Props) {
  if (!figure) return <span className="text-zinc-400">—</span>;
  const d = figure.summary?.distribution ?? null;
  const shown = d ? { ...figure, value: d.median } : figure;
  const title = [
    d ? spreadWords(d, figure.unit) : null,
    formatParams(figure.params),
    figure.qualifier ? qualifierWords[figure.qualifier] : null,
  ]
    .filter(Boolean)
    .join("; ");
  return (
    <span title={title} className="tabular-nums">
      {formatValue(shown)}
      {figure.summary ? <span className="text-xs text-zinc-500"> · n={figure.summary.n}</span> : null}
    </span>
  );
}
