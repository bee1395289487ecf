// A scenario page's figures, grouped by metric: one row per params, the current figure and its
// older runs.
import { catalogueRank, findMetric } from "@cnibench/schema";
import type { Better, Params } from "../types.ts";
import { natural } from "./natural.ts";

/** A stored figure as the scenario page groups it; packages/db's MeasurementRow fits. */
export type GroupedFigure = {
  metric: string;
  params: Params;
  paramsKey: string;
  unit: string;
  better: Better;
  /** How many runs measured it, this one included (see groupFigures). */
  runs?: number;
};

export type FigureGroup<F extends GroupedFigure = GroupedFigure> = {
  metric: string;
  label: string;
  unit: string;
  better: F["better"];
  description: string | null;
  /** `olderRuns` counts every older run; `history` holds the ones fetched (see scenarioFigures). */
  rows: { params: F["params"]; current: F; history: F[]; olderRuns: number }[];
};

/**
 * A scenario's figures grouped by metric (catalogue order, then custom ones), one row per params,
 * the most recent first and older runs as its history. Expects figures newest first per
 * (metric, params), as packages/db's `scenarioFigures` returns them.
 */
export function groupFigures<F extends GroupedFigure>(figures: readonly F[]): FigureGroup<F>[] {
  const groups = new Map<string, FigureGroup<F>>();
  const rows = new Map<string, FigureGroup<F>["rows"][number]>();
  for (const f of figures) {
    let group = groups.get(f.metric);
    if (!group) {
      const def = findMetric(f.metric);
      group = {
        metric: f.metric,
        label: def?.label ?? f.metric,
        unit: f.unit,
        better: f.better,
        description: def?.description ?? null,
        rows: [],
      };
      groups.set(f.metric, group);
    }
    const rowKey = `${f.metric}\u0000${f.paramsKey}`;
    const row = rows.get(rowKey);
    if (row) {
      row.history.push(f);
      row.olderRuns = Math.max(row.olderRuns, row.history.length);
    } else {
      const created = { params: f.params, current: f, history: [] as F[], olderRuns: (f.runs ?? 1) - 1 };
      rows.set(rowKey, created);
      group.rows.push(created);
    }
  }
  const byParams = (a: FigureGroup<F>["rows"][number], b: FigureGroup<F>["rows"][number]) =>
    natural(a.current.paramsKey, b.current.paramsKey);
  return [...groups.values()]
    .map((g) => ({ ...g, rows: g.rows.sort(byParams) }))
    .sort((a, b) => catalogueRank(a.metric) - catalogueRank(b.metric) || natural(a.metric, b.metric));
}
