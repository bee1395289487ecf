/**
 * POST /v1/gate: a CI gate's verdicts. The candidate is the campaign an upload just stored (its bundle
 * ids); the baseline the previous campaign of its testbed, a scenario's latest campaign, a permalink's
 * pinned bundles, or bundles by id (packages/db, gate.ts). Each figure is judged as the compare page
 * judges it — the same figures, history noise, verdicts and Benjamini–Hochberg adjustment
 * (@cnibench/analysis) — and the answer says how many of the chosen metrics' figures are worse beyond
 * their margin, or undecided: what `npx cnibench gate` turns into its exit code.
 */
import {
  type ComparisonCell,
  type ComparisonTableRow,
  compareMeasurementSets,
  comparisonTable,
  median,
  percentDelta,
  verdicts,
  withHistory,
} from "@cnibench/analysis";
import { formatChange, formatFigure, formatParams, verdictLabel } from "@cnibench/analysis/format";
import { type Db, gateSides, type LatestFigure, paramsSchema } from "@cnibench/db";
import { findMetric } from "@cnibench/schema";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { readableWorkspaces, requireUploadToken } from "../auth.ts";
import { sendError } from "../errors.ts";

const id = z.string().min(1).max(100);
const bundleIds = z.array(id).min(1).max(1000);
/** A metric a gate may choose or set a margin for: a catalogue metric, or an x. metric. */
const metricKey = z
  .string()
  .max(100)
  .refine((k) => findMetric(k) !== undefined || /^x\.\S+$/.test(k), "a catalogue metric or x.…");

/** POST /v1/gate's body; the OpenAPI document's GateRequest. */
export const gateRequestSchema = z
  .strictObject({
    candidate: z
      .strictObject({ bundleIds })
      .meta({ description: "The candidate campaign: the bundle ids its upload or import answered with." }),
    baseline: z
      .union([
        z
          .strictObject({ previous: z.literal(true) })
          .meta({ description: "The latest earlier campaign of the candidate's testbed." }),
        z
          .strictObject({ scenarioId: id })
          .meta({ description: "A scenario's latest campaign, the candidate's aside." }),
        z
          .strictObject({ permalink: id })
          .meta({ description: "A permalink's slug: the pinned bundles of its baseline (first) scenario." }),
        z.strictObject({ bundleIds }).meta({ description: "These bundles, of one scenario." }),
      ])
      .meta({ description: "What the candidate is compared with." }),
    metrics: z
      .array(metricKey)
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Only these metrics' figures decide the outcome (all are compared and listed)." }),
    margins: z
      .record(metricKey, z.number().gt(0).max(100))
      .refine((m) => Object.keys(m).length <= 100, "at most 100 margins")
      .optional()
      .meta({ description: "Practical margins δ in ± % by metric, overriding the catalogue's (docs/verdicts.md)." }),
  })
  .meta({ description: "A candidate campaign, its baseline, and what decides the gate." });

const side = z
  .object({
    n: z.number().int().min(1).meta({ description: "Runs: the campaign's runs, or the bundle's rounds." }),
    median: z.number().meta({ description: "The runs' median (a single run: its value), in `unit`." }),
  })
  .nullable()
  .meta({ description: "null when this side did not measure the figure." });

export const gateRowSchema = z
  .object({
    metric: z.string(),
    label: z.string().meta({ description: "The metric's name in the catalogue." }),
    params: paramsSchema,
    unit: z.string(),
    baseline: side,
    candidate: side,
    changePercent: z.number().nullable().meta({
      description: "The candidate's median against the baseline's, in % (null: a side missing, or a baseline of 0).",
    }),
    verdict: z.enum(verdicts),
    indicative: z.boolean().meta({ description: "A single run on a side: the change against the margin only." }),
    why: z.string().meta({ description: "The evidence in words: runs, ratio and interval, test, p, noise." }),
    marginPercent: z.number().nullable(),
    gated: z.boolean().meta({ description: "Whether this figure decides the outcome (its metric was chosen)." }),
    text: z
      .object({
        params: z.string(),
        baseline: z.string(),
        candidate: z.string(),
        change: z.string(),
        verdict: z.string(),
      })
      .meta({ description: "The same as people read it (units, Unicode minus), for summaries." }),
  })
  .meta({ description: "One figure (metric and params) of the gate." });

const described = z.object({ description: z.string(), bundleIds: z.array(z.string()) });

export const gateResultSchema = z
  .object({
    candidate: described,
    baseline: described,
    rows: z.array(gateRowSchema),
    metrics: z.array(z.string()).nullable().meta({ description: "The metrics chosen; null: every one decides." }),
    unmeasured: z
      .array(z.string())
      .meta({ description: "Chosen metrics with no figure measured by both sides (each counts as inconclusive)." }),
    compared: z.number().int().meta({ description: "Figures measured by both sides." }),
    worse: z.number().int().meta({ description: "Deciding figures worse beyond their margin." }),
    inconclusive: z
      .number()
      .int()
      .meta({ description: "Deciding figures left undecided, chosen metrics unmeasured, or 1 when nothing compared." }),
    outcome: z.enum(["pass", "worse", "inconclusive"]),
  })
  .meta({ description: "The gate's verdicts, one row per figure, and its outcome." });

export type GateRequest = z.infer<typeof gateRequestSchema>;
export type GateResult = z.infer<typeof gateResultSchema>;
type Row = z.infer<typeof gateRowSchema>;

/** The runs' median, or the figure's value when it has fewer than two (a bundle's published figure). */
const medianOf = (f: LatestFigure) => (f.samples.length < 2 ? f.value : median(f.samples));

/** A gate row from the comparison table's row of two sides: the baseline's cell, the candidate's judged. */
function rowOf(r: ComparisonTableRow<LatestFigure, LatestFigure>, gated: boolean): Row {
  // Every row of a two-sided table is judged: the diff holds the figures of both sides.
  const [baseCell, judged] = r.cells as [ComparisonCell<LatestFigure>, ComparisonCell<LatestFigure>];
  const base = baseCell.figure;
  const cand = judged.figure;
  const sideOf = (f: LatestFigure | null) => (f ? { n: f.n, median: medianOf(f) } : null);
  const words = (f: LatestFigure | null) =>
    f ? `${formatFigure({ ...f, value: medianOf(f) })}${f.n > 1 ? ` (n=${f.n})` : ""}` : "—";
  // Against the medians shown, which a bundle's own rounds may set apart from its published value.
  const change = base && cand ? percentDelta(medianOf(cand), medianOf(base)).percent : null;
  const verdict = judged.verdict!;
  const { indicative } = judged;
  return {
    metric: r.metric,
    label: r.label,
    params: r.params,
    unit: (cand ?? base)!.unit,
    baseline: sideOf(base),
    candidate: sideOf(cand),
    changePercent: change,
    verdict,
    indicative,
    why: judged.why!,
    marginPercent: judged.evidence?.marginPercent ?? null,
    gated,
    text: {
      params: formatParams(r.params),
      baseline: words(base),
      candidate: words(cand),
      change: change === null ? "—" : formatChange(change),
      verdict: verdictLabel(verdict, indicative),
    },
  };
}

/**
 * The gate from both sides' figures (their history attached): every figure compared as the compare
 * page does, and the outcome decided by the chosen metrics' figures only — any worse beyond its margin
 * is "worse"; else any inconclusive, any chosen metric that no figure of both sides measured, or
 * nothing compared at all is "inconclusive"; else "pass". Missing figures (measured by one side only)
 * and figures with no better direction never decide.
 */
export function gateReport(
  baseline: readonly LatestFigure[],
  candidate: readonly LatestFigure[],
  options: { metrics?: readonly string[]; margins?: Readonly<Record<string, number>> },
): Pick<GateResult, "rows" | "metrics" | "unmeasured" | "compared" | "worse" | "inconclusive" | "outcome"> {
  const chosen = options.metrics ? new Set(options.metrics) : null;
  const compared = compareMeasurementSets(baseline, candidate, { margins: options.margins ?? {} });
  const rows = comparisonTable(baseline, [compared], (f) => f).map((r) =>
    rowOf(r, chosen === null || chosen.has(r.metric)),
  );
  const both = rows.filter((r) => r.verdict !== "missing");
  const deciding = rows.filter((r) => r.gated);
  const unmeasured = chosen ? [...chosen].filter((m) => !both.some((r) => r.metric === m)) : [];
  const worse = deciding.filter((r) => r.verdict === "worse").length;
  const inconclusive =
    deciding.filter((r) => r.verdict === "inconclusive").length + unmeasured.length + (both.length === 0 ? 1 : 0);
  return {
    rows,
    metrics: chosen ? [...chosen] : null,
    unmeasured,
    compared: both.length,
    worse,
    inconclusive,
    outcome: worse > 0 ? "worse" : inconclusive > 0 ? "inconclusive" : "pass",
  };
}

export const gateRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.post("/v1/gate", { onRequest: requireUploadToken(db) }, async (req, reply) => {
    let body: unknown;
    try {
      body = JSON.parse(typeof req.body === "string" ? req.body : "");
    } catch (error) {
      return sendError(req, reply, 400, "malformed_json", `The body is not JSON: ${(error as Error).message}.`);
    }
    const parsed = gateRequestSchema.safeParse(body);
    if (!parsed.success) {
      return sendError(req, reply, 400, "bad_request", "The gate request is invalid.", {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      });
    }
    const input = parsed.data;
    const sides = await gateSides(db, await readableWorkspaces(db, req), {
      candidate: input.candidate.bundleIds,
      baseline: input.baseline,
    });
    if (!sides.ok) {
      const status = sides.reason === "several_scenarios" ? 422 : 404;
      return sendError(req, reply, status, sides.reason, sides.message);
    }
    const report = gateReport(
      withHistory(sides.baseline.figures, sides.baseline.earlier),
      withHistory(sides.candidate.figures, sides.candidate.earlier),
      { metrics: input.metrics, margins: input.margins },
    );
    const { outcome, worse, inconclusive, compared } = report;
    req.log.info({ outcome, worse, inconclusive, compared }, "gate");
    return {
      candidate: { description: sides.candidate.description, bundleIds: sides.candidate.bundleIds },
      baseline: { description: sides.baseline.description, bundleIds: sides.baseline.bundleIds },
      ...report,
    } satisfies GateResult;
  });
};
