/**
 * What POST /v1/import does before storing: unpack and parse the upload (importFiles), then read every
 * built bundle for storage the way an upload is read (readStorableBundle). Pure CPU work on plain data,
 * so it runs in a worker thread (import-pool.ts) and a large archive cannot stall the event loop.
 */
import {
  ArchiveLimitError,
  type ArchiveLimits,
  type EnvironmentInput,
  type FileReport,
  type FormatChoice,
  type FormatName,
  importFiles,
} from "@cnibench/importers";
import { readStorableBundle, type StorableBundle } from "@cnibench/schema";

export type ImportJob = {
  filename: string;
  bytes: Uint8Array;
  environment: EnvironmentInput;
  format: FormatChoice;
  limits: ArchiveLimits;
};

export type ImportJobResult =
  /** The upload as a whole breaks an archive limit: nothing was imported. */
  | { kind: "limit"; limit: ArchiveLimitError["limit"]; message: string }
  /** Some file failed, or a built bundle breaks the contract (its file says so). */
  | { kind: "failed"; message: string; files: FileReport[] }
  | { kind: "nothing"; files: FileReport[] }
  | { kind: "ready"; files: FileReport[]; bundles: (StorableBundle & { file: string; format: FormatName })[] };

export function runImportJob(job: ImportJob): ImportJobResult {
  let outcome: ReturnType<typeof importFiles>;
  try {
    outcome = importFiles([{ name: job.filename, bytes: job.bytes }], job.environment, {
      format: job.format,
      limits: job.limits,
    });
  } catch (error) {
    if (!(error instanceof ArchiveLimitError)) throw error;
    return { kind: "limit", limit: error.limit, message: error.message };
  }
  const { bundles, files } = outcome;
  const failed = files.filter((f) => f.status === "failed");
  if (failed.length > 0) {
    const message = `${failed.length} of ${files.length} file(s) could not be imported; nothing was stored.`;
    return { kind: "failed", message, files };
  }
  if (bundles.length === 0) return { kind: "nothing", files };

  const ready: (StorableBundle & { file: string; format: FormatName })[] = [];
  for (const b of bundles) {
    const read = readStorableBundle({ bundle: b.bundle });
    if (!read.ok) {
      const issues = read.reason === "invalid_bundle" ? read.issues : [{ path: "", message: read.message }];
      const report = files.find((f) => b.file.startsWith(f.file));
      if (report) Object.assign(report, { status: "failed", issues, error: "the built bundle breaks the contract" });
      return {
        kind: "failed",
        message: "A bundle built from the upload breaks the contract; nothing was stored.",
        files,
      };
    }
    const { raw, contentHash, bundle, warnings } = read;
    ready.push({ raw, contentHash, bundle, warnings, file: b.file, format: b.format });
  }
  return { kind: "ready", files, bundles: ready };
}
