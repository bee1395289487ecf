import { formatParams, formatValue, qualifierWords } from "@cnibench/charts/format";
import type { Qualifier } from "@cnibench/schema";

type Props = {
  figure?: {
    value: number;
    unit: string;
    qualifier: Qualifier | null;
    low: number | null;
    high: number | null;
    params: Record<string, string | number | boolean>;
  };
};

/** A headline figure in a table cell; hovering tells which params it was measured with. */
export function FigureCell({ figure }: Props) {
  if (!figure) return <span className="text-zinc-400">—</span>;
  const title = [formatParams(figure.params), figure.qualifier ? qualifierWords[figure.qualifier] : null]
    .filter(Boolean)
    .join("; ");
  return (
    <span title={title} className="tabular-nums">
      {formatValue(figure)}
    </span>
  );
}
