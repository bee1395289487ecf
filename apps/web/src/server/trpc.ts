import type { Access, Db } from "@cnibench/db";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError, z } from "zod";

/** Every procedure sees the database and what this visitor may read and do (packages/db access.ts). */
export type Context = { db: Db; access: Access };

const t = initTRPC.context<Context>().create({
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    data: {
      ...shape.data,
      zodError: error.cause instanceof ZodError ? z.flattenError(error.cause) : null,
    },
  }),
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/** Procedures for signed-in users only: ctx.userId is theirs. */
export const signedInProcedure = t.procedure.use(({ ctx, next }) => {
  const userId = ctx.access.userId;
  if (!userId) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
  return next({ ctx: { ...ctx, userId } });
});
