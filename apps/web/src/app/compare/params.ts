import { createLoader, createSerializer, parseAsNativeArrayOf, parseAsString } from "nuqs/server";

/** The compared scenarios in order, the first being the baseline: /compare?s=<id>&s=<id>. */
export const compareParams = { s: parseAsNativeArrayOf(parseAsString) };
export const loadCompareParams = createLoader(compareParams);
export const compareHref = createSerializer(compareParams);
