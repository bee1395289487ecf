import { DEFAULT_WORKSPACE, listScenarios } from "@cnibench/db";
import { z } from "zod";
import { createTRPCRouter, publicProcedure } from "../trpc";

const scenarioSummary = z.object({
  id: z.string(),
  label: z.string(),
  provider: z.string(),
  region: z.string(),
  kubernetesVersion: z.string(),
  sku: z.string(),
  os: z.string(),
  kernel: z.string(),
  cni: z.object({
    name: z.string(),
    version: z.string(),
    mode: z.string(),
    kubeProxy: z.string(),
    label: z.string().nullable(),
  }),
  bundleCount: z.number().int(),
  measurementCount: z.number().int(),
  lastRunAt: z.date().nullable(),
});

export const scenariosRouter = createTRPCRouter({
  list: publicProcedure
    .input(z.object({}).optional())
    .output(z.array(scenarioSummary))
    .query(({ ctx }) => listScenarios(ctx.db, DEFAULT_WORKSPACE.slug)),
});
