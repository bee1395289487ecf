import "server-only";
import { accessFor, recordSignIn } from "@cnibench/db";
import NextAuth from "next-auth";
import { cache } from "react";
import { webEnv } from "~/env";
import { db } from "~/server/db";

declare module "next-auth" {
  interface Session {
    user: { id: string; email?: string | null; name?: string | null };
  }
}

// Lazy: the configuration reads the environment when a request needs it, not during `next build`.
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const env = webEnv();
  const oidc = env.oidc;
  return {
    secret: env.AUTH_SECRET,
    // Behind `npm start` or a proxy the host header is the address users typed.
    trustHost: true,
    session: { strategy: "jwt" },
    providers: oidc
      ? [
          {
            id: "oidc",
            name: "OpenID Connect",
            type: "oidc",
            issuer: oidc.issuer,
            clientId: oidc.clientId,
            clientSecret: oidc.clientSecret,
            authorization: { params: { scope: "openid email profile" } },
          },
        ]
      : [],
    callbacks: {
      // On sign-in, record the user (the first one becomes the administrator) and keep their id.
      async jwt({ token, account, profile }) {
        if (account && profile?.sub) {
          const user = await recordSignIn(
            db(),
            {
              issuer: oidc?.issuer ?? "",
              subject: profile.sub,
              email: typeof profile.email === "string" ? profile.email : null,
              name: typeof profile.name === "string" ? profile.name : null,
            },
            env.CNIBENCH_ADMIN_EMAIL,
          );
          token.uid = user.id;
        }
        return token;
      },
      session({ session, token }) {
        if (typeof token.uid === "string") session.user.id = token.uid;
        return session;
      },
    },
  };
});

/** Whether this installation has sign-in (an OpenID Connect provider is configured). */
export const signInEnabled = () => webEnv().oidc !== null;

/** The signed-in user's id, or null; null too when sign-in is off. */
export const currentUserId = cache(async (): Promise<string | null> => {
  if (!signInEnabled()) return null;
  const session = await auth();
  return session?.user?.id ?? null;
});

/** What the visitor of this request may read and do. */
export const currentAccess = cache(async () => accessFor(db(), await currentUserId()));
