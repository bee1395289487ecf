/**
 * From an uploaded bundle to the form the rest of cnibench stores and analyses: defaults filled with
 * "unknown", facets resolved to vocabulary slugs, figures converted to catalogue units (the published
 * figure kept beside them), and the keys that say which scenario a bundle belongs to.
 */
import type { z } from "zod";
import {
  type aggregates,
  type Bundle,
  type BundleIssue,
  type BundleWarning,
  bundleSchema,
  type qualifiers,
  type samplesKinds,
} from "./bundle.ts";
import { canonicalJson, contentHash } from "./canonical.ts";
import { type Better, findMetric } from "./catalogue.ts";
import { lineRateWarnings } from "./plausibility.ts";
import { convertValue, storedUnitOf } from "./units.ts";
import { resolveSlug, type VocabularyKind } from "./vocabulary.ts";

export type Qualifier = (typeof qualifiers)[number];
export type Aggregate = (typeof aggregates)[number];
export type ParamValue = string | number | boolean;
/** A figure's params: what its series is keyed by (streams, services, connection …). */
export type Params = Record<string, ParamValue>;
export type SettingValue = string | number | boolean | null;

export type NormalisedMeasurement = {
  /** Index in the uploaded results array, so issues and provenance can point back to it. */
  position: number;
  metric: string;
  params: Params;
  /** Canonical JSON of params: equal params give equal keys whatever the key order. */
  paramsKey: string;
  /** In the catalogue unit, or for x. metrics the one of the declared unit's dimension (storedUnitOf). */
  value: number;
  unit: string;
  low: number | null;
  high: number | null;
  samples: number[];
  /** As published, for display and audit ("289.7 MB" stays 289.7 MB). */
  publishedValue: number;
  publishedUnit: string;
  qualifier: Qualifier | null;
  aggregate: Aggregate | null;
  better: Better;
  /** Summary statistics in `unit`, when the tool published them instead of samples. */
  summary?: Summary;
  /** "clients": the samples are concurrent clients of one run (verdicts treat the figure as one run). */
  samplesAre?: SamplesKind;
};

export type SamplesKind = (typeof samplesKinds)[number];
export type Summary = { mean: number; sd?: number; ci95?: [number, number]; n: number; of: SamplesKind };

export type NormalisedBundle = {
  schema: string;
  source?: NonNullable<Bundle["source"]>;
  collector?: NonNullable<Bundle["collector"]>;
  runAt?: Date;
  /** The campaign the bundle names (docs/design.md): null when it names none. */
  campaign: string | null;
  cluster: { name: string; provider: string; region: string; kubernetesVersion: string; nodeCount: number | null };
  node: {
    sku: string;
    vcpus: number | null;
    memoryGiB: number | null;
    nicGbps: number | null;
    os: string;
    kernel: string;
  };
  cni: {
    name: string;
    version: string;
    mode: string;
    kubeProxy: string;
    label: string | null;
    settings: Record<string, SettingValue>;
  };
  measurements: NormalisedMeasurement[];
  /** Top-level fields the contract does not define; kept so newer collectors lose nothing. */
  extra: Record<string, unknown>;
};

export type ParseResult =
  | { ok: true; bundle: NormalisedBundle; warnings: BundleWarning[] }
  | { ok: false; issues: BundleIssue[] };

const contractFields = new Set([
  "schema",
  "source",
  "collector",
  "runAt",
  "campaign",
  "cluster",
  "node",
  "cni",
  "results",
  "warnings",
]);

export function parseBundle(input: unknown): ParseResult {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, issues: [{ path: "", message: "a bundle must be a JSON object" }] };
  }
  const parsed = bundleSchema.safeParse(input, { error: missingFieldMessage });
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    };
  }
  return normalise(parsed.data);
}

function missingFieldMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.input !== undefined) return undefined;
  if (issue.code === "invalid_type") return `required: expected ${issue.expected}`;
  if (issue.code === "invalid_value")
    return `required: expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
  return undefined;
}

/** ["results", 3, "unit"] → "results[3].unit"; keys that are not identifiers are quoted. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_$][\w$]*$/.test(segment))
      out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

function normalise(bundle: Bundle): ParseResult {
  // The bundle's own warnings come first: the importer saw the files, cnibench only the figures.
  const warnings: BundleWarning[] = [...(bundle.warnings ?? [])];
  const slug = (kind: VocabularyKind, path: string, raw: string | undefined, context?: { provider?: string }) => {
    if (raw === undefined) return "unknown";
    const resolved = resolveSlug(kind, raw, context);
    if (!resolved.known) {
      const hint = resolved.hint ? ` (${resolved.hint})` : "";
      warnings.push({
        path,
        message: `${path} "${raw}" is not in the vocabulary${hint}; stored as "${resolved.slug}"`,
      });
    }
    return resolved.slug;
  };

  const { cluster, node, cni } = bundle;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(bundle)) if (!contractFields.has(key)) extra[key] = value;

  const normalised: NormalisedBundle = {
    schema: bundle.schema,
    campaign: bundle.campaign ?? null,
    cluster: {
      name: cluster.name,
      provider: slug("provider", "cluster.provider", cluster.provider),
      region: cluster.region ?? "unknown",
      kubernetesVersion: cluster.kubernetesVersion ?? "unknown",
      nodeCount: cluster.nodeCount ?? null,
    },
    node: {
      sku: node.sku,
      vcpus: node.vcpus ?? null,
      memoryGiB: node.memoryGiB ?? null,
      nicGbps: node.nicGbps ?? null,
      os: node.os ?? "unknown",
      kernel: node.kernel,
    },
    cni: {
      name: slug("cniName", "cni.name", cni.name, { provider: cluster.provider }),
      version: cni.version ?? "unknown",
      mode: slug("cniMode", "cni.mode", cni.mode),
      kubeProxy: slug("kubeProxy", "cni.kubeProxy", cni.kubeProxy),
      label: cni.label || null,
      settings: cni.settings ?? {},
    },
    measurements: bundle.results.map((result, position) => {
      const definition = findMetric(result.metric);
      // The schema guarantees a catalogue metric's unit converts; storedUnitOf gives x. metrics one of theirs.
      const unit = definition?.unit ?? storedUnitOf(result.unit);
      const convert = (value: number) => (unit === result.unit ? value : convertValue(value, result.unit, unit));
      const params = result.params ?? {};
      return {
        position,
        metric: result.metric,
        params,
        paramsKey: canonicalJson(params),
        value: convert(result.value),
        unit,
        low: result.low === undefined ? null : convert(result.low),
        high: result.high === undefined ? null : convert(result.high),
        samples: (result.samples ?? []).map(convert),
        publishedValue: result.value,
        publishedUnit: result.unit,
        qualifier: result.qualifier ?? null,
        aggregate: result.aggregate ?? null,
        // The schema guarantees better is declared for x. metrics and agrees with the catalogue otherwise.
        better: definition?.better ?? result.better ?? "none",
        ...(result.summary ? { summary: convertSummary(result.summary, convert) } : {}),
        ...(result.samplesAre ? { samplesAre: result.samplesAre } : {}),
      };
    }),
    extra,
  };
  if (bundle.source) normalised.source = bundle.source;
  if (bundle.collector) normalised.collector = bundle.collector;
  if (bundle.runAt) normalised.runAt = new Date(bundle.runAt);

  const seen = new Map<string, number>();
  for (const m of normalised.measurements) {
    const key = `${m.metric}\u0000${m.paramsKey}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, m.position);
    else {
      warnings.push({
        path: `results[${m.position}]`,
        message: `results[${m.position}] repeats metric "${m.metric}" with the same params as results[${first}]; views will show only one of them`,
      });
    }
  }
  warnings.push(...lineRateWarnings(normalised));

  return { ok: true, bundle: normalised, warnings };
}

/**
 * What scenarioIdentity reads: a normalised bundle, or a stored scenario's rows (the data migration
 * that re-keys scenarios stored before labels left the identity, packages/db/src/rekey.ts).
 */
export type IdentityFields = {
  cluster: Pick<NormalisedBundle["cluster"], "provider" | "region" | "kubernetesVersion" | "nodeCount">;
  node: Pick<NormalisedBundle["node"], "sku" | "os" | "kernel">;
  cni: Omit<NormalisedBundle["cni"], "label">;
};

/**
 * What a scenario is (docs/design.md, "Identity and granularity"): where the figures were measured. The
 * cluster name is a label and vcpus/memory follow from the SKU, so neither splits a scenario; every
 * cni field, settings included, does — but not cni.label, a display name: a new label renames the
 * scenario instead of forking it.
 */
export function scenarioIdentity(b: IdentityFields) {
  return {
    cluster: clusterIdentity(b.cluster),
    node: { sku: b.node.sku, os: b.node.os, kernel: b.node.kernel },
    cni: cniIdentity(b.cni),
  };
}

const clusterIdentity = (c: IdentityFields["cluster"]) => ({
  provider: c.provider,
  region: c.region,
  kubernetesVersion: c.kubernetesVersion,
  nodeCount: c.nodeCount,
});

const cniIdentity = (c: IdentityFields["cni"]) => ({
  name: c.name,
  version: c.version,
  mode: c.mode,
  kubeProxy: c.kubeProxy,
  settings: c.settings,
});

export type ScenarioIdentity = ReturnType<typeof scenarioIdentity>;

export function scenarioKey(b: IdentityFields): string {
  return contentHash(scenarioIdentity(b));
}

/** The cluster part of the scenario (provider, region, Kubernetes version, node count); nodes are keyed apart. */
export function clusterKey(b: Pick<IdentityFields, "cluster">): string {
  return contentHash(clusterIdentity(b.cluster));
}

export function cniKey(b: Pick<IdentityFields, "cni">): string {
  return contentHash(cniIdentity(b.cni));
}

/** Units convert by a factor, so a mean, a standard deviation and an interval convert alike. */
function convertSummary(summary: Summary, convert: (value: number) => number): Summary {
  return {
    mean: convert(summary.mean),
    ...(summary.sd !== undefined ? { sd: convert(summary.sd) } : {}),
    ...(summary.ci95 ? { ci95: [convert(summary.ci95[0]), convert(summary.ci95[1])] } : {}),
    n: summary.n,
    of: summary.of,
  };
}
