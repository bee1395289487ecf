// What the explorer's address asks the server for, read the same way by the page and its CSV: the
// facets' filters that hold a value, the chosen columns (known ones, else the default set), the sort.
import { type ColumnKey, chosenColumns } from "@cnibench/analysis";
import type { inferParserType } from "nuqs/server";
import type { exploreParams } from "./params";

/** The facets' filters, the chosen columns and the sort of an address, as loadExploreParams read it. */
export function exploreInput({ sort, order, page: _page, col, ...filters }: inferParserType<typeof exploreParams>) {
  const columns: ColumnKey[] = chosenColumns(col);
  return {
    input: { ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v.length > 0)), columns },
    filters,
    sort,
    order,
  };
}
