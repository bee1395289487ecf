import { isDatabaseOutage } from "@cnibench/db";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { RETRY_AFTER_SECONDS } from "~/server/http/outage";
import { createContext } from "~/server/trpc/context";
import { appRouter } from "~/server/trpc/root";
import type { WriteLimitError } from "~/server/trpc/trpc";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext,
    // A batch is for the few calls of one page: 100 guide answers in one GET cost a second and 5 MB.
    maxBatchSize: 10,
    // A call that failed because PostgreSQL is unreachable is an outage, not a bug: 503 with
    // Retry-After, as the ingest API answers, instead of tRPC's 500.
    responseMeta: ({ errors }) => {
      if (errors.length > 0 && errors.every((e) => isDatabaseOutage(e))) {
        return { status: 503, headers: new Headers({ "retry-after": String(RETRY_AFTER_SECONDS) }) };
      }
      // A write past its budget: 429 (tRPC's own status) with Retry-After, as the ingest API answers.
      const wait = Math.max(0, ...errors.map((e) => (e as Partial<WriteLimitError>).retryAfterSeconds ?? 0));
      return wait > 0 ? { headers: new Headers({ "retry-after": String(wait) }) } : {};
    },
  });

export { handler as GET, handler as POST };
