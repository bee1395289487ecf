// A real OpenID Connect provider (panva's oidc-provider) on loopback, so that `npm start` and the
// tests sign in end to end without an external identity provider. It accepts any login name with any
// password (oidc-provider's development login page): it is for one machine, never for a deployment,
// which names its own provider with CNIBENCH_OIDC_ISSUER instead.
import http from "node:http";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

export type LocalIdentityProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop: () => Promise<void>;
};

/**
 * The claims of a login name: "alice" signs in as alice@example.test; an address stays itself. The
 * address counts as verified: on this one-machine provider whoever types a login name is its owner.
 */
export function claimsOf(login: string): { sub: string; email: string; email_verified: boolean; name: string } {
  const email = login.includes("@") ? login : `${login}@example.test`;
  return { sub: login, email, email_verified: true, name: login.split("@")[0] ?? login };
}

export async function startLocalIdentityProvider(options: {
  host: string;
  port: number;
  /** Where the web app takes the answer: …/api/auth/callback/oidc. */
  redirectUris: string[];
  clientSecret: string;
}): Promise<LocalIdentityProvider> {
  const issuer = `http://${options.host}:${options.port}`;
  const clientId = "cnibench-web";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Put the scopes' claims in the ID token: Auth.js reads the profile from it.
    conformIdTokenClaims: false,
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => ({
      accountId: sub,
      claims: () => claimsOf(sub),
    }),
    // The web app is first-party: no consent page after the login page.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const existing = session.grantIdFor(client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
    pkce: { required: () => true },
    // oidc-provider logs a warning at start that the development login page is on: that is the point.
    features: { devInteractions: { enabled: true } },
  });
  // Why a token request was refused (invalid_grant says only "grant request is invalid").
  provider.on("grant.error", (_ctx: unknown, error: Error & { error_detail?: string }) => {
    console.error(`[identity] token request refused: ${error.message} ${error.error_detail ?? ""}`);
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    issuer,
    clientId,
    clientSecret: options.clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
