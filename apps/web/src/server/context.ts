import "server-only";
import { currentAccess } from "~/auth";
import { db } from "./db";
import type { Context } from "./trpc";

/** A request's tRPC context: the shared database client and the visitor's access. */
export async function createContext(): Promise<Context> {
  return { db: db(), access: await currentAccess() };
}
