/** Format detection for `auto`: by content first, the file name only as a hint. */
import { looksLikeCiliumPerf } from "./formats/cilium-perf.ts";
import { looksLikePerfData } from "./formats/clusterloader2.ts";
import { looksLikeEks } from "./formats/eks.ts";
import { looksLikeFortio, looksLikeFortioText } from "./formats/fortio.ts";
import { looksLikeIperf3 } from "./formats/iperf3.ts";
import { looksLikeK8sNetperfCsv, looksLikeK8sNetperfJson, looksLikeK8sNetperfTables } from "./formats/k8s-netperf.ts";
import { looksLikeKnbDocument, looksLikeKnbText } from "./formats/knb.ts";
import { looksLikeKubeBurner, looksLikeKubeBurnerText } from "./formats/kube-burner.ts";
import { looksLikeNetperf } from "./formats/netperf.ts";
import { TKE_MARKERS } from "./formats/tke.ts";
import { looksLikeVegetaJson, looksLikeVegetaText } from "./formats/vegeta.ts";
import type { FormatName } from "./types.ts";
import { basename, isObject } from "./util.ts";

export type Detection = { format: FormatName } | { format: null; reason: string };

export function isBundleDocument(doc: unknown): boolean {
  return isObject(doc) && typeof doc.schema === "string" && doc.schema.startsWith("cnibench/bundle@");
}

/** benchmark-summary.json of TKE's network-benchmark.sh, sent on its own under another name. */
export function looksLikeTkeSummary(doc: unknown): boolean {
  return (
    isObject(doc) && isObject(doc.cluster) && isObject(doc.throughput) && isObject(doc.rps) && isObject(doc.latency)
  );
}

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 4096).includes(0);
}

/** Which format a single file is in; a reason when none fits. */
export function detectFormat(name: string, text: string): Detection {
  if ((TKE_MARKERS as readonly string[]).includes(basename(name))) return { format: "tke" };
  const trimmed = text.trimStart();
  if (trimmed === "") return { format: null, reason: "the file is empty" };
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let doc: unknown;
    let malformed = false;
    try {
      doc = JSON.parse(text);
    } catch {
      malformed = true;
    }
    if (!malformed) {
      if (isBundleDocument(doc)) return { format: "bundle" };
      if (looksLikeIperf3(doc)) return { format: "iperf3" };
      if (looksLikeFortio(doc)) return { format: "fortio" };
      if (looksLikeEks(doc)) return { format: "eks" };
      if (isObject(doc) && isObject(doc.metadata) && doc.metadata.generator === "knb") return { format: "knb" };
      if (looksLikeTkeSummary(doc)) return { format: "tke" };
      if (looksLikePerfData(doc)) return { format: "clusterloader2" };
      if (looksLikeVegetaJson(doc)) return { format: "vegeta" };
      if (looksLikeK8sNetperfJson(doc)) return { format: "k8s-netperf" };
      if (looksLikeKubeBurner(doc)) return { format: "kube-burner" };
      return { format: null, reason: "JSON, but not a format cnibench imports" };
    }
    // Malformed (e.g. truncated) JSON: recognise it by its keys so the error can say what broke.
    if (looksLikeKnbDocument(text)) return { format: "knb" };
    if (/"cnibench\/bundle@/.test(text)) return { format: "bundle" };
    if (/"(test_start|connecting_to|system_info|sum_received)"/.test(text)) return { format: "iperf3" };
    if (/"(ActualQPS|DurationHistogram|RequestedQPS)"/.test(text)) return { format: "fortio" };
    if (/"scenario"/.test(text) && /"(network|http_httpbin|tcp_throughput_gbps)"/.test(text)) return { format: "eks" };
    if (/^\{\s*"start"\s*:/.test(trimmed)) return { format: "iperf3" };
    if (looksLikeKubeBurnerText(text)) return { format: "kube-burner" };
    return { format: null, reason: "malformed JSON of no recognised format" };
  }
  if (looksLikeKnbText(text) || looksLikeKnbDocument(text)) return { format: "knb" };
  if (/^[A-Z]+_(BW|CLIENT_SYSTEM)=/m.test(text)) {
    // A run folder is read as a whole, by its <test>-client.cmd files (import.ts, step 4).
    return {
      format: null,
      reason: "bench.sh's summary (InfraBuilder): send its whole run folder, with the <test>-client.cmd files",
    };
  }
  if (looksLikeFortioText(text)) return { format: "fortio" };
  if (looksLikeVegetaText(text)) return { format: "vegeta" };
  if (looksLikeK8sNetperfCsv(text)) return { format: "k8s-netperf" };
  if (looksLikeCiliumPerf(text)) return { format: "cilium-perf" };
  if (looksLikeNetperf(text)) return { format: "netperf" };
  if (looksLikeK8sNetperfTables(text)) return { format: "k8s-netperf" };
  // A tool's console output whose figures are in files it writes beside it: name those files.
  if (/: \w+ 50th: \d+(\.\d+)? 99th: \d+(\.\d+)? max: /m.test(text)) {
    return {
      format: null,
      reason:
        "kube-burner's log: send the <measurement>QuantilesMeasurement-<job>.json files kube-burner writes (its metrics directory, collected-metrics/ by default)",
    };
  }
  return { format: null, reason: "not a format cnibench imports" };
}
