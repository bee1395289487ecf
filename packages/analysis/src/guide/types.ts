import type { Figure, Params, ShownFigure } from "../types.ts";
import type { GuideAnswers, GuideNeed } from "./questions.ts";

/** A scenario as the guide needs it; packages/db's ScenarioSummary fits. */
export type GuideScenario = {
  id: string;
  label: string;
  provider: string;
  sku: string;
  kernel: string;
  /** The node's NIC speed where the upload states it: the line rate throughput tests saturate. */
  nicGbps?: number | null;
  cni: {
    name: string;
    mode: string;
    kubeProxy: string;
    label?: string | null;
    settings: Record<string, string | number | boolean | null>;
  };
};

/** A current figure with where it came from; packages/db's LatestFigure fits. */
export type GuideFigure = Figure & { scenarioId: string; bundleId: string; params: Params };

/** One figure a reason was computed from: enough to show it and link to its scenario and bundle. */
export type Evidence = ShownFigure & { scenarioId: string; scenarioLabel: string; bundleId: string };

export type ReasonKind = "measured" | "extrapolated" | "capability" | "caveat";

/** Whether a reason speaks for the option, against it, or only informs. */
export type ReasonEffect = "for" | "against" | "neutral";

/** The explorer's filters: where the names a sentence left out ("and 5 more") are listed. */
export type ScenarioFilters = { provider: string[]; sku: string[]; cni: string[]; mode: string[]; kubeProxy: string[] };

/** What a sentence that lists a handful of names left out: how many, and the explorer filtered to them. */
export type ReasonRest = { count: number; explore: ScenarioFilters };

export type Reason = {
  text: string;
  kind: ReasonKind;
  effect: ReasonEffect;
  /** The figures it was computed from (measured and extrapolated reasons), the first `listedAtMost` of them. */
  evidence: Evidence[];
  /** How many distinct figures it was computed from in all. */
  evidenceCount: number;
  /** The pages a capability reason cites: the matrix row (label), and the capabilities each page backs (about). */
  sources: { label: string; url: string; about: string }[];
  /** It rests on an approximate or bounded figure: said in the text too. */
  approximate: boolean;
  /** The names the text left out after the first handful ("and 5 more"), with a link to them; else null. */
  rest: ReasonRest | null;
};

export type FigureRead = {
  what: string;
  testbed: string;
  /** How many options it compared. */
  options: number;
  ranks: boolean;
  /** Why it does not rank, or what it cannot tell apart: "all 14 reach the 40 Gbit/s line rate". */
  words: string | null;
};

export type NeedStatus = "met" | "partial" | "unmet" | "unknown";

export type NeedCheck = {
  need: GuideNeed;
  status: NeedStatus;
  /** Hard needs order the list; soft ones (UDP, latency, conflicting IP needs) only weigh in. */
  hard: boolean;
};

export type RankedOption = {
  rank: number;
  id: string;
  label: string;
  /** The capability rows it was matched to, most specific first. */
  capabilityRows: string[];
  /**
   * Its scenarios, in scope first, the first `listedAtMost` of them; `inScope` says whether they
   * are on the chosen cloud and instance type.
   */
  scenarios: { id: string; label: string; provider: string; sku: string; inScope: boolean }[];
  /** How many scenarios it has in all, and how many of them are in scope. */
  scenarioCount: { all: number; inScope: number };
  /** With `clouds`, the explorer's filters that list its scenarios (those left out here, and the figures behind them). */
  explore: Pick<ScenarioFilters, "cni" | "mode" | "kubeProxy">;
  /** The clouds its scenarios ran on. */
  clouds: string[];
  /** "good": every hard need met; "partial": some only partly or undocumented; "poor": one missing. */
  fit: "good" | "partial" | "poor";
  needs: NeedCheck[];
  /**
   * 1 when no other option (meeting the needs as well) beats it across the board — at least as good on
   * every figure asked about and better on one; 2 when only tier-1 options do; and so on.
   */
  tier: number;
  /** Its place in one line: what puts it below the option above it (for the first, why first). */
  why: Reason;
  /** Weighted standing in the figures that separate the options: 0 (worst) to 1 (best in each). */
  performance: number;
  /** Capabilities score: the tie-break when performance does not separate the options. */
  features: number;
  reasons: Reason[];
  /** Measured reasons left out of `reasons` (it lists the first few and every capability reason). */
  moreReasons: number;
};

/** One testbed's ranking: each option's place there and the line that says what puts it there. */
export type TestbedRanking = {
  testbed: string;
  places: {
    id: string;
    rank: number;
    tier: number;
    /** One of several options nothing beats across the board on this testbed. */
    notBeaten: boolean;
    why: Reason;
    /** Its card's reasons on this testbed: its figures here, the Service-count lines read by proxy, its features. */
    reasons: Reason[];
    moreReasons: number;
    /** Its scenarios, those on this testbed first and `inScope`; `scenarioCount.inScope` counts those. */
    scenarios: RankedOption["scenarios"];
    scenarioCount: RankedOption["scenarioCount"];
  }[];
};

/** A datapath in the capability matrix with no measurements in scope: listed, never ranked. */
export type UnmeasuredOption = { id: string; label: string; needs: NeedCheck[]; reasons: Reason[] };

export type GuideResult = {
  answers: GuideAnswers;
  /** What the figures come from. */
  scope: {
    clouds: string[];
    skus: string[];
    scenarioCount: number;
    /** "cloud": no data for the chosen cloud; "sku": none for the chosen instance type. */
    fallback: "cloud" | "sku" | null;
  };
  /** The answer in a few sentences, each a reason with its evidence: the first few findings. */
  summary: Reason[];
  /**
   * How many of the summary's first sentences are the answer itself (the lead, what nothing beats, what
   * could not rank); the findings they rest on follow.
   */
  leadCount: number;
  /** Findings left out of `summary`, e.g. the same crossover on many more testbeds. */
  moreFindings: number;
  /** What to keep in mind about the whole answer: fallbacks, extrapolation, conflicting needs. */
  caveats: Reason[];
  /** False when no verdict separates the datapaths on the figures for the traffic described. */
  performanceMatters: boolean;
  /** The ids of the options not beaten across the board (tier 1 of the best-fitting): empty when no figure separates them. */
  notBeaten: string[];
  /**
   * With several testbeds in scope, one ranking per testbed, of every option measured there (an option
   * measured on two is placed in both), as no test compares datapaths across testbeds; `options` then
   * holds each option once, where it first appears. Empty with one testbed: `options` is the ranking.
   */
  byTestbed: TestbedRanking[];
  /**
   * The testbeds past the first `testbedsRanked`, in the same order: named with how many datapaths
   * were measured there, each asked about on its own (its cloud and instance type). Empty with one.
   */
  moreTestbeds: { testbed: string; provider: string; sku: string; options: number }[];
  /** Each figure compared in scope, and whether it ranks: a figure every option saturates does not. */
  figuresRead: FigureRead[];
  /**
   * Findings from another cloud or instance type, shown apart and folded, only where nothing in scope
   * answers that part of the question; never ranked on.
   */
  closest: Reason[];
  options: RankedOption[];
  unmeasured: UnmeasuredOption[];
  capabilitiesVersion: string;
};
