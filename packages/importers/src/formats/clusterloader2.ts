/**
 * ClusterLoader2 measurement files: perfdash "PerfData" JSON ({version, dataItems: [{data: {Perc50…},
 * unit, labels}]}), one per measurement, named <SummaryName>_<test>[_<identifier>]_<RFC3339>.json
 * (kubernetes/perf-tests clusterloader2/pkg/measurement/util/perftype.go, simple_test_executor.go).
 * Figures are percentiles of many pods or requests of one run; they map to the catalogue as:
 * - PodStartupLatency, Metric "pod_startup" → pod.startup.latency; its phases (create_to_schedule,
 *   schedule_to_run, run_to_watch, schedule_to_watch) → x.pod.phase.latency with param phase;
 * - APIResponsiveness(Prometheus), Verb "LIST" → apiserver.list.latency, other verbs →
 *   x.apiserver.latency, with verb, resource, scope and subresource as params;
 * - any other measurement (NetworkProgrammingLatency, …) → x.cl2.<measurement>, with its labels as params.
 * Data keys other than PercNN (e.g. a count) are named in `skipped`.
 */
import { ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { basename, finite, isObject, parseJson, percentileName, unitProblem } from "../util.ts";

export function looksLikePerfData(doc: unknown): boolean {
  return (
    isObject(doc) &&
    typeof doc.version === "string" &&
    Array.isArray(doc.dataItems) &&
    doc.dataItems.some((item) => isObject(item) && isObject(item.data))
  );
}

/** What the file name says: the measurement (its summary name's first part) and when it was written. */
export function clusterLoaderName(name: string): { measurement?: string; runAt?: string } {
  const file = basename(name).replace(/\.json$/i, "");
  // The RFC3339 stamp at the end; ':' is often replaced (file systems, archives) by '-'.
  const stamp = /_(\d{4}-\d{2}-\d{2})T(\d{2})[:-](\d{2})[:-](\d{2})(Z|[+-]\d{2}[:-]?\d{2})$/.exec(file);
  // CL2's summary names are CamelCase (PodStartupLatency, StatelessPodStartupLatency): the first such part.
  const measurement = file.split("_").find((part) => /^[A-Z][A-Za-z0-9]*$/.test(part));
  let runAt: string | undefined;
  if (stamp) {
    const offset = stamp[5] === "Z" ? "Z" : `${stamp[5]!.slice(0, 3)}:${stamp[5]!.slice(-2)}`;
    runAt = `${stamp[1]}T${stamp[2]}:${stamp[3]}:${stamp[4]}${offset}`;
  }
  return { ...(measurement ? { measurement } : {}), ...(runAt ? { runAt } : {}) };
}

const PHASES = new Set(["create_to_schedule", "schedule_to_run", "run_to_watch", "schedule_to_watch"]);

export function parseClusterLoader(text: string, name = ""): ParsedRun {
  const doc = parseJson(text, "ClusterLoader2 JSON");
  if (!looksLikePerfData(doc)) {
    throw new ImportError('not a ClusterLoader2 measurement file: no "version" and "dataItems" with "data"');
  }
  const { measurement, runAt } = clusterLoaderName(name);
  const items = (doc as { dataItems: unknown[] }).dataItems;
  const results: Result[] = [];
  const skipped: string[] = [];
  items.forEach((item, i) => {
    if (!isObject(item) || !isObject(item.data)) {
      skipped.push(`dataItems[${i}]: no "data" object`);
      return;
    }
    const unit = typeof item.unit === "string" && item.unit.trim() !== "" ? item.unit.trim() : undefined;
    if (!unit) {
      skipped.push(`dataItems[${i}]: no "unit", so its figures cannot be read`);
      return;
    }
    const labels = isObject(item.labels) ? item.labels : {};
    const label = (key: string) => (typeof labels[key] === "string" ? (labels[key] as string) : undefined);
    const { metric, params, better } = mapItem(measurement, label);
    const problem = unitProblem(metric, unit);
    if (problem) {
      skipped.push(`dataItems[${i}]: ${problem}`);
      return;
    }
    for (const [key, raw] of Object.entries(item.data)) {
      const percentile = /^Perc(\d+(?:\.\d+)?)$/.exec(key)?.[1];
      const value = finite(raw);
      if (percentile === undefined || value === undefined) {
        skipped.push(`dataItems[${i}].data.${key}: not a PercNN percentile figure`);
        continue;
      }
      results.push({
        metric,
        value,
        unit,
        params: { ...params, percentile: percentileName(Number(percentile)) },
        ...(better ? { better } : {}),
      });
    }
  });
  if (results.length === 0) throw new ImportError("ClusterLoader2 JSON: no percentile figure in dataItems");
  // Sent without its name (a raw POST /v1/import body is "upload"), files of different measurements
  // would land in one series: say how to send the name.
  if (!measurement) {
    skipped.push(
      "the file name, as ClusterLoader2 writes it (<SummaryName>_<test>_<RFC3339>.json), says which measurement and when; none was given: pass ?filename=… or Content-Disposition (the CLI sends it)",
    );
  }
  return {
    results,
    derived: {},
    collector: { name: "clusterloader2" },
    ...(runAt ? { runAt } : {}),
    skipped,
  };
}

/** Labels kept as params on figures of other measurements (CL2's, and cilium-cli's --report-dir PerfData). */
const LABEL_KEYS = ["Metric", "Resource", "Scope", "metric", "scenario", "node", "test_type"];

function mapItem(
  measurement: string | undefined,
  label: (key: string) => string | undefined,
): { metric: string; params: Params; better?: "lower" } {
  const base: Params = measurement ? { measurement } : {};
  const phase = label("Metric");
  if (phase === "pod_startup") return { metric: "pod.startup.latency", params: base };
  if (phase !== undefined && PHASES.has(phase)) {
    return { metric: "x.pod.phase.latency", params: { ...base, phase }, better: "lower" };
  }
  const verb = label("Verb");
  if (verb !== undefined) {
    const params: Params = { ...base, verb };
    for (const [key, param] of [
      ["Resource", "resource"],
      ["Subresource", "subresource"],
      ["Scope", "scope"],
    ] as const) {
      const value = label(key);
      if (value) params[param] = value;
    }
    return verb === "LIST"
      ? { metric: "apiserver.list.latency", params }
      : { metric: "x.apiserver.latency", params, better: "lower" };
  }
  // Anything else keeps its labels as params under a metric named after the measurement.
  const slug = (measurement ?? "measurement").replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
  const params: Params = { ...base };
  for (const key of LABEL_KEYS) {
    const value = label(key);
    if (value) params[key.charAt(0).toLowerCase() + key.slice(1)] = value;
  }
  return { metric: `x.cl2.${slug}`, params, better: "lower" };
}
