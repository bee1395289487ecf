import {
  compareView,
  createPermalink,
  type Db,
  getPermalink,
  pinnedLabels,
  revokePermalink,
  setPermalinkPublished,
} from "@cnibench/db";
import { metricCatalogue } from "@cnibench/schema";
import { TRPCError } from "@trpc/server";
import { barView } from "../chart-data/bars";
import { crossoverOf } from "../chart-data/crossover";
import { seriesLabels } from "../chart-data/labels";
import {
  candidateDiffs,
  compareRows,
  compareSummaries,
  environmentDiff,
  marginsInForce,
  withHistory,
} from "../compare-data";
import { createTRPCRouter, keptUntilChange, publicProcedure, signedInProcedure } from "../trpc";
import {
  compareInputSchema,
  compareOutputSchema,
  marginsSchema,
  permalinkInputSchema,
  permalinkOutputSchema,
  publishInputSchema,
  shareInputSchema,
} from "./compare.types";

const catalogueMargins = Object.fromEntries(
  metricCatalogue.flatMap((m) => (m.margin === null ? [] : [[m.key, m.margin]])),
);

/**
 * Shapes a comparison from the scenarios' current figures, or only the pinned bundles', with the
 * margins δ of `margins` overriding the catalogue's.
 */
export async function comparison(
  db: Db,
  workspaceIds: readonly string[],
  scenarioIds: readonly string[],
  margins: Readonly<Record<string, number>>,
  bundleIds?: readonly string[],
  pinnedNames?: Readonly<Record<string, string | null>>,
) {
  const view = await compareView(db, workspaceIds, { scenarioIds, bundleIds, labels: pinnedNames });
  const { scenarios, unknownIds } = view;
  const figures = withHistory(view.figures, view.earlier);
  const diffs = candidateDiffs(scenarios, figures, margins);
  const rows = compareRows(scenarios, figures, margins, diffs);
  const labels = seriesLabels(scenarios);
  // The charts' tooltips judge each point against the baseline as the table does: by its diffs.
  const versus = { baseline: scenarios[0]?.id, margins, diffs };
  return {
    scenarios,
    labels: scenarios.map((s) => labels.get(s.id) ?? s.label),
    unknownIds,
    rows,
    summaries: compareSummaries(scenarios, rows),
    margins: marginsInForce(rows, margins),
    environment: environmentDiff(scenarios),
    crossover: crossoverOf(scenarios, figures, {
      metric: "http.rps",
      x: "services",
      where: { connection: "short" },
      y: "absolute",
      ...versus,
    }),
    latency: barView("latency", scenarios, figures, { percentile: "p99", ...versus }),
  };
}

export const compareRouter = createTRPCRouter({
  /** 2–4 scenarios side by side against the first, with verdicts and the environment diff. */
  view: publicProcedure
    .input(compareInputSchema)
    .output(compareOutputSchema)
    .use(keptUntilChange)
    .query(({ ctx, input }) => comparison(ctx.db, ctx.access.readable, input.scenarioIds, input.margins)),

  /**
   * Pins the scenarios' current bundles under a short slug: /d/<slug> shows them unchanged. Its view
   * keeps every margin in force, the catalogue's too, so its verdicts stay as shared if those change.
   */
  share: signedInProcedure.input(shareInputSchema).mutation(async ({ ctx, input }) => {
    const margins = { ...catalogueMargins, ...marginsSchema.parse(input.view.margins ?? {}) };
    const created = await createPermalink(ctx.db, ctx.access, { ...input, view: { ...input.view, margins } });
    if (!created) throw new TRPCError({ code: "NOT_FOUND", message: "one of these scenarios does not exist" });
    return { slug: created.slug };
  }),

  /** A shared comparison as it was pinned, with what was deleted or uploaded since. */
  permalink: publicProcedure
    .input(permalinkInputSchema)
    .output(permalinkOutputSchema)
    .query(async ({ ctx, input }) => {
      const link = await getPermalink(ctx.db, ctx.access, input.slug);
      if (!link) throw new TRPCError({ code: "NOT_FOUND", message: `no permalink ${input.slug}` });
      const pinned = link.pins.map((p) => p.bundleId);
      // The margins it was shared with, so its verdicts recompute as they were (none: the catalogue's).
      const margins = marginsSchema.safeParse(link.view.margins ?? {}).data ?? {};
      // A published permalink reads the pinned bundles from its workspaces whoever the visitor is.
      // Its scenarios named as they were pinned, not as a later upload renamed them.
      const labels = pinnedLabels(link.pins);
      const comparisonOf = await comparison(ctx.db, link.workspaceIds, link.scenarioIds, margins, pinned, labels);
      return { ...link, comparison: comparisonOf };
    }),

  /**
   * An owner agrees to publish a permalink for their private workspaces it pins, or withdraws. It is
   * public once every private workspace it pins has agreed; one withdrawal makes it private again.
   */
  publish: signedInProcedure.input(publishInputSchema).mutation(async ({ ctx, input }) => {
    const done = await setPermalinkPublished(ctx.db, ctx.access, input.slug, input.published);
    if (!done) {
      throw new TRPCError({
        code: "FORBIDDEN",
        message: "only an owner of a private workspace it pins may publish it",
      });
    }
    return { slug: input.slug, published: input.published };
  }),

  /** Deletes a permalink for good: any owner of a workspace it pins. */
  revoke: signedInProcedure.input(permalinkInputSchema).mutation(async ({ ctx, input }) => {
    if (!(await revokePermalink(ctx.db, ctx.access, input.slug))) {
      throw new TRPCError({ code: "FORBIDDEN", message: "only an owner of a workspace it pins may delete it" });
    }
    return { slug: input.slug };
  }),
});
