import { createLoader, createSerializer, parseAsNativeArrayOf, parseAsString } from "nuqs/server";
import { allRowsParams } from "~/server/fold";

/**
 * The compared scenarios in order, the first being the baseline: /compare?s=<id>&s=<id>; `all` shows
 * every row of metrics the table folds (see CompareReport).
 */
export const compareParams = { s: parseAsNativeArrayOf(parseAsString), ...allRowsParams };
export const loadCompareParams = createLoader(compareParams);
export const compareHref = createSerializer(compareParams);
