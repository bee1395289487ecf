/**
 * What POST /v1/import does before storing: unpack and parse the upload (importFiles), then read every
 * built bundle for storage the way an upload is read (readStorableBundle). Pure CPU work on plain data,
 * so it runs in a worker thread (import-pool.ts) and a large archive cannot stall the event loop.
 *
 * The bundles of one import are one campaign (docs/design.md): each naming none gets the job's `campaign`,
 * or else one derived from what was built (withCampaign), before it is read, so that the stored JSON
 * and the content hash hold it.
 */
import {
  ArchiveLimitError,
  type ArchiveLimits,
  type EnvironmentInput,
  type FileReport,
  type FormatChoice,
  type FormatName,
  importFiles,
  withCampaign,
} from "@cnibench/importers";
import { readStorableBundle, type StorableBundle } from "@cnibench/schema";

export type ImportJob = {
  filename: string;
  bytes: Uint8Array;
  environment: EnvironmentInput;
  format: FormatChoice;
  limits: ArchiveLimits;
  /** The campaign named by the request (?campaign=, already read); derived from the bundles when absent. */
  campaign?: string;
  /** ?partial=true: the files that import are stored, the others refused; otherwise one failure refuses all. */
  partial?: boolean;
};

export type ImportJobResult =
  /** The upload as a whole breaks an archive limit: nothing was imported. */
  | { kind: "limit"; limit: ArchiveLimitError["limit"]; message: string }
  /** Some file failed, or a built bundle breaks the contract (its file says so); with `partial`, every file did. */
  | { kind: "failed"; message: string; files: FileReport[] }
  | { kind: "nothing"; files: FileReport[] }
  | {
      kind: "ready";
      files: FileReport[];
      /** The campaign of every bundle that names none of its own. */
      campaign: string;
      bundles: (StorableBundle & { file: string; format: FormatName })[];
    };

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
  const { files } = outcome;
  const refused = () => {
    const failed = files.filter((f) => f.status === "failed").length;
    const message = `${failed} of ${files.length} file(s) could not be imported; nothing was stored.`;
    return { kind: "failed" as const, message, files };
  };
  const someFailed = files.some((f) => f.status === "failed");
  if (someFailed && !job.partial) return refused();
  if (outcome.bundles.length === 0) return someFailed ? refused() : { kind: "nothing", files };
  const { campaign, bundles } = withCampaign(outcome.bundles, job.campaign);
  const reports = reportsByFile(files);

  const ready: (StorableBundle & { file: string; format: FormatName })[] = [];
  for (const b of bundles) {
    const read = readStorableBundle({ bundle: b.bundle });
    if (!read.ok) {
      const issues = read.reason === "invalid_bundle" ? read.issues : [{ path: "", message: read.message }];
      const report = reportOf(reports, b.file);
      if (report) Object.assign(report, { status: "failed", issues, error: "the built bundle breaks the contract" });
      if (job.partial) continue;
      return {
        kind: "failed",
        message: "A bundle built from the upload breaks the contract; nothing was stored.",
        files,
      };
    }
    const { raw, contentHash, bundle, warnings } = read;
    ready.push({ raw, contentHash, bundle, warnings, file: b.file, format: b.format });
  }
  // A file is refused whole: its bundles built before one broke the contract are left out too.
  const kept = ready.filter((b) => reportOf(reports, b.file)?.status !== "failed");
  return kept.length === 0 ? refused() : { kind: "ready", files, campaign, bundles: kept };
}

/**
 * The files' reports by name, the first of a name kept. A search of the list for every bundle took
 * ~0.5 s of a 5,000-file import's ~2 s in its worker.
 */
function reportsByFile(files: FileReport[]): Map<string, FileReport> {
  const reports = new Map<string, FileReport>();
  for (const f of files) if (!reports.has(f.file)) reports.set(f.file, f);
  return reports;
}

/** The report of the file a bundle was built from: "x.txt#run 2" belongs to "x.txt". */
function reportOf(reports: Map<string, FileReport>, bundleFile: string): FileReport | undefined {
  const part = bundleFile.lastIndexOf("#");
  return reports.get(bundleFile) ?? (part < 0 ? undefined : reports.get(bundleFile.slice(0, part)));
}
