import { chartsRouter } from "./routers/charts";
import { compareRouter } from "./routers/compare";
import { guideRouter } from "./routers/guide";
import { scenariosRouter } from "./routers/scenarios";
import { workspacesRouter } from "./routers/workspaces";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  charts: chartsRouter,
  compare: compareRouter,
  guide: guideRouter,
  scenarios: scenariosRouter,
  workspaces: workspacesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
