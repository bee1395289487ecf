// The explorer's rows are sorted and cut into pages on the server: a store of thousands of
// scenarios would otherwise send every row to the browser (a 1,000-scenario store made a 3 MB page).
import { natural } from "@cnibench/format";
import type { ExploreScenario } from "~/server/routers/scenarios.types";
import type { KeyFigure } from "./figure-words";

/** A scenario as the explorer lists it (scenarios.explore), before it is put in words for the table. */
export type ScenarioRow = Pick<
  ExploreScenario,
  "id" | "label" | "provider" | "sku" | "kernel" | "kubernetesVersion" | "differingSettings" | "bundleCount"
> & {
  cni: Pick<ExploreScenario["cni"], "name" | "version" | "mode" | "kubeProxy">;
  /** By column key: the table's columns are chosen by name. */
  keyFigures: Partial<Record<string, KeyFigure>>;
};

const pageSize = 50;

/** What a column sorts by; the figure columns by their value. */
function sortValue(row: ScenarioRow, column: string): string | number | undefined {
  switch (column) {
    case "scenario":
      return row.label;
    case "provider":
      return row.provider;
    case "sku":
      return row.sku;
    case "kernel":
      return row.kernel;
    case "bundles":
      return row.bundleCount;
    default: {
      const f = row.keyFigures[column];
      return f?.summary.distribution?.median ?? f?.value;
    }
  }
}

/** Rows sorted by a column (unknown columns keep the given order); rows without the value go last either way. */
export function sortScenarios<T extends ScenarioRow>(rows: readonly T[], column: string, order: "asc" | "desc"): T[] {
  if (!column) return [...rows];
  const sign = order === "desc" ? -1 : 1;
  return [...rows].sort((a, b) => {
    const va = sortValue(a, column);
    const vb = sortValue(b, column);
    if (va === undefined || vb === undefined) return va === vb ? 0 : va === undefined ? 1 : -1;
    return sign * (typeof va === "number" && typeof vb === "number" ? va - vb : natural(String(va), String(vb)));
  });
}

/** One page of rows; a page past the end shows the last one, so an old link still lands somewhere. */
export function pageOf<T>(rows: readonly T[], page: number, size = pageSize) {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  const from = (current - 1) * size;
  return {
    rows: rows.slice(from, from + size),
    page: current,
    pages,
    from: from + 1,
    to: from + Math.min(size, rows.length - from),
  };
}
