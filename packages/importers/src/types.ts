/** Shapes shared by the parsers, the environment merge and importFiles. */
import type { BundleInput, BundleWarning, Params, Summary } from "@cnibench/schema";
import type { ScalarEnvironmentKey } from "./environment.ts";

export const formatNames = [
  "bundle",
  "tke",
  "infrabuilder",
  "eks",
  "knb",
  "iperf3",
  "fortio",
  "netperf",
  "clusterloader2",
  "vegeta",
  "k8s-netperf",
  "kube-burner",
  "cilium-perf",
] as const;
export type FormatName = (typeof formatNames)[number];
export type FormatChoice = FormatName | "auto";

export type { Params, ParamValue } from "@cnibench/schema";

/** One figure as a parser reads it: published value and unit, converted later by the normaliser. */
export type Result = {
  metric: string;
  value: number;
  unit: string;
  aggregate?: "single" | "median" | "mean" | "min" | "max";
  samples?: number[];
  params?: Params;
  better?: "higher" | "lower" | "none";
  note?: string;
  /** What the tool published instead of its samples (mean, spread, n); see the contract's `summary`. */
  summary?: ResultSummary;
  /** "clients": the samples are concurrent clients of one run (the contract's `samplesAre`). */
  samplesAre?: "runs" | "clients";
};

/** Summary statistics of a figure whose samples were not published (bundle contract, result.summary). */
export type ResultSummary = Summary;

/**
 * The environment a run was measured in, as users name it on the command line, in query
 * parameters or in a JSON header. Each key fills one bundle field (see environmentFields).
 */
export type EnvironmentFields = {
  provider?: string;
  region?: string;
  cluster?: string;
  k8s?: string;
  nodeCount?: number;
  sku?: string;
  vcpus?: number;
  memoryGiB?: number;
  nicGbps?: number;
  os?: string;
  kernel?: string;
  cni?: string;
  cniVersion?: string;
  mode?: string;
  kubeProxy?: string;
  label?: string;
  settings?: Record<string, string | number | boolean | null>;
  /** Params added to every result that does not set them itself (e.g. path: "pod-pod" for a raw iperf3 run). */
  params?: Params;
  sourceTitle?: string;
  sourceUrl?: string;
};

/** Environment fields for all files, and per file (key: file name, path suffix or a `*` pattern). */
export type EnvironmentInput = EnvironmentFields & { files?: Record<string, EnvironmentFields> };

/** What a parser learns from one document or result directory. */
export type ParsedRun = {
  results: Result[];
  /** Environment read from the files themselves (context.yaml, uname output, knb's discovered kernel…). */
  derived: EnvironmentFields;
  collector: { name: string; version?: string; command?: string };
  runAt?: string;
  /** Parts of the input that could not be imported, in words, with where they are. */
  skipped: string[];
  /** Worth keeping with the figures (a failed test, a missing run): they travel in the bundle's `warnings`. */
  warnings?: BundleWarning[];
  /** Suffix naming this run when one file holds several (e.g. "block 2"). */
  part?: string;
  /**
   * Optional environment fields the files do not state but their figures need to be checked (the NIC
   * speed of a throughput benchmark): when nobody passes one, the import's answer asks for it by name.
   */
  asks?: { input: ScalarEnvironmentKey; why: string }[];
};

export type MissingField = {
  /** Bundle field path, e.g. "node.sku". */
  path: string;
  /** Environment key that supplies it, e.g. "sku" (--sku, ?sku=, {"sku": …}). */
  input: keyof EnvironmentFields;
};

export type ImportFile = { name: string; bytes: Uint8Array };

export type ArchiveLimits = {
  /** Most entries one archive may hold. */
  maxEntries: number;
  /** Most bytes all entries of the upload may hold once decompressed (the files streamed aside). */
  maxUnpackedBytes: number;
  /**
   * Most bytes of files read as they inflate and never held (statexec .prom, streamed.ts), in all:
   * they cost CPU, not memory, so their allowance is larger.
   */
  maxStreamedBytes: number;
};

export type ImportOptions = {
  format?: FormatChoice;
  limits?: Partial<ArchiveLimits>;
};

export type ImportedBundle = {
  /** The file (or result directory) the bundle was built from. */
  file: string;
  format: FormatName;
  bundle: BundleInput;
  /** Accepted but worth a look: the bundle's own warnings, then the contract's (slugs outside the vocabulary). */
  warnings: BundleWarning[];
};

export type FileStatus = "imported" | "skipped" | "failed";

export type FileReport = {
  file: string;
  format: FormatName | null;
  status: FileStatus;
  /** Number of bundles built from this file. */
  bundles: number;
  /** Why the file failed or was skipped. */
  error?: string;
  /** Required environment fields nobody supplied. */
  missing?: MissingField[];
  /** Contract violations, when the built bundle does not validate. */
  issues?: { path: string; message: string }[];
  /** Parts of an imported file that were left out, and why. */
  skippedParts?: string[];
  warnings?: string[];
};

export type ImportOutcome = { bundles: ImportedBundle[]; files: FileReport[] };

/** A failure that belongs to one file: the message is meant for the person who uploaded it. */
export class ImportError extends Error {
  constructor(
    message: string,
    readonly details: { missing?: MissingField[]; issues?: { path: string; message: string }[] } = {},
  ) {
    super(message);
    this.name = "ImportError";
  }
}

/** The upload as a whole breaks a limit (archive entries, unpacked size): nothing is imported. */
export class ArchiveLimitError extends Error {
  constructor(
    message: string,
    readonly limit: "entries" | "unpacked-bytes",
  ) {
    super(message);
    this.name = "ArchiveLimitError";
  }
}
