import { chartsRouter } from "../routers/charts";
import { compareRouter } from "../routers/compare";
import { guideRouter } from "../routers/guide";
import { historyRouter } from "../routers/history";
import { scenariosRouter } from "../routers/scenarios";
import { webhooksRouter } from "../routers/webhooks";
import { workspacesRouter } from "../routers/workspaces";
import { createCallerFactory, createTRPCRouter, mergeRouters } from "./trpc";

export const appRouter = createTRPCRouter({
  charts: chartsRouter,
  compare: compareRouter,
  guide: guideRouter,
  // scenarios.history lives in its own file (routers/history.ts), merged into the scenarios namespace.
  scenarios: mergeRouters(scenariosRouter, historyRouter),
  webhooks: webhooksRouter,
  workspaces: workspacesRouter,
});

export const createCaller = createCallerFactory(appRouter);
