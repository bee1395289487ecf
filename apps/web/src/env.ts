import "server-only";
import { parseEnv, publicUrls, sharedEnvSchema } from "@cnibench/settings";
import { z } from "zod";

const schema = sharedEnvSchema
  .extend({
    // Sign-in through OpenID Connect: all three, or none (then nobody signs in and only public
    // workspaces show). `npm start` sets them to its local provider unless they are set.
    CNIBENCH_OIDC_ISSUER: z.url({ error: "must be a URL" }).optional(),
    CNIBENCH_OIDC_CLIENT_ID: z.string().min(1).optional(),
    CNIBENCH_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** Signs the session cookies (Auth.js); required with sign-in. */
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** Changes (tRPC mutations) a signed-in user may make a minute; an address may make twice as many. */
    CNIBENCH_WEB_WRITES_PER_MINUTE: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(60),
    /** Reverse proxies in front of the web app that append to X-Forwarded-For (README, Security). */
    CNIBENCH_TRUSTED_PROXIES: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0, "must be 0 or more")
      .default(0),
    /** The port of the web server's own metrics (GET /metrics, Prometheus text), at CNIBENCH_HOST; 0: none. */
    CNIBENCH_WEB_METRICS_PORT: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0, "must be between 0 and 65535")
      .max(65535, "must be between 0 and 65535")
      .default(9465),
    /** Who becomes the administrator (once the provider says the address is verified); else the first user to sign in. */
    CNIBENCH_ADMIN_EMAIL: z.email({ error: "must be an e-mail address" }).optional(),
  })
  .refine(
    (env) =>
      [env.CNIBENCH_OIDC_ISSUER, env.CNIBENCH_OIDC_CLIENT_ID, env.CNIBENCH_OIDC_CLIENT_SECRET, env.AUTH_SECRET].every(
        (v) => v === undefined,
      ) ||
      [env.CNIBENCH_OIDC_ISSUER, env.CNIBENCH_OIDC_CLIENT_ID, env.CNIBENCH_OIDC_CLIENT_SECRET, env.AUTH_SECRET].every(
        (v) => v !== undefined,
      ),
    {
      message:
        "set all of CNIBENCH_OIDC_ISSUER, CNIBENCH_OIDC_CLIENT_ID, CNIBENCH_OIDC_CLIENT_SECRET and AUTH_SECRET, or none",
      path: ["CNIBENCH_OIDC_ISSUER"],
    },
  )
  .refine((env) => env.CNIBENCH_WEB_METRICS_PORT !== env.CNIBENCH_WEB_PORT, {
    message: "must differ from CNIBENCH_WEB_PORT: the metrics are not served with the pages",
    path: ["CNIBENCH_WEB_METRICS_PORT"],
  })
  .transform((env) => {
    const { CNIBENCH_OIDC_ISSUER: issuer, CNIBENCH_OIDC_CLIENT_ID: clientId } = env;
    const clientSecret = env.CNIBENCH_OIDC_CLIENT_SECRET;
    return {
      ...env,
      ...publicUrls(env),
      oidc: issuer && clientId && clientSecret && env.AUTH_SECRET ? { issuer, clientId, clientSecret } : null,
    };
  });

export type WebEnv = z.infer<typeof schema>;

export function readWebEnv(env: Record<string, string | undefined>): WebEnv {
  return parseEnv(schema, env, "web");
}

let cached: WebEnv | undefined;

/**
 * The server's settings, read once. The server checks them as it starts (instrumentation.ts); `next build`
 * runs without them, as pages need them only when they render.
 */
export function webEnv(): WebEnv {
  cached ??= readWebEnv(process.env);
  return cached;
}

/** `next dev` (Next.js sets NODE_ENV; the build inlines it). */
export const inDevelopment = process.env.NODE_ENV === "development";

/** Code running in Next.js's Node.js runtime (not the edge one); Next.js sets NEXT_RUNTIME per runtime. */
export const inNodeRuntime = process.env.NEXT_RUNTIME === "nodejs";
