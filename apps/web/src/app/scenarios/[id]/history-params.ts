// The scenario page's history section in the URL: which series it follows, as
// `history=<metric>|<params as JSON, keys sorted>`, so a copied address shows the same chart.
import type { Params } from "@cnibench/schema";
import { createLoader, parseAsString } from "nuqs/server";

export const historyParams = { history: parseAsString };
export const loadHistoryParams = createLoader(historyParams);

/** A series' key in the URL: "tcp.throughput|{"path":"pod-pod","streams":1}". */
export const seriesKey = (metric: string, params: Params): string =>
  `${metric}|${JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))}`;
