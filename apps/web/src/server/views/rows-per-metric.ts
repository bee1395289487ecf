// Tables by metric (a scenario's figures, a comparison) show a metric's first rows and say how many
// more there are; `?all=true` shows every row.
import { createLoader, parseAsBoolean } from "nuqs/server";

/** Rows a metric shows unless asked for all: more than any published benchmark has, far fewer than a 500-figure scenario (a 1–2 MB page). */
export const rowsPerMetric = 50;

export const allRowsParams = { all: parseAsBoolean.withDefault(false) };
export const loadAllRows = createLoader(allRowsParams);

/** The first `perMetric` rows of each metric, and how many of each metric that leaves out. */
export function foldRows<R extends { metric: string; label: string }>(rows: readonly R[], perMetric: number) {
  const seen = new Map<string, { label: string; rows: number }>();
  const shown = rows.filter((r) => {
    const metric = seen.get(r.metric) ?? { label: r.label, rows: 0 };
    metric.rows += 1;
    seen.set(r.metric, metric);
    return metric.rows <= perMetric;
  });
  const folded = [...seen.entries()]
    .filter(([, m]) => m.rows > perMetric)
    .map(([metric, m]) => ({ metric, label: m.label, more: m.rows - perMetric }));
  return { shown, folded };
}
