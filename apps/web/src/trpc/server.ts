import "server-only";
import { cache } from "react";
import { createCaller } from "~/server/root";
import { createContext } from "~/server/trpc";

/** tRPC for server components: calls procedures in-process, one context per request. */
export const api = cache(async () => createCaller(await createContext()));
