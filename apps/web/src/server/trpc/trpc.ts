import { type Access, type Db, isCommitInDoubt, spendBudget, type TargetPolicy } from "@cnibench/db";
import { unstorableValues } from "@cnibench/schema";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError, z } from "zod";
import { keptAnswer } from "./answer-cache";

/** Budgets of writes (mutations) a minute: per signed-in user, and per client address. */
export type WriteLimits = { perUser: number; perAddress: number };

export function writeLimits(perMinute: number): WriteLimits {
  // One address may carry several users (an office behind one NAT): twice a user's budget.
  return { perUser: perMinute, perAddress: perMinute * 2 };
}

/**
 * Every procedure sees the database and what this visitor may read and do (packages/db access.ts).
 * Requests over HTTP and from pages also carry the client's address and the write budgets; calls made
 * in-process by tests carry neither and are not limited.
 */
export type Context = {
  db: Db;
  access: Access;
  client?: { address: string };
  limits?: WriteLimits;
  /** Where people open the web app, for links sent elsewhere (alerts); tests may leave it out. */
  publicWebUrl?: string;
  /** Where webhooks may point (CNIBENCH_WEBHOOK_ALLOW); left out: public addresses only. */
  webhookPolicy?: TargetPolicy;
};

/** What a client reads of an unexpected error: never the driver's or PostgreSQL's own words. */
const INTERNAL_MESSAGE = "Something went wrong on our side; nothing was changed.";
/** The one failure that may have written: the database went silent after COMMIT was sent (packages/db health.ts). */
const COMMIT_IN_DOUBT_MESSAGE =
  "The database stopped answering while the change was being committed: it may have been stored. Reload once the database is back to see.";

const t = initTRPC.context<Context>().create({
  errorFormatter: ({ shape, error }) => {
    // Our own refusals (4xx) say what was wrong; anything else (a bug, a database error) would echo
    // the driver's message ('invalid byte sequence for encoding "UTF8"') and a stack: say neither.
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      message: isCommitInDoubt(error) ? COMMIT_IN_DOUBT_MESSAGE : internal ? INTERNAL_MESSAGE : shape.message,
      data: {
        ...data,
        zodError: error.cause instanceof ZodError ? z.flattenError(error.cause) : null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
/** One namespace from routers kept in separate files (scenarios and their history). */
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every procedure first refuses input holding U+0000 or a lone UTF-16 surrogate (PostgreSQL's text
 * refuses both, and no id, slug or label can hold them), naming the field: one guard here instead of
 * a 500 from each query that would pass such a string on.
 */
export const publicProcedure = t.procedure.use(async ({ getRawInput, next }) => {
  const issues = unstorableValues(await getRawInput());
  if (issues.length > 0) {
    const [first] = issues;
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: `input${first!.path ? ` ${first!.path}` : ""} ${first!.message}`,
    });
  }
  return next();
});

/** A write past its budget: 429, with the seconds to wait, which the route handler sends as Retry-After. */
export class WriteLimitError extends TRPCError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ code: "TOO_MANY_REQUESTS", message });
  }
}

/**
 * Counts a write against a budget counted in PostgreSQL (packages/db rate-budgets.ts), so every web
 * replica spends the same one; over it, refuses the write.
 */
async function spend(db: Db, key: string, perMinute: number, what: string): Promise<void> {
  const spent = await spendBudget(db, `web:${key}`, 60_000);
  if (spent.count <= perMinute) return;
  const seconds = Math.max(1, Math.ceil(spent.resetInMs / 1000));
  throw new WriteLimitError(`More than ${perMinute} changes a minute ${what}; retry in ${seconds} s.`, seconds);
}

/**
 * Procedures that write: signed-in users only (ctx.userId is theirs), within a budget per user and
 * per client address, so neither a script nor a crowd of throwaway accounts writes without bound.
 */
export const signedInProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const userId = ctx.access.userId;
  if (!userId) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
  if (ctx.limits) {
    if (ctx.client) await spend(ctx.db, `address:${ctx.client.address}`, ctx.limits.perAddress, "from this address");
    await spend(ctx.db, `user:${userId}`, ctx.limits.perUser, "by this user");
  }
  return next({ ctx: { ...ctx, userId } });
});

/**
 * A read answered from memory until the data the visitor may read changes (answer-cache.ts): put
 * after `.input()` and before `.output()`, it keys the answer by the procedure's path and parsed input,
 * so no procedure names itself, and keeps the answer as the output schema parsed it once. Parsed again
 * on every call (after `.output()`), a scenario page's 0.8 MB answer cost 25 ms of its kept 35 ms.
 * Callers share the kept answer and must not change it (answer-cache.ts). A refusal or failure is never kept.
 */
export const keptUntilChange = t.middleware(({ ctx, path, input, next }) =>
  keptAnswer(ctx.db, ctx.access.readable, { name: path, input }, async () => {
    const result = await next();
    if (!result.ok) throw result.error;
    // The answer alone: the result's ctx holds the first visitor's request.
    return { marker: result.marker, ok: result.ok, data: result.data };
  }),
);
