import {
  compareView,
  createPermalink,
  getPermalink,
  pinnedLabels,
  revokePermalink,
  setPermalinkPublished,
} from "@cnibench/db";
import { metricCatalogue } from "@cnibench/schema";
import { TRPCError } from "@trpc/server";
import { createTRPCRouter, keptUntilChange, publicProcedure, signedInProcedure } from "../trpc/trpc";
import { shapeComparison } from "../views/compare-data";
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

export const compareRouter = createTRPCRouter({
  /** 2–4 scenarios side by side against the first, with verdicts and the environment diff. */
  view: publicProcedure
    .input(compareInputSchema)
    .use(keptUntilChange)
    .output(compareOutputSchema)
    .query(async ({ ctx, input }) =>
      shapeComparison(
        await compareView(ctx.db, ctx.access.readable, { scenarioIds: input.scenarioIds }),
        input.margins,
      ),
    ),

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
      const view = await compareView(ctx.db, link.workspaceIds, {
        scenarioIds: link.scenarioIds,
        bundleIds: pinned,
        labels,
      });
      return { ...link, comparison: shapeComparison(view, margins) };
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
