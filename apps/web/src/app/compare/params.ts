import { createLoader, createSerializer, parseAsNativeArrayOf, parseAsString } from "nuqs/server";
import { marginMetricSchema, marginPercentSchema, maxMargins } from "../../server/routers/compare.types";
// Relative paths: the unit tests run without the ~ alias.
import { allRowsParams } from "../../server/views/rows-per-metric";

/**
 * The compared scenarios in order, the first being the baseline: /compare?s=<id>&s=<id>; `margin`
 * overrides a metric's practical margin δ for this comparison, `metric:percent`
 * (&margin=tcp.throughput:3&margin=http.latency:15); `all` shows every row of metrics the table folds
 * (see CompareReport).
 */
const compareParams = {
  s: parseAsNativeArrayOf(parseAsString),
  margin: parseAsNativeArrayOf(parseAsString),
  ...allRowsParams,
};
export const loadCompareParams = createLoader(compareParams);
export const compareHref = createSerializer(compareParams);

const plainNumber = /^\d+(?:\.\d+)?$/;

/**
 * The `margin` items of a compare address as margins by metric, and the items left out to say so: a
 * metric that is not a catalogue metric with a winner nor x.…, a percent that is not a plain number
 * above 0 and at most 100, or past the first `maxMargins`. A metric given twice takes the last.
 */
export function readMargins(items: readonly string[]): { margins: Record<string, number>; ignored: string[] } {
  const margins: Record<string, number> = {};
  const ignored: string[] = [];
  for (const [i, item] of items.entries()) {
    // The last colon: an x. metric's name may hold one.
    const at = item.lastIndexOf(":");
    const metric = marginMetricSchema.safeParse(item.slice(0, at));
    const text = item.slice(at + 1);
    const percent = marginPercentSchema.safeParse(plainNumber.test(text) ? Number(text) : Number.NaN);
    if (at < 0 || i >= maxMargins || !metric.success || !percent.success) ignored.push(item);
    else margins[metric.data] = percent.data;
  }
  return { margins, ignored };
}

/** Margins back as `margin` items, for links that keep them. */
export const marginItems = (margins: Readonly<Record<string, number>>): string[] =>
  Object.entries(margins).map(([metric, percent]) => `${metric}:${percent}`);
