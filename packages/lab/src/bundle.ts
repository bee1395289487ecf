/**
 * The lab's measurements as contract bundles (pure): one bundle per proxy mode, the runs of each
 * figure as its samples (median as value), the environment from the host. The scenario says "lab" in
 * every place a reader looks (provider, cluster name, label, settings), so a lab curve is never taken
 * for a cluster measurement: it is evidence about a mechanism on one kernel, not about a cloud.
 */
import { median } from "@cnibench/analysis";
import { BUNDLE_SCHEMA, type BundleInput, bundleSchema } from "@cnibench/schema";

export type ProxyMode = "iptables" | "nftables";

/** One run of one step (mode, Service count): what was measured. */
export type StepMeasurement = {
  mode: ProxyMode;
  services: number;
  run: number;
  /** Wall time of iptables-restore / nft -f into an empty namespace, ms. */
  loadMs: number;
  shortRps: number;
  /** wrk --latency under short connections (request to response; the TCP handshake is not in it), ms. */
  shortLatencyMs: { p50: number; p90: number; p99: number };
  keepaliveRps: number;
  /** TCP connect() time through the Service, µs (the handshake, where the NAT lookup happens). */
  connectUs: { p50: number; p90: number; p99: number };
  throughputGbps: number;
  /** For iptables: nat rules and KUBE-SERVICES rules loaded. */
  ruleCounts?: { natRules: number; kubeServicesRules: number };
};

export type HostEnvironment = {
  hostname: string;
  kernel: string;
  cpuModel: string;
  vcpus: number;
  memoryGiB: number;
  os?: string;
  nftVersion?: string;
  iptablesVersion?: string;
  iptablesBackend?: "legacy" | "nft";
};

export type LabSettings = {
  concurrency: number;
  durationSec: number;
  warmupSec: number;
  runs: number;
  command: string;
  version: string;
  campaign: string;
  runAt: string;
};

type Result = BundleInput["results"][number];

function figure(
  metric: string,
  unit: string,
  values: number[],
  params: Record<string, string | number>,
  extra: Partial<Result> = {},
): Result {
  const rounded = values.map((v) => Number(v.toPrecision(6)));
  return {
    metric,
    unit,
    value: Number(median(rounded).toPrecision(6)),
    aggregate: rounded.length > 1 ? "median" : "single",
    samples: rounded,
    params,
    ...extra,
  };
}

/** The results of one mode's steps, grouped by Service count, runs as samples. */
export function labResults(steps: StepMeasurement[], concurrency: number): Result[] {
  const byCount = new Map<number, StepMeasurement[]>();
  for (const s of steps) byCount.set(s.services, [...(byCount.get(s.services) ?? []), s]);
  const results: Result[] = [];
  for (const [services, runs] of [...byCount.entries()].sort((a, b) => a[0] - b[0])) {
    const all = (pick: (s: StepMeasurement) => number) => runs.map(pick);
    results.push(
      figure(
        "http.rps",
        "req/s",
        all((s) => s.shortRps),
        { connection: "short", concurrency, services },
      ),
      figure(
        "http.rps",
        "req/s",
        all((s) => s.keepaliveRps),
        { connection: "keepalive", concurrency, services },
      ),
    );
    for (const p of [50, 90, 99] as const) {
      const key = `p${p}` as const;
      results.push(
        figure(
          "http.latency",
          "ms",
          all((s) => s.shortLatencyMs[key]),
          {
            connection: "short",
            concurrency,
            percentile: p,
            services,
          },
        ),
        figure(
          "conn.setup.latency",
          "µs",
          all((s) => s.connectUs[key]),
          { percentile: p, services },
        ),
      );
    }
    results.push(
      figure(
        "tcp.throughput",
        "Gbit/s",
        all((s) => s.throughputGbps),
        { path: "service", streams: 1, services },
      ),
      figure(
        "x.rules.load",
        "ms",
        all((s) => s.loadMs),
        { services },
        {
          better: "lower",
          note: "Wall time to load the whole ruleset into an empty namespace (iptables-restore --noflush or nft -f), process start included.",
        },
      ),
    );
    const counts = runs[0]?.ruleCounts;
    if (counts) {
      results.push(
        figure("iptables.rules", "count", [counts.natRules], { services }),
        figure("kube-services.chain", "count", [counts.kubeServicesRules], { services }),
      );
    }
  }
  return results;
}

export function labBundle(
  mode: ProxyMode,
  steps: StepMeasurement[],
  host: HostEnvironment,
  settings: LabSettings,
): BundleInput {
  const toolVersion = mode === "nftables" ? host.nftVersion : host.iptablesVersion;
  const cniSettings: Record<string, string | number | boolean> = {
    lab: true,
    topology: "two network namespaces joined by a veth pair; rules in the client's nat OUTPUT path",
    target: "last Service (worst case for a linear chain)",
    loadGenerator: `wrk -c${settings.concurrency}`,
  };
  if (toolVersion) cniSettings[mode === "nftables" ? "nftVersion" : "iptablesVersion"] = toolVersion;
  if (mode === "iptables" && host.iptablesBackend) cniSettings.iptablesBackend = host.iptablesBackend;
  return {
    schema: BUNDLE_SCHEMA,
    collector: { name: "cnibench lab", version: settings.version, command: settings.command },
    runAt: settings.runAt,
    campaign: settings.campaign,
    cluster: { name: `lab-${host.hostname}`, provider: "lab", nodeCount: 1 },
    node: {
      sku: host.cpuModel || "unknown",
      vcpus: host.vcpus,
      memoryGiB: Math.round(host.memoryGiB * 10) / 10,
      ...(host.os ? { os: host.os } : {}),
      kernel: host.kernel,
    },
    cni: {
      name: "kube-proxy-lab",
      mode,
      kubeProxy: mode,
      label: `Lab: kube-proxy ${mode} on ${host.kernel}`,
      settings: cniSettings,
    },
    results: labResults(
      steps.filter((s) => s.mode === mode),
      settings.concurrency,
    ),
  };
}

/** Contract issues of a bundle, as "path: message" lines (empty when it validates). */
export function bundleIssues(bundle: BundleInput): string[] {
  const parsed = bundleSchema.safeParse(bundle);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}
