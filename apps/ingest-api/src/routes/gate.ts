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
  withHistory,
} from "@cnibench/analysis";
import { formatChange, formatFigure, formatParams, verdictLabel } from "@cnibench/analysis/format";
import { type Db, gateSides, type LatestFigure } from "@cnibench/db";
import { type GateResult, type GateRow, gateRequestSchema } from "@cnibench/schema";
import type { FastifyPluginAsync } from "fastify";
import { readableWorkspaces, requireUploadToken } from "../auth.ts";
import { sendError } from "../errors.ts";

type Row = GateRow;

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
