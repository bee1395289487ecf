import type { Metadata } from "next";
import Link from "next/link";
import { currentUserId, signInEnabled } from "~/auth";
import { api } from "~/trpc/server";
import { createWorkspaceAction } from "./actions";
import { ActionForm, buttonClass, inputClass } from "./forms";

export const metadata: Metadata = { title: "Workspaces" };

export default async function WorkspacesPage() {
  const [workspaces, userId] = await Promise.all([(await api()).workspaces.list(), currentUserId()]);
  return (
    <div className="max-w-3xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-xl font-semibold">Workspaces</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every bundle belongs to one workspace. Public ones anyone may browse; private ones only their members.
          Explore, charts, compare and the guide show every workspace you may read.
        </p>
      </header>
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 text-zinc-500 dark:border-zinc-800">
          <tr>
            <th className="py-1 font-medium">Workspace</th>
            <th className="py-1 font-medium">Visibility</th>
            <th className="py-1 font-medium">Bundles</th>
            <th className="py-1 font-medium">Your role</th>
          </tr>
        </thead>
        <tbody>
          {workspaces.map((w) => (
            <tr key={w.id} className="border-b border-zinc-100 dark:border-zinc-900">
              <td className="py-1">
                <Link href={`/workspaces/${w.slug}`} className="text-blue-700 hover:underline dark:text-blue-400">
                  {w.name}
                </Link>{" "}
                <span className="font-mono text-xs text-zinc-500">{w.slug}</span>
              </td>
              <td className="py-1">{w.visibility}</td>
              <td className="py-1 tabular-nums">{w.bundles}</td>
              <td className="py-1">{w.role ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <section className="space-y-2">
        <h2 className="font-semibold">New workspace</h2>
        {userId ? (
          <ActionForm action={createWorkspaceAction} label="New workspace">
            <label className="flex flex-col text-sm">
              Name
              <input name="name" required maxLength={100} placeholder="Platform team" className={inputClass} />
            </label>
            <label className="flex flex-col text-sm">
              Address (slug)
              <input
                name="slug"
                required
                pattern="[a-z0-9][a-z0-9\-]*"
                minLength={2}
                maxLength={40}
                placeholder="platform-team"
                title="lowercase letters, digits and dashes"
                className={inputClass}
              />
            </label>
            <label className="flex flex-col text-sm">
              Visibility
              <select name="visibility" defaultValue="private" className={inputClass}>
                <option value="private">private — members only</option>
                <option value="public">public — anyone</option>
              </select>
            </label>
            <button type="submit" className={buttonClass}>
              Create
            </button>
          </ActionForm>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {signInEnabled() ? "Sign in to create a workspace." : "Sign-in is not configured on this installation."}
          </p>
        )}
      </section>
    </div>
  );
}
