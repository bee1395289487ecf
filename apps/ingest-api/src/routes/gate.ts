/**
 * POST /v1/gate: a CI gate's verdicts. The candidate is the campaign an upload just stored (its bundle
 * ids); the baseline the previous campaign of its testbed, a scenario's latest campaign, a permalink's
 * pinned bundles, or bundles by id (packages/db, gate.ts). gateReport (@cnibench/analysis) judges each
 * figure as the compare page does and says how many of the chosen metrics' figures are worse beyond
 * their margin, or undecided: what `npx cnibench gate` turns into its exit code.
 */
import { gateReport, withHistory } from "@cnibench/analysis";
import { type Db, gateSides } from "@cnibench/db";
import { type GateResult, gateRequestSchema } from "@cnibench/schema";
import type { FastifyPluginAsync } from "fastify";
import { readableWorkspaces, requireUploadToken } from "../auth.ts";
import { sendError } from "../errors.ts";

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
