// The explorer's pure logic: facets and filters, the table's key figures, and a scenario page's
// figure groups. packages/db reads the rows (scenarios.ts, measurements.ts) and its views apply these.
export * from "./facets.ts";
export * from "./figure-groups.ts";
export * from "./key-figures.ts";
export * from "./testbed.ts";
