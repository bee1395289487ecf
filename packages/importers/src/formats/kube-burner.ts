/**
 * kube-burner quantile measurements: the <measurement>QuantilesMeasurement-<job>.json files its local
 * indexer writes (a JSON array of {quantileName, P99, P95, P50, max, avg, min?, metricName, jobName,
 * timestamp}; kube-burner pkg/measurements/metrics/metrics.go, go-commons indexers/local.go). The
 * figures are quantiles over the pods, services or policies of one run: they map to
 * - podLatencyQuantilesMeasurement "Ready" → pod.startup.latency; its other conditions (PodScheduled,
 *   Initialized, ContainersReady, …) → x.pod.phase.latency with param phase;
 * - svcLatencyQuantilesMeasurement → x.service.latency, netpolLatencyQuantilesMeasurement →
 *   x.netpol.latency, nodeLatencyQuantilesMeasurement → x.node.phase.latency, any other
 *   <name>QuantilesMeasurement → x.kube-burner.<name>.latency, each with param phase;
 * and P50/P95/P99 become percentiles, avg/min/max stats, with param job. Latencies are ms, as
 * kube-burner's documentation states, except the service latency: a Go duration in ns (its example
 * reads "P99": 1867593282, 1.87 s). Per-object documents (podLatencyMeasurement, …) and jobSummary
 * carry no summary figure and are refused with a pointer to the quantile file.
 * The documentation's examples are not valid JSON (trailing commas, objects not in [ ]): such
 * text is repaired for reading and the repair named.
 */
import { ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { finite, isObject, type Json } from "../util.ts";

export function looksLikeKubeBurner(doc: unknown): boolean {
  const docs = Array.isArray(doc) ? doc : [doc];
  return (
    docs.length > 0 &&
    docs.every((d) => isObject(d) && typeof d.metricName === "string" && ("uuid" in d || "timestamp" in d))
  );
}

export function looksLikeKubeBurnerText(text: string): boolean {
  return (
    /"metricName"\s*:\s*"[A-Za-z]+(QuantilesMeasurement|Measurement|jobSummary)/.test(text) && /"uuid"\s*:/.test(text)
  );
}

/** Trailing commas go; several top-level objects are wrapped in [ ] (the documentation's snippets). */
function repaired(text: string): unknown {
  let fixed = text.replace(/,(\s*[}\]])/g, "$1").trim();
  if (fixed.startsWith("{") && /}\s*,\s*{/.test(fixed)) fixed = `[${fixed}]`;
  try {
    return JSON.parse(fixed);
  } catch (error) {
    throw new ImportError(`kube-burner JSON: ${(error as Error).message}`);
  }
}

const UNIT_BY_MEASUREMENT: Record<string, string> = { svcLatency: "ns" };

export function parseKubeBurner(text: string): ParsedRun {
  const skipped: string[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = repaired(text);
    skipped.push(
      "the JSON was not valid (trailing commas or objects not in [ ], as in kube-burner's documentation) and was repaired for reading",
    );
  }
  if (!looksLikeKubeBurner(doc)) {
    throw new ImportError('not a kube-burner measurement file: no documents with "metricName" and "uuid"');
  }
  const docs = (Array.isArray(doc) ? doc : [doc]) as Json[];
  const results: Result[] = [];
  docs.forEach((d, i) => {
    const name = d.metricName as string;
    const measurement = /^([A-Za-z]+)QuantilesMeasurement/.exec(name)?.[1];
    if (!measurement) {
      skipped.push(`document ${i + 1}: ${describeOther(name)}`);
      return;
    }
    const phase = typeof d.quantileName === "string" ? d.quantileName : undefined;
    if (!phase) {
      skipped.push(`document ${i + 1} (${name}): no quantileName`);
      return;
    }
    const { metric, better } = mapMeasurement(measurement, phase);
    const unit = UNIT_BY_MEASUREMENT[measurement] ?? "ms";
    const base: Params = {
      ...(typeof d.jobName === "string" && d.jobName !== "" ? { job: d.jobName } : {}),
      ...(metric === "pod.startup.latency" ? {} : { phase }),
    };
    for (const [key, param] of [
      ["P50", { percentile: "p50" }],
      ["P95", { percentile: "p95" }],
      ["P99", { percentile: "p99" }],
      ["avg", { stat: "avg" }],
      ["min", { stat: "min" }],
      ["max", { stat: "max" }],
    ] as const) {
      const value = finite(d[key]);
      if (value === undefined) continue;
      results.push({ metric, value, unit, params: { ...base, ...param }, ...(better ? { better } : {}) });
    }
  });
  if (results.length === 0) {
    const only = docs.map((d) => d.metricName as string);
    throw new ImportError(
      `kube-burner: no quantile figures in this file (${describeOther(only[0] ?? "")}); send the <measurement>QuantilesMeasurement-<job>.json files`,
    );
  }
  const stamp = docs.find((d) => typeof d.timestamp === "string")?.timestamp as string | undefined;
  return {
    results,
    derived: {},
    collector: { name: "kube-burner" },
    ...(stamp && /^\d{4}-\d{2}-\d{2}T/.test(stamp) ? { runAt: stamp } : {}),
    skipped,
  };
}

function mapMeasurement(measurement: string, phase: string): { metric: string; better?: "lower" } {
  switch (measurement) {
    case "podLatency":
      return phase === "Ready" ? { metric: "pod.startup.latency" } : { metric: "x.pod.phase.latency", better: "lower" };
    case "svcLatency":
      return { metric: "x.service.latency", better: "lower" };
    case "netpolLatency":
      return { metric: "x.netpol.latency", better: "lower" };
    case "nodeLatency":
      return { metric: "x.node.phase.latency", better: "lower" };
    default:
      return { metric: `x.kube-burner.${measurement}`, better: "lower" };
  }
}

function describeOther(metricName: string): string {
  if (metricName === "jobSummary") return "kube-burner's job summary holds no figure";
  if (/Measurement/.test(metricName)) {
    return `${metricName} is one document per object; its <measurement>QuantilesMeasurement file summarises it`;
  }
  return `metric "${metricName}" is not a quantile measurement`;
}
