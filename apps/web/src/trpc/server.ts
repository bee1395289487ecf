import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { cache } from "react";
import { createContext } from "~/server/context";
import { createCaller } from "~/server/root";

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
