import { headers } from "next/headers";
import { connection } from "next/server";
import { auth, signIn, signInEnabled, signOut } from "~/auth";
import { Button } from "./_ui/button";
import { NavLink } from "./_ui/link";

/** Back to the page the visitor was on after signing in. */
async function here(): Promise<string> {
  const referer = (await headers()).get("referer");
  if (!referer) return "/";
  const url = new URL(referer);
  return `${url.pathname}${url.search}`;
}

/** Sign in / the signed-in user with their workspaces and sign out: the header's right end. */
export async function Account() {
  // Per request: who is signed in, and the environment (absent while `next build` prerenders).
  await connection();
  if (!signInEnabled()) return null;
  const session = await auth();
  if (!session?.user?.id) {
    return (
      <form
        action={async () => {
          "use server";
          await signIn("oidc", { redirectTo: await here() });
        }}
      >
        <Button type="submit" look="small">
          Sign in
        </Button>
      </form>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm">
      <NavLink href="/workspaces">Workspaces</NavLink>
      <span className="hidden text-zinc-500 md:inline" data-testid="signed-in-as">
        {session.user.email ?? session.user.name}
      </span>
      <form
        action={async () => {
          "use server";
          await signOut({ redirectTo: "/" });
        }}
      >
        <Button type="submit" look="small">
          Sign out
        </Button>
      </form>
    </div>
  );
}
