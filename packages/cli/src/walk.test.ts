import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readStatexecCpu } from "@cnibench/importers";
import { fixtureBytes } from "@cnibench/test-support/fixtures";
import { afterAll, describe, expect, it } from "vitest";
import { readInputs } from "./walk.ts";

describe("readInputs", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cnibench-walk-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("streams statexec .prom files and keeps their summary; other files whole", async () => {
    const prom = fixtureBytes("real/infrabuilder-2024/antrea-ipsec/3/stm-server.prom");
    mkdirSync(path.join(dir, "results/antrea-ipsec/3"), { recursive: true });
    writeFileSync(path.join(dir, "results/antrea-ipsec/3/stm-server.prom"), prom);
    writeFileSync(path.join(dir, "results/antrea-ipsec/3/all.results"), "STM_BW=1\n");
    const { files, unreadable } = await readInputs([path.join(dir, "results")], 256 * 1024 * 1024);
    expect(unreadable).toEqual([]);
    expect(files.map((f) => f.name)).toEqual([
      "results/antrea-ipsec/3/all.results",
      "results/antrea-ipsec/3/stm-server.prom",
    ]);
    expect(new TextDecoder().decode(files[0]!.bytes)).toBe("STM_BW=1\n");
    // 4,116,480 bytes on disk, a summary of under 2 KB in memory that reads to the same figures.
    expect(files[1]!.bytes.length).toBeLessThan(2000);
    expect(readStatexecCpu(files[1]!.bytes)).toEqual(readStatexecCpu(prom));
  });
});
