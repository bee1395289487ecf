import { chartsRouter } from "./routers/charts";
import { scenariosRouter } from "./routers/scenarios";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  charts: chartsRouter,
  scenarios: scenariosRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
