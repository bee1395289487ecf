export * from "./bundle.ts";
export { hostEnvironment, type LabIo, labUsage, runLab } from "./command.ts";
export * from "./iptables.ts";
export * from "./nftables.ts";
export * from "./parse.ts";
export * from "./plan.ts";
export {
  checkPrerequisites,
  ipvsWords,
  Lab,
  type LabMode,
  labNamespaces,
  type Prerequisites,
  removeStaleNamespaces,
} from "./runner.ts";
export { labSummary } from "./summary.ts";
