/**
 * The upload contract "cnibench/bundle@1" (docs/design.md, "The bundle contract v1"). Field names are
 * public API: extend, never rename. Rules that span fields are checked inside the schema, per result
 * and even when other fields of that result are invalid, so one parse reports every violation.
 */
import { z } from "zod";
import { findMetric, metricCatalogue, physicalRange } from "./catalogue.ts";
import { canConvert, convertValue } from "./units.ts";

export const BUNDLE_SCHEMA = "cnibench/bundle@1";

export const bundleIssueSchema = z
  .object({
    path: z.string().meta({ description: 'Where the problem is, e.g. "results[3].unit"; "" for the whole bundle.' }),
    message: z.string().meta({ description: "What is wrong, in words." }),
  })
  .meta({ description: "A violation of the bundle contract; the bundle was rejected." });

export const bundleWarningSchema = z
  .object({
    path: z.string().max(500).meta({ description: 'The field the warning is about, e.g. "cni.name".' }),
    message: z.string().max(2000).meta({ description: "What was accepted but deserves a look." }),
  })
  .meta({ description: "Something accepted as given but worth checking, e.g. a slug outside the vocabulary." });

export type BundleIssue = z.infer<typeof bundleIssueSchema>;
export type BundleWarning = z.infer<typeof bundleWarningSchema>;

const UNKNOWN = 'Write "unknown" when the source does not publish it, never a guess.';

function text(max: number, description: string) {
  return z.string().trim().min(1).max(max).meta({ description });
}

/** Dates as sources publish them: a day, or an instant with its offset (a local time would be ambiguous). */
function dateOrDateTime(description: string, examples: string[]) {
  return z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], {
      error: "must be a date (2026-02-14) or an ISO 8601 date-time with offset (2026-02-09T22:23:39Z)",
    })
    .meta({ description, examples });
}

const sourceSchema = z
  .looseObject({
    title: text(500, "Title of the published benchmark.").optional(),
    url: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .max(2000)
      .meta({ description: "Where the benchmark was published." })
      .optional(),
    publishedAt: dateOrDateTime("Publication date of the source.", ["2026-02-14"]).optional(),
    section: text(500, "Which table or section of the source this bundle transcribes.").optional(),
  })
  .meta({ description: "The publication the figures come from, when they were transcribed rather than uploaded." });

const collectorSchema = z
  .looseObject({
    name: text(500, "The script or tool that produced the figures.").meta({ examples: ["network-benchmark.sh"] }),
    version: text(500, "Version of the collector.").optional(),
    command: z.string().max(10_000).meta({ description: "Command line that was run." }).optional(),
  })
  .meta({ description: "What produced the figures." });

const clusterSchema = z
  .looseObject({
    name: text(500, `Name of the cluster; a label only, not part of the scenario. ${UNKNOWN}`).meta({
      examples: ["tke-c"],
    }),
    provider: text(100, `Where the cluster runs, a vocabulary slug (aks, eks, gke, tke, on-prem, …). ${UNKNOWN}`).meta({
      examples: ["tke", "eks", "aks"],
    }),
    region: text(200, "Cloud region or site.")
      .meta({ examples: ["ap-guangzhou"] })
      .optional(),
    kubernetesVersion: text(200, "Kubernetes version as the provider reports it.")
      .meta({ examples: ["v1.34.1-tke.5", "1.31"] })
      .optional(),
    nodeCount: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .nullable()
      .meta({ description: "Number of nodes; null or absent when not published." })
      .optional(),
  })
  .meta({ description: "The cluster the benchmark ran on." });

const positiveOrNull = (description: string) => z.number().positive().nullable().meta({ description }).optional();

const nodeSchema = z
  .looseObject({
    sku: text(200, `Instance type or hardware model of the nodes. ${UNKNOWN}`).meta({
      examples: ["SA5.LARGE8", "m6i.xlarge", "Standard_D4_v3"],
    }),
    vcpus: positiveOrNull("vCPUs per node."),
    memoryGiB: positiveOrNull("Memory per node in GiB."),
    nicGbps: positiveOrNull("NIC bandwidth per node in Gbit/s; null when the provider does not state it."),
    os: text(200, "Node operating system.")
      .meta({ examples: ["TencentOS Server 4", "Amazon Linux 2023"] })
      .optional(),
    kernel: text(200, `Kernel release of the nodes. ${UNKNOWN}`).meta({ examples: ["6.6.117-45.11.2"] }),
  })
  .meta({ description: "The nodes the benchmark ran on." });

const settingValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

const cniSchema = z
  .looseObject({
    name: text(
      100,
      `CNI plugin, a vocabulary slug (cilium, azure-cni-cilium, aws-vpc-cni, tke-vpc-cni, …). ${UNKNOWN}`,
    ).meta({ examples: ["cilium", "aws-vpc-cni"] }),
    version: text(200, "CNI version.")
      .meta({ examples: ["1.19.4"] })
      .optional(),
    mode: text(100, `Datapath mode, a vocabulary slug (native, overlay-vxlan, chaining, eni, …). ${UNKNOWN}`).meta({
      examples: ["overlay-vxlan", "native"],
    }),
    kubeProxy: text(100, "Service proxy, a vocabulary slug (iptables, ipvs, nftables, ebpf, cni-proxy, none).")
      .meta({ examples: ["ebpf", "iptables"] })
      .optional(),
    label: z.string().trim().max(200).nullable().meta({ description: "Display name for this setup." }).optional(),
    settings: z
      .record(z.string().min(1).max(200), settingValue)
      .meta({
        description: "Configuration that distinguishes this datapath (Helm values, flags). Part of the scenario.",
        examples: [{ "bpf.hostLegacyRouting": false }],
      })
      .optional(),
  })
  .meta({ description: "The datapath under test. The whole object, settings included, identifies the scenario." });

export const aggregates = ["single", "median", "mean", "min", "max"] as const;
export const qualifiers = ["approx", "at-most", "at-least", "range"] as const;
export const betterValues = ["higher", "lower", "none"] as const;

const paramValue = z.union([z.string().max(500), z.number(), z.boolean()]);

export const samplesKinds = ["runs", "clients"] as const;

/**
 * Summary statistics of a figure whose tool publishes no samples (k8s-netperf: the mean of n runs with
 * its 95 % interval). In the result's unit; verdicts compare two such figures by Welch's t from the
 * summaries (docs/verdicts.md).
 */
const summarySchema = z
  .strictObject({
    mean: z.number().meta({ description: "Mean of the n samples." }),
    sd: z.number().min(0).meta({ description: "Sample standard deviation (n − 1), when published." }).optional(),
    ci95: z
      .tuple([z.number(), z.number()])
      .meta({ description: "95 % confidence interval of the mean (Student's t), when published: [low, high]." })
      .optional(),
    n: z.number().int().min(1).max(1_000_000).meta({ description: "How many samples the mean is of." }),
    of: z.enum(samplesKinds).meta({
      description: 'What the n samples are: "runs" (repeated runs) or "clients" (concurrent clients of one run).',
    }),
  })
  .meta({
    description:
      "Summary statistics, when the tool publishes a mean and its spread instead of the samples: shown as such, and verdicts use them (Welch's t from summary statistics) when both sides have a spread.",
    examples: [{ mean: 873.61, ci95: [861.94, 885.27], n: 3, of: "runs" }],
  });

const resultSchema = z
  .looseObject({
    metric: text(
      200,
      `A metric key from the catalogue, or "x.<name>" for one outside it (then declare better). Catalogue: ${metricCatalogue
        .map((m) => `${m.key} (${m.unit})`)
        .join(", ")}.`,
    ).meta({
      examples: ["http.rps", "tcp.rr.latency", "x.dns.qps"],
    }),
    value: z.number().meta({
      description:
        "The headline figure as the source gives it (finite). Physically impossible figures are refused, here and in low, high and samples: a negative figure of a catalogue metric, or of an x. metric in a unit of throughput, time, size, CPU or rate (percentages and counts of x. metrics may be deltas), and a udp.loss above 100 %.",
    }),
    unit: text(
      50,
      "Unit of value, low, high and samples. For a catalogue metric it must convert to the catalogue unit (Gbps, Mbit/s, bits/s, ms, µs, us, MB, MiB, millicores, …); it is converted on upload and the published figure is kept.",
    ).meta({
      examples: ["req/s", "Gbps", "µs", "MB"],
    }),
    aggregate: z.enum(aggregates).meta({ description: "What value is when there were several rounds." }).optional(),
    qualifier: z
      .enum(qualifiers)
      .meta({ description: 'How the figure was bounded when published: "~1.5 s", "not exceeding", "4–6m".' })
      .optional(),
    low: z.number().meta({ description: 'Lower bound; required with qualifier "range".' }).optional(),
    high: z.number().meta({ description: 'Upper bound; required with qualifier "range".' }).optional(),
    samples: z.array(z.number()).max(10_000).meta({ description: "The individual rounds, when known." }).optional(),
    params: z
      .record(z.string().min(1).max(100), paramValue)
      .meta({
        description: "What distinguishes figures of one scenario (services, policy, percentile, …).",
        examples: [{ connection: "short", concurrency: 64, target: "service", services: 20000 }],
      })
      .optional(),
    better: z
      .enum(betterValues)
      .meta({ description: 'Which direction is better; required for "x." metrics.' })
      .optional(),
    note: z.string().max(2000).meta({ description: "Free-text remark from the source." }).optional(),
    summary: summarySchema.optional(),
    samplesAre: z
      .enum(samplesKinds)
      .meta({
        description:
          'What the samples are: "runs" (the default: repeated runs, each an independent measurement) or "clients" (concurrent clients of one run, e.g. vegeta workers): verdicts then treat the figure as one run, since its samples share the run\'s conditions and would make p-values optimistic.',
      })
      .optional(),
  })
  // `when` makes the rules run even if another field of this result is invalid.
  .superRefine(checkResult, { when: () => true })
  .meta({ description: "One figure." });

function checkResult(result: unknown, ctx: z.RefinementCtx<unknown>): void {
  if (typeof result !== "object" || result === null) return;
  const { metric, unit, better, qualifier, low, high, value, samples, summary } = result as Record<string, unknown>;
  const issue = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });

  if (typeof metric === "string" && metric.trim() !== "") {
    const key = metric.trim();
    const definition = findMetric(key);
    if (definition) {
      if (typeof unit === "string" && unit.trim() !== "" && !canConvert(unit, definition.unit)) {
        issue("unit", `metric "${key}" is measured in ${definition.unit}; unit "${unit}" cannot be converted to it`);
      }
      if (typeof better === "string" && better !== definition.better) {
        issue("better", `metric "${key}" is "${definition.better}" is better in the catalogue, not "${better}"`);
      }
    } else if (!/^x\.\S+$/.test(key)) {
      issue("metric", `metric "${key}" is not in the catalogue; name a metric outside it "x.<name>"`);
    } else if (better === undefined) {
      issue(
        "better",
        `metric "${key}" is outside the catalogue, so it must declare better ("higher", "lower" or "none")`,
      );
    }
  }

  if (qualifier === "range") {
    if (low === undefined) issue("low", 'low is required when qualifier is "range"');
    if (high === undefined) issue("high", 'high is required when qualifier is "range"');
    if (typeof low === "number" && typeof high === "number") {
      if (low > high) issue("low", `low (${low}) must not be greater than high (${high})`);
      else if (typeof value === "number" && (value < low || value > high)) {
        issue("value", `value (${value}) must lie within the range ${low}–${high}`);
      }
    }
  } else {
    // Bounds without "range" would be silently ignored by views; say so instead.
    if (low !== undefined) issue("low", 'low is only meaningful with qualifier "range"');
    if (high !== undefined) issue("high", 'high is only meaningful with qualifier "range"');
  }

  const stats = typeof summary === "object" && summary !== null ? (summary as Record<string, unknown>) : undefined;
  const ci = Array.isArray(stats?.ci95) ? (stats.ci95 as unknown[]) : undefined;
  if (stats && typeof stats.mean === "number" && ci && typeof ci[0] === "number" && typeof ci[1] === "number") {
    if (ci[0] > ci[1]) issue("summary", `ci95's low (${ci[0]}) must not be greater than its high (${ci[1]})`);
    else if (stats.mean < ci[0] || stats.mean > ci[1]) {
      issue("summary", `the mean (${stats.mean}) must lie within ci95 (${ci[0]}–${ci[1]})`);
    }
  }

  if (typeof metric === "string" && typeof unit === "string") {
    const figures: [PropertyKey[], unknown][] = [
      ...(stats ? ([[["summary", "mean"], stats.mean]] as [PropertyKey[], unknown][]) : []),
      [["value"], value],
      [["low"], low],
      [["high"], high],
      ...(Array.isArray(samples) ? samples.map((v, i): [PropertyKey[], unknown] => [["samples", i], v]) : []),
    ];
    checkPhysical(metric.trim(), unit, figures, ctx);
  }
}

/** Refuses each figure that cannot be (a negative throughput, a loss above 100 %), where it is. */
function checkPhysical(
  metric: string,
  unit: string,
  figures: [PropertyKey[], unknown][],
  ctx: z.RefinementCtx<unknown>,
): void {
  const physical = physicalRange(metric, unit);
  if (!physical) return;
  const { what, range } = physical;
  // A catalogue metric in a unit that does not convert is refused already; its sign still says enough.
  const max = range.max !== undefined && canConvert(unit, physical.unit) ? range.max : undefined;
  for (const [path, figure] of figures) {
    if (typeof figure !== "number" || !Number.isFinite(figure)) continue;
    let message: string | undefined;
    if (figure < range.min) message = `${what} cannot be negative (${figure} ${unit})`;
    else if (max !== undefined && convertValue(figure, unit, physical.unit) > max) {
      message = `${what} cannot exceed ${max} ${physical.unit} (${figure} ${unit})`;
    }
    if (message) ctx.addIssue({ code: "custom", path, message });
  }
}

export const bundleSchema = z
  .looseObject({
    schema: z.literal(BUNDLE_SCHEMA).meta({ description: "Contract name and version." }),
    source: sourceSchema.optional(),
    collector: collectorSchema.optional(),
    runAt: dateOrDateTime("When the benchmark ran.", ["2026-02-09T22:23:39Z"]).optional(),
    campaign: text(
      200,
      "Which runs belong together: bundles with the same campaign (in one workspace) are repeated runs of their figures, summarised together (n, median, spread); the newest campaign of a figure is its current one. Without it, the bundles of one POST /v1/import or one CLI invocation form one campaign, and a bundle uploaded alone is its own.",
    )
      .meta({ examples: ["cilium-1.19-upgrade-2026-11"] })
      .optional(),
    cluster: clusterSchema,
    node: nodeSchema,
    cni: cniSchema,
    results: z
      .array(resultSchema)
      .min(1, "a bundle needs at least one result")
      .max(100_000)
      .meta({ description: "The figures, at least one." }),
    warnings: z
      .array(bundleWarningSchema)
      .max(1000)
      .meta({
        description:
          'What the importer or collector noticed before upload (a failed test, an environment field that contradicts the files), with the field it is about ("results[3]", "node.kernel", "" for the whole bundle). Stored and shown like the warnings cnibench raises itself.',
      })
      .optional(),
  })
  .meta({
    title: "cnibench bundle v1",
    description:
      "One upload: the figures of one experiment or one published table, with the environment they were measured in. Unknown top-level fields are kept.",
  });

export type BundleInput = z.input<typeof bundleSchema>;
export type Bundle = z.output<typeof bundleSchema>;
export type BundleResult = Bundle["results"][number];
