export { DEFAULT_SERVER, flagFor, type Io, run, summary } from "./cli.ts";
export { type UploadOptions, type UploadOutcome, uploadBundle } from "./upload.ts";
export { readInputs } from "./walk.ts";
