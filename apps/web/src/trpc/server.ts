import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { cache } from "react";
import { createContext } from "~/server/trpc/context";
import { createCaller } from "~/server/trpc/root";

/** tRPC for server components: calls procedures in-process, one context per request. */
export const api = cache(async () => createCaller(await createContext()));

/**
 * A page's one read of its subject: a procedure's NOT_FOUND (or a malformed id, BAD_REQUEST) becomes the
 * page's 404. The same call shares one answer within a request (metadata and page).
 */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  }
}

/**
 * The caller of a page whose procedures read its address's query (the explorer, the charts): a
 * refusal of a value there (BAD_REQUEST: too long, not one of the choices; NOT_FOUND) is the page's
 * 404, as orNotFound does for one read, instead of a 500 from the render (issue 43). Pages that
 * explain a refusal themselves (compare) keep `api()`.
 */
export const pageApi = cache(async () => refusalsAsNotFound(await api()));

function refusalsAsNotFound<T extends object>(target: T): T {
  return new Proxy(target, {
    get(t, key) {
      const value = Reflect.get(t, key);
      return typeof value === "function" ? refusalsAsNotFound(value) : value;
    },
    apply(t, self, args) {
      const result = Reflect.apply(t as (...a: unknown[]) => unknown, self, args);
      return result instanceof Promise ? orNotFound(result) : result;
    },
  });
}
