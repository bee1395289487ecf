// Throughput: TCP pod to pod at a fixed stream count, and UDP as received with its loss beside it,
// compared like with like (the same params on one testbed) and read against the references measured
// there (bare metal, host network): "reaches 97 % of bare metal".
import { formatFigure, formatNumber, formatPercent, formatValue } from "@cnibench/format";
import { paramsKey } from "../../params-key.ts";
import type { Params } from "../../types.ts";
import { listWords, type Testbed, withRest } from "../figures.ts";
import { atCeiling, type Ceiling } from "../ranking.ts";
import type { Evidence, GuideFigure, GuideScenario } from "../types.ts";
import {
  type FigureEntry,
  type FigureSelector,
  type FigureTable,
  figureCriterion,
  figureRange,
  noServiceLoad,
  paramsSelectors,
  standing,
} from "./figure-criterion.ts";
import {
  addTo,
  type CriterionResult,
  caveat,
  encryptedWords,
  encryptionOf,
  evidenceOf,
  finding,
  type GuideContext,
  keptIn,
  levelTie,
  referencesOn,
  standingScenarios,
  wordsOf,
} from "./shared.ts";

export type Protocol = "tcp" | "udp";

const metricOf: Record<Protocol, string> = { tcp: "tcp.throughput", udp: "udp.throughput" };

/** Pod to pod (or a path not published), with no Service-count, policy or other load on it. */
export const podToPod = (p: Params) =>
  (p.path === undefined || p.path === "pod-pod") &&
  p.sameNode !== true &&
  noServiceLoad.every((k) => p[k] === undefined);

/** "pod to pod, 8 streams". */
export function testWords(params: Params): string {
  const path = params.path === "pod-pod" ? "pod to pod" : params.path === undefined ? "" : String(params.path);
  const streams =
    typeof params.streams === "number" ? `${params.streams} stream${params.streams === 1 ? "" : "s"}` : "";
  return [path, streams].filter(Boolean).join(", ");
}

/** Of two tests, the one named pod to pod first, then the one with more streams. */
export const preferTest = (a: Params, b: Params) =>
  Number(b.path === "pod-pod") - Number(a.path === "pod-pod") || Number(b.streams ?? 0) - Number(a.streams ?? 0);

// Kept per answer: the throughput, efficiency and encryption criteria each ask for them, the last once per pair.
const keptSelectors = new WeakMap<GuideContext, Map<Protocol, FigureSelector[]>>();

/**
 * A protocol's throughput selectors, like with like: the params set most options share first, then the
 * most streams (what the link carries when it is filled).
 */
export function throughputSelectors(ctx: GuideContext, protocol: Protocol): FigureSelector[] {
  return keptIn(
    keptIn(keptSelectors, ctx, () => new Map()),
    protocol,
    () =>
      paramsSelectors(ctx, {
        metric: metricOf[protocol],
        accept: podToPod,
        prefer: preferTest,
        title: (p) => `${protocol.toUpperCase()} throughput${testWords(p) ? ` (${testWords(p)})` : ""}`,
      }),
  );
}

/** What a reference is called in a sentence: "bare metal", else its label. */
export const referenceName = (s: GuideScenario) =>
  /bare.?metal/i.test(s.label) ? "bare metal" : `${s.label} (no CNI)`;

/**
 * The reference's figure of the same test on the testbed: the same params, node to node where the
 * datapath's went pod to pod (a reference has no pods).
 */
export function referenceFigure(ctx: GuideContext, t: Testbed, f: GuideFigure): GuideFigure | undefined {
  const keys = [paramsKey(f.params)];
  if (f.params.path === "pod-pod") keys.unshift(paramsKey({ ...f.params, path: "node-node" }));
  for (const key of keys) {
    for (const s of referencesOn(t)) {
      const found = ctx.figuresOf(s.id, f.metric).find((g) => paramsKey(g.params) === key);
      if (found) return found;
    }
  }
  return undefined;
}

/** "28 %" */
const share = (f: GuideFigure, ref: GuideFigure) => formatPercent((f.value / ref.value) * 100, 0, false);

/** "28 % of bare metal" */
function shareOfReference(ctx: GuideContext, f: GuideFigure, ref: GuideFigure): string {
  return `${share(f, ref)} of ${referenceName(ctx.scenario(ref.scenarioId)!)}`;
}

/** The figure of another metric measured in the same test (same scenario and params). */
export function sameTest(ctx: GuideContext, f: GuideFigure, metric: string): GuideFigure | undefined {
  const key = paramsKey(f.params);
  return ctx.figuresOf(f.scenarioId, metric).find((g) => paramsKey(g.params) === key);
}

/** "16.45 Gbit/s received with 10.14 % loss (18.27 Gbit/s sent)"; TCP figures as they are. */
function rateWords(ctx: GuideContext, f: GuideFigure): string {
  if (f.metric !== "udp.throughput") return formatFigure(f);
  const loss = sameTest(ctx, f, "udp.loss");
  const sent = sameTest(ctx, f, "x.udp.throughput.sent");
  return `${formatFigure(f)} received${loss ? ` with ${formatFigure(loss)} loss` : ""}${sent ? ` (${formatFigure(sent)} sent)` : ""}`;
}

/**
 * What a throughput figure cannot exceed on a testbed: the NIC's line rate the setups' nodes state,
 * and what the reference (bare metal) moved in the same test, whichever is lower; null when neither is
 * known. Options within the metric's margin of it all "saturate" and the test cannot rank them.
 */
function throughputCeiling(ctx: GuideContext, table: FigureTable): Ceiling | null {
  const first = table.entries[0]?.figure;
  if (first?.unit !== "Gbit/s") return null;
  const nics = new Set(table.entries.map((e) => ctx.scenario(e.figure.scenarioId)?.nicGbps ?? null));
  const nic = nics.size === 1 ? [...nics][0]! : null;
  const ref = referenceFigure(ctx, table.testbed, first);
  const refValue = ref && !ref.qualifier ? ref.value : null;
  if (nic === null && refValue === null) return null;
  const refWords = ref ? `${referenceName(ctx.scenario(ref.scenarioId)!)}'s ${formatFigure(ref)}` : "";
  const lineRate: Ceiling | null =
    nic !== null ? { value: nic, words: `the ${formatNumber(nic)} Gbit/s line rate` } : null;
  if (lineRate && (refValue === null || lineRate.value <= refValue)) return lineRate;
  // Bare metal short of the line rate (one UDP stream: 7.3 Gbit/s on 40) is the ceiling, not the line.
  return {
    value: refValue!,
    words: lineRate && atCeiling(lineRate, ref!) ? `${lineRate.words} (${refWords})` : refWords,
  };
}

/** "single-stream TCP", "8-stream UDP (service)": a throughput test in a few words. */
export function throughputShort(params: Params, protocol: Protocol): string {
  const streams =
    typeof params.streams === "number" ? (params.streams === 1 ? "single-stream " : `${params.streams}-stream `) : "";
  const path = params.path === undefined || params.path === "pod-pod" ? "" : ` (${String(params.path)})`;
  return `${streams}${protocol.toUpperCase()}${path}`;
}

const variantWords = (s: GuideScenario) => {
  const e = encryptionOf(s);
  return e ? `${s.label}, with ${e}` : s.label;
};

/**
 * Throughput as a criterion: TCP always (weight 1), UDP for UDP-heavy traffic. With encryption in
 * transit asked for, each option is read from its encrypted setups (standingScenarios); where no
 * setup was measured with encryption, from the others, and the answer says so.
 */
export function throughputCriterion(ctx: GuideContext, weight: number, protocol: Protocol): CriterionResult {
  const selectors = throughputSelectors(ctx, protocol);
  const run = (encrypted: boolean) =>
    figureCriterion(ctx, {
      key: `${protocol}Throughput`,
      weight,
      what: `${protocol.toUpperCase()} throughput${encrypted ? " with encryption" : ""}`,
      selectors,
      scenariosOf: encrypted ? (o, t) => standingScenarios(ctx, o, t) : undefined,
      // TCP throughput is read for every answer, asked for or not: only in scope, and nothing said
      // where none was measured. UDP loss, asked for with it, says what the UDP figures lack.
      quiet: true,
      elsewhere: protocol === "udp",
      every: true,
      ceiling: (table) => throughputCeiling(ctx, table),
      short: (table) => throughputShort(table.entries[0]!.figure.params, protocol),
      describe: (e, t) => {
        const ref = referenceFigure(ctx, t.testbed, e.figure);
        const yardstick = ref ? `, ${shareOfReference(ctx, e.figure, ref)}'s ${formatFigure(ref)}` : "";
        return `${t.selector.title}: ${rateWords(ctx, e.figure)} on ${t.testbed.label} (${variantWords(ctx.scenario(e.figure.scenarioId)!)})${yardstick}, ${standing(e, t)}`;
      },
    });
  let result = run(ctx.encryption);
  if (ctx.encryption && !result.measured) {
    // Nothing measured with encryption: the figures without it, said to be so.
    result = run(false);
    if (result.measured) {
      result.caveats.push(
        caveat(
          `No datapath was measured with encryption on ${ctx.scopeLabel}: its ${protocol.toUpperCase()} throughput figures are without it, and WireGuard or IPsec can cost most of it.`,
        ),
      );
    }
  }
  // Each reason carries the figures it cites: the loss and sender's rate beside a UDP rate, the reference.
  // An option's reason gets those of each of its entries it cites, in the tables' order. Looked up by
  // the cited figure: scanning every reason for every entry grew with the square of the tables.
  const cited = new Map<string, Map<string, { order: number; extra: GuideFigure[] }[]>>();
  let order = 0;
  for (const table of result.tables) {
    for (const e of table.entries) {
      const extra = [
        ...(protocol === "udp"
          ? [sameTest(ctx, e.figure, "udp.loss"), sameTest(ctx, e.figure, "x.udp.throughput.sent")]
          : []),
        referenceFigure(ctx, table.testbed, e.figure),
      ].filter((f): f is GuideFigure => f !== undefined);
      addTo(
        keptIn(cited, e.option.id, () => new Map()),
        testKey(e.figure),
        { order: order++, extra },
      );
    }
    result.summary.push(tableSummary(ctx, table));
  }
  for (const [id, reasons] of result.reasons) {
    const mine = cited.get(id);
    result.reasons.set(
      id,
      reasons.map((r) => {
        const entries = [...new Set(r.evidence.flatMap((x) => mine?.get(testKey(x)) ?? []))];
        if (entries.length === 0) return r;
        const extra = entries.sort((a, b) => a.order - b.order).flatMap((c) => c.extra);
        return { ...r, evidence: [...r.evidence, ...extra.map((f) => evidenceOf(ctx, f))] };
      }),
    );
  }
  return result;
}

// A figure's test (scenario, metric, params) as a key, kept per figure or evidence object: the same
// ones are cited answer after answer, and building the string per lookup was a fifth of this criterion.
const testKeys = new WeakMap<Pick<Evidence, "scenarioId" | "metric" | "params">, string>();
const testKey = (f: Pick<Evidence, "scenarioId" | "metric" | "params">) =>
  keptIn(testKeys, f, () => `${f.scenarioId}\u0000${f.metric}\u0000${paramsKey(f.params)}`);

/**
 * One sentence per table: the range, the reference, the first handful of setups from the highest, the
 * rest counted and linked.
 */
function tableSummary(ctx: GuideContext, table: FigureTable) {
  const sorted = [...table.entries].sort((a, b) => b.figure.value - a.figure.value);
  const ref = referenceFigure(ctx, table.testbed, sorted[0]!.figure);
  const low = sorted.at(-1)!.figure;
  const high = sorted[0]!.figure;
  // The range names the unit and the list's heading the reference, once each: "flannel 38.9 Gbit/s
  // (98 % of bare metal)" for every name buried the names. A UDP rate's ends carry their loss.
  const range =
    high.metric !== "udp.throughput"
      ? figureRange([low, high])
      : low.value === high.value
        ? rateWords(ctx, high)
        : `${rateWords(ctx, low)} to ${rateWords(ctx, high)}`;
  const level = wordsOf(levelTie(table.entries));
  const named = sorted.map(
    (e: FigureEntry) =>
      `${ctx.scenario(e.figure.scenarioId)!.label} ${formatValue(e.figure)}${ref ? ` (${share(e.figure, ref)})` : ""}`,
  );
  const text =
    `${table.selector.title}${encryptedWords(
      ctx,
      sorted.map((e) => ctx.scenario(e.figure.scenarioId)!),
    )} on ${table.testbed.label}: ${range} across ${sorted.length} datapaths` +
    `${level ? `, ${level}` : ""}${ref ? `; ${referenceName(ctx.scenario(ref.scenarioId)!)} moves ${rateWords(ctx, ref)}${ref.params.path === "node-node" ? " node to node" : ""}` : ""}. ` +
    `From the highest${ref ? ` (share of ${referenceName(ctx.scenario(ref.scenarioId)!)})` : ""}: ${listWords(named)}.`;
  const figures = [...sorted.map((e) => e.figure), ...(ref ? [ref] : [])];
  const r = finding(
    text,
    figures.map((f) => evidenceOf(ctx, f)),
  );
  return withRest(
    r,
    sorted.map((e) => ctx.scenario(e.figure.scenarioId)!),
  );
}
