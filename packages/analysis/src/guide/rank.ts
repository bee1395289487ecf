// The selection guide (issue 8): "what should I run?", answered from the figures and the capability
// matrix. Pure: the server hands over the scenarios and their current figures.
import {
  type CapabilityKey,
  type CapabilityMatrix,
  capabilityLabel,
  capabilityMatrix,
  type ResolvedCapability,
  resolveCapability,
} from "./capabilities.ts";
import {
  type CriterionResult,
  encryptionOf,
  type GuideContext,
  isReference,
  measuredCriteria,
} from "./criteria/index.ts";
import { addTo, capitalise, inTestbed, keptIn, optionScenarios } from "./criteria/shared.ts";
import {
  figuresByScenario,
  handful,
  listedAtMost,
  listFindings,
  listWords,
  providerName,
  reason,
  type Testbed,
  testbedsOf,
  toEvidence,
  trimEvidence,
} from "./figures.ts";
import { isLab, labFindings } from "./lab.ts";
import {
  type Datapath,
  type DatapathOption,
  describeDatapath,
  groupDatapaths,
  standaloneRows,
  variantOf,
} from "./options.ts";
import { type GuideAnswers, type GuideNeed, guideNeedLabels } from "./questions.ts";
import { type RankTest, rankOptions, reasonLines, testStanding, topsAlone } from "./ranking.ts";
import type {
  Evidence,
  GuideFigure,
  GuideResult,
  GuideScenario,
  NeedCheck,
  NeedStatus,
  RankedOption,
  Reason,
  UnmeasuredOption,
} from "./types.ts";

/** The metrics the guide reads: what a server fetches for it. */
export const guideMetrics = [
  "http.rps",
  "http.latency",
  "tcp.throughput",
  "udp.loss",
  "udp.throughput",
  "x.udp.throughput.sent",
  "cpu.usage",
  "memory.usage",
  "pod.rtt",
  "tcp.rr.latency",
  "tcp.rr.rate",
  "tcp.crr.latency",
  "conn.setup.latency",
] as const;

export type GuideInput = {
  answers: GuideAnswers;
  scenarios: readonly GuideScenario[];
  figures: readonly GuideFigure[];
  capabilities?: CapabilityMatrix;
};

/**
 * Needs answered by a capability. Hard needs order the list (an option missing one ranks below every
 * option that has it); soft ones only weigh in the features score.
 */
const needCapability: Record<GuideNeed, CapabilityKey> = {
  l7Policy: "l7_http_policy",
  fqdnPolicy: "fqdn_egress_policy",
  flowObservability: "flow_observability",
  podIpRoutable: "pod_ip_vpc_routable",
  // Overlay Pod IPs do not come from the VPC, so scarce VPC addresses favour "no" here.
  podIpScarcity: "pod_ip_vpc_routable",
  udpHeavy: "bandwidth_manager_edt",
  latencySensitive: "ebpf_host_routing",
  encryptionInTransit: "encryption_wireguard_ipsec",
};
const hardNeeds: readonly GuideNeed[] = [
  "l7Policy",
  "fqdnPolicy",
  "flowObservability",
  "encryptionInTransit",
  "podIpRoutable",
  "podIpScarcity",
];

/** Capabilities counted in the features score, the tie-break when performance does not separate. */
const featureKeys: readonly CapabilityKey[] = [
  "k8s_networkpolicy",
  "l7_http_policy",
  "fqdn_egress_policy",
  "clusterwide_policy",
  "flow_observability",
  "kube_proxy_replacement",
  "encryption_wireguard_ipsec",
  "bandwidth_manager_edt",
  "ebpf_host_routing",
  "multi_cluster",
];

function statusOf(need: GuideNeed, value: string): NeedStatus {
  const v = need === "podIpScarcity" ? ({ yes: "no", no: "yes" }[value] ?? value) : value;
  if (v === "yes") return "met";
  if (v === "partial") return "partial";
  // "n.a." is all a kube-proxy row says: no row describes the CNI, so its docs were not read here.
  if (v === "unknown" || v === "n.a.") return "unknown";
  return "unmet";
}

const credit = (value: string) => (value === "yes" ? 1 : value === "partial" ? 0.5 : 0);

/**
 * A note's first sentence or clause: up to a "." or ";" outside parentheses. Cut at the first ";",
 * "WireGuard only (inter-node pod traffic IPv4; host traffic only on EKS/AKS…)" lost its bracket's end.
 */
function firstSentence(note: string | undefined): string {
  if (!note) return "";
  let depth = 0;
  let end = note.length;
  for (let i = 0; i < note.length; i++) {
    const c = note[i];
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === "." || c === ";") && (i + 1 === note.length || /\s/.test(note[i + 1]!))) {
      end = i;
      break;
    }
  }
  const s = note.slice(0, end);
  if (s.length <= 220) return s;
  // Cut short, it still closes the brackets it opened.
  const cut = s.slice(0, 217);
  return `${cut}…${")".repeat(Math.max(0, cut.split("(").length - cut.split(")").length))}`;
}

/** The pages behind a capability, each with the capability it backs ("L7 (HTTP) policy"). */
const sourcesOf = (r: ResolvedCapability, about: string) =>
  r.cells.map((c) => ({ label: c.optionName, url: c.source, about }));

/**
 * What the documentation says of a need: for it, against it, or neither. A measured setup can meet a
 * need the matrix leaves undocumented (encryption); that is its own reason, not this one's.
 */
function needReason(matrix: CapabilityMatrix, need: GuideNeed, r: ResolvedCapability): Reason {
  const label = capabilityLabel(matrix, r.key);
  const undocumented = r.value === "n.a.";
  const note = undocumented
    ? "no row of the capability matrix describes this CNI (kube-proxy's says: only the Service proxy)"
    : (r.note ?? firstSentence(r.cells.find((c) => c.value === r.value)?.note ?? r.cells[0]?.note));
  const shown = undocumented ? "undocumented" : r.value;
  const value =
    need === "podIpScarcity"
      ? r.value === "yes"
        ? "every Pod takes a VPC address"
        : r.value === "no"
          ? "Pod addresses do not come from the VPC"
          : shown
      : shown;
  const named = need === "podIpScarcity" ? `${guideNeedLabels[need]} (${label}: ${shown})` : label;
  const text = `${named}: ${value}${note ? ` — ${note}` : ""}`;
  const status = statusOf(need, r.value);
  const effect = status === "met" ? "for" : status === "unmet" ? "against" : "neutral";
  return reason("capability", effect, text, [], sourcesOf(r, label));
}

// As statusOf: a final "n.a." is a kube-proxy row's, and says nothing of the CNI it runs beside.
const mark = (v: string) =>
  v === "yes" ? "yes" : v === "partial" ? "partly" : v === "unknown" || v === "n.a." ? "undocumented" : "no";

function featuresReason(matrix: CapabilityMatrix, caps: Map<CapabilityKey, ResolvedCapability>): Reason {
  const parts = featureKeys.map((k) => `${capabilityLabel(matrix, k)} ${mark(caps.get(k)!.value)}`);
  // A page that backs several features is cited once, naming each of them once.
  const byUrl = new Map<string, { source: Reason["sources"][number]; abouts: Set<string> }>();
  for (const source of featureKeys.flatMap((k) => sourcesOf(caps.get(k)!, capabilityLabel(matrix, k)))) {
    const seen = byUrl.get(source.url) ?? { source, abouts: new Set<string>() };
    byUrl.set(source.url, seen);
    seen.abouts.add(source.about);
  }
  const sources = [...byUrl.values()].map((x) => ({ ...x.source, about: [...x.abouts].join(", ") }));
  return reason("capability", "neutral", `Features: ${parts.join(" · ")}.`, [], sources);
}

const distinct = (values: string[]) => [...new Set(values)].sort();

/**
 * A test as read on a testbed: its words, and whose when another testbed measured it ("TKE
 * SA5.LARGE8's short-connection rate at 5,000 Services by Service proxy"). No brackets: the words go
 * inside the "Not beaten" line's own.
 */
const readOn = (t: RankTest, testbed: string): string =>
  t.testbed === testbed ? t.what : `${t.testbed}'s ${t.what} by Service proxy`;

/**
 * Kube-proxy replacement where the matrix leaves it unsaid and the setups ran without kube-proxy (a
 * CNI with its own Service proxy and no row): what was measured is the fact.
 */
function withoutKubeProxy(
  option: DatapathOption,
  caps: ReadonlyMap<CapabilityKey, ResolvedCapability>,
): ResolvedCapability | null {
  const documented = caps.get("kube_proxy_replacement")?.value;
  if (documented !== "unknown" && documented !== "n.a.") return null;
  if (option.proxy !== "ebpf" && option.proxy !== "cni-proxy") return null;
  return { key: "kube_proxy_replacement", value: "yes", cells: [], note: "its setups ran without kube-proxy" };
}

/**
 * A measured reason that a datapath offers encryption in transit: its setups that ran with WireGuard or
 * IPsec, with a throughput figure of each as the evidence; null when none did.
 */
function encryptedProof(ctx: GuideContext, scenarios: readonly GuideScenario[]): Reason | null {
  const encrypted = scenarios.filter((s) => encryptionOf(s) !== null);
  const evidence = encrypted.flatMap((s) => {
    const figures = ctx.figuresOf(s.id);
    const f = figures.find((g) => g.metric === "tcp.throughput") ?? figures[0];
    return f ? [toEvidence(f, s)] : [];
  });
  if (evidence.length === 0) return null;
  const kinds = encrypted.map((s) => `${encryptionOf(s)} (${s.label})`);
  return reason(
    "measured",
    "for",
    `${guideNeedLabels.encryptionInTransit}: measured here with ${listWords(kinds)}.`,
    evidence,
  );
}

/**
 * How many testbeds an answer over several ranks in full, those whose figures separate the datapaths
 * first; the others are named, each a question of its own. Twenty testbeds of three cards each made
 * the answer 670 kB and its page 2 MB, longer than anyone reads (npm run bench, reads 1M).
 */
export const testbedsRanked = 6;

/**
 * The figures a sentence about tests rests on: the option's own in them, and the others' it was
 * compared with (of `among` only, where given: a testbed's options).
 */
function testsEvidence(
  tests: readonly RankTest[],
  id: string,
  among?: readonly string[],
): { own: Evidence[]; others: Evidence[] } {
  const of = (mine: boolean) =>
    tests.flatMap((t) =>
      t.entries
        .filter((e) => (e.optionId === id) === mine && (!among || among.includes(e.optionId)))
        .flatMap((e) => e.evidence),
    );
  return { own: of(true), others: of(false) };
}

/** The answer: datapath options ranked for the answers, each with its reasons and their evidence. */
export function recommendDatapaths(input: GuideInput): GuideResult {
  const matrix = input.capabilities ?? capabilityMatrix;
  const { answers } = input;
  const caveats: Reason[] = [];
  const summary: Reason[] = [];

  // Scope: the chosen cloud and instance type, else what there is, said so. Lab scenarios are no cloud's:
  // never in scope nor options, only cited as mechanism evidence (labFindings).
  const all = input.scenarios.filter((s) => !isLab(s));
  const lab = input.scenarios.filter(isLab);
  let scoped = answers.cloud ? all.filter((s) => s.provider === answers.cloud) : all;
  let fallback: GuideResult["scope"]["fallback"] = null;
  const measuredClouds = [...new Set(all.map((s) => providerName(s.provider)))];
  // Said first when the scope asked about has no data: the lead opens with it.
  let noData = "";
  if (answers.cloud && scoped.length === 0) {
    fallback = "cloud";
    scoped = all;
    caveats.push(
      reason(
        "caveat",
        "neutral",
        `No measurements on ${providerName(answers.cloud)} yet: the figures below come from ${listWords(measuredClouds)}. Datapaths that exist only on those clouds are left out; check the rest on ${providerName(answers.cloud)} before relying on them.`,
      ),
    );
    noData = `No measurements on ${providerName(answers.cloud)}; closest evidence: ${listWords(measuredClouds)}. `;
  }
  if (answers.sku) {
    const bySku = scoped.filter((s) => s.sku === answers.sku);
    if (bySku.length > 0) scoped = bySku;
    else {
      fallback ??= "sku";
      const others = [...new Set(scoped.map((s) => s.sku))];
      noData ||= `No measurements on ${answers.sku}; closest evidence: ${listWords(others)}. `;
      caveats.push(
        reason(
          "caveat",
          "neutral",
          `No measurements on ${answers.sku}${answers.cloud && fallback === "sku" ? ` (${providerName(answers.cloud)})` : ""}: the figures come from ${listWords(others)} instead.`,
        ),
      );
    }
  }
  const scopedIds = new Set(scoped.map((s) => s.id));
  const figuresBy = figuresByScenario(input.figures, new Map(input.scenarios.map((s) => [s.id, s])));
  const byId = new Map(all.map((s) => [s.id, s]));
  // One description per CNI configuration: scenarios share a handful of them.
  const described = new Map<string, Datapath>();
  const datapaths = new Map(
    all.map((s) => {
      const key = `${s.cni.name}\u0000${s.cni.mode}\u0000${s.cni.kubeProxy}\u0000${String(s.cni.settings.cniChaining)}\u0000${variantOf(s)}`;
      let d = described.get(key);
      if (!d) {
        d = describeDatapath(s);
        described.set(key, d);
      }
      return [s.id, d];
    }),
  );

  // The options: datapaths with scenarios in scope; in a cloud fallback, those not bound to another cloud.
  // References (bare metal, host network) are the yardstick the criteria read datapaths against, never options.
  const grouped = groupDatapaths(
    all.filter((s) => !isReference(s)),
    (s) => datapaths.get(s.id)!,
  );
  const inScope = grouped.filter((o) =>
    fallback === "cloud" ? o.cloud === null || o.cloud === answers.cloud : o.scenarios.some((s) => scopedIds.has(s.id)),
  );
  // With encryption asked for, a datapath measured with it stands by its encrypted setups: what the user
  // will run. Its unencrypted setups would answer another question.
  const encryptedBases = new Set(
    inScope.filter((o) => o.scenarios.some((s) => encryptionOf(s) !== null)).map((o) => o.baseId),
  );
  const options: DatapathOption[] = answers.needs.includes("encryptionInTransit")
    ? inScope.filter((o) => o.scenarios.some((s) => encryptionOf(s) !== null) || !encryptedBases.has(o.baseId))
    : inScope;

  const scopedTestbeds = testbedsOf(scoped);
  // With several testbeds in scope a figure can separate the datapaths on one and not on another:
  // each test is named with its testbed, or "8-stream TCP" reads as both ranked on and not. With one,
  // a figure read from another testbed's lines says whose ("on EKS, where …" would claim EKS measured it).
  const testName = (t: RankTest) =>
    scopedTestbeds.length === 1 ? readOn(t, scopedTestbeds[0]!.label) : `${t.what} on ${t.testbed}`;
  const scopeLabel =
    scopedTestbeds.length === 1
      ? scopedTestbeds[0]!.label
      : answers.cloud && fallback !== "cloud"
        ? providerName(answers.cloud)
        : "the chosen scope";
  const ctx: GuideContext = {
    answers,
    scenario: (id) => byId.get(id),
    figuresOf: (id, metric) => {
      const figures = figuresBy.get(id);
      return (metric === undefined ? figures?.all : figures?.byMetric.get(metric)) ?? [];
    },
    datapathOf: (id) => datapaths.get(id),
    scopedTestbeds,
    allTestbeds: testbedsOf(all),
    options,
    scopeLabel,
    encryption: answers.needs.includes("encryptionInTransit"),
  };

  // Needs: hard unless the two IP needs are both asked for, which pull in opposite directions.
  const needs = [...new Set(answers.needs)];
  const ipConflict = needs.includes("podIpRoutable") && needs.includes("podIpScarcity");
  if (ipConflict) {
    caveats.push(
      reason(
        "caveat",
        "neutral",
        "Pod IPs routable in the VPC and Pod IP scarcity pull in opposite directions: routable Pod IPs are VPC addresses, one per Pod. Both count only as preferences here; an overlay saves addresses, native routing makes Pods reachable.",
      ),
    );
  }
  const isHard = (n: GuideNeed) =>
    hardNeeds.includes(n) && !(ipConflict && (n === "podIpRoutable" || n === "podIpScarcity"));

  const measured = measuredCriteria(ctx, (o, key) =>
    ["yes", "partial"].includes(resolveCapability(matrix, o.layers, key).value),
  );
  const { keepalive, costs } = measured;
  // Criteria whose figures come from outside the scope are the closest evidence, never ranked on, and
  // shown (once, apart from the answer) only where nothing in scope answers that part of the question:
  // a need the user ticked, or the traffic when nothing in scope was measured at all.
  const criteria = measured.criteria.filter((c) => !c.closest);
  const anyInScope = criteria.some((c) => c.measured);
  // The needs each criterion answers (keepalive's p99 HTTP latency answers a latency need too).
  const askedFor: Record<string, GuideNeed | undefined> = {
    latency: "latencySensitive",
    keepalive: "latencySensitive",
    udp: "udpHeavy",
    udpThroughput: "udpHeavy",
    encryption: "encryptionInTransit",
  };
  const asked = (c: CriterionResult) => {
    const need = askedFor[c.key];
    return need !== undefined && needs.includes(need);
  };
  const closest = measured.criteria.filter((c) => c.closest && (!anyInScope || asked(c)));
  const closestWords = (r: Reason): Reason => ({
    ...r,
    effect: "neutral",
    text: `Closest evidence, not measured on ${scopeLabel}: ${r.text}`,
  });

  const primary = criteria.find((c) => c.measured) ?? criteria[0];
  // The tests the ranking compares the options in (ranking.ts), and whether each separates any two.
  const tests = criteria
    .filter((c) => c.weight > 0)
    .flatMap((c) => (c === measured.traffic ? c.tests.map((t) => ({ ...t, traffic: true })) : c.tests));
  const standings = tests.map((test) => ({ test, ...testStanding(test) }));
  const separating = standings.filter((s) => s.separates).map((s) => s.test);
  const performanceMatters = separating.length > 0;

  // Summary, in the order a reader asks: traffic first, then the needs.
  if (answers.connections === "mixed") {
    summary.push(
      reason(
        "caveat",
        "neutral",
        "With mixed traffic the short-lived connections are the ones the Service count slows down, so they rank the datapaths; keepalive figures follow as information.",
      ),
    );
  }
  // What the answers asked about first (the traffic, the needs and their costs); what every answer reads
  // (TCP throughput, CPU per Gbit/s) after.
  const everyAnswer = (c: CriterionResult) => c.key === "tcpThroughput" || c.key === "efficiency";
  for (const c of criteria) if (!everyAnswer(c)) summary.push(...c.summary);
  if (keepalive && !keepalive.closest) summary.push(...keepalive.summary);
  for (const c of costs) summary.push(...c.summary);
  for (const c of criteria) if (everyAnswer(c)) summary.push(...c.summary);
  if (answers.connections !== "keepalive") {
    summary.push(...labFindings(lab, ctx.figuresOf, new Set(options.map((o) => o.proxy))));
  }
  const closestFindings = closest.flatMap((c) => c.summary.map(closestWords));
  if (keepalive?.closest && !anyInScope) {
    closestFindings.push(...keepalive.summary.map(closestWords));
  }
  for (const c of measured.criteria) {
    caveats.push(...(c.closest && !closest.includes(c) ? [] : c.caveats));
  }

  // Each option: needs, capability reasons, measured reasons, scores.
  const ranked = options.map((option) => {
    const caps = new Map<CapabilityKey, ResolvedCapability>();
    for (const k of matrix.capabilities.map((c) => c.key)) caps.set(k, resolveCapability(matrix, option.layers, k));
    const ranWithoutKubeProxy = withoutKubeProxy(option, caps);
    if (ranWithoutKubeProxy) caps.set("kube_proxy_replacement", ranWithoutKubeProxy);
    // A datapath measured here with encryption offers it, whatever the documentation left unsaid.
    const encrypted = needs.includes("encryptionInTransit") ? encryptedProof(ctx, option.scenarios) : null;
    const checks: NeedCheck[] = needs.map((need) => ({
      need,
      status:
        need === "encryptionInTransit" && encrypted ? "met" : statusOf(need, caps.get(needCapability[need])!.value),
      hard: isHard(need),
    }));
    const reasons: Reason[] = [];
    for (const c of criteria) reasons.push(...(c.reasons.get(option.id) ?? []));
    if (keepalive) {
      reasons.push(...(keepalive.reasons.get(option.id) ?? []).map((r) => ({ ...r, effect: "neutral" as const })));
    }
    for (const check of checks) {
      reasons.push(needReason(matrix, check.need, caps.get(needCapability[check.need])!));
    }
    if (encrypted) reasons.push(encrypted);
    for (const c of costs) reasons.push(...(c.reasons.get(option.id) ?? []));
    reasons.push(featuresReason(matrix, caps));
    if (option.layers.length === 0) {
      reasons.push(
        reason(
          "caveat",
          "neutral",
          `No row of the capability matrix describes this datapath: its features are unknown${ranWithoutKubeProxy ? ", but for kube-proxy replacement, which its setups ran with" : ""}.`,
        ),
      );
    }
    const soft = checks
      .filter((c) => !c.hard)
      .reduce((sum, c) => sum + 2 * credit(c.status === "met" ? "yes" : c.status === "partial" ? "partial" : "no"), 0);
    const features = soft + featureKeys.reduce((sum, k) => sum + credit(caps.get(k)!.value), 0);
    const hard = checks.filter((c) => c.hard);
    const count = (s: NeedStatus) => hard.filter((c) => c.status === s).length;
    const fit: RankedOption["fit"] =
      count("unmet") > 0 ? "poor" : count("partial") + count("unknown") > 0 ? "partial" : "good";
    return {
      option,
      order: { unmet: count("unmet"), unknown: count("unknown"), partial: count("partial") },
      result: {
        rank: 0,
        id: option.id,
        label: option.label,
        capabilityRows: option.layers.flat(),
        scenarios: option.scenarios
          .map((s) => ({ id: s.id, label: s.label, provider: s.provider, sku: s.sku, inScope: scopedIds.has(s.id) }))
          .sort((a, b) => Number(b.inScope) - Number(a.inScope)),
        scenarioCount: {
          all: option.scenarios.length,
          inScope: option.scenarios.filter((s) => scopedIds.has(s.id)).length,
        },
        explore: {
          cni: distinct(option.scenarios.map((s) => s.cni.name)),
          mode: distinct(option.scenarios.map((s) => s.cni.mode)),
          kubeProxy: distinct(option.scenarios.map((s) => s.cni.kubeProxy)),
        },
        clouds: [...new Set(option.scenarios.map((s) => s.provider))],
        fit,
        needs: checks,
        features,
        reasons,
        moreReasons: 0,
      } satisfies Omit<RankedOption, "tier" | "why" | "performance">,
    };
  });

  const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  const rankedById = new Map(ranked.map((r) => [r.result.id, r]));
  const needsGroup = (id: string) => {
    const o = rankedById.get(id)!.order;
    return o.unmet * 10_000 + o.unknown * 100 + o.partial;
  };
  const subject = (id: string) => {
    const r = rankedById.get(id)!.result;
    const words = (status: NeedStatus) =>
      r.needs.filter((c) => c.hard && c.status === status).map((c) => guideNeedLabels[c.need]);
    const parts = [
      ...(words("unmet").length > 0 ? [`misses ${listWords(words("unmet"), 3)}`] : []),
      ...(words("unknown").length > 0 ? [`has ${listWords(words("unknown"), 3)} undocumented`] : []),
      ...(words("partial").length > 0 ? [`offers ${listWords(words("partial"), 3)} only partly`] : []),
    ];
    return { label: r.label, features: r.features, needsShort: parts.length > 0 ? parts.join(", ") : null };
  };
  /** Options in order on `separatingHere`, each with its place and the line that says what puts it there. */
  const rankAmong = (ids: readonly string[], separatingHere: readonly RankTest[], askedHere: readonly RankTest[]) => {
    const ranking = rankOptions(
      ids,
      separatingHere,
      needsGroup,
      (a, b) => {
        const x = rankedById.get(a)!.result;
        const y = rankedById.get(b)!.result;
        return (near(x.features, y.features) ? 0 : y.features - x.features) || x.label.localeCompare(y.label);
      },
      askedHere,
    );
    const lines = reasonLines(ranking, separatingHere, subject, needsGroup, askedHere);
    const places = ranking.order.map((id, i) => {
      const line = lines.get(id)!;
      return {
        id,
        rank: i + 1,
        tier: ranking.tier.get(id) ?? 1,
        performance: ranking.score.get(id) ?? 0,
        why: reason(
          // "Not measured …" is a caveat and "Below … on your needs" the documentation's word: not MEASURED.
          separatingHere.length === 0 ? "capability" : (line.kind ?? "measured"),
          i === 0 ? "for" : "neutral",
          line.text,
          line.evidence,
        ),
      };
    });
    // Not beaten across the board: the first tier of the options that meet the needs best.
    const first = places[0];
    const notBeaten =
      separatingHere.length > 0 && first
        ? places.filter((p) => p.tier === 1 && needsGroup(p.id) === needsGroup(first.id)).map((p) => p.id)
        : [];
    return { places, notBeaten, level: ranking.level };
  };

  // A card under one testbed holds that testbed's figures: another's (38 Gbit/s on bare metal under
  // a 10 Gbit/s cloud) would read as measured there. The Service-count lines, read by proxy on every
  // testbed, stay; the rest is named, not shown.
  const readByProxy = new Set(
    criteria.filter((c) => c.tests.some((t) => t.byProxy)).flatMap((c) => [...c.reasons.values()].flat()),
  );
  // The testbeds a reason's figures come from, worked out once per reason: an option measured on many
  // testbeds has its reasons sorted for each of them, and scanning every figure each time was a
  // twentieth of the ranking on a store of 59 testbeds.
  const testbedOfScenario = new Map(scopedTestbeds.flatMap((t) => t.scenarios.map((s) => [s.id, t] as const)));
  const reasonTestbeds = new WeakMap<Reason, Set<Testbed | undefined>>();
  const reasonsOn = (testbed: Testbed, id: string, sectionsOf: readonly { bed: Testbed; ids: string[] }[]) => {
    const here = rankedById
      .get(id)!
      .result.reasons.filter(
        (r) =>
          r.evidence.length === 0 ||
          readByProxy.has(r) ||
          keptIn(reasonTestbeds, r, () => new Set(r.evidence.map((e) => testbedOfScenario.get(e.scenarioId)))).has(
            testbed,
          ),
      );
    const elsewhere = sectionsOf.filter((x) => x.bed !== testbed && x.ids.includes(id));
    if (elsewhere.length === 0) return here;
    // Only the first testbeds are ranked in the answer: of the others it names where they are.
    const inAnswer = new Set(sectionsOf.slice(0, testbedsRanked));
    const listed = elsewhere.filter((x) => inAnswer.has(x)).map((x) => x.bed.label);
    const unlisted = elsewhere.filter((x) => !inAnswer.has(x)).map((x) => x.bed.label);
    const those = listed.length === 1 ? "that testbed" : "those testbeds";
    const own = "each answered on its own (more testbeds, below the rankings)";
    const also = reason(
      "caveat",
      "neutral",
      unlisted.length === 0
        ? `Also measured on ${listWords(listed)}: its figures there are listed under ${those}.`
        : listed.length === 0
          ? `Also measured on ${listWords(unlisted)}: ${own}.`
          : `Also measured on ${listWords(listed)}, where its figures are listed under ${those}, and on ${listWords(unlisted)}, ${own}.`,
    );
    const at = here.findIndex((r) => r.kind === "capability");
    return at < 0 ? [...here, also] : [...here.slice(0, at), also, ...here.slice(at)];
  };

  // No test compares datapaths of two testbeds. With several in scope (any cloud, or a cloud's
  // instance types), one order across them would rank an EKS-only datapath above an on-premises one on
  // nothing: each testbed gets its own ranking, of every option measured there, and its own start.
  const sections = (scopedTestbeds.length > 1 ? scopedTestbeds : [])
    .map((testbed) => {
      const ids = options.filter((o) => optionScenarios(o, testbed).length > 0).map((o) => o.id);
      const here = new Set(ids);
      // Its tests, with its options' figures only: a test separates here only if it separates two of
      // them. The Service-count test reads one testbed's lines for every option, by Service proxy.
      const asked = tests
        .filter((t) => t.testbed === testbed.label || t.byProxy === true)
        .map((t) => ({ ...t, entries: t.entries.filter((e) => here.has(e.optionId)) }))
        .filter((t) => t.entries.length > 0);
      const separatingHere = asked.filter((t) => testStanding(t).separates);
      return {
        bed: testbed,
        testbed: testbed.label,
        ids,
        separating: separatingHere,
        ...rankAmong(ids, separatingHere, asked),
      };
    })
    .filter((x) => x.ids.length > 0)
    // Testbeds whose figures separate the datapaths first, then the larger.
    .sort((a, b) => Number(b.separating.length > 0) - Number(a.separating.length > 0) || b.ids.length - a.ids.length)
    .map((x, _, all) => ({ ...x, reasons: new Map(x.ids.map((id) => [id, reasonsOn(x.bed, id, all)])) }));
  const perTestbed = sections.length > 1;
  const whole = perTestbed
    ? null
    : rankAmong(
        ranked.map((r) => r.result.id),
        separating,
        tests,
      );
  // Per testbed, an option's card comes where it first appears, with its place and reasons there.
  const cardOf = new Map<string, RankedOption>();
  const placed = whole
    ? whole.places.map((p) => ({ p, reasons: rankedById.get(p.id)!.result.reasons }))
    : sections.flatMap((x) => x.places.map((p) => ({ p, reasons: x.reasons.get(p.id)! })));
  for (const { p, reasons } of placed) {
    if (cardOf.has(p.id)) continue;
    const { rank, tier, performance, why } = p;
    cardOf.set(p.id, { ...rankedById.get(p.id)!.result, rank, tier, performance, why, reasons });
  }
  const rankedOptions = [...cardOf.values()];
  const optionById = new Map(rankedOptions.map((o) => [o.id, o]));
  const notBeaten = (whole ? whole.notBeaten : [...new Set(sections.flatMap((x) => x.notBeaten))]).map(
    (id) => optionById.get(id)!,
  );

  // The lead sentence.
  let leadCount = 0;
  const top = rankedOptions[0];
  if (top) {
    const missing = top.needs.filter((c) => c.hard && c.status === "unmet").map((c) => guideNeedLabels[c.need]);
    const onFeatures = needs.length > 0 ? "the needs you ticked and the features it offers" : "the features it offers";
    const decisive = [...new Set(separating.map(testName))];
    const separate = (names: readonly string[]) =>
      `${listWords(names, 4)} ${names.length === 1 ? "separates" : "separate"} the datapaths`;
    // "Measures best" rests on the tests that put it alone at the top: one where another stands level
    // with it (both at the line rate, the same loss, CPU within its margin) or ahead of it is no reason
    // for the lead. "Nothing beats it across the board" keeps every test: a datapath level with it on
    // one could be behind on all the others.
    const toppedAlone = separating.filter((t) => topsAlone(t, top.id));
    const atTheTop = [...new Set(toppedAlone.map(testName))];
    // Alone in the not-beaten set it measures best; among several, say what put it first among them:
    // the answers' weights, else the features. One that no figure separates from it is as good a
    // start whatever ordered the two (values within the figures' margins, features, names), and the
    // lead names it: on-premises, Antrea led five datapaths it was level with on every figure "on what
    // your answers weigh", which were single-stream TCP values 2 % apart against a ±5 % margin.
    type Placed = { id: string; performance: number };
    const firstAmong = (first: Placed, peers: readonly Placed[], level: (a: string, b: string) => boolean) => {
      const features = (p: Placed) => rankedById.get(p.id)!.result.features;
      const levelPeers = peers.filter((p) => level(first.id, p.id));
      if (levelPeers.length > 0) {
        // One label and a count: labels hold commas, and a list of them could not be read.
        const names = listWords(
          levelPeers.map((p) => rankedById.get(p.id)!.result.label),
          1,
        );
        const sameScore = levelPeers.filter((p) => near(p.performance, first.performance));
        const how = sameScore.some((p) => near(features(p), features(first)))
          ? "by name only"
          : sameScore.length > 0
            ? "on the features it offers"
            : "on differences within the figures' margins";
        return `; no figure separates it from ${names}: ${levelPeers.length === 1 ? "either" : "each"} is as good a start, this one first ${how}`;
      }
      if (peers.every((p) => first.performance - p.performance > 1e-9)) {
        return ", and first among them on what your answers weigh";
      }
      // Separated by a figure each way, and the weights balance them out.
      const tied = peers.filter((p) => near(p.performance, first.performance) && near(features(p), features(first)));
      if (tied.length === 0) return ", and first among them on the features it offers";
      const names = listWords(
        tied.map((p) => rankedById.get(p.id)!.result.label),
        3,
      );
      return `; ${names} ${tied.length === 1 ? "is" : "are"} level with it on what your answers weigh and on features: either is as good a start, this one first by name only`;
    };
    const peers = notBeaten.filter((o) => o.id !== top.id);
    const separatingWords =
      peers.length === 0
        ? atTheTop.length > 0
          ? `it measures best on ${scopeLabel}, where ${separate(atTheTop)}`
          : `nothing beats it across the board on ${scopeLabel}, where ${separate(decisive)}`
        : `it is one of ${peers.length + 1} datapaths nothing beats across the board on ${scopeLabel}, where ${separate(decisive)}${firstAmong(top, peers, whole?.level ?? (() => false))}`;
    // The figures of the tests the lead names.
    const leadFigures = testsEvidence(peers.length === 0 && toppedAlone.length > 0 ? toppedAlone : separating, top.id);
    const why = !performanceMatters
      ? `${primary?.levelWords ? `the measurements for your traffic do not separate the datapaths (${primary.levelWords})` : "nothing measured separates the datapaths for your traffic"}, so it leads on ${onFeatures}`
      : needs.length > 0
        ? `it meets the needs you ticked and ${separatingWords.replace(/^it /, "")}`
        : separatingWords;
    // One start per testbed, a sentence each: labels hold commas ("Cilium overlay (VXLAN), kube-proxy
    // replacement, Hubble off"), so a list of them in one sentence could not be read.
    const starts = sections
      .filter((x) => x.separating.length > 0)
      .map((x) => {
        const first = { ...optionById.get(x.places[0]!.id)!, reasons: x.reasons.get(x.places[0]!.id)! };
        const unmet = first.needs.filter((c) => c.hard && c.status === "unmet").map((c) => guideNeedLabels[c.need]);
        // A figure read from another testbed's lines says whose: "there" would claim it was measured there.
        const decisiveHere = listWords([...new Set(x.separating.map((t) => readOn(t, x.testbed)))], 4);
        const standing =
          unmet.length > 0
            ? `closest to what you ticked, with ${listWords(unmet, unmet.length)} missing even there`
            : x.notBeaten.length > 1
              ? `one of the ${x.notBeaten.length} nothing beats across the board there on ${decisiveHere}${firstAmong(
                  x.places[0]!,
                  x.places.filter((p) => p.id !== first.id && x.notBeaten.includes(p.id)),
                  x.level,
                )}`
              : `nothing beats it across the board there on ${decisiveHere}`;
        // What the sentence rests on: its own figures in the tests that rank there, then the others'.
        const { own, others } = testsEvidence(x.separating, first.id, x.ids);
        return { first, text: `On ${x.testbed}: ${first.label}; ${standing}.`, own, evidence: [...own, ...others] };
      });
    const testbedsLead = () => {
      const unseparated = sections.filter((x) => x.separating.length === 0).map((x) => x.testbed);
      const byFeatures = needs.length > 0 ? "the needs you ticked and the features" : "the features";
      const choose = `Choose ${answers.cloud && fallback !== "cloud" ? "an instance type" : "a cloud and instance type"} above for one testbed's answer.`;
      const opening = `Measured on ${sections.length} testbeds, and no test ran datapaths of two of them side by side`;
      if (starts.length === 0) {
        return `${opening}; on none does what was measured for your traffic separate the datapaths${primary?.levelWords ? ` (${primary.levelWords})` : ""}, so each testbed's list follows ${byFeatures}. ${choose}`;
      }
      const rest =
        unseparated.length > 0
          ? ` On ${listWords(unseparated, unseparated.length)}, nothing measured for your traffic separates the datapaths: the list follows ${byFeatures}.`
          : "";
      return `${opening}, so each has its own start${extrapolated ? " (partly extrapolated past the measured range)" : ""}, below.${rest} ${choose}`;
    };
    const extrapolatedFor = (o: Pick<RankedOption, "reasons">) =>
      o.reasons.some((r) => r.kind === "extrapolated" && r.effect === "for");
    const capabilitySources = (o: Pick<RankedOption, "reasons">) =>
      o.reasons.filter((r) => r.kind === "capability").flatMap((r) => r.sources);
    const extrapolated = perTestbed ? starts.some((x) => extrapolatedFor(x.first)) : extrapolatedFor(top);
    const leadText = perTestbed
      ? testbedsLead()
      : missing.length > 0
        ? `No datapath in scope offers everything you ticked (${listWords(missing, missing.length)} missing even at the top). Closest: ${top.label}.`
        : `${noData ? "There, start" : "Start"} with ${top.label}: ${why}${extrapolated ? " (partly extrapolated past the measured range)" : ""}.`;
    const lead = reason(
      extrapolated ? "extrapolated" : performanceMatters ? "measured" : "capability",
      "for",
      `${noData}${leadText}`,
      perTestbed
        ? starts.flatMap((x) => x.own)
        : performanceMatters && missing.length === 0
          ? // The tests it names, its own figures first: "measures best where single-stream TCP
            // separates" rests on that test's figures, not on every figure that speaks for it.
            [...leadFigures.own, ...leadFigures.others]
          : top.reasons.filter((r) => r.effect === "for" && r.kind !== "capability").flatMap((r) => r.evidence),
      // The capability cells it leads on, when features decide.
      performanceMatters
        ? []
        : [
            ...new Map(
              (perTestbed ? sections.map((x) => ({ reasons: x.reasons.get(x.places[0]!.id)! })) : [top])
                .flatMap(capabilitySources)
                .map((x) => [x.url, x]),
            ).values(),
          ],
    );
    // Each testbed's start, a finding of its own with the figures it rests on.
    const startReasons = perTestbed
      ? starts.map((x) =>
          reason(
            extrapolatedFor(x.first) ? "extrapolated" : "measured",
            "for",
            x.text,
            x.evidence.length > 0
              ? x.evidence
              : x.first.reasons.filter((r) => r.effect === "for").flatMap((r) => r.evidence),
          ),
        )
      : [];
    // Right after the lead: what nothing beats, and which figures could not rank and why.
    const frontier =
      !perTestbed && notBeaten.length > 1
        ? [
            reason(
              "measured",
              "neutral",
              `Not beaten across the board on the figures that separate them (${listWords(decisive, 4)}): ${listWords(
                notBeaten.map((o) => o.label),
                6,
              )} — no other datapath is at least as good on every one of them and better on one. Among these, the order follows what your answers weigh.`,
              separating.flatMap((t) =>
                t.entries.filter((e) => notBeaten.some((o) => o.id === e.optionId)).flatMap((e) => e.evidence),
              ),
            ),
          ]
        : [];
    // One sentence for every figure that cannot rank, grouped by why: "8-stream TCP and 16-stream TCP
    // (all 14 reach the 40 Gbit/s line rate)".
    const level = standings.filter((x) => !x.separates && x.words);
    // Tests that separate only some: those at the ceiling are not told apart by it, said once each.
    const capped = standings
      .filter((x) => x.separates && x.words)
      .map((x) =>
        reason(
          "measured",
          "neutral",
          `${capitalise(testName(x.test))} separates only the rest: ${x.words}.`,
          x.test.entries.flatMap((e) => e.evidence),
        ),
      );
    const byWords = new Map<string, typeof level>();
    for (const x of level) addTo(byWords, x.words!, x);
    const unranked =
      level.length === 0
        ? []
        : [
            reason(
              "measured",
              "neutral",
              `Not ranked on, as they do not separate the datapaths${scopedTestbeds.length === 1 ? ` on ${scopeLabel}` : ""}: ${listWords(
                [...byWords].map(
                  ([words, xs]) =>
                    `${listWords(
                      xs.map((x) => testName(x.test)),
                      xs.length,
                    )} (${words})`,
                ),
                byWords.size,
              )}.`,
              level.flatMap((x) => x.test.entries.flatMap((e) => e.evidence)),
            ),
          ];
    summary.unshift(lead, ...startReasons, ...frontier, ...unranked, ...capped);
    leadCount = 1 + startReasons.length + frontier.length + unranked.length + capped.length;
    const approximate = (perTestbed ? starts.map((x) => x.first) : [top]).filter((o) =>
      o.reasons.some((r) => r.effect === "for" && r.approximate),
    );
    if (approximate.length > 0) {
      caveats.push(
        reason(
          "caveat",
          "neutral",
          `Part of what puts ${listWords(
            approximate.map((o) => o.label),
            approximate.length,
          )} first rests on approximate or bounded figures (marked ≈, ≤, ≥ or as a range).`,
        ),
      );
    }
  }

  // Datapaths of the matrix with no figures in scope: listed with their needs, never ranked.
  const shownRows = new Set(options.flatMap((o) => o.layers.at(-1) ?? []));
  const unmeasured: UnmeasuredOption[] = Object.entries(standaloneRows)
    .filter(
      ([id, row]) =>
        !shownRows.has(id) && (row.clouds === null || !answers.cloud || row.clouds.includes(answers.cloud)),
    )
    .map(([id, row]) => {
      const checks: NeedCheck[] = needs.map((need) => ({
        need,
        status: statusOf(need, resolveCapability(matrix, [[id]], needCapability[need]).value),
        hard: isHard(need),
      }));
      const reasons = checks.map((c) =>
        needReason(matrix, c.need, resolveCapability(matrix, [[id]], needCapability[c.need])),
      );
      return { id, label: row.label, needs: checks, reasons };
    });

  // The answer itself is listed whole: its lead says each testbed has its start below. The findings
  // after it are counted past the first few.
  const answerItself = new Set(summary.slice(0, leadCount));
  const findings = listFindings(summary, listedAtMost, (r) => answerItself.has(r));
  // Capability reasons (needs, features) are few and all shown; measured ones grow with the testbeds.
  // Cards under a testbed's heading list the first few figures of each reason (its count says how many
  // there are): with 20 testbeds in scope, 60 cards of 12 figures a reason made the answer 1 MB.
  const listCard = (reasons: Reason[]) => {
    const listed = listFindings(reasons, listedAtMost, (r) => r.kind === "capability");
    if (!perTestbed) return listed;
    return { ...listed, reasons: listed.reasons.map((r) => ({ ...r, evidence: r.evidence.slice(0, handful) })) };
  };
  return {
    answers,
    scope: {
      clouds: [...new Set(scoped.map((s) => s.provider))],
      skus: [...new Set(scoped.map((s) => s.sku))],
      scenarioCount: scoped.length,
      fallback,
    },
    summary: findings.reasons,
    leadCount,
    moreFindings: findings.more,
    caveats: caveats.map(trimEvidence),
    performanceMatters,
    notBeaten: notBeaten.map((o) => o.id),
    byTestbed: perTestbed
      ? sections.slice(0, testbedsRanked).map((x) => ({
          testbed: x.testbed,
          places: x.places.map((p) => {
            const listed = listCard(x.reasons.get(p.id)!);
            // "Measured here" under a testbed's heading means on that testbed; a card names a handful of each.
            const scenarios = rankedById
              .get(p.id)!
              .result.scenarios.map((s) => ({ ...s, inScope: inTestbed(x.bed, s.id) }));
            const here = scenarios.filter((s) => s.inScope);
            const elsewhere = scenarios.filter((s) => !s.inScope);
            return {
              id: p.id,
              rank: p.rank,
              tier: p.tier,
              notBeaten: x.notBeaten.length > 1 && x.notBeaten.includes(p.id),
              why: trimEvidence(p.why),
              reasons: listed.reasons,
              moreReasons: listed.more,
              scenarios: [...here.slice(0, handful), ...elsewhere.slice(0, handful)],
              scenarioCount: { all: scenarios.length, inScope: here.length },
            };
          }),
        }))
      : [],
    moreTestbeds: perTestbed
      ? sections.slice(testbedsRanked).map((x) => ({
          testbed: x.testbed,
          provider: x.bed.provider,
          sku: x.bed.sku,
          options: x.ids.length,
        }))
      : [],
    figuresRead: standings.map((x) => ({
      what: x.test.what,
      testbed: x.test.testbed,
      options: x.test.entries.length,
      ranks: x.separates,
      words: x.words,
    })),
    closest: closestFindings.map(trimEvidence),
    options: rankedOptions.map((o) => {
      const listed = listCard(o.reasons);
      return {
        ...o,
        scenarios: o.scenarios.slice(0, listedAtMost),
        reasons: listed.reasons,
        moreReasons: listed.more,
      };
    }),
    unmeasured: unmeasured.map((u) => ({ ...u, reasons: u.reasons.map(trimEvidence) })),
    capabilitiesVersion: matrix.version,
  };
}
