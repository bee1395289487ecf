export * from "./capabilities.ts";
export { hasBandwidthManager, lineValueAt } from "./criteria/index.ts";
export { handful, providerName } from "./figures.ts";
export { isLab } from "./lab.ts";
export * from "./options.ts";
export * from "./questions.ts";
export * from "./rank.ts";
export * from "./types.ts";
