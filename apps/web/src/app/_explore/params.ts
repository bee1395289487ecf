// The explorer's state in the URL, shared by the server page (to query) and client components (to
// change it): every filter, the table's columns, sort and page, so a copied address reproduces the view.
import {
  createLoader,
  createSerializer,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";

const many = parseAsNativeArrayOf(parseAsString);

export const filterParams = {
  provider: many,
  sku: many,
  kernel: many,
  k8s: many,
  cni: many,
  mode: many,
  kubeProxy: many,
  source: many,
};

const sortParams = {
  sort: parseAsString.withDefault(""),
  order: parseAsStringLiteral(["asc", "desc"] as const).withDefault("desc"),
};

/**
 * The table's columns, `col=` once per column (keys of columnCatalogue in @cnibench/analysis); none
 * means the default set, and unknown keys are dropped (input.ts).
 */
const columnParams = { col: many };

/** The table's page; a new filter or sort starts again at the first. */
const pageParams = { page: parseAsInteger.withDefault(1) };

export const exploreParams = { ...filterParams, ...columnParams, ...sortParams, ...pageParams };

export const loadExploreParams = createLoader(exploreParams);
export const exploreHref = createSerializer(exploreParams);
