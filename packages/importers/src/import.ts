/**
 * importFiles: files (and archives, and result directories) in, contract bundles out, with a report
 * per file. Pure: no network, no disk; callers read the files and store or upload the bundles.
 */
import { BUNDLE_SCHEMA, type BundleInput, parseBundle } from "@cnibench/schema";
import { ArchiveBudget, archiveKind, defaultArchiveLimits, expandArchive } from "./archive.ts";
import { detectFormat, isBundleDocument, looksBinary, looksLikeTkeSummary } from "./detect.ts";
import {
  describeMissing,
  ENVIRONMENT_FILE,
  environmentContradictions,
  environmentFields,
  environmentFromJson,
  missingFields,
  resolveEnvironment,
} from "./environment.ts";
import { parseCiliumPerf } from "./formats/cilium-perf.ts";
import { parseClusterLoader } from "./formats/clusterloader2.ts";
import { parseEks } from "./formats/eks.ts";
import { parseFortio, parseFortioText } from "./formats/fortio.ts";
import { parseInfrabuilderRun, readClientCommand, SETUP_SUMMARIES } from "./formats/infrabuilder.ts";
import { parseIperf3 } from "./formats/iperf3.ts";
import { parseK8sNetperf } from "./formats/k8s-netperf.ts";
import { isKnbDataEntry, KNBDATA_HINT, looksLikeKnbText, parseKnbDocument, parseKnbText } from "./formats/knb.ts";
import { parseKubeBurner } from "./formats/kube-burner.ts";
import { parseNetperf } from "./formats/netperf.ts";
import { parseTkeDirectory, TKE_MARKERS } from "./formats/tke.ts";
import { concurrentClients, parseVegeta } from "./formats/vegeta.ts";
import {
  type EnvironmentInput,
  type FileReport,
  type FormatName,
  ImportError,
  type ImportedBundle,
  type ImportFile,
  type ImportOptions,
  type ImportOutcome,
  type ParsedRun,
} from "./types.ts";
import { basename, decodeText, parseJson } from "./util.ts";

type Unit = { name: string; bytes: Uint8Array };

/**
 * Builds bundles from files. `environment` holds what the files do not say (provider, SKU, CNI…);
 * per-file entries (`files`) and cnibench-environment.json files among the inputs refine it.
 * Archives are expanded in memory within `options.limits`; breaking a limit throws ArchiveLimitError.
 */
export function importFiles(
  files: ImportFile[],
  environment: EnvironmentInput = {},
  options: ImportOptions = {},
): ImportOutcome {
  const format = options.format ?? "auto";
  const budget = new ArchiveBudget({ ...defaultArchiveLimits, ...options.limits });
  const reports: FileReport[] = [];
  const bundles: ImportedBundle[] = [];

  // 1. Archives become their entries, named "<archive>/<entry>".
  const units: Unit[] = [];
  for (const file of files) {
    const name = file.name.replaceAll("\\", "/");
    if (name.toLowerCase().endsWith(".knbdata")) {
      // knb's -o data is a tar.gz of its raw outputs: not a report, and its entries are none either.
      reports.push({ file: name, format: "knb", status: "failed", bundles: 0, error: KNBDATA_HINT });
      continue;
    }
    if (archiveKind(file.bytes)) {
      try {
        const entries = expandArchive(name, file.bytes, budget);
        if (entries.some((e) => isKnbDataEntry(e.name))) {
          reports.push({ file: name, format: "knb", status: "failed", bundles: 0, error: KNBDATA_HINT });
          continue;
        }
        for (const entry of entries) units.push({ name: `${name}/${entry.name}`, bytes: entry.bytes });
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
        reports.push({ file: name, format: null, status: "failed", bundles: 0, error: error.message });
      }
    } else {
      units.push({ name, bytes: file.bytes });
    }
  }

  // 2. cnibench-environment.json files give the environment of the files beside and below them.
  const sidecars: { dir: string; environment: EnvironmentInput }[] = [];
  const rest: Unit[] = [];
  for (const unit of units) {
    if (basename(unit.name) !== ENVIRONMENT_FILE) {
      rest.push(unit);
      continue;
    }
    try {
      const { environment: env, issues } = environmentFromJson(parseJson(decodeText(unit.bytes), ENVIRONMENT_FILE));
      if (issues.length > 0) throw new ImportError(issues.map((i) => `${i.key}: ${i.message}`).join("; "));
      sidecars.push({ dir: dirname(unit.name), environment: env });
      reports.push({
        file: unit.name,
        format: null,
        status: "skipped",
        bundles: 0,
        error: "environment file, read as the environment of its folder",
      });
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      reports.push({
        file: unit.name,
        format: null,
        status: "failed",
        bundles: 0,
        error: `${ENVIRONMENT_FILE}: ${error.message}`,
      });
    }
  }
  const layersFor = (file: string): EnvironmentInput[] => [
    ...sidecars
      .filter((s) => s.dir === "" || file === s.dir || file.startsWith(`${s.dir}/`))
      .sort((a, b) => a.dir.length - b.dir.length)
      .map((s) => s.environment),
    environment,
  ];

  const emit = (file: string, fmt: FormatName, runs: ParsedRun[]) => {
    const report: FileReport = { file, format: fmt, status: "imported", bundles: 0 };
    const skippedParts = runs.flatMap((r) => r.skipped);
    if (skippedParts.length > 0) report.skippedParts = skippedParts;
    const built: ImportedBundle[] = [];
    const asked = new Set<string>();
    try {
      for (const run of runs) built.push(buildBundle(file, fmt, run, layersFor(file), asked));
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      reports.push(failure(file, fmt, error));
      return;
    }
    const warnings = [...built.flatMap((b) => b.warnings.map((w) => w.message)), ...asked];
    if (warnings.length > 0) report.warnings = warnings;
    report.bundles = built.length;
    bundles.push(...built);
    reports.push(report);
  };

  // 3. network-benchmark.sh result directories: every folder holding context.yaml or benchmark-summary.json.
  const roots =
    format === "auto" || format === "tke"
      ? [
          ...new Set(
            rest
              .filter((u) => (TKE_MARKERS as readonly string[]).includes(basename(u.name)))
              .map((u) => dirname(u.name)),
          ),
        ].sort((a, b) => b.length - a.length)
      : [];
  const claimed = new Set<Unit>();
  for (const root of roots) {
    const members = rest.filter((u) => !claimed.has(u) && (root === "" || u.name.startsWith(`${root}/`)));
    for (const m of members) claimed.add(m);
    const map = new Map(members.map((m) => [root === "" ? m.name : m.name.slice(root.length + 1), m.bytes]));
    const label = root === "" ? "." : root;
    try {
      emit(label, "tke", [parseTkeDirectory(map)]);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      reports.push(failure(label, "tke", error));
    }
  }

  // 4. bench.sh run folders (InfraBuilder): every folder holding a <test>-client.cmd with statexec's labels.
  // Its files belong to the run, read or not (.prom, server-side outputs): none is reported on its own.
  // The setup folder's summaries and the setup/cni-configs scripts get one report each, as set aside.
  const runFolders =
    format === "auto" || format === "infrabuilder"
      ? [
          ...new Set(
            rest
              .filter(
                (u) =>
                  !claimed.has(u) &&
                  u.name.endsWith("-client.cmd") &&
                  readClientCommand(decodeText(u.bytes)) !== undefined,
              )
              .map((u) => dirname(u.name)),
          ),
        ].sort()
      : [];
  const cniConfigs = runFolders.length > 0 ? rest.filter((u) => !claimed.has(u) && isCniConfig(u.name)) : [];
  const setupsRead = new Set<string>();
  const cniConfig = (setup: string) => {
    const unit = cniConfigs.find((u) => basename(u.name) === `${setup}.sh`);
    if (unit) setupsRead.add(setup);
    return unit && decodeText(unit.bytes);
  };
  for (const folder of runFolders) {
    const members = rest.filter((u) => !claimed.has(u) && dirname(u.name) === folder);
    for (const m of members) claimed.add(m);
    const label = folder === "" ? "." : folder;
    try {
      emit(label, "infrabuilder", [
        parseInfrabuilderRun(new Map(members.map((m) => [basename(m.name), m.bytes])), cniConfig),
      ]);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      reports.push(failure(label, "infrabuilder", error));
    }
  }
  const setupFolders = new Set(runFolders.map(dirname));
  for (const unit of rest) {
    if (claimed.has(unit)) continue;
    const summary =
      setupFolders.has(dirname(unit.name)) && (SETUP_SUMMARIES as readonly string[]).includes(basename(unit.name));
    if (!summary && !cniConfigs.includes(unit)) continue;
    claimed.add(unit);
    const setup = basename(unit.name).replace(/\.sh$/, "");
    const error = summary
      ? "bench.sh's summary of the setup's runs; the run folders were read instead"
      : setupsRead.has(setup)
        ? `the CNI configuration of setup ${setup}, read with its runs`
        : `a bench.sh CNI configuration, but no run folder of setup ${setup} is in the upload`;
    reports.push({ file: unit.name, format: null, status: "skipped", bundles: 0, error });
  }

  // 5. vegeta JSON reports of one run's concurrent clients (one folder, one pace, overlapping attacks): one run.
  if (format === "auto" || format === "vegeta") {
    // JSON objects only (vegeta's text report has no times to tell concurrent clients from runs in turn).
    const candidates = rest
      .filter((u) => !claimed.has(u) && startsWithBrace(u.bytes))
      .map((u) => ({ unit: u, name: u.name, folder: dirname(u.name), text: decodeText(u.bytes) }));
    for (const group of concurrentClients(candidates)) {
      const names = new Set(group.names);
      const members = candidates.filter((c) => names.has(c.name));
      for (const m of members) claimed.add(m.unit);
      const folder = members[0]!.folder;
      emit(`${folder === "" ? "" : `${folder}/`}{${members.map((m) => basename(m.name)).join(",")}}`, "vegeta", [
        group.run,
      ]);
    }
  }

  // 6. Everything else, one file at a time.
  for (const unit of rest) {
    if (claimed.has(unit)) continue;
    if (looksBinary(unit.bytes)) {
      const nested = archiveKind(unit.bytes) ? "an archive inside an archive is not expanded" : "a binary file";
      reports.push({ file: unit.name, format: null, status: "skipped", bundles: 0, error: nested });
      continue;
    }
    const text = decodeText(unit.bytes);
    let fmt: FormatName;
    if (format === "auto") {
      const detection = detectFormat(unit.name, text);
      if (detection.format === null) {
        reports.push({ file: unit.name, format: null, status: "skipped", bundles: 0, error: detection.reason });
        continue;
      }
      fmt = detection.format;
    } else {
      fmt = format;
    }
    if (fmt === "bundle") {
      importBundleFile(unit.name, text, reports, bundles);
      continue;
    }
    if (fmt === "infrabuilder") {
      reports.push(
        runFolders.length > 0
          ? { file: unit.name, format: null, status: "skipped", bundles: 0, error: "not part of a bench.sh run folder" }
          : failure(
              unit.name,
              "infrabuilder",
              new ImportError(
                "not an InfraBuilder bench.sh result: send its result tree (results/<setup>/<run>/ with the <test>-client.cmd, <test>-client.stdout and all.results files, and setup/cni-configs/<setup>.sh) as an archive, or the folder with the CLI",
              ),
            ),
      );
      continue;
    }
    if (fmt === "tke") {
      // A benchmark-summary.json sent on its own (e.g. as the body of POST /v1/import).
      const summary = text.trimStart().startsWith("{") ? safeJson(text) : undefined;
      if (looksLikeTkeSummary(summary)) {
        try {
          emit(unit.name, "tke", [parseTkeDirectory(new Map([["benchmark-summary.json", unit.bytes]]))]);
        } catch (error) {
          if (!(error instanceof ImportError)) throw error;
          reports.push(failure(unit.name, "tke", error));
        }
      } else {
        reports.push(
          failure(
            unit.name,
            "tke",
            new ImportError(
              "not a network-benchmark.sh result: send its result directory as an archive (context.yaml, benchmark-summary.json and the raw folders)",
            ),
          ),
        );
      }
      continue;
    }
    try {
      emit(unit.name, fmt, parseSingle(fmt, text, unit.name));
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      reports.push(failure(unit.name, fmt, error));
    }
  }
  noteVegetaTexts(rest, reports, bundles);
  return { bundles, files: reports };
}

/**
 * vegeta's text report prints no times, so several of one folder at one pace may be one run's clients
 * or runs in turn: each is read as a run, and the answer says how to tell cnibench which.
 */
function noteVegetaTexts(units: readonly Unit[], reports: FileReport[], bundles: readonly ImportedBundle[]): void {
  const texts = reports.filter((r) => r.format === "vegeta" && r.status === "imported" && !r.file.endsWith("}"));
  if (texts.length < 2) return;
  const byName = new Map(units.map((u) => [u.name, u]));
  const byPace = new Map<string, FileReport[]>();
  for (const r of texts) {
    const unit = byName.get(r.file);
    if (!unit || startsWithBrace(unit.bytes)) continue;
    const key = `${dirname(r.file)}\u0000${bundles.find((b) => b.file === r.file)?.bundle.results[0]?.params?.qps}`;
    const same = byPace.get(key);
    if (same) same.push(r);
    else byPace.set(key, [r]);
  }
  for (const same of byPace.values()) {
    if (same.length < 2) continue;
    const note = `one of ${same.length} vegeta text reports of this folder at the same pace, each read as a run: if they are concurrent clients of one run, merge them (vegeta report client-*.bin) or send their -type=json reports, which cnibench reads as one run`;
    for (const r of same) r.warnings = [...(r.warnings ?? []), note];
  }
}

function parseSingle(
  format: Exclude<FormatName, "bundle" | "tke" | "infrabuilder">,
  text: string,
  name: string,
): ParsedRun[] {
  switch (format) {
    case "iperf3":
      return [parseIperf3(text)];
    case "fortio":
      return [text.trimStart().startsWith("{") ? parseFortio(text) : parseFortioText(text)];
    case "netperf":
      return parseNetperf(text);
    case "eks":
      return [parseEks(text)];
    case "knb":
      return [looksLikeKnbText(text) ? parseKnbText(text) : parseKnbDocument(text)];
    case "clusterloader2":
      return [parseClusterLoader(text, name)];
    case "vegeta":
      return [parseVegeta(text)];
    case "k8s-netperf":
      return parseK8sNetperf(text);
    case "kube-burner":
      return [parseKubeBurner(text)];
    case "cilium-perf":
      return [parseCiliumPerf(text)];
  }
}

function importBundleFile(file: string, text: string, reports: FileReport[], bundles: ImportedBundle[]): void {
  try {
    const doc = parseJson(text, "bundle JSON");
    if (!isBundleDocument(doc)) throw new ImportError(`not a cnibench bundle: "schema" is not "${BUNDLE_SCHEMA}"`);
    const parsed = parseBundle(doc);
    if (!parsed.ok) {
      throw new ImportError(`the bundle breaks the contract in ${parsed.issues.length} place(s)`, {
        issues: parsed.issues,
      });
    }
    const { warnings } = parsed;
    bundles.push({ file, format: "bundle", bundle: doc as BundleInput, warnings });
    reports.push({
      file,
      format: "bundle",
      status: "imported",
      bundles: 1,
      ...(warnings.length ? { warnings: warnings.map((w) => w.message) } : {}),
    });
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    reports.push(failure(file, "bundle", error));
  }
}

function failure(file: string, format: FormatName, error: ImportError): FileReport {
  return {
    file,
    format,
    status: "failed",
    bundles: 0,
    error: error.message,
    ...(error.details.missing ? { missing: error.details.missing } : {}),
    ...(error.details.issues ? { issues: error.details.issues } : {}),
  };
}

/** One parsed run plus the environment → a bundle that passes the contract, or an ImportError saying why not. */
function buildBundle(
  file: string,
  format: FormatName,
  run: ParsedRun,
  layers: EnvironmentInput[],
  asked: Set<string>,
): ImportedBundle {
  const env = resolveEnvironment(file, run.derived, layers);
  // Said in the answer, not stored: the bundle is complete without it.
  for (const ask of run.asks ?? []) {
    if (env[ask.input] === undefined) {
      const path = environmentFields[ask.input].path;
      const flag = ask.input.replace(/[A-Z]+/g, (c) => `-${c.toLowerCase()}`);
      asked.add(
        `${path} (${ask.input}) not given: ${ask.why}; pass ?${ask.input}=…, "${ask.input}" in the environment JSON or --${flag} with the CLI`,
      );
    }
  }
  const missing = missingFields(env);
  if (missing.length > 0) {
    throw new ImportError(
      `missing required environment: ${describeMissing(missing)}; the ${format} output does not say, so pass them (CLI flags, query parameters or the environment JSON)`,
      { missing },
    );
  }
  // What the files say about the run first, then where the user's environment overrode them.
  const warnings = [...(run.warnings ?? []), ...environmentContradictions(run.derived, env)];
  const extra = env.params ?? {};
  const results = run.results.map((r) => {
    const params = { ...extra, ...r.params };
    return Object.keys(params).length > 0 ? { ...r, params } : { ...r };
  });
  const source = {
    ...(env.sourceTitle ? { title: env.sourceTitle } : {}),
    ...(env.sourceUrl ? { url: env.sourceUrl } : {}),
  };
  const bundle: BundleInput = {
    schema: BUNDLE_SCHEMA,
    ...(Object.keys(source).length > 0 ? { source } : {}),
    collector: run.collector,
    ...(run.runAt ? { runAt: run.runAt } : {}),
    cluster: {
      name: env.cluster!,
      provider: env.provider!,
      ...(env.region ? { region: env.region } : {}),
      ...(env.k8s ? { kubernetesVersion: env.k8s } : {}),
      ...(env.nodeCount !== undefined ? { nodeCount: env.nodeCount } : {}),
    },
    node: {
      sku: env.sku!,
      ...(env.vcpus !== undefined ? { vcpus: env.vcpus } : {}),
      ...(env.memoryGiB !== undefined ? { memoryGiB: env.memoryGiB } : {}),
      ...(env.nicGbps !== undefined ? { nicGbps: env.nicGbps } : {}),
      ...(env.os ? { os: env.os } : {}),
      kernel: env.kernel!,
    },
    cni: {
      name: env.cni!,
      ...(env.cniVersion ? { version: env.cniVersion } : {}),
      mode: env.mode!,
      ...(env.kubeProxy ? { kubeProxy: env.kubeProxy } : {}),
      ...(env.label ? { label: env.label } : {}),
      ...(env.settings && Object.keys(env.settings).length > 0 ? { settings: env.settings } : {}),
    },
    results,
    ...(warnings.length ? { warnings } : {}),
  };
  const parsed = parseBundle(bundle);
  if (!parsed.ok) {
    throw new ImportError(`the bundle built from this file breaks the contract in ${parsed.issues.length} place(s)`, {
      issues: parsed.issues,
    });
  }
  return {
    file: run.part ? `${file}#${run.part}` : file,
    format,
    bundle,
    warnings: parsed.warnings,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** setup/cni-configs/<setup>.sh, the script bench.sh installed a setup's CNI with. */
function isCniConfig(path: string): boolean {
  return path.endsWith(".sh") && basename(dirname(path)) === "cni-configs";
}

/** The first non-blank byte is "{" (a JSON object), read without decoding the file. */
function startsWithBrace(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if (b === 0x7b) return true;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0xef && b !== 0xbb && b !== 0xbf) return false;
  }
  return false;
}

function dirname(path: string): string {
  const at = path.lastIndexOf("/");
  return at === -1 ? "" : path.slice(0, at);
}
