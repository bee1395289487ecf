import { defaultArchiveLimits } from "@cnibench/importers";

/**
 * The request limits when none are configured (CNIBENCH_MAX_BUNDLE_BYTES, CNIBENCH_IMPORT_MAX_BYTES,
 * CNIBENCH_IMPORT_MAX_ENTRIES, CNIBENCH_IMPORT_MAX_UNPACKED_BYTES, CNIBENCH_IMPORT_MAX_STREAMED_BYTES): buildServer applies them, and the
 * OpenAPI document, which is the same for every deployment, states them.
 */
export const defaultLimits = {
  maxBundleBytes: 5 * 1024 * 1024,
  maxImportBytes: 64 * 1024 * 1024,
  importLimits: defaultArchiveLimits,
};
