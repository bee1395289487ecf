import { tar, zipEntries } from "@cnibench/test-support/archives";
import { fixtureBytes } from "@cnibench/test-support/fixtures";
import { gzipSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { ArchiveBudget, defaultArchiveLimits, expandArchive } from "./archive.ts";
import { readStatexecCpu } from "./formats/statexec.ts";
import { ArchiveLimitError } from "./types.ts";

const prom = fixtureBytes("real/infrabuilder-2024/antrea-ipsec/3/stm-server.prom");
const budget = (limits: Partial<typeof defaultArchiveLimits> = {}) =>
  new ArchiveBudget({ ...defaultArchiveLimits, ...limits });

describe("statexec .prom files in archives are streamed, not held", () => {
  const entries = [
    { name: "r/antrea-ipsec/3/stm-server.prom", bytes: prom },
    { name: "r/antrea-ipsec/results.prom", bytes: strToU8("benchmark_cpu_seconds 1\n") },
    { name: "r/antrea-ipsec/3/all.results", bytes: strToU8("STM_BW=1\n") },
  ];
  const expected = readStatexecCpu(prom);

  it.each([
    ["tar.gz", gzipSync(tar(entries))],
    ["tar", tar(entries)],
    ["zip", zipEntries(entries.map((e) => [e.name, e.bytes]))],
  ])("%s: the .prom is kept as its summary, which reads to the same figures; other files byte for byte", (_, bytes) => {
    const b = budget();
    const out = expandArchive("up", bytes, b);
    expect(out.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    const kept = out[0]!.bytes;
    expect(kept.length).toBeLessThan(2000);
    expect(readStatexecCpu(kept)).toEqual(expected);
    // results.prom (bench.sh's summary, not <test>-<role>.prom) and all.results are held as they are.
    expect(out[1]!.bytes).toEqual(entries[1]!.bytes);
    expect(out[2]!.bytes).toEqual(entries[2]!.bytes);
    // The 4,116,480 bytes of the .prom count against the streamed allowance, not the held one.
    expect(b.streamed).toBe(prom.length);
    expect(b.bytes).toBeLessThan(10_000);
  });

  it("a tree whose .prom files pass the held limit is accepted; beyond the streamed limit it is refused", () => {
    const bytes = gzipSync(tar(entries));
    // 1 MiB held allowance: the 4 MB .prom does not count against it.
    expect(() => expandArchive("up", bytes, budget({ maxUnpackedBytes: 1024 * 1024 }))).not.toThrow();
    expect(() => expandArchive("up", bytes, budget({ maxStreamedBytes: 1024 * 1024 }))).toThrow(ArchiveLimitError);
    expect(() => expandArchive("up", bytes, budget({ maxStreamedBytes: 1024 * 1024 }))).toThrow(
      /CNIBENCH_IMPORT_MAX_STREAMED_BYTES/,
    );
  });
});
