// A real `cnibench lab` output kept as a fixture (fixtures/lab/lab-sweep-2026-11-26.json): the bundles
// `cnibench lab --services 0,5000 --runs 3 --duration 2 --out …` wrote on 2026-11-26 at 10:02 UTC on the
// shared 2-vCPU development VM (AMD EPYC, kernel 6.18.44-fc-v657, Debian 12, iptables 1.8.9 legacy,
// nftables 1.0.6) while other jobs ran on it (load average 5–10): two bundles, iptables then nftables,
// each figure's three runs as its samples. Real, so as noisy as a shared machine makes it.
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "./paths.ts";
import { seedsOf } from "./web-figures.ts";

export const labSweepFile = path.join(repoRoot, "packages/test-support/fixtures/lab/lab-sweep-2026-11-26.json");

/** The lab's two bundles as written, iptables then nftables. */
export function labSweep(): Record<string, unknown>[] {
  return JSON.parse(fs.readFileSync(labSweepFile, "utf8")) as Record<string, unknown>[];
}

/** The sweep as the web server and the guide see it: scenarios `lab-iptables` and `lab-nftables`, their figures. */
export function labSeeds() {
  const [iptables, nftables] = labSweep();
  return seedsOf({
    "lab-iptables": [{ name: "lab-iptables", bundle: iptables }],
    "lab-nftables": [{ name: "lab-nftables", bundle: nftables }],
  });
}
