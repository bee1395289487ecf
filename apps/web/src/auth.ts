import "server-only";
import { accessFor, endSession, recordSignIn, sessionUser, startSession } from "@cnibench/db";
import NextAuth from "next-auth";
import { cache } from "react";
import { webEnv } from "~/env";
import { db } from "~/server/trpc/db";

declare module "next-auth" {
  interface Session {
    user: { id: string; email?: string | null; name?: string | null };
  }
}

/** How long a sign-in lasts (Auth.js's default): the cookie and its server-side session alike. */
const SESSION_SECONDS = 30 * 24 * 60 * 60;

// Lazy: the configuration reads the environment when a request needs it, not during `next build`.
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const env = webEnv();
  const oidc = env.oidc;
  return {
    secret: env.AUTH_SECRET,
    // Behind `npm start` or a proxy the host header is the address users typed.
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_SECONDS },
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
      // On sign-in, record the user (the first one becomes the administrator) and start a session
      // kept in the database; afterwards a cookie counts only while its session lives, so signing out
      // (which deletes it) ends it on the server too, whoever kept a copy of the cookie.
      async jwt({ token, account, profile }) {
        if (account && profile?.sub) {
          const user = await recordSignIn(
            db(),
            {
              issuer: oidc?.issuer ?? "",
              subject: profile.sub,
              // An address names a person to owners only when the provider vouches for it.
              email: profile.email_verified === true && typeof profile.email === "string" ? profile.email : null,
              name: typeof profile.name === "string" ? profile.name : null,
            },
            env.CNIBENCH_ADMIN_EMAIL,
          );
          token.uid = user.id;
          token.sid = await startSession(db(), user.id, SESSION_SECONDS);
          return token;
        }
        const live = typeof token.sid === "string" ? await sessionUser(db(), token.sid) : null;
        // null ends the session: Auth.js drops the cookie.
        return live !== null && live === token.uid ? token : null;
      },
      session({ session, token }) {
        if (typeof token.uid === "string") session.user.id = token.uid;
        return session;
      },
    },
    events: {
      async signOut(message) {
        const sid = "token" in message ? message.token?.sid : undefined;
        if (typeof sid === "string") await endSession(db(), sid);
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
