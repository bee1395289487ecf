/**
 * `cnibench upload <path…>`: reads result files and directories, builds bundles locally with
 * @cnibench/importers (format detection, environment from flags), and uploads each to
 * POST /v1/bundles with retries. The files that import are uploaded even when others fail; the summary
 * lists every file with what became of it (a refused one with its reason), and the exit code is 0 only
 * when nothing failed.
 *
 * `cnibench gate` (gate.ts) shares the flags, building and uploading (parseCommand, prepareCampaign,
 * uploadCampaign), then compares the campaign with a baseline.
 *
 * The bundles of one invocation are one campaign (docs/design.md): each naming none gets --campaign, or
 * else the campaign derived from the bundles built (withCampaign, as POST /v1/import does), so running
 * the same upload again stays idempotent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  ArchiveLimitError,
  type EnvironmentInput,
  environmentFromJson,
  environmentFromStrings,
  type FileReport,
  type FormatChoice,
  formatNames,
  type ImportedBundle,
  importFiles,
  type MissingField,
  readCampaign,
  refineEnvironment,
  type ScalarEnvironmentKey,
  scalarEnvironmentKeys,
  withCampaign,
} from "@cnibench/importers";
import { runLab } from "@cnibench/lab";
import { download, downloadTarget, formatBytes } from "./download.ts";
import { runGate } from "./gate.ts";
import { createReporter } from "./progress.ts";
import { closeCampaigns, type UploadOptions, type UploadOutcome, uploadBundle } from "./upload.ts";
import { readInputs } from "./walk.ts";

export type Io = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout is a terminal: a progress bar there, plain lines otherwise. */
  isTTY: boolean;
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
};

export const DEFAULT_SERVER = "http://127.0.0.1:4000";

/** --kube-proxy → kubeProxy, --memory-gib → memoryGiB: environment keys as CLI flags. */
export function flagFor(key: ScalarEnvironmentKey | string): string {
  if (key === "memoryGiB") return "memory-gib";
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const usage = `Usage: cnibench upload [options] <file or directory>…

Reads benchmark outputs — iperf3 -J, fortio JSON/text, netperf omni, knb reports, EKS cni-benchmark
results/*.json, TKE network-benchmark.sh result directories (or .tar.gz/.zip of them), bundles —
builds cnibench bundles and uploads each to the ingest API (POST /v1/bundles).

Options:
  --server <url>        ingest API (default ${DEFAULT_SERVER})
  --token <token>       upload token (default: $CNIBENCH_TOKEN)
  --format <format>     auto (default), ${formatNames.join(", ")}
  --dry-run             print the bundles as JSON instead of uploading them
  --retries <n>         retries for 429 and 5xx answers and network errors, after the server's
                        Retry-After or with exponential backoff (default 4)
  --env-file <file>     environment as JSON ({"provider": "eks", …, "files": {"<name or *pattern>": {…}}})
  --campaign <name>     campaign of every bundle that names none (default: import-<hash of the bundles
                        built>, the same for the same files, so a re-run uploads nothing new)

Environment (what raw outputs do not say; a cnibench-environment.json among the files works too):
  --cluster --provider --region --k8s --node-count
  --sku --vcpus --memory-gib --nic-gbps --os --kernel
  --cni --cni-version --mode --kube-proxy --label
  --setting key=value   CNI setting (repeatable), e.g. --setting bpf.hostLegacyRouting=false
  --param key=value     param for every result that does not set it (repeatable), e.g. --param path=pod-pod
  --source-title --source-url

Example:
  npx cnibench upload --provider tke --kube-proxy ebpf ./benchmark-results-tke-c

cnibench import [options] <URL>: download a published result tree — a GitHub repository URL
(https://github.com/<owner>/<repo>[/tree/<ref>]) or an archive or file URL — and upload it as upload
does, with the same options, plus --max-bytes <n> (largest download, default 256 MiB).

cnibench gate [options] <file or directory>…: upload as one campaign and compare it with a baseline,
exit 1 when a figure is worse beyond its margin (CI; cnibench gate --help, docs/ci.md).

cnibench lab [options]: measure kube-proxy iptables and nftables against the Service count in throwaway
network namespaces on this host (root; cnibench lab --help, docs/lab.md).
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    io.stdout(usage);
    return command === undefined ? 2 : 0;
  }
  if (command === "gate") return runGate(rest, io);
  if (command === "lab") {
    // The lab uploads with this CLI's uploadBundle (retries, Retry-After), passed in: @cnibench/lab does not import the CLI.
    const upload = (bundle: Parameters<typeof uploadBundle>[0], to: { server: string; token: string }) =>
      uploadBundle(bundle, { ...to, retries: 4, backoffMs: 500, ...(io.fetch ? { fetch: io.fetch } : {}) });
    return runLab(rest, { ...io, upload });
  }
  if (command === "import") return runImport(rest, io);
  if (command !== "upload") {
    io.stderr(`cnibench: unknown command "${command}"\n\n${usage}`);
    return 2;
  }

  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(rest);
  } catch (error) {
    io.stderr(`cnibench upload: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(usage);
    return 0;
  }
  return uploadPaths("upload", values, positionals, io);
}

/** `upload`'s work, which `import` does too once its URL is downloaded: build, then upload or print. */
async function uploadPaths(command: string, values: UploadValues, positionals: string[], io: Io): Promise<number> {
  const prepared = await prepareCampaign(values, positionals, io, { needToken: !values["dry-run"] });
  if (!prepared.ok) {
    io.stderr(`cnibench ${command}: ${prepared.message}\n${prepared.problem === "no-paths" ? `\n${usage}` : ""}`);
    return prepared.problem === "too-large" ? 1 : 2;
  }
  const { bundles, reports, campaign: inCampaign } = prepared;

  if (values["dry-run"]) {
    io.stdout(
      `${JSON.stringify(
        bundles.map((b) => b.bundle),
        null,
        2,
      )}\n`,
    );
    io.stderr(summary(reports, new Map(), true, undefined, inCampaign));
    return reports.some((r) => r.status === "failed") ? 1 : 0;
  }

  const uploads = await uploadCampaign(prepared, io);
  await closeUploaded(prepared, uploads, io);
  io.stdout(summary(reports, groupByFile(bundles, uploads), false, prepared.server, inCampaign));
  const failed = reports.some((r) => r.status === "failed") || [...uploads.values()].some((u) => u.status === "failed");
  return failed ? 1 : 0;
}

const DEFAULT_MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;

/**
 * `cnibench import <URL>`: downloads a published result tree (a GitHub repository, or an archive or
 * file URL) into a temporary folder and uploads it as `upload` would, with every `upload` flag.
 */
async function runImport(args: string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(args, { "max-bytes": { type: "string" } });
  } catch (error) {
    io.stderr(`cnibench import: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(usage);
    return 0;
  }
  if (positionals.length !== 1) {
    io.stderr(`cnibench import: give one URL (a GitHub repository, or an archive or file URL)\n\n${usage}`);
    return 2;
  }
  const maxBytes = Number(values["max-bytes"] ?? DEFAULT_MAX_DOWNLOAD_BYTES);
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) {
    io.stderr("cnibench import: --max-bytes must be a whole number of bytes > 0\n");
    return 2;
  }
  let target: ReturnType<typeof downloadTarget>;
  try {
    target = downloadTarget(positionals[0]!);
  } catch (error) {
    io.stderr(`cnibench import: ${(error as Error).message}\n`);
    return 2;
  }
  io.stderr(`downloading ${target.url}\n`);
  let shown = 0;
  const got = await download(target.url, {
    maxBytes,
    ...(io.fetch ? { fetch: io.fetch } : {}),
    onProgress: (received, total) => {
      // A line per 8 MiB (a terminal redraws one line): enough to see it move, not a log flood.
      if (!io.isTTY && received - shown < 8 * 1024 * 1024) return;
      shown = received;
      const of = total ? ` of ${formatBytes(total)}` : "";
      io.stderr(io.isTTY ? `\r  ${formatBytes(received)}${of}   ` : `  ${formatBytes(received)}${of}\n`);
    },
  });
  if (!got.ok) {
    io.stderr(`${io.isTTY ? "\n" : ""}cnibench import: ${got.message}\n`);
    return 1;
  }
  io.stderr(`${io.isTTY ? "\n" : ""}downloaded ${formatBytes(got.bytes.byteLength)} as ${target.name}\n`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "cnibench-import-"));
  try {
    const file = path.join(dir, target.name);
    writeFileSync(file, got.bytes);
    return await uploadPaths("import", values, [file], io);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The flags of `upload`, which `gate` takes too (with its own `extra`), environment flags included. */
export function parseCommand<const Extra extends Record<string, { type: "string" | "boolean"; multiple?: boolean }>>(
  args: string[],
  extra?: Extra,
) {
  const envOptions = Object.fromEntries(
    scalarEnvironmentKeys.map((key) => [flagFor(key), { type: "string" as const }]),
  );
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      server: { type: "string" },
      token: { type: "string" },
      format: { type: "string" },
      "dry-run": { type: "boolean" },
      retries: { type: "string" },
      "env-file": { type: "string" },
      campaign: { type: "string" },
      setting: { type: "string", multiple: true },
      param: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
      ...envOptions,
      ...(extra ?? ({} as Extra)),
    },
  });
}

type UploadValues = ReturnType<typeof parseCommand>["values"];

/** A campaign built from files, ready to upload; or why not (a usage problem, or an archive too large). */
export type Prepared =
  | {
      ok: true;
      bundles: ImportedBundle[];
      /** One per file read, unreadable ones first. */
      reports: FileReport[];
      /** The campaign of the bundles (undefined when none was built). */
      campaign: string | undefined;
      token: string;
      retries: number;
      server: string;
    }
  | { ok: false; problem: "usage" | "no-paths" | "too-large"; message: string };

/**
 * What `upload` and `gate` share before sending anything: the flags checked, the environment from
 * --env-file and flags (flags win), the files read and imported, and the bundles made one campaign.
 */
export async function prepareCampaign(
  values: UploadValues,
  positionals: string[],
  io: Io,
  options: { needToken: boolean; server?: string },
): Promise<Prepared> {
  const refuse = (message: string, problem: "usage" | "no-paths" | "too-large" = "usage") =>
    ({ ok: false, problem, message }) as const;
  if (positionals.length === 0) return refuse("give at least one file or directory", "no-paths");
  const format = (values.format ?? "auto") as FormatChoice;
  if (format !== "auto" && !(formatNames as readonly string[]).includes(format)) {
    return refuse(`--format must be auto or one of ${formatNames.join(", ")}`);
  }
  const named = values.campaign === undefined ? undefined : readCampaign(values.campaign);
  if (named && !named.ok) return refuse(`--campaign ${named.message}`);
  const retries = Number(values.retries ?? 4);
  if (!Number.isInteger(retries) || retries < 0) return refuse("--retries must be a whole number ≥ 0");

  // Environment: --env-file, then flags (flags win).
  let environment: EnvironmentInput = {};
  const problems: string[] = [];
  if (values["env-file"]) {
    try {
      const read = environmentFromJson(JSON.parse(readFileSync(values["env-file"], "utf8")));
      environment = read.environment;
      problems.push(...read.issues.map((i) => `--env-file ${i.key}: ${i.message}`));
    } catch (error) {
      problems.push(`--env-file: ${(error as Error).message}`);
    }
  }
  const flagValues: Record<string, string | string[] | undefined> = {
    setting: values.setting,
    param: values.param,
  };
  const raw = values as Record<string, unknown>;
  for (const key of scalarEnvironmentKeys) flagValues[key] = raw[flagFor(key)] as string | undefined;
  const fromFlags = environmentFromStrings(flagValues);
  problems.push(...fromFlags.issues.map((i) => `--${flagFor(i.key)}: ${i.message}`));
  if (problems.length > 0) return refuse(problems.join("\n  "));
  environment = refineEnvironment(environment, fromFlags.environment);
  // The environment flags given, to say so when a file takes none of them (a bundle states its own).
  const given = [
    ...scalarEnvironmentKeys.filter((key) => raw[flagFor(key)] !== undefined).map((key) => `--${flagFor(key)}`),
    ...(values.setting?.length ? ["--setting"] : []),
    ...(values.param?.length ? ["--param"] : []),
    ...(values["env-file"] ? ["--env-file"] : []),
  ];

  const token = values.token ?? io.env.CNIBENCH_TOKEN;
  if (options.needToken && !token) {
    return refuse("no upload token; pass --token or set CNIBENCH_TOKEN (npm run token -- create <name>)");
  }

  // Read and build.
  const { files, unreadable } = await readInputs(positionals, 256 * 1024 * 1024);
  let outcome: ReturnType<typeof importFiles>;
  try {
    outcome = importFiles(files, environment, { format });
  } catch (error) {
    if (error instanceof ArchiveLimitError) return refuse(error.message, "too-large");
    throw error;
  }
  // One campaign for the invocation: the bundles are uploaded one by one, each naming it.
  const { campaign, bundles } = withCampaign(outcome.bundles, named?.ok ? named.campaign : undefined);
  const reports: FileReport[] = [
    ...unreadable.map(
      (u): FileReport => ({
        file: u.file,
        format: null,
        status: "failed",
        bundles: 0,
        error: `cannot read: ${u.error}`,
      }),
    ),
    ...outcome.files.map((r) => withIneffectiveFlags(r, given)),
  ];
  return {
    ok: true,
    bundles,
    reports,
    campaign: bundles.length > 0 ? campaign : undefined,
    token: token ?? "",
    retries,
    server: options.server ?? values.server ?? DEFAULT_SERVER,
  };
}

/**
 * A bundle file states its own environment, so the environment flags change nothing in it: its report
 * says which were given for nothing (uploading it as it is, not as the flags would have it).
 */
function withIneffectiveFlags(report: FileReport, given: readonly string[]): FileReport {
  if (report.format !== "bundle" || report.status !== "imported" || given.length === 0) return report;
  const note = `${given.join(", ")} ${given.length === 1 ? "has" : "have"} no effect on a bundle: it states its own environment`;
  return { ...report, warnings: [...(report.warnings ?? []), note] };
}

/** Uploads a prepared campaign's bundles one by one (POST /v1/bundles), with progress on `io`. */
export async function uploadCampaign(
  prepared: Extract<Prepared, { ok: true }>,
  io: Io,
): Promise<Map<ImportedBundle, UploadOutcome>> {
  const uploadOptions: UploadOptions = {
    server: prepared.server,
    token: prepared.token,
    retries: prepared.retries,
    backoffMs: 500,
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(io.sleep ? { sleep: io.sleep } : {}),
  };
  const reporter = createReporter(io, prepared.bundles.length);
  const uploads = new Map<ImportedBundle, UploadOutcome>();
  for (const bundle of prepared.bundles) {
    const result = await uploadBundle(bundle.bundle, {
      ...uploadOptions,
      onWait: (ms, reason) => reporter.waiting(bundle.file, ms, reason),
    });
    uploads.set(bundle, result);
    reporter.done(bundle.file, result);
  }
  reporter.stop();
  return uploads;
}

/** Closes the campaigns of the bundles that got in: their alerts are judged now (docs/alerts.md). */
export async function closeUploaded(
  prepared: Extract<Prepared, { ok: true }>,
  uploads: Map<ImportedBundle, UploadOutcome>,
  io: Io,
): Promise<void> {
  const campaigns = prepared.bundles.flatMap((b) =>
    uploads.get(b)?.status !== "failed" && b.bundle.campaign ? [b.bundle.campaign] : [],
  );
  await closeCampaigns(campaigns, {
    server: prepared.server,
    token: prepared.token,
    retries: 0,
    backoffMs: 0,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });
}

/** Upload outcomes by the file (report) they came from: "x.txt#run 2" belongs to "x.txt". */
export function groupByFile(bundles: ImportedBundle[], uploads: Map<ImportedBundle, UploadOutcome>) {
  const byFile = new Map<string, UploadOutcome[]>();
  for (const b of bundles) {
    const file = b.file.replace(/#[^/]*$/, "");
    byFile.set(file, [...(byFile.get(file) ?? []), uploads.get(b)!]);
  }
  return byFile;
}

function describeMissingForCli(missing: MissingField[]): string {
  return missing.map((m) => `${m.path} (--${flagFor(m.input)})`).join(", ");
}

/** One line per file: what became of it and of its bundles; then the totals, and the campaign of the bundles. */
export function summary(
  reports: FileReport[],
  uploads: Map<string, UploadOutcome[]>,
  dryRun: boolean,
  server?: string,
  campaign?: string,
): string {
  const lines: string[] = [];
  let created = 0;
  let existed = 0;
  let failedUploads = 0;
  for (const r of reports) {
    const what = r.format ? ` [${r.format}]` : "";
    if (r.status === "failed") {
      const detail = r.missing
        ? `missing ${describeMissingForCli(r.missing)}`
        : `${r.error ?? "failed"}${r.issues ? `: ${r.issues.map((i) => `${i.path} ${i.message}`).join("; ")}` : ""}`;
      lines.push(`  ✗ ${r.file}${what}: ${detail}`);
      continue;
    }
    if (r.status === "skipped") {
      lines.push(`  - ${r.file}: skipped (${r.error})`);
      continue;
    }
    const outcomes = uploads.get(r.file) ?? [];
    const c = outcomes.filter((o) => o.status === "created").length;
    const e = outcomes.filter((o) => o.status === "exists").length;
    const f = outcomes.filter((o) => o.status === "failed");
    created += c;
    existed += e;
    failedUploads += f.length;
    const parts = dryRun
      ? [`${r.bundles} bundle${r.bundles === 1 ? "" : "s"} built`]
      : [c ? `${c} created` : "", e ? `${e} already there` : "", f.length ? `${f.length} failed` : ""].filter(Boolean);
    lines.push(`  ${f.length ? "✗" : "✓"} ${r.file}${what}: ${parts.join(", ")}`);
    for (const o of f) if (o.status === "failed") lines.push(`      ${o.error}`);
    for (const s of r.skippedParts ?? []) lines.push(`      skipped: ${s}`);
    for (const w of r.warnings ?? []) lines.push(`      warning: ${w}`);
  }
  const failedFiles = reports.filter((r) => r.status === "failed").length;
  const totals = dryRun
    ? `${reports.filter((r) => r.status === "imported").length} file(s) imported, ${failedFiles} failed (dry run: nothing sent)`
    : `${created} bundle(s) created, ${existed} already there, ${failedUploads} upload(s) failed, ${failedFiles} file(s) failed — ${server}`;
  // Runs already stored keep the campaign they were first stored in: say where, when it is not this one.
  const elsewhere = new Map<string, number>();
  for (const o of [...uploads.values()].flat()) {
    if (o.status !== "exists" || o.storedIn === undefined || o.storedIn === campaign) continue;
    const name = o.storedIn ?? "their own";
    elsewhere.set(name, (elsewhere.get(name) ?? 0) + 1);
  }
  const kept = [...elsewhere].map(([name, n]) => `${n} already there stay in campaign ${name}\n`).join("");
  return `${lines.join("\n")}\n${totals}\n${campaign ? `campaign ${campaign}\n` : ""}${kept}`;
}
