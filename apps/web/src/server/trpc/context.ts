import "server-only";
import { webhookPolicy } from "@cnibench/db";
import { headers } from "next/headers";
import { currentAccess } from "~/auth";
import { webEnv } from "~/env";
import { clientAddress } from "../http/client-address";
import { db } from "./db";
import { type Context, writeLimits } from "./trpc";

/** A request's tRPC context: the shared database client, the visitor's access, address and budgets. */
export async function createContext(): Promise<Context> {
  const env = webEnv();
  const forwarded = (await headers()).get("x-forwarded-for");
  return {
    db: db(),
    access: await currentAccess(),
    client: { address: clientAddress(forwarded, env.CNIBENCH_TRUSTED_PROXIES) },
    limits: writeLimits(env.CNIBENCH_WEB_WRITES_PER_MINUTE),
    publicWebUrl: env.publicWebUrl,
    webhookPolicy: webhookPolicy(env),
  };
}
