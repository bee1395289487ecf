/**
 * results/<scenario>.json of the EKS cni-benchmark scripts (devfloor9/engineering-playbook,
 * scripts/benchmarks/cni-benchmark). run-benchmark.sh writes "http" from `fortio load -json`
 * (-c 32 at 1000 QPS, -c 64 at 5000 QPS and max); run-benchmark-v2.sh renames it "http_httpbin",
 * parses fortio's text output (-c 16), adds "service_count" and "http_conduit", whose values are
 * strings and "N/A" when the Conduit app was not deployed.
 *
 * Meanings kept honest: udp_throughput_gbps is iperf3's end.sum.bits_per_second, bytes sent over the
 * sender's time (iperf_api.c), so the sender's rate: x.udp.throughput.sent, never udp.throughput, whose
 * headline means what arrived and which these files do not hold; mean_rtt_us is end.streams[0].sender.mean_rtt of a 1-byte iperf3 TCP run — TCP's
 * smoothed RTT estimate, a mean (pod.rtt with stat "avg"), not a percentile.
 */
import { type EnvironmentFields, ImportError, type Params, type ParsedRun, type Result } from "../types.ts";
import { at, finite, isObject, type Json, parseJson } from "../util.ts";

export function looksLikeEks(doc: unknown): boolean {
  return (
    isObject(doc) &&
    typeof doc.scenario === "string" &&
    isObject(doc.network) &&
    ("http" in doc || "http_httpbin" in doc)
  );
}

export function parseEks(text: string): ParsedRun {
  const doc = parseJson(text, "EKS cni-benchmark JSON");
  if (!looksLikeEks(doc)) throw new ImportError('not an EKS cni-benchmark result: no "scenario", "network" and "http"');
  const d = doc as Json;
  const v2 = "http_httpbin" in d;
  const results: Result[] = [];
  const skipped: string[] = [];

  const figure = (path: string, make: (value: number) => Result) => {
    const raw = at(d, path);
    if (raw === undefined) return;
    const value = finite(raw);
    if (value === undefined) {
      skipped.push(`${path} is ${JSON.stringify(raw)}, not a number`);
      return;
    }
    results.push(make(value));
  };

  // Params follow the demo data transcribed from the same scripts' published table (demo-data/bundles/eks-*-main.json),
  // so an imported run lines up with it; run details the table left out go into notes.
  figure("network.tcp_throughput_gbps", (value) => ({
    metric: "tcp.throughput",
    value,
    unit: "Gbit/s",
    note: "iperf3 -P 8 pod to pod, end.sum_received (receiver)",
  }));
  figure("network.udp_throughput_gbps", (value) => ({
    metric: "x.udp.throughput.sent",
    value,
    unit: "Gbit/s",
    better: "higher",
    note: "iperf3 -u -b 10G pod to pod, end.sum.bits_per_second: the sender's rate",
  }));
  figure("network.udp_loss_percent", (value) => ({
    metric: "udp.loss",
    value,
    unit: "%",
    note: "iperf3 -u -b 10G pod to pod, end.sum.lost_percent",
  }));
  figure("network.mean_rtt_us", (value) => ({
    metric: "pod.rtt",
    value,
    unit: "µs",
    params: { stat: "avg" },
    note: "iperf3 TCP 1-byte run, end.streams[0].sender.mean_rtt (TCP's mean RTT estimate)",
  }));

  const http = (section: string, concurrency: (qps: string) => number, extra: Params) => {
    for (const step of ["1000", "5000", "max"]) {
      const prefix = `${section}.qps_${step}`;
      if (!isObject(at(d, prefix))) continue;
      const c = concurrency(step);
      if (step === "max") {
        figure(`${prefix}.actual_qps`, (value) => ({
          metric: "http.rps",
          value,
          unit: "req/s",
          params: { ...extra },
          note: `fortio -qps 0 (max) -c ${c}, keepalive, through the httpbin Service`,
        }));
      } else {
        figure(`${prefix}.actual_qps`, (value) => ({
          metric: "http.qps.achieved",
          value,
          unit: "req/s",
          params: { qps: Number(step), ...extra },
          note: `fortio -c ${c}`,
        }));
      }
      for (const p of ["50", "99"]) {
        figure(`${prefix}.p${p}_ms`, (value) => ({
          metric: "http.latency",
          value,
          unit: "ms",
          params: { percentile: `p${p}`, qps: step === "max" ? "max" : Number(step), ...extra },
          note: `fortio -c ${c}`,
        }));
      }
    }
  };
  if (v2) {
    // v2 runs fortio at -c 16 where v1 used 32/64: a different experiment, so it says so in params.
    http("http_httpbin", () => 16, { concurrency: 16 });
    if (isObject(d.http_conduit)) http("http_conduit", () => 16, { concurrency: 16, app: "conduit" });
  } else {
    http("http", (qps) => (qps === "1000" ? 32 : 64), {});
  }
  for (const p of ["50", "99"]) {
    figure(`dns.p${p}_ms`, (value) => ({
      metric: "dns.latency",
      value,
      unit: "ms",
      params: { percentile: `p${p}` },
      note: "getent hosts, 200 lookups, whole milliseconds",
    }));
  }
  if (results.length === 0) throw new ImportError("EKS cni-benchmark result without any numeric figure");

  return {
    results,
    derived: {
      ...clusterFromContext(typeof d.cluster === "string" ? d.cluster : undefined),
      label: d.scenario as string,
    },
    collector: {
      name: v2 ? "run-benchmark-v2.sh" : "run-benchmark.sh",
      command: `${v2 ? "run-benchmark-v2.sh" : "run-benchmark.sh"} ${d.scenario}`,
    },
    ...(typeof d.timestamp === "string" ? { runAt: d.timestamp } : {}),
    skipped,
  };
}

/**
 * A kube context names the cluster. eksctl's contexts ("user@name.region.eksctl.io") and EKS ARNs
 * ("arn:aws:eks:region:account:cluster/name") also say it is EKS and in which region.
 */
export function clusterFromContext(context: string | undefined): EnvironmentFields {
  if (!context) return {};
  const eksctl = /^(?:[^@]+@)?([^.@]+)\.([a-z]{2}(?:-[a-z]+)+-\d+)\.eksctl\.io$/.exec(context);
  if (eksctl) return { cluster: eksctl[1]!, region: eksctl[2]!, provider: "eks" };
  const arn = /^arn:aws[\w-]*:eks:([a-z0-9-]+):\d+:cluster\/(.+)$/.exec(context);
  if (arn) return { cluster: arn[2]!, region: arn[1]!, provider: "eks" };
  return { cluster: context };
}
