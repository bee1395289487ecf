import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type LocalIdentityProvider, startLocalIdentityProvider } from "@cnibench/identity";

/** A secret kept in the data folder (readable by its owner only), so sessions survive a restart. */
function keptSecret(dataDir: string | undefined, name: string): string {
  if (!dataDir) return randomBytes(32).toString("base64url");
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The web app's sign-in settings. With CNIBENCH_OIDC_ISSUER set they are the environment's; else
 * `npm start` runs a local OpenID Connect provider on loopback that accepts any login name.
 */
export async function signInSettings(options: {
  env: NodeJS.ProcessEnv;
  host: string;
  webPort: number;
  oidcPort: number;
  dataDir: string | undefined;
}): Promise<{ env: Record<string, string>; local: LocalIdentityProvider | null }> {
  const host = options.host === "0.0.0.0" ? "127.0.0.1" : options.host;
  const shared = { AUTH_SECRET: options.env.AUTH_SECRET ?? keptSecret(options.dataDir, "auth-secret") };
  if (options.env.CNIBENCH_OIDC_ISSUER) return { env: shared, local: null };
  const local = await startLocalIdentityProvider({
    host,
    port: options.oidcPort,
    // Both names of loopback, whichever the browser uses.
    redirectUris: [host, "localhost"].map((h) => `http://${h}:${options.webPort}/api/auth/callback/oidc`),
    clientSecret: keptSecret(options.dataDir, "oidc-client-secret"),
  });
  return {
    env: {
      ...shared,
      CNIBENCH_OIDC_ISSUER: local.issuer,
      CNIBENCH_OIDC_CLIENT_ID: local.clientId,
      CNIBENCH_OIDC_CLIENT_SECRET: local.clientSecret,
    },
    local,
  };
}
