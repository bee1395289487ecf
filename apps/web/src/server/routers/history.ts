import { seriesHistory } from "@cnibench/db";
import { TRPCError } from "@trpc/server";
import { createTRPCRouter, publicProcedure } from "../trpc/trpc";
import { historyData } from "../views/history-data";
import { historyInputSchema, historyOutputSchema } from "./history.types";

// Mounted under `scenarios` (root.ts): scenarios.history.
export const historyRouter = createTRPCRouter({
  /**
   * A series (scenario, metric, params) followed across every scenario of its testbed the visitor may
   * read: its latest campaigns oldest first, their change points and what changed along the way.
   * NOT_FOUND for a scenario that does not exist or that the visitor may not read.
   */
  history: publicProcedure
    .input(historyInputSchema)
    .output(historyOutputSchema)
    .query(async ({ ctx, input }) => {
      const history = await seriesHistory(ctx.db, ctx.access, input);
      if (!history) throw new TRPCError({ code: "NOT_FOUND", message: `no scenario ${input.scenarioId}` });
      return historyData(history);
    }),
});
