export { DEFAULT_SERVER, flagFor, type Io, run, summary } from "./cli.ts";
export { runGate } from "./gate.ts";
export { type GateResult, type GateRow, gateExitCode, junitXml, markdownSummary } from "./gate-format.ts";
export { postJson, type UploadOptions, type UploadOutcome, uploadBundle } from "./upload.ts";
export { readInputs } from "./walk.ts";
