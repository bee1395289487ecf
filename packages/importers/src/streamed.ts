/**
 * Files read as they inflate (or as they are read from disk) and never held: statexec's per-test
 * Prometheus text (<test>-<role>.prom of InfraBuilder's bench.sh, 4–8 MB each, most of a 175 MB
 * tree), of which the importer needs the first and last sample of each CPU counter. Each is kept as
 * the short summary statexec.ts writes, which the InfraBuilder parser reads like the file itself.
 * Their bytes count against ArchiveLimits.maxStreamedBytes instead of maxUnpackedBytes.
 */
import { StatexecCpuReader, statexecSummaryText } from "./formats/statexec.ts";

export type StreamedReader = {
  push(chunk: Uint8Array): void;
  /** What is kept of the file. */
  end(): Uint8Array;
};

const encoder = new TextEncoder();

/** A reader for a file streamed by name, or undefined for a file that is held as it is. */
export function streamedReader(name: string): StreamedReader | undefined {
  if (!/-(client|server)\.prom$/.test(name)) return undefined;
  const reader = new StatexecCpuReader();
  return {
    push: (chunk) => reader.push(chunk),
    end: () => {
      const cpu = reader.result();
      return encoder.encode(cpu ? statexecSummaryText(cpu) : "# cnibench: no statexec_cpu_seconds_total samples\n");
    },
  };
}
