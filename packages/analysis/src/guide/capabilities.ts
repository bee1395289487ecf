// The capability matrix the guide reasons with: which datapath offers which feature, each cell with
// the page that says so. The facts live in data/capabilities.json (versioned, provenance in
// data/README.md); this module only checks and reads them.
import raw from "../../data/capabilities.json";

export const capabilityKeys = [
  "kube_proxy_replacement",
  "k8s_networkpolicy",
  "l7_http_policy",
  "fqdn_egress_policy",
  "clusterwide_policy",
  "host_node_policy",
  "flow_observability",
  "bandwidth_manager_edt",
  "bbr",
  "encryption_wireguard_ipsec",
  "pod_ip_vpc_routable",
  "xdp_dsr_acceleration",
  "ebpf_host_routing",
  "multi_cluster",
  "min_kernel",
] as const;
export type CapabilityKey = (typeof capabilityKeys)[number];

/** `partial`: only in some modes, with a paid or preview add-on, or with a documented caveat. */
export const capabilityValues = ["yes", "partial", "no", "n.a.", "unknown"] as const;
export type CapabilityValue = (typeof capabilityValues)[number];

export type CapabilityCell = {
  /** One of capabilityValues; for min_kernel also a version bound such as ">=5.10". */
  value: string;
  /** The page that states the value (for "unknown": the page checked that says nothing). */
  source: string;
  note?: string;
};

export type CapabilityRow = {
  id: string;
  name: string;
  cells: Record<CapabilityKey, CapabilityCell>;
};

export type CapabilityMatrix = {
  version: string;
  snapshot: string;
  capabilities: { key: CapabilityKey; label: string }[];
  options: CapabilityRow[];
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isSourceUrl(v: unknown): v is string {
  if (typeof v !== "string" || !URL.canParse(v)) return false;
  return new URL(v).protocol === "https:";
}

function validValue(key: CapabilityKey, value: unknown): value is string {
  if (typeof value !== "string") return false;
  if ((capabilityValues as readonly string[]).includes(value)) return true;
  return key === "min_kernel" && /^>=\d+\.\d+(\.\d+)?$/.test(value);
}

/**
 * Checks a matrix document: a version, every row with every capability, every cell with a known value
 * and an https source. Throws with every problem listed, so a bad edit fails at load and in the test.
 */
export function parseCapabilityMatrix(doc: unknown): CapabilityMatrix {
  const problems: string[] = [];
  if (!isRecord(doc)) throw new Error("capability matrix: not an object");
  if (typeof doc.version !== "string" || doc.version === "") problems.push("version is missing");
  if (typeof doc.snapshot !== "string") problems.push("snapshot is missing");
  const labels = Array.isArray(doc.capabilities) ? doc.capabilities : [];
  const labelled = new Set(labels.flatMap((c) => (isRecord(c) && typeof c.key === "string" ? [c.key] : [])));
  for (const key of capabilityKeys) if (!labelled.has(key)) problems.push(`capability ${key} has no label`);
  const rows = Array.isArray(doc.options) ? doc.options : [];
  if (rows.length === 0) problems.push("no options");
  const ids = new Set<string>();
  for (const [i, row] of rows.entries()) {
    if (!isRecord(row) || typeof row.id !== "string" || typeof row.name !== "string" || !isRecord(row.cells)) {
      problems.push(`options[${i}] needs id, name and cells`);
      continue;
    }
    if (ids.has(row.id)) problems.push(`option ${row.id} appears twice`);
    ids.add(row.id);
    for (const key of capabilityKeys) {
      const cell = row.cells[key];
      if (!isRecord(cell)) {
        problems.push(`${row.id}.${key} is missing`);
        continue;
      }
      if (!validValue(key, cell.value)) problems.push(`${row.id}.${key} has value ${JSON.stringify(cell.value)}`);
      if (!isSourceUrl(cell.source)) problems.push(`${row.id}.${key} has no https source`);
      if (cell.note !== undefined && typeof cell.note !== "string") problems.push(`${row.id}.${key} note is no text`);
    }
    for (const key of Object.keys(row.cells)) {
      if (!(capabilityKeys as readonly string[]).includes(key))
        problems.push(`${row.id} has unknown capability ${key}`);
    }
  }
  if (problems.length > 0) throw new Error(`capability matrix: ${problems.join("; ")}`);
  return doc as unknown as CapabilityMatrix;
}

/** The matrix shipped with the package. */
export const capabilityMatrix: CapabilityMatrix = parseCapabilityMatrix(raw);

export function capabilityLabel(matrix: CapabilityMatrix, key: CapabilityKey): string {
  return matrix.capabilities.find((c) => c.key === key)?.label ?? key;
}

/** A cell as cited in a reason: which row said it, and where. */
export type CapabilityCitation = { optionId: string; optionName: string; value: string; source: string; note?: string };

export type ResolvedCapability = {
  key: CapabilityKey;
  /** The value that holds for the datapath; "partial" also when its rows disagree (mode not known). */
  value: string;
  /** The cells the value rests on. */
  cells: CapabilityCitation[];
  /** Set when the value had to be combined, e.g. "depends on the mode: overlay no, VNet yes". */
  note?: string;
};

/**
 * A datapath is described by layers of matrix rows, most specific first: e.g. the Service proxy
 * (kube-proxy iptables) then the CNI (TKE VPC-CNI). For each capability the first layer that says
 * more than "n.a."/"unknown" decides, so kube-proxy's "no" on kube-proxy replacement wins while
 * policy comes from the CNI. Rows within one layer are alternatives (a mode the data does not name):
 * when they agree their value holds, when they differ the datapath offers it only "partial"ly.
 */
export function resolveCapability(
  matrix: CapabilityMatrix,
  layers: readonly (readonly string[])[],
  key: CapabilityKey,
): ResolvedCapability {
  let fallback: ResolvedCapability | undefined;
  for (const layer of layers) {
    const rows = layer.flatMap((id) => matrix.options.find((o) => o.id === id) ?? []);
    if (rows.length === 0) continue;
    const cells: CapabilityCitation[] = rows.map((r) => ({
      optionId: r.id,
      optionName: r.name,
      value: r.cells[key].value,
      source: r.cells[key].source,
      ...(r.cells[key].note ? { note: r.cells[key].note } : {}),
    }));
    const values = new Set(cells.map((c) => c.value));
    const resolved: ResolvedCapability =
      values.size === 1
        ? { key, value: cells[0]!.value, cells }
        : {
            key,
            value: "partial",
            cells,
            note: `depends on the mode: ${cells.map((c) => `${c.optionName} ${c.value}`).join(", ")}`,
          };
    if (resolved.value !== "n.a." && resolved.value !== "unknown") return resolved;
    // "unknown" is worth more than "n.a." as the last word: someone looked and found nothing.
    if (!fallback || (fallback.value === "n.a." && resolved.value === "unknown")) fallback = resolved;
  }
  return fallback ?? { key, value: "unknown", cells: [] };
}
