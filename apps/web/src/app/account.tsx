import { headers } from "next/headers";
import Link from "next/link";
import { connection } from "next/server";
import { auth, signIn, signInEnabled, signOut } from "~/auth";

const button =
  "rounded border border-zinc-300 px-2 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

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
        <button type="submit" className={button}>
          Sign in
        </button>
      </form>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm">
      <Link
        href="/workspaces"
        className="text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        Workspaces
      </Link>
      <span className="hidden text-zinc-500 md:inline" data-testid="signed-in-as">
        {session.user.email ?? session.user.name}
      </span>
      <form
        action={async () => {
          "use server";
          await signOut({ redirectTo: "/" });
        }}
      >
        <button type="submit" className={button}>
          Sign out
        </button>
      </form>
    </div>
  );
}
