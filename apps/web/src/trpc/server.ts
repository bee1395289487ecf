import "server-only";
import { cache } from "react";
import { createContext } from "~/server/context";
import { createCaller } from "~/server/root";

/** tRPC for server components: calls procedures in-process, one context per request. */
export const api = cache(async () => createCaller(await createContext()));
