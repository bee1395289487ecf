import "server-only";
import { webhookPolicy } from "@cnibench/db";
import { headers } from "next/headers";
import { currentAccess } from "~/auth";
import { webEnv } from "~/env";
import { clientAddress } from "./client-address";
import { db } from "./db";
import { type Context, type WriteLimits, writeLimits } from "./trpc";

const globalForLimits = globalThis as unknown as { cnibenchWriteLimits?: WriteLimits };

/** A request's tRPC context: the shared database client, the visitor's access, address and budgets. */
export async function createContext(): Promise<Context> {
  const env = webEnv();
  globalForLimits.cnibenchWriteLimits ??= writeLimits(env.CNIBENCH_WEB_WRITES_PER_MINUTE);
  const forwarded = (await headers()).get("x-forwarded-for");
  return {
    db: db(),
    access: await currentAccess(),
    client: { address: clientAddress(forwarded, env.CNIBENCH_TRUSTED_PROXIES) },
    limits: globalForLimits.cnibenchWriteLimits,
    publicWebUrl: env.publicWebUrl,
    webhookPolicy: webhookPolicy(env),
  };
}
