/**
 * A result tree of the size class of InfraBuilder's whole published 2024 tree (175 MB unpacked, about
 * 5,000 files, most of the bytes statexec .prom), gzipped, and its upload by curl — shared by the
 * whole-tree integration test and `npm run bench`'s tree row. The tree is the synthetic 25 setups × 3
 * runs of infrabuilder-setups.ts with, for every test and role, a synthetic statexec .prom of real
 * statexec lines, as busy as that setup's run: about 1,350 files of 131 KB, 180 MiB in all (the
 * published files range from a few hundred KB to 8 MB; the total and the file count are what the
 * limits meet).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Gzip, strFromU8, strToU8 } from "fflate";
import { tarHeader } from "./archives.ts";
import { busyCores, infrabuilderEnvironment, infrabuilderSetups } from "./infrabuilder-setups.ts";

const modes = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guestNice"];
const CPUS = 32;
const SAMPLES = 3;

/**
 * statexec's per-second text for one test and role: SAMPLES samples of 32 CPUs × 10 modes, as statexec
 * writes them, busy as the setup's small synthetic files are (`busyCores`: its all.results' user and
 * system, softirq by encryption), so each setup keeps its own CPU figures at the published size.
 */
function syntheticProm(
  setup: string,
  run: string,
  test: string,
  role: string,
  cores: NonNullable<ReturnType<typeof busyCores>>,
): Uint8Array {
  // CPU seconds each CPU spends per second in a mode.
  const perSecond: Record<string, number> = Object.fromEntries(
    Object.entries(cores).map(([mode, busy]) => [mode, busy / CPUS]),
  );
  perSecond.idle = Math.max(0, 1 - Object.values(perSecond).reduce((a, b) => a + b, 0));
  const lines = ["# Collector: blackswift/statexec", "# TYPE statexec_cpu_seconds_total counter"];
  for (let s = 0; s < SAMPLES; s++) {
    const at = 1704067200000 + s * 1000;
    lines.push(
      `statexec_command_status{instance="${test}",job="statexec",role="${role}",run="${run}",id="${setup}"} 1 ${at}`,
    );
    for (let cpu = 0; cpu < CPUS; cpu++) {
      for (const mode of modes) {
        const value = (100 + cpu + s * (perSecond[mode] ?? 0)).toFixed(6);
        lines.push(
          `statexec_cpu_seconds_total{instance="${test}",job="statexec",role="${role}",cpu="cpu${cpu}",mode="${mode}",id="${setup}",run="${run}"} ${value} ${at}`,
        );
      }
    }
  }
  return strToU8(`${lines.join("\n")}\n`);
}

function* tree(): Generator<{ name: string; bytes: Uint8Array }> {
  const base = infrabuilderSetups("upload").filter((f) => !f.name.endsWith(".prom"));
  yield* base;
  const summaries = new Map(
    base.filter((f) => f.name.endsWith("/all.results")).map((f) => [f.name, strFromU8(f.bytes)] as const),
  );
  for (const f of base) {
    const m = /^upload\/results\/([^/]+)\/(\d+)\/([a-z]+)-client\.cmd$/.exec(f.name);
    if (!m) continue;
    const [, setup, run, test] = m as unknown as [string, string, string, string];
    const summary = summaries.get(`upload/results/${setup}/${run}/all.results`) ?? "";
    for (const role of ["client", "server"]) {
      // A test all.results gives no CPU for ran without statexec's files, as in infrabuilderSetups.
      const cores = busyCores(setup, test, role, summary);
      if (cores)
        yield {
          name: `upload/results/${setup}/${run}/${test}-${role}.prom`,
          bytes: syntheticProm(setup, run, test, role, cores),
        };
    }
  }
}

/** The whole tree as a tar.gz, built entry by entry (the 177 MB tar never exists whole). */
export function infrabuilderTreeArchive(): { body: Uint8Array; unpacked: number; files: number } {
  const out: Uint8Array[] = [];
  let size = 0;
  const gzip = new Gzip({ level: 1 }, (chunk) => {
    out.push(chunk);
    size += chunk.length;
  });
  let unpacked = 0;
  let files = 0;
  for (const { name, bytes } of tree()) {
    gzip.push(tarHeader({ name, bytes }));
    gzip.push(bytes);
    const pad = (512 - (bytes.length % 512)) % 512;
    if (pad) gzip.push(new Uint8Array(pad));
    unpacked += bytes.length;
    files += 1;
  }
  gzip.push(new Uint8Array(1024), true);
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of out) {
    body.set(c, at);
    at += c.length;
  }
  return { body, unpacked, files };
}

/**
 * POST /v1/import of the archive file at `upload`, sent by curl: another process, so what holds the
 * caller's event loop meanwhile is the server's work, not the sending. The testbed as a user gives it
 * (nicGbps 40, hybridnet's mode), in a cluster of its own.
 */
export async function curlImportTree(
  base: string,
  token: string,
  upload: string,
  cluster: string,
): Promise<{ status: number; answer: { bundles: { id: string }[]; refused: number; files: { status: string }[] } }> {
  const query = new URLSearchParams({ cluster });
  const { stdout } = await promisify(execFile)(
    "curl",
    [
      "-sS",
      "-X",
      "POST",
      `${base}/v1/import?${query}`,
      "-H",
      `authorization: Bearer ${token}`,
      "-H",
      "content-type: application/gzip",
      "-H",
      `x-cnibench-environment: ${JSON.stringify(infrabuilderEnvironment)}`,
      "--data-binary",
      `@${upload}`,
      "-w",
      "\n%{http_code}",
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const status = Number(stdout.slice(stdout.lastIndexOf("\n") + 1));
  return { status, answer: JSON.parse(stdout.slice(0, stdout.lastIndexOf("\n"))) };
}
