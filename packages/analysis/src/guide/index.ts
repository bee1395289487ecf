export * from "./capabilities.ts";
export { hasBandwidthManager, lineValueAt } from "./criteria/index.ts";
export { formatFigure, providerName } from "./figures.ts";
export * from "./options.ts";
export * from "./rank.ts";
export * from "./types.ts";
