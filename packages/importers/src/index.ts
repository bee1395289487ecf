export {
  ArchiveBudget,
  type ArchiveEntry,
  archiveKind,
  defaultArchiveLimits,
  expandArchive,
  safeEntryName,
} from "./archive.ts";
export { type CampaignRead, derivedCampaign, readCampaign, withCampaign } from "./campaign.ts";
export { type Detection, detectFormat } from "./detect.ts";
export {
  describeMissing,
  ENVIRONMENT_FILE,
  type EnvironmentIssue,
  environmentFields,
  environmentFromJson,
  environmentFromStrings,
  missingFields,
  refineEnvironment,
  resolveEnvironment,
  type ScalarEnvironmentKey,
  scalarEnvironmentKeys,
} from "./environment.ts";
export { clusterFromContext, parseEks } from "./formats/eks.ts";
export { fortioFromJson, parseFortio, parseFortioText } from "./formats/fortio.ts";
export {
  type ClientCommand,
  infrabuilder2024,
  parseInfrabuilderRun,
  readClientCommand,
} from "./formats/infrabuilder.ts";
export { cniFromConfig, cniOfSetup } from "./formats/infrabuilder-cni.ts";
export { iperf3FromJson, kernelFromUname, parseIperf3 } from "./formats/iperf3.ts";
export { parseKnbDocument, parseKnbText, repairKnbJson } from "./formats/knb.ts";
export { parseNetperf } from "./formats/netperf.ts";
export { busyModes, readStatexecCpu, type StatexecCpu, StatexecCpuReader } from "./formats/statexec.ts";
export { parseTkeDirectory, roundsInNumberOrder } from "./formats/tke.ts";
export { importFiles } from "./import.ts";
export { type StreamedReader, streamedReader } from "./streamed.ts";
export * from "./types.ts";
