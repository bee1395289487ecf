import { canonicalJson } from "@cnibench/schema";
import { resolveBetter } from "./better.ts";
import { compareMeasurementSets } from "./compare.ts";
import { judgedPercent } from "./summary.ts";
import type { Better, Figure, Params, ParamValue } from "./types.ts";
import type { Verdict, VerdictOptions } from "./verdict.ts";

/**
 * Overhead of turning a feature on (NetworkPolicy l3l4/l7 vs none, Hubble on vs off), always from the
 * raw figures (docs/design.md: derived figures are never stored). Positive means the feature costs:
 * - better "higher" (RPS, throughput): (base − with) / base × 100;
 * - better "lower" (latency, CPU): (with − base) / base × 100;
 * - better "none": no overhead is defined → null. A base of 0 also gives null.
 */
export function overheadPercent(base: number, withFeature: number, better: Better = "higher"): number | null {
  if (better === "none" || base === 0) return null;
  const cost = better === "higher" ? base - withFeature : withFeature - base;
  return (cost / Math.abs(base)) * 100;
}

export type FeatureOverhead = {
  metric: string;
  /** The params the pair shares (everything but the feature param). */
  params: Params;
  variant: ParamValue;
  base: Figure;
  with: Figure;
  better: Better;
  overheadPercent: number | null;
  /** Either figure is approximate or bounded, so the overhead is too. */
  approximate: boolean;
};

/**
 * Pairs each measurement whose `param` is not `base` with the measurement of the same metric whose
 * params are equal except `param` = `base`, and computes its overhead. E.g. param "policy", base
 * "none" gives the l3l4 and l7 overheads; param "hubble", base "off" gives Hubble's. Measurements
 * without the param, or without a base to pair with, are left out. Two base figures for the same
 * pair are a caller error (the database's latest-figure query already picks one).
 */
export function featureOverheads(
  measurements: readonly Figure[],
  options: { param: string; base: ParamValue },
): FeatureOverhead[] {
  const keyOf = (m: Figure) => {
    const { [options.param]: _feature, ...rest } = m.params ?? {};
    return { rest, key: `${m.metric}\u0000${canonicalJson(rest)}` };
  };
  const bases = new Map<string, Figure>();
  for (const m of measurements) {
    if (m.params?.[options.param] !== options.base) continue;
    const { key } = keyOf(m);
    if (bases.has(key)) throw new RangeError(`two base figures for ${key.replace("\u0000", " ")}`);
    bases.set(key, m);
  }
  const out: FeatureOverhead[] = [];
  for (const m of measurements) {
    const variant = m.params?.[options.param];
    if (variant === undefined || variant === options.base) continue;
    const { rest, key } = keyOf(m);
    const base = bases.get(key);
    if (!base) continue;
    const better = resolveBetter(m.metric, m.better ?? base.better);
    out.push({
      metric: m.metric,
      params: rest,
      variant,
      base,
      with: m,
      better,
      overheadPercent: overheadPercent(base.value, m.value, better),
      approximate: Boolean(m.qualifier || base.qualifier),
    });
  }
  return out;
}

/** The settings a pair of setups may differ in, one at a time, to say what that setting costs. */
export type SettingFamily = "observability" | "encryption" | "kube-proxy" | "encapsulation";

export const settingFamilyWords: Record<SettingFamily, string> = {
  observability: "observability (Hubble)",
  encryption: "encryption",
  "kube-proxy": "kube-proxy replacement",
  encapsulation: "encapsulation",
};

/** A setup as pairs are found among: a database scenario fits. */
export type PairableScenario = {
  id: string;
  label: string;
  provider: string;
  sku: string;
  nicGbps: number | null;
  cni: {
    name: string;
    version?: string | null;
    mode?: string | null;
    kubeProxy?: string | null;
    settings?: Readonly<Record<string, unknown>>;
  };
};

/** Two setups one setting apart: `base` without the setting (or with less of it), `with` with it. */
export type SettingPair<S extends PairableScenario = PairableScenario> = {
  family: SettingFamily;
  base: S;
  with: S;
  /** "wireguard", "ebpf instead of iptables", "overlay-geneve instead of native". */
  words: string;
};

const encapsulated = (mode: string | null | undefined): boolean | null => {
  if (!mode) return null;
  if (/native|noencap|no-encap|host|bgp|direct/i.test(mode)) return false;
  if (/overlay|vxlan|geneve|ipip|encap|tunnel/i.test(mode)) return true;
  return null;
};

/** Which family a differing setting (a settings key, or the mode or kube-proxy) belongs to; null when none. */
function familyOfSetting(aspect: string, a: PairableScenario, b: PairableScenario): SettingFamily | null {
  if (aspect === "kubeProxy") return "kube-proxy";
  if (aspect === "mode") {
    const ea = encapsulated(a.cni.mode);
    const eb = encapsulated(b.cni.mode);
    return ea !== null && eb !== null && ea !== eb ? "encapsulation" : null;
  }
  const key = aspect.slice("settings.".length);
  if (/hubble|observab|flow-?log/i.test(key)) return "observability";
  if (/encrypt|wireguard|ipsec/i.test(key)) return "encryption";
  if (/kube-?proxy/i.test(key)) return "kube-proxy";
  if (/encap|tunnel|routing-?mode/i.test(key)) return "encapsulation";
  return null;
}

const off = (v: unknown) =>
  v === undefined || v === null || v === false || v === "none" || v === "disabled" || v === "off";

/**
 * How much of a family's setting a setup has, to tell the base from the one with it: encryption on
 * or off; Hubble's switches on minus off (absent: the CNI's default, between "off" and extras on);
 * kube-proxy kept (0) or replaced (1); no encapsulation (0) or an overlay (1). Null: not comparable.
 */
function amountOf(family: SettingFamily, s: PairableScenario): number | null {
  const settings = s.cni.settings ?? {};
  switch (family) {
    case "encryption": {
      const keys = Object.keys(settings).filter((k) => /encrypt|wireguard|ipsec/i.test(k));
      return keys.some((k) => !off(settings[k])) ? 1 : 0;
    }
    case "observability":
      return Object.entries(settings)
        .filter(([k]) => /hubble|observab|flow-?log/i.test(k) && /enabled$|^hubble$/i.test(k))
        .reduce((n, [, v]) => n + (off(v) ? -1 : 1), 0);
    case "kube-proxy": {
      // kube-proxy's own iptables or nftables proxy kept (0), or a CNI's eBPF or IPVS proxy in its place (1).
      const kp = s.cni.kubeProxy ?? "";
      if (kp === "") return null;
      return /^(iptables|nftables)$/i.test(kp) ? 0 : 1;
    }
    case "encapsulation": {
      const e = encapsulated(s.cni.mode);
      return e === null ? null : e ? 1 : 0;
    }
  }
}

/** The setting aspects two setups of one CNI differ in: mode, kube-proxy, and each settings key. */
function differingAspects(a: PairableScenario, b: PairableScenario): string[] {
  const out: string[] = [];
  if ((a.cni.mode ?? "") !== (b.cni.mode ?? "")) out.push("mode");
  if ((a.cni.kubeProxy ?? "") !== (b.cni.kubeProxy ?? "")) out.push("kubeProxy");
  const sa = a.cni.settings ?? {};
  const sb = b.cni.settings ?? {};
  for (const k of new Set([...Object.keys(sa), ...Object.keys(sb)])) {
    if (JSON.stringify(sa[k]) !== JSON.stringify(sb[k])) out.push(`settings.${k}`);
  }
  return out;
}

function pairWords(family: SettingFamily, base: PairableScenario, withIt: PairableScenario): string {
  const settings = withIt.cni.settings ?? {};
  switch (family) {
    case "encryption": {
      const k = Object.keys(settings).find((k) => /encrypt|wireguard|ipsec/i.test(k) && !off(settings[k]));
      return k ? String(settings[k]) : "encryption on";
    }
    case "observability": {
      const on = Object.keys(settings).filter((k) => /hubble/i.test(k) && /enabled$/i.test(k) && !off(settings[k]));
      return on.length > 0 ? on.join(", ") : "Hubble at its default (on)";
    }
    case "kube-proxy":
      return `${withIt.cni.kubeProxy || "replaced"} instead of ${base.cni.kubeProxy || "kube-proxy"}`;
    case "encapsulation":
      return `${withIt.cni.mode} instead of ${base.cni.mode}`;
  }
}

/**
 * Pairs of setups that differ in one setting (issue 40): same testbed (cloud, instance type, NIC),
 * same CNI and version, and every difference of mode, kube-proxy and settings belongs to one family —
 * observability (Hubble), encryption, kube-proxy replacement or encapsulation. "cilium" and
 * "cilium-wg" differ in `encryption` alone; "antrea-wg" (mode overlay) and "antrea" (overlay-geneve)
 * differ in two things and make no pair. The side with less of the setting is the base. Pairs are in
 * family order, then by the labels.
 */
export function settingPairs<S extends PairableScenario>(scenarios: readonly S[]): SettingPair<S>[] {
  const pairs: SettingPair<S>[] = [];
  for (let i = 0; i < scenarios.length; i++) {
    for (let j = i + 1; j < scenarios.length; j++) {
      const a = scenarios[i]!;
      const b = scenarios[j]!;
      if (a.provider !== b.provider || a.sku !== b.sku || a.nicGbps !== b.nicGbps) continue;
      if (a.cni.name !== b.cni.name || (a.cni.version ?? "") !== (b.cni.version ?? "")) continue;
      const aspects = differingAspects(a, b);
      if (aspects.length === 0) continue;
      const families = new Set(aspects.map((x) => familyOfSetting(x, a, b)));
      if (families.size !== 1 || families.has(null)) continue;
      const family = [...families][0]!;
      const [na, nb] = [amountOf(family, a), amountOf(family, b)];
      if (na === null || nb === null || na === nb) continue;
      const [base, withIt] = na < nb ? [a, b] : [b, a];
      pairs.push({ family, base, with: withIt, words: pairWords(family, base, withIt) });
    }
  }
  const order = Object.keys(settingFamilyWords);
  return pairs.sort(
    (p, q) =>
      order.indexOf(p.family) - order.indexOf(q.family) ||
      p.with.label.localeCompare(q.with.label) ||
      p.base.label.localeCompare(q.base.label),
  );
}

/** What one figure of a pair says the setting costs. */
export type SettingCost = {
  metric: string;
  params: Params;
  better: Better;
  base: Figure;
  with: Figure;
  /**
   * The cost in % of the base, positive when the setting makes the figure worse: the change the
   * verdict judged (judgedPercent: with runs, of their geometric means), turned by the direction.
   */
  costPercent: number;
  verdict: Verdict;
  /** A single run on a side: the verdict is indicative. */
  indicative: boolean;
};

/**
 * What a setting costs on each figure both setups of a pair measured (the compare page's verdicts, the
 * p-values adjusted together); figures without a direction (counts) have no cost and are left out.
 */
export function settingCosts(
  base: readonly Figure[],
  withIt: readonly Figure[],
  options: VerdictOptions = {},
): SettingCost[] {
  return compareMeasurementSets(base, withIt, options).flatMap((row) => {
    const change = judgedPercent(row.result);
    const better = row.result.better;
    if (!row.baseline || !row.candidate || change === null || better === "none") return [];
    return [
      {
        metric: row.metric,
        params: row.params,
        better,
        base: row.baseline,
        with: row.candidate,
        costPercent: better === "higher" ? -change : change,
        verdict: row.result.verdict,
        indicative: row.result.evidence.method === "noise-band",
      },
    ];
  });
}
